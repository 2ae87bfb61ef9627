import { describe, expect, it } from 'vitest';
import { routeWeatherSignal, type PointHazard } from './route-signal.js';

const NOW = Date.parse('2026-03-02T14:00:00.000Z');
const storm: PointHazard = { severity: 'SEVERE', event: 'Winter Storm Warning', headline: 'Winter Storm Warning until Tuesday 6 PM CST', startsAt: '2026-03-02T13:00:00-06:00', endsAt: '2026-03-03T18:00:00-06:00' };
const wind: PointHazard = { severity: 'MODERATE', event: 'High wind (forecast)', headline: 'Wind gusts up to 50 mph', startsAt: '2026-03-02T15:00:00Z', endsAt: '2026-03-02T17:00:00Z' };

describe('routeWeatherSignal', () => {
  it('stores each hazard at its point with UTC times, ordered by point then start then severity, and the delay', () => {
    const signal = routeWeatherSignal(
      [
        { latitude: 35, longitude: -97, hazards: [wind, storm] },
        { latitude: 36, longitude: -97, hazards: [] },
      ],
      NOW,
    );
    expect(signal.hazards).toEqual([
      { severity: 'MODERATE', event: 'High wind (forecast)', headline: 'Wind gusts up to 50 mph', startsAt: '2026-03-02T15:00:00.000Z', endsAt: '2026-03-02T17:00:00.000Z', latitude: 35, longitude: -97 },
      { severity: 'SEVERE', event: 'Winter Storm Warning', headline: 'Winter Storm Warning until Tuesday 6 PM CST', startsAt: '2026-03-02T19:00:00.000Z', endsAt: '2026-03-04T00:00:00.000Z', latitude: 35, longitude: -97 },
    ]);
    // The first point stands for half of 69.1 miles, at SEVERE (its worst hazard within the horizon).
    expect(signal.delayHours).toBeCloseTo((34.55 / 55) * (1 / 0.6 - 1), 2);
  });

  it('drops ended hazards and duplicates at a point; keeps one without end; hazards beyond the horizon do not delay', () => {
    const ended = { ...storm, endsAt: '2026-03-02T13:59:59Z' };
    const later = { ...storm, startsAt: '2026-03-03T06:00:00Z', endsAt: null };
    const signal = routeWeatherSignal(
      [
        { latitude: 35, longitude: -97, hazards: [ended, later, later] },
        { latitude: 36, longitude: -97, hazards: [] },
      ],
      NOW,
    );
    expect(signal.hazards).toEqual([{ ...later, startsAt: '2026-03-03T06:00:00.000Z', latitude: 35, longitude: -97 }]);
    expect(signal.delayHours).toBe(0);
  });

  it('is deterministic (the same input gives equal JSON) and a single point has an unknown delay', () => {
    const points = [{ latitude: 35, longitude: -97, hazards: [storm, wind] }];
    expect(JSON.stringify(routeWeatherSignal(points, NOW))).toBe(JSON.stringify(routeWeatherSignal([{ ...points[0]!, hazards: [wind, storm] }], NOW)));
    expect(routeWeatherSignal(points, NOW).delayHours).toBeNull();
  });
});
