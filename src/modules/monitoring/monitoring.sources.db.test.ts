import { describe, expect, it } from 'vitest';
import type { WeatherHazard } from '../../domain/alerts/types.js';
import { milesAheadOnPath, nearestOfEach } from './monitoring.sources.db.js';

const hazard = (milesAhead: number, over: Partial<WeatherHazard> = {}): WeatherHazard => ({
  severity: 'SEVERE',
  event: 'Winter Storm Warning',
  headline: 'Heavy snow',
  startsAt: 0,
  endsAt: null,
  latitude: 35,
  longitude: -97,
  milesAhead,
  source: 'nws',
  ...over,
});

describe('nearestOfEach', () => {
  it('keeps one hazard per event, the nearest ahead', () => {
    expect(nearestOfEach([hazard(80), hazard(-1), hazard(30), hazard(55)])).toEqual([hazard(30)]);
  });
  it('keeps different events and sources apart', () => {
    const list = [hazard(30), hazard(40, { event: 'Wind Advisory' }), hazard(50, { source: 'openweather' })];
    expect(nearestOfEach(list)).toHaveLength(3);
  });
  it('keeps a hazard not in the path when no report of it is ahead', () => {
    expect(nearestOfEach([hazard(-1)])).toEqual([hazard(-1)]);
  });
});

describe('milesAheadOnPath', () => {
  const route = { position: { latitude: 32.7767, longitude: -96.797 }, pathAhead: [{ latitude: 35.4676, longitude: -97.5164 }] };
  it('measures along the path from the truck to the point nearest the hazard', () => {
    const miles = milesAheadOnPath(route, { latitude: 34.1, longitude: -97.15 });
    expect(miles).toBeGreaterThan(85);
    expect(miles).toBeLessThan(100);
  });
  it('is -1 for a hazard more than 25 miles from the path, or with no path', () => {
    expect(milesAheadOnPath(route, { latitude: 34.1, longitude: -95.5 })).toBe(-1);
    expect(milesAheadOnPath({ position: null, pathAhead: [] }, { latitude: 34, longitude: -97 })).toBe(-1);
  });
});
