import { describe, expect, it } from 'vitest';
import { check, conditionOf, raiseThenCheck } from './test-checks.js';
import {
  ARDMORE_MI,
  at,
  buildSnapshot,
  DALLAS,
  driving,
  MIN,
  onPlan,
  openAlert,
  parked,
  PAULS_VALLEY_MI,
  pointAt,
  SANGER_MI,
  SEGMENTS,
  STOPS,
  T0,
} from './test-support.js';
import type { Segment, StopEta } from '../planning/types.js';
import type { EtaPrediction } from './types.js';

const iso = (ms: number) => new Date(ms).toISOString();
/** A vehicle that left Dallas `hoursLate` after the plan and drives at the plan's speed; now 30 min after it left. */
const runningLate = (hoursLate: number, extra: Parameters<typeof buildSnapshot>[0] = {}) => {
  const left = at(hoursLate);
  return buildSnapshot({ now: left + 30 * MIN, positions: driving(0, left, left + 30 * MIN), ...extra });
};
const prediction = (stopIndex: number, predictedArrival: number, when = at(0.4)): EtaPrediction => ({ stopIndex, predictedArrival, source: 'visibility-sandbox', at: when });

describe('LATE_TO_APPOINTMENT', () => {
  it('does not fire on plan', () => {
    expect(conditionOf(buildSnapshot(), 'LATE_TO_APPOINTMENT')).toBeUndefined();
  });

  it('fires HIGH before the appointment when the plan shifted by the delay misses the window', () => {
    const s = runningLate(2); // Ardmore planned 2.5 h, latest 4 h: projected 4.5 h
    const c = conditionOf(s, 'LATE_TO_APPOINTMENT')!;
    expect(s.now).toBeLessThan(at(4));
    expect(c.priority).toBe('HIGH');
    expect(c.title).toBe('Late to appointment at Ardmore, OK: 30 min past the window');
    expect(c.message).toMatch(/^Jane Doe \(unit 1042\) is projected to arrive at Ardmore, OK \(pickup\) at Mon, Mar 2, 10:30 CST, 30 min after the appointment's latest time Mon, Mar 2, 10:00 CST \(planned arrival Mon, Mar 2, 08:30 CST plus the current 2:00 delay\)\.$/);
    expect(c.metadata).toMatchObject({
      stopName: 'Ardmore, OK',
      stopIndex: 1,
      appointmentLatest: iso(at(4)),
      plannedArrival: iso(at(2.5)),
      projectedArrival: iso(at(4.5)),
      projectionMethod: 'PLAN_AND_POSITION',
      delayMinutes: 120,
      lateByMinutes: 30,
    });
  });

  it('prefers the visibility ETA (the latest one) to the plan', () => {
    const late = conditionOf(buildSnapshot({ etaPredictions: [prediction(1, at(4.5))] }), 'LATE_TO_APPOINTMENT')!;
    expect(late.metadata).toMatchObject({ projectionMethod: 'VISIBILITY', etaSource: 'visibility-sandbox', lateByMinutes: 30 });
    expect(late.message).toContain('(ETA from Visibility-sandbox)');
    const revised = buildSnapshot({ etaPredictions: [prediction(1, at(3), at(0.45)), prediction(1, at(4.5), at(0.4))] });
    expect(conditionOf(revised, 'LATE_TO_APPOINTMENT')).toBeUndefined();
  });

  it('a vehicle still short of the stop after the window has closed is late (arrival is never in the past)', () => {
    const now = at(4.5);
    const s = buildSnapshot({ now, positions: [...driving(0, T0, at(0.5)), ...parked(pointAt(40), at(0.75), now)], etaPredictions: [prediction(1, at(3))] });
    expect(conditionOf(s, 'LATE_TO_APPOINTMENT')?.metadata).toMatchObject({ projectedArrival: iso(now), lateByMinutes: 30 });
  });

  it('stops already reached do not count: the next appointment is judged', () => {
    const now = at(4.4);
    const atArdmore = buildSnapshot({ now, positions: [...onPlan(at(2), at(2.5)), ...parked(pointAt(ARDMORE_MI), at(2.6), now)] });
    expect(conditionOf(atArdmore, 'LATE_TO_APPOINTMENT')).toBeUndefined();
    const okcLate = buildSnapshot({ now, positions: parked(pointAt(ARDMORE_MI), at(2.6), now), etaPredictions: [prediction(2, at(19))] });
    expect(conditionOf(okcLate, 'LATE_TO_APPOINTMENT')?.metadata).toMatchObject({ stopName: 'Oklahoma City, OK', stopIndex: 2, lateByMinutes: 60 });
  });

  it('without positions, a stop counts as reached by the plan clock unless the ETA says otherwise', () => {
    expect(conditionOf(buildSnapshot({ now: at(5), positions: [] }), 'LATE_TO_APPOINTMENT')).toBeUndefined();
    const s = buildSnapshot({ now: at(5), positions: [], etaPredictions: [prediction(1, at(5.5))] });
    expect(conditionOf(s, 'LATE_TO_APPOINTMENT')?.metadata).toMatchObject({ stopIndex: 1, lateByMinutes: 90 });
    const planOnly = buildSnapshot({ positions: [], route: { stops: STOPS.map((st, i): StopEta => (i === 1 ? { ...st, appointment: { earliest: null, latest: iso(at(2)) } } : st)) } });
    expect(conditionOf(planOnly, 'LATE_TO_APPOINTMENT')?.metadata).toMatchObject({ projectionMethod: 'PLAN', lateByMinutes: 30 });
  });

  it('updates in 15-minute steps of lateness', () => {
    const open = openAlert(conditionOf(runningLate(2), 'LATE_TO_APPOINTMENT')!);
    expect(check(runningLate(2.1), [open]).update).toEqual([]);
    expect(check(runningLate(2.3), [open]).update).toMatchObject([{ priorityChanged: false }]);
  });

  it('clears through reconcile when the vehicle arrives', () => {
    const now = at(4.6);
    const arrived = buildSnapshot({ now, positions: [...driving(60, at(3.8), at(4.5)), ...parked(pointAt(ARDMORE_MI), at(4.55), now)] });
    const { result } = raiseThenCheck(runningLate(2), arrived, 'LATE_TO_APPOINTMENT');
    expect(result.resolve[0]?.resolution).toBe('Arrived at Ardmore, OK');
  });
});

describe('APPOINTMENT_AT_RISK', () => {
  it('fires MEDIUM when the projected arrival is within 30 min of the window\'s end', () => {
    const c = conditionOf(runningLate(1.25), 'APPOINTMENT_AT_RISK')!; // projected 3.75 h, latest 4 h
    expect(c.priority).toBe('MEDIUM');
    expect(c.title).toBe('Appointment at risk at Ardmore, OK: 15 min to spare');
    expect(c.metadata).toMatchObject({ stopIndex: 1, slackMinutes: 15, marginMinutes: 30, projectedArrival: iso(at(3.75)) });
    expect(conditionOf(runningLate(1.25), 'LATE_TO_APPOINTMENT')).toBeUndefined();
  });

  it('does not fire with more slack, nor when already late (that is LATE_TO_APPOINTMENT)', () => {
    expect(conditionOf(runningLate(0.75), 'APPOINTMENT_AT_RISK')).toBeUndefined();
    expect(conditionOf(runningLate(2), 'APPOINTMENT_AT_RISK')).toBeUndefined();
    expect(conditionOf(buildSnapshot({ etaPredictions: [prediction(1, at(4))] }), 'APPOINTMENT_AT_RISK')).toBeDefined(); // exactly at the end
  });

  it('turning late resolves it and raises LATE_TO_APPOINTMENT', () => {
    const open = openAlert(conditionOf(runningLate(1.25), 'APPOINTMENT_AT_RISK')!);
    const r = check(runningLate(2), [open]);
    expect(r.create.map((c) => c.type)).toEqual(['LATE_TO_APPOINTMENT']);
    expect(r.resolve).toEqual([{ alert: open, resolution: 'Projected arrival at Ardmore, OK Mon, Mar 2, 10:30 CST is after the window (Mon, Mar 2, 10:00 CST)' }]);
  });

  it('clears through reconcile when the outlook improves', () => {
    const { result } = raiseThenCheck(runningLate(1.25), runningLate(0.5), 'APPOINTMENT_AT_RISK');
    expect(result.resolve[0]?.resolution).toMatch(/^Projected arrival at Ardmore, OK .* leaves 1:00 before the window ends/);
  });
});

describe('DOCK_DELAY', () => {
  /** At Ardmore (2 h dock, window opens at 2 h) since `arrived`, now `now`. */
  const docked = (arrived: number, now: number, extra: Parameters<typeof buildSnapshot>[0] = {}) =>
    buildSnapshot({ now, positions: [...driving(ARDMORE_MI - 20, arrived - 25 * MIN, arrived - 5 * MIN, 48), ...parked(pointAt(ARDMORE_MI), arrived, now)], ...extra });

  it('fires MEDIUM when the stay runs past the planned dock time by more than the threshold', () => {
    const c = conditionOf(docked(at(2.5), at(5.75)), 'DOCK_DELAY')!;
    expect(c.priority).toBe('MEDIUM');
    expect(c.title).toBe('Dock delay at Ardmore, OK: 1:15 over plan');
    expect(c.message).toMatch(/^Jane Doe \(unit 1042\) has been at Ardmore, OK \(pickup\) since Mon, Mar 2, 08:30 CST; the planned dock time \(2:00\) should have ended by Mon, Mar 2, 10:30 CST/);
    expect(c.metadata).toMatchObject({ stopName: 'Ardmore, OK', stopIndex: 1, plannedDockHours: 2, overstayMinutes: 75, thresholdMinutes: 60, atLeast: false });
  });

  it('does not fire within the planned dock time plus the threshold', () => {
    expect(conditionOf(docked(at(2.5), at(5.25)), 'DOCK_DELAY')).toBeUndefined();
    expect(conditionOf(docked(at(2.5), at(5.5)), 'DOCK_DELAY')).toBeUndefined(); // exactly 60 min over
  });

  it('an early arrival counts from when the window opens', () => {
    expect(conditionOf(docked(at(1.5), at(4.75)), 'DOCK_DELAY')).toBeUndefined(); // 45 min over from 2 h, 75 from arrival
    expect(conditionOf(docked(at(1.5), at(5.25)), 'DOCK_DELAY')?.metadata['overstayMinutes']).toBe(75);
  });

  it('honours the threshold setting', () => {
    expect(conditionOf(docked(at(2.5), at(5.25), { alerts: { dockDelayThresholdMinutes: 30 } }), 'DOCK_DELAY')).toBeDefined();
    expect(conditionOf(docked(at(2.5), at(5.75), { alerts: { dockDelayThresholdMinutes: 90 } }), 'DOCK_DELAY')).toBeUndefined();
  });

  it('does not apply to places without a planned dock: the origin, rests', () => {
    expect(conditionOf(buildSnapshot({ now: at(5), positions: parked(DALLAS, at(0), at(5)) }), 'DOCK_DELAY')).toBeUndefined();
    expect(conditionOf(buildSnapshot({ now: at(15), positions: parked(pointAt(PAULS_VALLEY_MI), at(5.5), at(15)) }), 'DOCK_DELAY')).toBeUndefined();
  });

  it('updates hourly, and clears through reconcile when the vehicle leaves', () => {
    const open = openAlert(conditionOf(docked(at(2.5), at(5.75)), 'DOCK_DELAY')!);
    expect(check(docked(at(2.5), at(6.1)), [open]).update).toEqual([]);
    expect(check(docked(at(2.5), at(6.6)), [open]).update).toMatchObject([{ priorityChanged: false }]);
    const left = buildSnapshot({ now: at(6), positions: [...parked(pointAt(ARDMORE_MI), at(2.5), at(5.75)), ...driving(ARDMORE_MI, at(5.8), at(6))] });
    const { result } = raiseThenCheck(docked(at(2.5), at(5.75)), left, 'DOCK_DELAY');
    expect(result.resolve[0]?.resolution).toBe('The vehicle has left Ardmore, OK');
  });
});

describe('DEPARTURE_DELAYED', () => {
  const stillAtOrigin = (now: number, extra: Parameters<typeof buildSnapshot>[0] = {}) => buildSnapshot({ now, positions: parked(DALLAS, T0 - 30 * MIN, now), ...extra });

  it('fires LOW when the planned departure is 30 min past and the vehicle has not left the origin', () => {
    const c = conditionOf(stillAtOrigin(at(0.75)), 'DEPARTURE_DELAYED')!;
    expect(c.priority).toBe('LOW');
    expect(c.title).toBe('Departure delayed: 45 min past the planned departure');
    expect(c.message).toMatch(/^Jane Doe \(unit 1042\) has not left Dallas, TX 45 min after the planned departure at Mon, Mar 2, 06:00 CST/);
    expect(c.metadata).toMatchObject({ originName: 'Dallas, TX', plannedDeparture: iso(T0), minutesLate: 45 });
  });

  it('does not fire within the grace period, once the vehicle has left, or without any position', () => {
    expect(conditionOf(stillAtOrigin(at(0.5)), 'DEPARTURE_DELAYED')).toBeUndefined();
    expect(conditionOf(buildSnapshot({ now: at(0.75) }), 'DEPARTURE_DELAYED')).toBeUndefined();
    expect(conditionOf(buildSnapshot({ now: at(0.75), positions: [] }), 'DEPARTURE_DELAYED')).toBeUndefined();
  });

  it('counts from the plan\'s first drive (after loading at the origin)', () => {
    const loading: Segment = { ...(SEGMENTS[3] as Extract<Segment, { type: 'dock' }>), sequence: 0, location: 'Dallas, TX', ...DALLAS, start_time: iso(T0 - 60 * MIN), end_time: iso(T0) };
    const s = stillAtOrigin(at(0.4), { route: { segments: [loading, ...SEGMENTS], departureTime: T0 - 60 * MIN } });
    expect(conditionOf(s, 'DEPARTURE_DELAYED')).toBeUndefined();
  });

  it('updates hourly, and clears through reconcile when the vehicle leaves', () => {
    const open = openAlert(conditionOf(stillAtOrigin(at(0.75)), 'DEPARTURE_DELAYED')!);
    expect(check(stillAtOrigin(at(0.9)), [open]).update).toEqual([]);
    expect(check(stillAtOrigin(at(1.1)), [open]).update).toMatchObject([{ priorityChanged: false }]);
    const left = buildSnapshot({ now: at(1.2), positions: [...parked(DALLAS, T0, at(1)), ...driving(0, at(1.05), at(1.2))] });
    const { result } = raiseThenCheck(stillAtOrigin(at(0.75)), left, 'DEPARTURE_DELAYED');
    expect(result.resolve[0]?.resolution).toBe('The vehicle has left Dallas, TX');
  });

  describe('on an out-and-back trip', () => {
    const sanger = { name: 'Sanger, TX', ...pointAt(SANGER_MI) };
    const dallas = { name: 'Dallas, TX', ...DALLAS };
    const drive = SEGMENTS[0] as Extract<Segment, { type: 'drive' }>;
    const dock = SEGMENTS[3] as Extract<Segment, { type: 'dock' }>;
    const segments: Segment[] = [
      { ...drive, sequence: 1, from: dallas, to: sanger, start_time: iso(at(0)), end_time: iso(at(1)) },
      { ...dock, sequence: 2, location: sanger.name, ...pointAt(SANGER_MI), start_time: iso(at(1)), end_time: iso(at(2)) },
      { ...drive, sequence: 3, from: sanger, to: dallas, start_time: iso(at(2)), end_time: iso(at(3)) },
      { ...dock, sequence: 4, location: dallas.name, ...DALLAS, start_time: iso(at(3)), end_time: iso(at(5)) },
    ];
    const route = { segments, stops: [] as StopEta[] };

    it('is raised while the plan has the vehicle away, not once the plan brings it back', () => {
      expect(conditionOf(buildSnapshot({ now: at(2), positions: parked(DALLAS, at(0), at(2)), route }), 'DEPARTURE_DELAYED')).toBeDefined();
      expect(conditionOf(buildSnapshot({ now: at(4), positions: parked(DALLAS, at(3), at(4)), route }), 'DEPARTURE_DELAYED')).toBeUndefined();
    });

    it('an open alert holds while the vehicle is still at the origin', () => {
      const open = openAlert(conditionOf(buildSnapshot({ now: at(2), positions: parked(DALLAS, at(0), at(2)), route }), 'DEPARTURE_DELAYED')!);
      expect(check(buildSnapshot({ now: at(4), positions: parked(DALLAS, at(2), at(4)), route }), [open]).resolve).toEqual([]);
    });
  });
});
