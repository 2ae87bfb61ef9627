import { describe, expect, it } from 'vitest';
import { mapPool, planWeatherQueries, syncWeatherAlongRoutes } from './weather-sync.js';

/** `n` points along a meridian from (lat0, -97), every `stepMiles` miles (1° latitude ≈ 69.09 mi). */
const line = (routeId: string, lat0: number, n: number, stepMiles: number) =>
  Array.from({ length: n }, (_, i) => ({ routeId, latitude: lat0 + (i * stepMiles) / 69.09, longitude: -97 }));

describe('planWeatherQueries', () => {
  it('points closer than 10 miles share one location; farther ones get their own', () => {
    const plan = planWeatherQueries(line('r1', 35, 5, 4), { maxLocations: 50 });
    // 0, 4, 8 mi share the first; 12 mi opens a second; 16 mi is nearer the second.
    expect(plan.locations).toHaveLength(2);
    expect(plan.assignment).toEqual([0, 0, 0, 1, 1]);
  });

  it('two routes over the same road share locations; coordinates are rounded to 4 decimals', () => {
    const a = line('a', 35.123456, 3, 30);
    const b = line('b', 35.123456, 3, 30).map((p) => ({ ...p, longitude: p.longitude + 0.01 }));
    const plan = planWeatherQueries([...a, ...b], { maxLocations: 50 });
    expect(plan.locations).toHaveLength(3);
    expect(plan.locations[0]).toEqual({ latitude: 35.1235, longitude: -97 });
    expect(plan.assignment).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it('the cap is spread round-robin: every route gets its first point before any gets a second', () => {
    const points = [...line('a', 30, 4, 50), ...line('b', 40, 4, 50), ...line('c', 45, 4, 50)];
    const plan = planWeatherQueries(points, { maxLocations: 4 });
    expect(plan.locations).toHaveLength(4);
    const covered = points.filter((_, i) => plan.assignment[i] !== null).map((p) => `${p.routeId}${Math.round((p.latitude - (p.routeId === 'a' ? 30 : p.routeId === 'b' ? 40 : 45)) * 69.09 / 50)}`);
    expect(covered.sort()).toEqual(['a0', 'a1', 'b0', 'c0']);
  });

  it('invalid coordinates are never asked about', () => {
    const plan = planWeatherQueries([{ routeId: 'r', latitude: Number.NaN, longitude: 0 }, { routeId: 'r', latitude: 95, longitude: 0 }], { maxLocations: 5 });
    expect(plan).toEqual({ locations: [], assignment: [null, null] });
  });
});

describe('mapPool', () => {
  it('keeps order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapPool([1, 2, 3, 4, 5, 6, 7], 3, async (x) => {
      running++;
      peak = Math.max(peak, running);
      await Promise.resolve();
      await Promise.resolve();
      running--;
      return x * 10;
    });
    expect(out).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(peak).toBe(3);
  });

  it('the first failure stops new work and is thrown after the running ones settle', async () => {
    const started: number[] = [];
    await expect(
      mapPool([1, 2, 3, 4, 5], 2, async (x) => {
        started.push(x);
        await Promise.resolve();
        if (x === 2) throw new Error('boom 2');
        return x;
      }),
    ).rejects.toThrow('boom 2');
    expect(started.length).toBeLessThan(5);
  });
});

describe('syncWeatherAlongRoutes', () => {
  it('answers every covered point with its location’s weather and names the routes left uncovered', async () => {
    const ctx = { now: new Date(), drivers: [], vehicles: [], routePoints: [...line('a', 35, 2, 3), ...line('b', 45, 1, 1)] };
    const asked: string[] = [];
    const result = await syncWeatherAlongRoutes(ctx, { maxLocations: 1, concurrency: 2 }, async (loc) => {
      asked.push(`${loc.latitude},${loc.longitude}`);
      return { alerts: [], forecastHazards: [{ severity: 'MINOR', event: 'Snow (forecast)', headline: 'h', startsAt: '2026-01-01T00:00:00.000Z', endsAt: null }] };
    });
    expect(asked).toEqual(['35,-97']);
    expect(result.points.map((p) => [p.routeId, p.forecastHazards.length])).toEqual([
      ['a', 1],
      ['a', 1],
    ]);
    expect(result.uncoveredRouteIds).toEqual(['b']);
  });
});
