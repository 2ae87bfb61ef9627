import { describe, expect, it } from 'vitest';
import { forecastHazards, periodHazards, severityFromCap, severityFromEventName } from './hazards.js';
import type { ForecastPeriod } from './types.js';

const NOW = Date.parse('2026-03-02T14:20:00.000Z');
const H = 3_600_000;
const HOUR0 = Date.parse('2026-03-02T14:00:00.000Z');

/** A calm hour `i` hours after 14:00Z, with overrides. */
const hour = (i: number, o: Partial<ForecastPeriod> = {}): ForecastPeriod => ({
  startsAt: HOUR0 + i * H,
  endsAt: HOUR0 + (i + 1) * H,
  precipitation: null,
  thunderstorm: false,
  gustMph: 10,
  visibilityMiles: 6,
  ...o,
});

describe('periodHazards (the rule table)', () => {
  it.each([
    [{ precipitation: 'FREEZING_RAIN' as const }, 'FREEZING_RAIN', 'SEVERE'],
    [{ precipitation: 'HEAVY_SNOW' as const }, 'HEAVY_SNOW', 'SEVERE'],
    [{ precipitation: 'SNOW' as const }, 'SNOW', 'MINOR'],
    [{ thunderstorm: true }, 'THUNDERSTORM', 'MODERATE'],
    [{ gustMph: 45.1 }, 'HIGH_WIND', 'MODERATE'],
    [{ gustMph: 58 }, 'HIGH_WIND', 'MODERATE'],
    [{ gustMph: 58.5 }, 'HIGH_WIND', 'SEVERE'],
    [{ visibilityMiles: 0.99 }, 'LOW_VISIBILITY', 'MODERATE'],
    [{ visibilityMiles: 0.25 }, 'LOW_VISIBILITY', 'MODERATE'],
    [{ visibilityMiles: 0.2 }, 'LOW_VISIBILITY', 'SEVERE'],
  ])('%j → %s %s', (o, kind, severity) => {
    expect(periodHazards(hour(0, o))).toEqual([expect.objectContaining({ kind, severity })]);
  });

  it('a calm hour, 45 mph exactly, 1 mile exactly and unknown values are no hazard', () => {
    expect(periodHazards(hour(0))).toEqual([]);
    expect(periodHazards(hour(0, { gustMph: 45, visibilityMiles: 1 }))).toEqual([]);
    expect(periodHazards(hour(0, { gustMph: null, visibilityMiles: null }))).toEqual([]);
  });
});

describe('forecastHazards', () => {
  it('merges consecutive hours of one kind into one hazard of the worst severity and the extreme value', () => {
    const out = forecastHazards([hour(1, { gustMph: 50 }), hour(2, { gustMph: 61 }), hour(3, { gustMph: 47 }), hour(4)], NOW);
    expect(out).toEqual([
      {
        kind: 'HIGH_WIND',
        severity: 'SEVERE',
        event: 'High wind (forecast)',
        headline: 'Wind gusts up to 61 mph forecast from 2026-03-02 15:00 UTC to 2026-03-02 18:00 UTC',
        startsAt: HOUR0 + H,
        endsAt: HOUR0 + 4 * H,
      },
    ]);
  });

  it('a calm hour between two hazardous ones splits them; kinds run independently; order by start then severity', () => {
    const out = forecastHazards(
      [hour(0, { precipitation: 'SNOW' }), hour(1, { precipitation: 'HEAVY_SNOW', visibilityMiles: 0.5 }), hour(2, { precipitation: 'SNOW', visibilityMiles: 0.1 }), hour(3), hour(4, { precipitation: 'SNOW' })],
      NOW,
    );
    expect(out.map((h) => [h.kind, h.severity, (h.startsAt - HOUR0) / H, (h.endsAt - HOUR0) / H])).toEqual([
      ['SNOW', 'MINOR', 0, 1],
      ['HEAVY_SNOW', 'SEVERE', 1, 2],
      ['LOW_VISIBILITY', 'SEVERE', 1, 3],
      ['SNOW', 'MINOR', 2, 3],
      ['SNOW', 'MINOR', 4, 5],
    ]);
    expect(out[2]!.headline).toBe('Visibility down to 0.1 mi forecast from 2026-03-02 15:00 UTC to 2026-03-02 17:00 UTC');
    expect(out[1]!.headline).toBe('Heavy snow forecast from 2026-03-02 15:00 UTC to 2026-03-02 16:00 UTC');
  });

  it('looks only at hours overlapping the horizon, in any input order, and ignores a gap between hours', () => {
    const fr = { precipitation: 'FREEZING_RAIN' as const };
    const periods = [hour(12, fr), hour(-1, fr), hour(11, fr), hour(0, fr), hour(13, fr)];
    const out = forecastHazards(periods, NOW, 12);
    // -1 ended before now; 12 starts at 02:00Z next day, before 02:20Z; 13 starts after the horizon.
    expect(out.map((h) => [(h.startsAt - HOUR0) / H, (h.endsAt - HOUR0) / H])).toEqual([
      [0, 1],
      [11, 13],
    ]);
  });

  it('nothing forecast: no hazard', () => {
    expect(forecastHazards([], NOW)).toEqual([]);
  });
});

describe('alert severity', () => {
  it.each([
    ['Tornado Warning', 'EXTREME'],
    ['Hurricane Warning', 'EXTREME'],
    ['Flash Flood Emergency', 'EXTREME'],
    ['Red warning for wind', 'EXTREME'],
    ['Winter Storm Warning', 'SEVERE'],
    ['Blizzard Warning', 'SEVERE'],
    ['Orange Snow-Ice Warning', 'SEVERE'],
    ['Yellow rain warning', 'MODERATE'],
    ['Winter Storm Watch', 'MODERATE'],
    ['Wind Advisory', 'MINOR'],
    ['Special Weather Statement', 'MINOR'],
    ['Frost', 'MINOR'],
  ])('event %s → %s', (event, severity) => {
    expect(severityFromEventName(event)).toBe(severity);
  });

  it('CAP severity words map one to one; Unknown and missing fall back to the event name', () => {
    expect(severityFromCap('Extreme', 'Wind Advisory')).toBe('EXTREME');
    expect(severityFromCap('Severe', 'x')).toBe('SEVERE');
    expect(severityFromCap('Moderate', 'x')).toBe('MODERATE');
    expect(severityFromCap('Minor', 'Tornado Warning')).toBe('MINOR');
    expect(severityFromCap('Unknown', 'Winter Storm Warning')).toBe('SEVERE');
    expect(severityFromCap(undefined, 'Winter Storm Watch')).toBe('MODERATE');
  });
});
