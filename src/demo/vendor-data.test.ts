import { describe, expect, it } from 'vitest';
import { haversineMiles } from '../domain/geo/index.js';
import type { Segment } from '../domain/planning/types.js';
import { FLEET, type Truck } from './fleet.js';
import { pointAlongPlan, stationsAlongRoutes, STATION_SPACING_MILES } from './vendor-data.js';

const dallas = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 };
const midway = { name: 'Ardmore, OK', latitude: 34.1743, longitude: -97.1436 };
const okc = { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164 };
const drive = (from: typeof dallas, to: typeof dallas) => ({ type: 'drive', from, to, distance_miles: haversineMiles(from, to) }) as unknown as Segment;
const segments = [drive(dallas, midway), { type: 'rest' } as Segment, drive(midway, okc)];
const truck = { spec: FLEET[0]!, segments } as unknown as Truck;

describe('demo vendor data', () => {
  it('places a point the given fraction along the drives of a plan', () => {
    const total = haversineMiles(dallas, midway) + haversineMiles(midway, okc);
    expect(pointAlongPlan(segments, 0)).toEqual({ latitude: dallas.latitude, longitude: dallas.longitude });
    expect(haversineMiles(pointAlongPlan(segments, 0.5), dallas)).toBeCloseTo(total / 2, 0);
  });

  it('puts diesel stations every 25 miles along each route, priced in USD a gallon', () => {
    const now = Date.parse('2026-03-02T14:00:00.000Z');
    const stations = stationsAlongRoutes([truck], now);
    const total = haversineMiles(dallas, midway) + haversineMiles(midway, okc);
    expect(stations).toHaveLength(Math.ceil(total / STATION_SPACING_MILES - 0.5));
    expect(haversineMiles(stations[0]!.position, dallas)).toBeCloseTo(STATION_SPACING_MILES / 2, 0);
    for (const s of stations) {
      expect(s.fuelPrice).toEqual([expect.objectContaining({ fuelType: '1', unit: 'gal', currency: 'USD' })]);
      expect(s.fuelPrice[0]!.price).toBeGreaterThanOrEqual(3.19);
      expect(s.fuelPrice[0]!.price).toBeLessThanOrEqual(3.63);
      expect(Date.parse(s.fuelPrice[0]!.lastUpdateTimestamp)).toBeLessThan(now);
    }
    expect(new Set(stations.map((s) => s.id)).size).toBe(stations.length);
  });
});
