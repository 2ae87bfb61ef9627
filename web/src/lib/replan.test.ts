import { describe, expect, it } from 'vitest';
import { HOS_APPROACHING_LIMIT_TYPES } from '../../../src/domain/alerts/types.js';
import { ALERT_TYPES } from './alert-feed';
import {
  changeLabel,
  offersReplan,
  oldWindowLabel,
  outcomeTone,
  planStopKind,
  planStopRows,
  REPLAN_ALERT_TYPES,
  replanBody,
  replanHref,
  revisionAuthor,
  revisionTitle,
  showRevisions,
  startFacts,
  stopChangeRows,
  totalsRows,
  wantsReplan,
  windowLabel,
  type PlanStopChange,
  type ReplanStart,
  type Revision,
  type StopChange,
} from './replan';

const CHICAGO = 'America/Chicago';
const stopChange = (over: Partial<StopChange> = {}): StopChange => ({
  index: 2,
  sequence: 3,
  name: 'Wichita DC',
  type: 'DELIVERY',
  appointment: { earliest: null, latest: '2026-06-08T22:00:00.000Z' },
  oldArrivalTime: '2026-06-09T05:10:00.000Z',
  newArrivalTime: '2026-06-08T20:25:00.000Z',
  changeHours: -8.75,
  oldWithinWindow: false,
  newWithinWindow: true,
  outcome: 'KEPT',
  ...over,
});

describe('which alerts offer a re-plan', () => {
  const alert = (type: string, over: Partial<{ status: string; routePlanId: string | null }> = {}) => ({ type, status: 'ACTIVE', routePlanId: 'rte_1', ...over });

  it('off route, late or at risk for an appointment, close to an HOS limit, severe weather ahead: while unresolved, on a route', () => {
    for (const t of ['ROUTE_DEVIATION', 'LATE_TO_APPOINTMENT', 'APPOINTMENT_AT_RISK', 'HOS_APPROACHING_DRIVE_LIMIT', 'HOS_BREAK_REQUIRED', 'SEVERE_WEATHER_IN_PATH']) {
      expect(offersReplan(alert(t)), t).toBe(true);
    }
    expect(offersReplan(alert('LATE_TO_APPOINTMENT', { status: 'ACKNOWLEDGED' }))).toBe(true);
    expect(offersReplan(alert('LATE_TO_APPOINTMENT', { status: 'SNOOZED' }))).toBe(true);
    expect(offersReplan(alert('LATE_TO_APPOINTMENT', { status: 'RESOLVED' }))).toBe(false);
    expect(offersReplan(alert('LATE_TO_APPOINTMENT', { routePlanId: null }))).toBe(false);
    for (const t of ['LOW_FUEL', 'VEHICLE_FAULT', 'HOS_VIOLATION', 'WEATHER_ADVISORY', 'TELEMETRY_STALE']) expect(offersReplan(alert(t)), t).toBe(false);
  });

  it('names real alert types, the HOS ones being those the API’s HOS_APPROACHING_LIMIT filter names', () => {
    for (const t of REPLAN_ALERT_TYPES) expect(ALERT_TYPES).toContain(t);
    expect(REPLAN_ALERT_TYPES.filter((t) => t.startsWith('HOS_'))).toEqual([...HOS_APPROACHING_LIMIT_TYPES]);
  });

  it('opens the route page with the preview, and reads that back from the address', () => {
    expect(replanHref('rte_7Hq2')).toBe('/routes/rte_7Hq2?replan=1');
    expect(wantsReplan('?replan=1')).toBe(true);
    expect(wantsReplan('replan=true')).toBe(true);
    expect(wantsReplan('')).toBe(false);
    expect(wantsReplan('?replan=0')).toBe(false);
    expect(wantsReplan('?other=1')).toBe(false);
  });

  it('asks for a preview or applies, with the reason when one was typed', () => {
    expect(replanBody(true, '')).toEqual({ preview: true });
    expect(replanBody(true, '  Stuck in traffic ')).toEqual({ preview: true, reason: 'Stuck in traffic' });
    expect(replanBody(false, '   ')).toEqual({});
    expect(replanBody(false, 'x'.repeat(600)).reason).toHaveLength(500);
  });
});

describe('the words of a re-plan preview', () => {
  it('says how much earlier or later, to the minute', () => {
    expect(changeLabel(2.25)).toBe('2:15 later');
    expect(changeLabel(-8.75)).toBe('8:45 earlier');
    expect(changeLabel(0.004)).toBe('No change');
    expect(changeLabel(0)).toBe('No change');
  });

  it('puts each remaining stop’s old and new ETA side by side in the stop’s zone, with kept or missed', () => {
    const zones = [{ timeZone: CHICAGO }, { timeZone: CHICAGO }, { timeZone: CHICAGO }];
    const [row] = stopChangeRows([stopChange()], zones);
    expect(row).toEqual({
      key: '2-3',
      number: 3,
      name: 'Wichita DC',
      type: 'Delivery',
      window: 'any time – Mon, Jun 8, 17:00 CDT',
      oldEta: 'Tue, Jun 9, 00:10 CDT',
      newEta: 'Mon, Jun 8, 15:25 CDT',
      change: '8:45 earlier',
      before: 'Late',
      outcome: 'KEPT',
      outcomeLabel: 'Kept',
    });
    const missed = stopChangeRows([stopChange({ outcome: 'MISSED', oldWithinWindow: true, newWithinWindow: false, oldArrivalTime: '2026-06-08T20:25:00.000Z', newArrivalTime: '2026-06-08T23:25:00.000Z', changeHours: 3 })], zones)[0]!;
    expect([missed.before, missed.outcomeLabel, missed.change]).toEqual(['On time', 'Missed', '3:00 later']);
    // The change is the difference of the two times as shown (clocks drop the seconds): 09:44 → 07:52 is
    // 1:52 earlier, though the exact 1 h 52 min 40 s would round to 1:53.
    const shown = stopChangeRows([stopChange({ oldArrivalTime: '2026-06-08T14:44:50.000Z', newArrivalTime: '2026-06-08T12:52:10.000Z', changeHours: -(1 + 52 / 60 + 40 / 3600) })], zones)[0]!;
    expect([shown.oldEta, shown.newEta, shown.change]).toEqual(['Mon, Jun 8, 09:44 CDT', 'Mon, Jun 8, 07:52 CDT', '1:52 earlier']);
    expect(stopChangeRows([stopChange({ appointment: null, outcome: 'NO_WINDOW', oldWithinWindow: null })], zones)[0]).toMatchObject({ window: '—', before: '—', outcomeLabel: 'No window' });
    expect([outcomeTone('KEPT'), outcomeTone('MISSED'), outcomeTone('NO_WINDOW')]).toEqual(['green', 'red', 'grey']);
    expect(oldWindowLabel(null)).toBe('—');
    expect(windowLabel({ earliest: '2026-06-08T13:00:00Z', latest: null }, CHICAGO)).toBe('Mon, Jun 8, 08:00 CDT – open');
  });

  it('compares the rest of the trip before and after', () => {
    const rows = totalsRows(
      { distanceMiles: 290.4, driveHours: 5.28, arrivalTime: '2026-06-09T05:10:00.000Z', restStops: 1, fuelStops: 0 },
      { distanceMiles: 290.4, driveHours: 5.28, arrivalTime: '2026-06-08T20:25:00.000Z', restStops: 0, fuelStops: 1 },
      CHICAGO,
    );
    expect(rows).toEqual([
      { label: 'Distance', before: '290 mi', after: '290 mi', change: 'No change' },
      { label: 'Driving', before: '5:17', after: '5:17', change: 'No change' },
      { label: 'Arrival', before: 'Tue, Jun 9, 00:10 CDT', after: 'Mon, Jun 8, 15:25 CDT', change: '8:45 earlier' },
      { label: 'Rests', before: '1', after: '0', change: '−1' },
      { label: 'Fuel stops', before: '0', after: '1', change: '+1' },
    ]);
    const longer = totalsRows(
      { distanceMiles: 100, driveHours: 2, arrivalTime: '2026-06-08T20:00:00Z', restStops: 0, fuelStops: 0 },
      { distanceMiles: 131, driveHours: 2.5, arrivalTime: '2026-06-08T20:30:00Z', restStops: 0, fuelStops: 0 },
    );
    expect(longer[0]!.change).toBe('+31 mi');
    expect(longer[1]!.change).toBe('0:30 more');
    // Each change is the difference of the figures shown beside it: 7:26 − 6:46 = 0:40, though the exact
    // 0.68 h (40.8 min) would round to 0:41.
    const shown = totalsRows(
      { distanceMiles: 100, driveHours: 7 + 26.4 / 60, arrivalTime: '2026-06-08T20:00:00Z', restStops: 0, fuelStops: 0 },
      { distanceMiles: 100, driveHours: 6 + 45.6 / 60, arrivalTime: '2026-06-08T20:00:00Z', restStops: 0, fuelStops: 0 },
    );
    expect(shown[1]).toEqual({ label: 'Driving', before: '7:26', after: '6:46', change: '0:40 less' });
  });

  it('lists the rests, breaks and fuel stops added and removed in the order they happen', () => {
    const s = (kind: PlanStopChange['kind'], startTime: string, durationHours: number, location = 'Ardmore, OK'): PlanStopChange => ({ kind, location, latitude: 34.17, longitude: -97.14, startTime, durationHours });
    const rows = planStopRows([s('fuel', '2026-06-08T18:00:00Z', 0.25, 'Perry, OK'), s('break', '2026-06-08T17:00:00Z', 0.5)], [s('rest', '2026-06-08T17:00:00Z', 10, 'Denton, TX')], CHICAGO);
    expect(rows.map((r) => [r.change, r.kind, r.location, r.start, r.duration])).toEqual([
      ['Added', '30-minute break', 'Ardmore, OK', 'Mon, Jun 8, 12:00 CDT', '0:30'],
      ['Removed', '10-hour rest', 'Denton, TX', 'Mon, Jun 8, 12:00 CDT', '10:00'],
      ['Added', 'Fuel stop', 'Perry, OK', 'Mon, Jun 8, 13:00 CDT', '0:15'],
    ]);
    expect(planStopKind({ kind: 'restart', durationHours: 34 })).toBe('34-hour restart');
    expect(planStopKind({ kind: 'rest', durationHours: 2 })).toBe('2:00 rest');
    expect(planStopRows([], [])).toEqual([]);
  });

  it('says where the new plan starts and with which clocks', () => {
    const start: ReplanStart = {
      latitude: 33.5,
      longitude: -97.15,
      name: 'near Gainesville, TX',
      source: 'POSITION',
      recordedAt: '2026-06-08T15:00:00.000Z',
      completedStops: 2,
      offPlanMiles: 4.2,
      clocks: { source: 'LOG', hoursDriven: 3, onDutyHours: 3.5, hoursSinceBreak: 3, cycleHoursUsed: 41.25 },
    };
    expect(startFacts(start, 3, CHICAGO)).toEqual([
      ['Starts from', 'near Gainesville, TX (33.5000, -97.1500)'],
      ['Position reported', 'Mon, Jun 8, 10:00 CDT'],
      ['Stops completed', '2 of 3'],
      ['Off the old path', '4 mi'],
      ['Driven', '3:00'],
      ['On duty', '3:30'],
      ['Since the last break', '3:00'],
      ['Cycle used', '41:15'],
      ['Clocks from', 'the duty-status log'],
    ]);
    const given = startFacts({ ...start, source: 'REQUEST', clocks: { ...start.clocks, source: 'samsara' } }, 3, CHICAGO);
    expect(given[1]![0]).toBe('Position given');
    expect(given[8]).toEqual(['Clocks from', 'the ELD (Samsara)']);
  });
});

describe('a route’s revisions', () => {
  const revision = (n: number, over: Partial<Revision> = {}) => ({ revision: n, current: false, createdBy: 'usr_1', createdByName: 'Dana Dispatcher', ...over }) as Revision;

  it('are listed once the route was re-planned, each with who made it', () => {
    expect(showRevisions(undefined)).toBe(false);
    expect(showRevisions([revision(1, { current: true })])).toBe(false);
    expect(showRevisions([revision(1), revision(2, { current: true })])).toBe(true);
    expect(revisionTitle(revision(1))).toBe('Revision 1 — as planned');
    expect(revisionTitle(revision(2))).toBe('Revision 2');
    expect(revisionAuthor(revision(2))).toBe('Dana Dispatcher');
    expect(revisionAuthor(revision(2, { createdByName: null }))).toBe('usr_1');
    expect(revisionAuthor(revision(2, { createdByName: null, createdBy: null }))).toBe('an API key or the system');
  });
});
