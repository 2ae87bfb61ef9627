import { describe, expect, it } from 'vitest';
import { FLEET, planTimeOf, type Truck } from './fleet.js';

describe('demo fleet', () => {
  it("a truck's plan time runs `speed` times faster from its own plan's start (a return trip starts at its beginning)", () => {
    const start = Date.parse('2026-03-02T14:00:00.000Z');
    const truck = { spec: { ...FLEET[0]!, underway: 0 }, segments: [{ start_time: new Date(start).toISOString() }], planStart: start + 30 * 60_000 } as unknown as Truck;
    expect(planTimeOf(truck, start + 30 * 60_000, 10)).toBe(start);
    expect(planTimeOf(truck, start + 31 * 60_000, 10)).toBe(start + 10 * 60_000);
    truck.spec.underway = 2;
    expect(planTimeOf(truck, start + 30 * 60_000, 10)).toBe(start + 2 * 3_600_000);
  });
});
