import { describe, expect, it } from 'vitest';
import { expectedTimes, nextPlannedStop, pickDriverRoute, routeProgress, type PlanSegment } from './driver-route';

const H = 3_600_000;
const T0 = Date.parse('2026-03-02T14:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const stop = (sequence: number, name: string, arriveH: number, departH: number) => ({ sequence, name, type: sequence === 0 ? 'ORIGIN' : 'DELIVERY', arrivalTime: iso(T0 + arriveH * H), departureTime: iso(T0 + departH * H), timeZone: 'America/Chicago' });

describe('where a driver stands on the route', () => {
  // Origin (departs at T0), a pickup at 3-4 h, a delivery at 8-9 h.
  const stops = [stop(2, 'Delivery', 8, 9), stop(0, 'Origin', 0, 0), stop(1, 'Pickup', 3, 4)];

  it('before departure the origin is next and the driver is at it; every stop is ahead', () => {
    const p = routeProgress(stops, T0 - H);
    expect(p.next?.name).toBe('Origin');
    expect(p.atStop).toBe(true);
    expect(p.remaining.map((s) => s.name)).toEqual(['Origin', 'Pickup', 'Delivery']);
    expect(p.done).toBe(0);
  });

  it('on the road the next stop is the first one not yet left, in sequence order', () => {
    const p = routeProgress(stops, T0 + H);
    expect(p.next?.name).toBe('Pickup');
    expect(p.atStop).toBe(false);
    expect(p.remaining.map((s) => s.name)).toEqual(['Pickup', 'Delivery']);
    expect(p.done).toBe(1);
  });

  it('at a stop between its arrival and departure the driver is at it', () => {
    const p = routeProgress(stops, T0 + 3.5 * H);
    expect(p.next?.name).toBe('Pickup');
    expect(p.atStop).toBe(true);
  });

  it('at the planned departure the stop is behind; after the last one nothing is ahead', () => {
    expect(routeProgress(stops, T0 + 4 * H).next?.name).toBe('Delivery');
    const end = routeProgress(stops, T0 + 9 * H);
    expect(end).toEqual({ next: null, atStop: false, remaining: [], done: 3 });
    expect(routeProgress([], T0)).toEqual({ next: null, atStop: false, remaining: [], done: 0 });
  });
});

describe('a visibility provider’s predicted arrival', () => {
  const late = { arrivalTime: iso(T0 + 5 * H), source: 'project44', estimatedAt: iso(T0 + 2 * H) };
  const stops = [stop(0, 'Origin', 0, 0), { ...stop(1, 'Pickup', 3, 4), prediction: late }, { ...stop(2, 'Delivery', 8, 9), prediction: null }];

  it('takes the place of the plan’s arrival, the time at the stop kept; the plan’s times where none is given', () => {
    expect(expectedTimes(stops[1]!)).toEqual({ arrival: iso(T0 + 5 * H), departure: iso(T0 + 6 * H), prediction: late });
    expect(expectedTimes(stops[2]!)).toEqual({ arrival: iso(T0 + 8 * H), departure: iso(T0 + 9 * H), prediction: null });
    expect(expectedTimes(stops[0]!, true).prediction).toBeNull();
  });

  it('keeps a stop ahead while the truck is predicted to reach it later than planned', () => {
    // 4:30 after departure: by the plan the pickup is behind; by the prediction the truck is on its way there.
    const p = routeProgress(stops, T0 + 4.5 * H);
    expect(p.next?.name).toBe('Pickup');
    expect(p.atStop).toBe(false);
    expect(routeProgress(stops, T0 + 5.5 * H)).toMatchObject({ atStop: true, done: 1 });
    expect(routeProgress(stops, T0 + 6 * H).next?.name).toBe('Delivery');
  });
});

describe('the next planned rest or fuel stop', () => {
  const seg = (type: string, startH: number, endH: number, extra: Partial<PlanSegment> = {}): PlanSegment => ({ type, start_time: iso(T0 + startH * H), end_time: iso(T0 + endH * H), duration_hours: endH - startH, ...extra });
  const segments = [
    seg('drive', 0, 5),
    seg('rest', 5, 5.5, { rest_type: 'break', location: 'near Ardmore, OK' }),
    seg('drive', 5.5, 8),
    seg('fuel', 8, 8.25, { location: 'Love’s, Oklahoma City' }),
    seg('rest', 8.25, 18.25, { rest_type: 'full_rest' }),
    seg('rest', 20, 54, { rest_type: 'full_rest', restart: true }),
  ];

  it('names the first rest, break or fuel stop that has not ended, the current one included', () => {
    expect(nextPlannedStop(segments, T0)).toMatchObject({ label: '30-minute break', segment: { location: 'near Ardmore, OK' } });
    expect(nextPlannedStop(segments, T0 + 5.2 * H)?.label).toBe('30-minute break');
    expect(nextPlannedStop(segments, T0 + 6 * H)?.label).toBe('Fuel stop');
    expect(nextPlannedStop(segments, T0 + 9 * H)?.label).toBe('10-hour rest');
    expect(nextPlannedStop(segments, T0 + 19 * H)?.label).toBe('34-hour restart');
    expect(nextPlannedStop(segments, T0 + 60 * H)).toBeNull();
  });

  it('shows the active route first, else the planned one departing first, the others after by departure', () => {
    const r = (id: string, departH: number) => ({ id, departureTime: iso(T0 + departH * H) });
    const planned = [r('rte_c', 48), r('rte_a', 2), r('rte_b', 24)];
    expect(pickDriverRoute([r('rte_x', -3)], planned)).toEqual({ pick: r('rte_x', -3), upcoming: [r('rte_a', 2), r('rte_b', 24), r('rte_c', 48)] });
    expect(pickDriverRoute([], planned)).toEqual({ pick: r('rte_a', 2), upcoming: [r('rte_b', 24), r('rte_c', 48)] });
    expect(pickDriverRoute([], [])).toEqual({ pick: null, upcoming: [] });
  });
});
