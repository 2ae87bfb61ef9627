import { describe, expect, it } from 'vitest';
import { delayBehindPlan, locateOnPath, plannedMilesAt, plannedPathOf, planTimesAtMiles } from './planned-path.js';
import { ARDMORE_MI, at, DALLAS, offRoute, PAULS_VALLEY_MI, pointAt, ROUTE_MILES, SANGER_MI, SEGMENTS, STOPS } from './test-support.js';
import type { Segment } from '../planning/types.js';

const path = plannedPathOf(SEGMENTS, STOPS);

describe('plannedPathOf', () => {
  it('chains drive ends and stop locations, each place once', () => {
    expect(path.points).toHaveLength(5); // Dallas, Sanger, Ardmore, Pauls Valley, OKC
    expect(path.totalMiles).toBeCloseTo(ROUTE_MILES, 6);
    expect([...path.cumulative].map((m) => Math.round(m))).toEqual([0, SANGER_MI, ARDMORE_MI, PAULS_VALLEY_MI, Math.round(ROUTE_MILES)]);
  });

  it('orders segments by sequence, whatever order they come in', () => {
    expect(plannedPathOf([...SEGMENTS].reverse()).points).toEqual(path.points);
  });

  it('falls back to the stops without segments, and is empty without either', () => {
    const fromStops = plannedPathOf([], STOPS);
    expect(fromStops.points).toHaveLength(3);
    expect(plannedMilesAt(fromStops, at(3))).toBeCloseTo(ARDMORE_MI, 6); // docked
    expect(plannedMilesAt(fromStops, at(10.5))).toBeCloseTo((ARDMORE_MI + ROUTE_MILES) / 2, 6); // half-way to OKC
    expect(plannedPathOf([], []).points).toEqual([]);
  });
});

describe('plan time and path miles', () => {
  it('interpolates drives and stands still at rests and docks', () => {
    expect(plannedMilesAt(path, at(-1))).toBe(0);
    expect(plannedMilesAt(path, at(0.5))).toBeCloseTo(27.5, 6);
    expect(plannedMilesAt(path, at(1.2))).toBeCloseTo(SANGER_MI, 6);
    expect(plannedMilesAt(path, at(10))).toBeCloseTo(PAULS_VALLEY_MI, 6);
    expect(plannedMilesAt(path, at(30))).toBeCloseTo(ROUTE_MILES, 6);
  });

  it('gives the interval of plan times at a place where the plan stands', () => {
    const atRest = planTimesAtMiles(path, PAULS_VALLEY_MI)!;
    expect(atRest.first).toBeCloseTo(at(5.5), -1);
    expect(atRest.last).toBeCloseTo(at(15.5), -1);
    const onRoad = planTimesAtMiles(path, 27.5)!;
    expect(onRoad.first).toBeCloseTo(at(0.5), -1);
    expect(onRoad.last).toBeCloseTo(at(0.5), -1);
  });

  it('measures delay from where the vehicle is against when the plan was last there; ahead is on time', () => {
    expect(delayBehindPlan(path, 27.5, at(1.5)) / 60_000).toBeCloseTo(60, 3);
    expect(delayBehindPlan(path, PAULS_VALLEY_MI, at(10))).toBe(0); // resting as planned
    expect(delayBehindPlan(path, PAULS_VALLEY_MI - 0.4, at(10))).toBe(0); // parked a little short of the planned point
    expect(delayBehindPlan(path, PAULS_VALLEY_MI, at(17)) / 60_000).toBeCloseTo(90, 3); // overslept by 1.5 h
    expect(delayBehindPlan(path, 120, at(3))).toBe(0); // ahead of plan
  });
});

describe('locateOnPath', () => {
  it('measures the distance to the path and the miles along it', () => {
    const on = locateOnPath(path, pointAt(80), 80)!;
    expect(on.distanceMiles).toBeLessThan(0.01);
    expect(on.milesAlong).toBeCloseTo(80, 1);
    const off = locateOnPath(path, offRoute(80, 12), 80)!;
    expect(off.distanceMiles).toBeCloseTo(12, 1);
    expect(off.milesAlong).toBeCloseTo(80, 0);
  });

  it('on an out-and-back path, settles ties by where the plan expects the vehicle', () => {
    const there = pointAt(60);
    const segments: Segment[] = [
      { ...(SEGMENTS[0] as Extract<Segment, { type: 'drive' }>), sequence: 1, from: { name: 'Dallas', ...DALLAS }, to: { name: 'There', ...there } },
      { ...(SEGMENTS[0] as Extract<Segment, { type: 'drive' }>), sequence: 2, from: { name: 'There', ...there }, to: { name: 'Dallas', ...DALLAS } },
    ];
    const loop = plannedPathOf(segments);
    const p = pointAt(20);
    expect(locateOnPath(loop, p, 15)!.milesAlong).toBeCloseTo(20, 1);
    expect(locateOnPath(loop, p, 110)!.milesAlong).toBeCloseTo(100, 1);
  });
});
