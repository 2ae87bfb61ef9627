import { describe, expect, it } from 'vitest';
import { check, conditionOf, raiseThenCheck } from './test-checks.js';
import { at, buildSnapshot, openAlert } from './test-support.js';
import type { WeatherHazard } from './types.js';

const hazard = (severity: WeatherHazard['severity'], milesAhead: number, extra: Partial<WeatherHazard> = {}): WeatherHazard => ({
  severity,
  event: severity === 'EXTREME' ? 'Tornado Warning' : severity === 'SEVERE' ? 'Severe Thunderstorm Warning' : 'Wind Advisory',
  headline: `${severity} weather near the route`,
  startsAt: at(0),
  endsAt: at(3),
  latitude: 34,
  longitude: -97,
  milesAhead,
  source: 'nws',
  ...extra,
});
const withWeather = (weather: WeatherHazard[] | null, extra: Parameters<typeof buildSnapshot>[0] = {}) => buildSnapshot({ weather, ...extra });

describe('SEVERE_WEATHER_IN_PATH', () => {
  it('fires HIGH for a severe hazard ahead, naming the event and distance', () => {
    const c = conditionOf(withWeather([hazard('SEVERE', 80)]), 'SEVERE_WEATHER_IN_PATH')!;
    expect(c.priority).toBe('HIGH');
    expect(c.title).toBe('Severe weather ahead: Severe Thunderstorm Warning in 80 mi');
    expect(c.message).toMatch(/^Jane Doe \(unit 1042\): Severe Thunderstorm Warning 80 mi ahead \(in effect\)/);
    expect(c.metadata).toMatchObject({ hazardCount: 1, worstSeverity: 'SEVERE', nearestMilesAhead: 80, hazards: [{ severity: 'SEVERE', milesAhead: 80, source: 'nws' }] });
  });

  it('does not fire for hazards behind the vehicle, ended, or only advisories', () => {
    expect(conditionOf(withWeather([hazard('SEVERE', -5)]), 'SEVERE_WEATHER_IN_PATH')).toBeUndefined();
    expect(conditionOf(withWeather([hazard('SEVERE', 40, { endsAt: at(0.25) })]), 'SEVERE_WEATHER_IN_PATH')).toBeUndefined();
    expect(conditionOf(withWeather([hazard('MODERATE', 10)]), 'SEVERE_WEATHER_IN_PATH')).toBeUndefined();
    expect(conditionOf(withWeather([]), 'SEVERE_WEATHER_IN_PATH')).toBeUndefined();
  });

  it('is CRITICAL for an extreme hazard in effect within 50 mi; HIGH farther or not yet started', () => {
    expect(conditionOf(withWeather([hazard('EXTREME', 30)]), 'SEVERE_WEATHER_IN_PATH')?.priority).toBe('CRITICAL');
    expect(conditionOf(withWeather([hazard('EXTREME', 60)]), 'SEVERE_WEATHER_IN_PATH')?.priority).toBe('HIGH');
    expect(conditionOf(withWeather([hazard('EXTREME', 30, { startsAt: at(2) })]), 'SEVERE_WEATHER_IN_PATH')?.priority).toBe('HIGH');
    expect(conditionOf(withWeather([hazard('SEVERE', 10)]), 'SEVERE_WEATHER_IN_PATH')?.priority).toBe('HIGH');
  });

  it('escalates an open alert as the vehicle closes in on an extreme hazard', () => {
    const open = openAlert(conditionOf(withWeather([hazard('EXTREME', 70)]), 'SEVERE_WEATHER_IN_PATH')!);
    expect(check(withWeather([hazard('EXTREME', 65)]), [open]).update).toEqual([]); // same hazard, closer: not material
    expect(check(withWeather([hazard('EXTREME', 45)]), [open]).update).toMatchObject([{ priorityChanged: true, condition: { priority: 'CRITICAL' } }]);
  });

  it('a new hazard is a material update', () => {
    const open = openAlert(conditionOf(withWeather([hazard('SEVERE', 70)]), 'SEVERE_WEATHER_IN_PATH')!);
    const r = check(withWeather([hazard('SEVERE', 70), hazard('SEVERE', 120, { event: 'Blizzard Warning' })]), [open]);
    expect(r.update).toMatchObject([{ priorityChanged: false, condition: { metadata: { hazardCount: 2 } } }]);
  });

  it('clears through reconcile when the hazard is passed or over', () => {
    const { result } = raiseThenCheck(withWeather([hazard('SEVERE', 20)]), withWeather([]), 'SEVERE_WEATHER_IN_PATH');
    expect(result.resolve[0]?.resolution).toBe('No severe or extreme weather ahead on the route');
  });

  it('honours enableWeatherAlerts and stays silent without a weather source', () => {
    expect(conditionOf(withWeather([hazard('EXTREME', 5)], { alerts: { enableWeatherAlerts: false } }), 'SEVERE_WEATHER_IN_PATH')).toBeUndefined();
    expect(conditionOf(withWeather(null), 'SEVERE_WEATHER_IN_PATH')).toBeUndefined();
    const off = raiseThenCheck(withWeather([hazard('SEVERE', 20)]), withWeather([hazard('SEVERE', 20)], { alerts: { enableWeatherAlerts: false } }), 'SEVERE_WEATHER_IN_PATH');
    expect(off.result.resolve[0]?.resolution).toBe('Weather alerts are disabled in the tenant settings');
    const gone = raiseThenCheck(withWeather([hazard('SEVERE', 20)]), withWeather(null), 'SEVERE_WEATHER_IN_PATH');
    expect(gone.result.resolve[0]?.resolution).toBe('No weather source is configured');
  });
});

describe('WEATHER_ADVISORY', () => {
  it('fires LOW for moderate or minor hazards ahead, the moderate one first', () => {
    const c = conditionOf(withWeather([hazard('MINOR', 10, { event: 'Fog Advisory' }), hazard('MODERATE', 40)]), 'WEATHER_ADVISORY')!;
    expect(c.priority).toBe('LOW');
    expect(c.title).toBe('Weather advisory ahead: Wind Advisory in 40 mi');
    expect(c.message).toContain('2 advisories ahead on the route in all.');
    expect(c.metadata).toMatchObject({ hazardCount: 2, nearestMilesAhead: 10 });
  });

  it('does not fire for severe hazards only, behind, or ended', () => {
    expect(conditionOf(withWeather([hazard('SEVERE', 10)]), 'WEATHER_ADVISORY')).toBeUndefined();
    expect(conditionOf(withWeather([hazard('MINOR', -1)]), 'WEATHER_ADVISORY')).toBeUndefined();
    expect(conditionOf(withWeather([hazard('MINOR', 5, { endsAt: at(0.5) })]), 'WEATHER_ADVISORY')).toBeUndefined();
  });

  it('clears through reconcile, and honours the enable flag', () => {
    const { result } = raiseThenCheck(withWeather([hazard('MINOR', 10)]), withWeather([]), 'WEATHER_ADVISORY');
    expect(result.resolve[0]?.resolution).toBe('No weather advisory ahead on the route');
    expect(conditionOf(withWeather([hazard('MINOR', 10)], { alerts: { enableWeatherAlerts: false } }), 'WEATHER_ADVISORY')).toBeUndefined();
  });
});

describe('WEATHER_DELAY', () => {
  const delayed = (hours: number | null, extra: Parameters<typeof buildSnapshot>[0] = {}) => buildSnapshot({ weatherDelayHours: hours, ...extra });

  it('fires MEDIUM from half an hour of weather delay', () => {
    const c = conditionOf(delayed(1.25), 'WEATHER_DELAY')!;
    expect(c.priority).toBe('MEDIUM');
    expect(c.title).toBe('Weather delay: about 1:15 added to the trip');
    expect(c.metadata).toMatchObject({ weatherDelayHours: 1.25, thresholdHours: 0.5, plannedArrival: new Date(at(18)).toISOString() });
    expect(conditionOf(delayed(0.5), 'WEATHER_DELAY')).toBeDefined();
  });

  it('does not fire under half an hour or when unknown', () => {
    expect(conditionOf(delayed(0.4), 'WEATHER_DELAY')).toBeUndefined();
    expect(conditionOf(delayed(null), 'WEATHER_DELAY')).toBeUndefined();
  });

  it('updates in half-hour steps, and clears through reconcile', () => {
    const open = openAlert(conditionOf(delayed(1.1), 'WEATHER_DELAY')!);
    expect(check(delayed(1.4), [open]).update).toEqual([]);
    expect(check(delayed(1.6), [open]).update).toMatchObject([{ priorityChanged: false }]);
    const { result } = raiseThenCheck(delayed(1), delayed(0.2), 'WEATHER_DELAY');
    expect(result.resolve[0]?.resolution).toBe('Weather delay now 12 min, under 30 min');
  });

  it('honours the enable flag and needs a weather source', () => {
    expect(conditionOf(delayed(2, { alerts: { enableWeatherAlerts: false } }), 'WEATHER_DELAY')).toBeUndefined();
    expect(conditionOf(delayed(2, { weather: null }), 'WEATHER_DELAY')).toBeUndefined();
  });
});
