import { describe, expect, it } from 'vitest';
import { currentStationarySpan, isMoving, stationarySpans } from './motion.js';
import { at, driving, MIN, offRoute, parked, pointAt, position } from './test-support.js';

describe('stationary spans', () => {
  it('a parked vehicle is one span from its first to its last position', () => {
    const positions = [...driving(0, at(0), at(0.5)), ...parked(pointAt(40), at(1), at(2))];
    const span = currentStationarySpan(positions)!;
    expect(span.since).toBe(at(1));
    expect(span.until).toBe(at(2));
    expect(span.minutes).toBeCloseTo(60, 6);
    expect(span.startsHistory).toBe(false);
  });

  it('GPS jitter within a quarter mile stays one span; a move beyond it starts another', () => {
    const here = pointAt(40);
    const jitter = [position(here, at(1)), position(offRoute(40, 0.1), at(1.1)), position(offRoute(40, -0.1), at(1.2))];
    expect(stationarySpans(jitter)).toHaveLength(1);
    const moved = [...jitter, position(offRoute(40, 1), at(1.3))];
    expect(stationarySpans(moved).map((s) => s.since)).toEqual([at(1), at(1.3)]);
  });

  it('a speed above 3 mph breaks a span even on the spot; no speed reported counts as standing', () => {
    const here = pointAt(40);
    const positions = [position(here, at(1), { speedMph: null }), position(here, at(1.1), { speedMph: 20 }), position(here, at(1.2), { speedMph: 2 })];
    expect(stationarySpans(positions).map((s) => [s.since, s.until])).toEqual([
      [at(1), at(1)],
      [at(1.2), at(1.2)],
    ]);
  });

  it('a span that starts the history is marked as a lower bound', () => {
    expect(currentStationarySpan(parked(pointAt(10), at(1), at(2)))?.startsHistory).toBe(true);
  });

  it('there is no current span when the vehicle moves, or without positions', () => {
    expect(currentStationarySpan(driving(0, at(0), at(1)))).toBeNull();
    expect(currentStationarySpan([])).toBeNull();
  });
});

describe('isMoving', () => {
  it('trusts a reported speed', () => {
    expect(isMoving(driving(0, at(0), at(0.5)))).toBe(true);
    expect(isMoving(parked(pointAt(3), at(0), at(0.5)))).toBe(false);
  });

  it('without speed, compares the last two positions', () => {
    const a = position(pointAt(10), at(1), { speedMph: null });
    expect(isMoving([a, position(pointAt(15), at(1) + 5 * MIN, { speedMph: null })])).toBe(true);
    expect(isMoving([a, position(pointAt(10.1), at(1) + 5 * MIN, { speedMph: null })])).toBe(false);
    expect(isMoving([a])).toBe(false);
    expect(isMoving([])).toBe(false);
  });
});
