import { describe, expect, it } from 'vitest';
import { haversineMiles } from '../domain/geo/index.js';
import type { Segment } from '../domain/planning/types.js';
import { misbehaviourAt, offsetBeside, positionOnPlan } from './simulator.js';

const MIN = 60_000;
const CYCLE = 10 * MIN;

describe('demo simulator', () => {
  it('each misbehaving truck misbehaves from 1 to 5 minutes into every 10-minute cycle, then keeps to its plan', () => {
    const at = (m: number, b: Parameters<typeof misbehaviourAt>[0]) => misbehaviourAt(b, m * MIN, CYCLE);
    expect(at(0.5, 'wanders-off').offsetMiles).toBe(0);
    expect(at(1, 'wanders-off').offsetMiles).toBe(12);
    expect(at(4.9, 'stops').halted).toBe(true);
    expect(at(5, 'stops').halted).toBe(false);
    expect(at(13, 'goes-quiet').silent).toBe(true);
    expect(at(3, 'on-plan')).toEqual({ offsetMiles: 0, halted: false, silent: false });
  });

  it('puts a wandering truck the given miles to the side of its path', () => {
    const from = { latitude: 41.8781, longitude: -87.6298 };
    const to = { latitude: 39.7684, longitude: -86.1581 };
    const at = { latitude: 40.8, longitude: -86.9 };
    expect(haversineMiles(at, offsetBeside(at, from, to, 12))).toBeCloseTo(12, 1);
    expect(offsetBeside(at, from, to, 0)).toBe(at);
  });

  it('follows the plan: driving between the ends of a drive, resting at a rest, arrived after the end', () => {
    const t0 = Date.parse('2026-03-02T12:00:00Z');
    const iso = (h: number) => new Date(t0 + h * 3_600_000).toISOString();
    const segments = [
      { sequence: 1, type: 'drive', start_time: iso(0), end_time: iso(2), from: { name: 'A', latitude: 32, longitude: -97 }, to: { name: 'B', latitude: 34, longitude: -97 }, distance_miles: 110 },
      { sequence: 2, type: 'rest', start_time: iso(2), end_time: iso(12), latitude: 34, longitude: -97, duty_status: 'SLEEPER_BERTH' },
    ] as unknown as Segment[];
    const mid = positionOnPlan(segments, t0 + 3_600_000);
    expect(mid).toMatchObject({ status: 'ON_DUTY_DRIVING', arrived: false, speedMph: 55 });
    expect(mid.point.latitude).toBeCloseTo(33, 1);
    expect(positionOnPlan(segments, t0 + 5 * 3_600_000)).toMatchObject({ status: 'SLEEPER_BERTH', speedMph: 0, point: { latitude: 34, longitude: -97 } });
    expect(positionOnPlan(segments, t0 + 13 * 3_600_000)).toMatchObject({ arrived: true });
  });
});
