import { describe, expect, it } from 'vitest';
import { mapAlert, mapOneCall, periodOf, precipitationOf, type OwHour } from './mapping.js';

const NOW = new Date('2026-03-02T14:20:00.000Z');
const T0 = Date.parse('2026-03-02T14:00:00.000Z') / 1000;
const hour = (i: number, o: Partial<OwHour> = {}): OwHour => ({
  dt: T0 + i * 3600,
  temp: 30,
  visibility: 10000,
  wind_speed: 8,
  wind_gust: 12,
  weather: [{ id: 803, main: 'Clouds', description: 'broken clouds', icon: '04d' }],
  pop: 0,
  ...o,
});

describe('OpenWeather mapping', () => {
  it.each([
    [511, 'FREEZING_RAIN'],
    [611, 'FREEZING_RAIN'],
    [613, 'FREEZING_RAIN'],
    [602, 'HEAVY_SNOW'],
    [622, 'HEAVY_SNOW'],
    [600, 'SNOW'],
    [620, 'SNOW'],
    [500, null],
    [741, null],
  ])('condition %i → %s', (code, precipitation) => {
    expect(precipitationOf(code)).toBe(precipitation);
  });

  it('an hour: the worst precipitation of its conditions, thunderstorm codes, the stronger of gust and wind, metres to miles', () => {
    expect(periodOf(hour(1, { weather: [{ id: 600, main: 'Snow', description: 'light snow' }, { id: 511, main: 'Rain', description: 'freezing rain' }], wind_speed: 30, wind_gust: 25, visibility: 1609.344 }))).toEqual({
      startsAt: (T0 + 3600) * 1000,
      endsAt: (T0 + 7200) * 1000,
      precipitation: 'FREEZING_RAIN',
      thunderstorm: false,
      gustMph: 30,
      visibilityMiles: 1,
    });
    expect(periodOf(hour(0, { weather: [{ id: 211, main: 'Thunderstorm', description: 'thunderstorm' }], wind_gust: undefined, wind_speed: undefined, visibility: undefined }))).toMatchObject({
      thunderstorm: true,
      gustMph: null,
      visibilityMiles: null,
    });
  });

  it('an alert: severity from its name, Unix seconds to ISO, a headline naming the sender, a bounded description', () => {
    expect(mapAlert({ sender_name: 'NWS Norman', event: 'Winter Storm Warning', start: T0, end: T0 + 86400, description: 'x'.repeat(5000), tags: ['Snow/Ice'] })).toEqual({
      event: 'Winter Storm Warning',
      severity: 'SEVERE',
      start: '2026-03-02T14:00:00.000Z',
      end: '2026-03-03T14:00:00.000Z',
      description: 'x'.repeat(2000),
      headline: 'Winter Storm Warning issued by NWS Norman until Tue, Mar 3, 14:00 UTC',
    });
    expect(mapAlert({ sender_name: '', event: 'Wind Advisory', start: T0, end: 0, description: 'd', tags: [] })).toMatchObject({ severity: 'MINOR', end: null, headline: 'Wind Advisory issued by OpenWeather' });
  });

  it('a whole answer: alerts and forecast hazards with ISO times; no alerts key means none', () => {
    const out = mapOneCall(
      { lat: 35, lon: -97, timezone: 'America/Chicago', timezone_offset: -21600, hourly: [hour(0), hour(1, { weather: [{ id: 602, main: 'Snow', description: 'heavy snow' }] }), hour(2, { wind_gust: 61 })] },
      NOW,
    );
    expect(out).toEqual({
      alerts: [],
      forecastHazards: [
        { severity: 'SEVERE', event: 'Heavy snow (forecast)', headline: 'Heavy snow forecast from 2026-03-02 15:00 UTC to 2026-03-02 16:00 UTC', startsAt: '2026-03-02T15:00:00.000Z', endsAt: '2026-03-02T16:00:00.000Z' },
        { severity: 'SEVERE', event: 'High wind (forecast)', headline: 'Wind gusts up to 61 mph forecast from 2026-03-02 16:00 UTC to 2026-03-02 17:00 UTC', startsAt: '2026-03-02T16:00:00.000Z', endsAt: '2026-03-02T17:00:00.000Z' },
      ],
    });
  });

  it('an unexpected shape throws (the adapter reports VENDOR_ERROR)', () => {
    expect(() => mapOneCall({ hourly: 'soon' } as never, NOW)).toThrow(TypeError);
    expect(() => mapOneCall({ hourly: [{ temp: 3 }] } as never, NOW)).toThrow(TypeError);
    expect(() => mapOneCall({ alerts: [{ description: 'no event' }] } as never, NOW)).toThrow(TypeError);
    expect(() => mapOneCall(null as never, NOW)).toThrow(TypeError);
  });
});
