import { describe, expect, it } from 'vitest';
import { dutySpans, logDays, planDutyChanges, type DutySpan } from './duty';
import {
  driverNames,
  driverChangeNote,
  drivingHoursOf,
  drivingMinutesOf,
  dutyDrivers,
  isDriverChange,
  teammateLabel,
  teammateOf,
  teamDutyChanges,
  teamDutyStatuses,
  turnsAtTheWheel,
  wheelLines,
  wheelNow,
  wheelTime,
  withDriverNames,
  type TeamSegment,
} from './team';

const H = 3_600_000;
const T0 = Date.parse('2026-03-03T14:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const ROSA = 'drv_rosa';
const OMAR = 'drv_omar';
const NAMES = { [ROSA]: 'Rosa Diaz', [OMAR]: 'Omar Haddad' };
const CHI = { time_zone: 'America/Chicago' };
const DEN = { time_zone: 'America/Denver' };
const LAX = { time_zone: 'America/Los_Angeles' };

let t = T0;
/** Segments one after the other from T0, each `hours` long. */
function seg(type: string, hours: number, extra: Partial<TeamSegment> = {}): TeamSegment {
  const s: TeamSegment = { type, start_time: iso(t), end_time: iso(t + hours * H), duration_hours: hours, ...extra };
  t += hours * H;
  return s;
}
const drive = (hours: number, driver: string, from = CHI, to = CHI) => seg('drive', hours, { driver_id: driver, from, to });
const change = (to: string, from: string) => seg('wait', 0.1, { reason: `Driver change: ${to} takes the wheel, ${from} goes to the sleeper berth (the 11-hour driving limit is reached)`, time_zone: 'America/Denver' });

/** Dallas → Los Angeles for Rosa and Omar, as the planner makes it (the times of a real plan). */
function dallasToLa(): TeamSegment[] {
  t = T0;
  return [
    drive(8, ROSA),
    change(OMAR, ROSA),
    drive(2.9, OMAR, CHI, DEN),
    seg('fuel', 0.25, { time_zone: 'America/Denver' }),
    drive(5.1, OMAR, DEN, DEN),
    change(ROSA, OMAR),
    drive(3, ROSA, DEN, LAX),
    change(OMAR, ROSA),
    drive(3, OMAR, LAX, LAX),
    change(ROSA, OMAR),
    drive(0.5, ROSA, LAX, LAX),
    seg('dock', 1, { time_zone: 'America/Los_Angeles' }),
  ];
}

/** The spans of one driver's planned log, from the departure to the arrival. */
function spansOf(segments: TeamSegment[], driverId: string): DutySpan[] {
  return dutySpans(teamDutyChanges(segments, driverId), Date.parse(segments[segments.length - 1]!.end_time));
}

describe('a team plan, driver by driver', () => {
  it('tells the driver changes from other waits, and names the drivers in their reasons', () => {
    const segments = dallasToLa();
    expect(segments.filter(isDriverChange)).toHaveLength(4);
    expect(isDriverChange(seg('wait', 1.5, { reason: 'Waiting 1.5 h for the appointment window' }))).toBe(false);
    expect(isDriverChange(drive(1, ROSA))).toBe(false);
    expect(withDriverNames(segments[1]!.reason!, NAMES)).toBe('Driver change: Omar Haddad takes the wheel, Rosa Diaz goes to the sleeper berth (the 11-hour driving limit is reached)');
    expect(withDriverNames('No driver here.', NAMES)).toBe('No driver here.');
    expect(driverChangeNote(segments[1]!.reason!, NAMES)).toEqual({ headline: 'Omar Haddad takes the wheel', more: 'Rosa Diaz goes to the sleeper berth: the 11-hour driving limit is reached.' });
    expect(driverChangeNote(`Driver change: ${ROSA} takes the wheel, ${OMAR} goes to the sleeper berth`, {})).toEqual({ headline: `${ROSA} takes the wheel`, more: `${OMAR} goes to the sleeper berth.` });
    expect(driverChangeNote('Waiting 1.5 h.', NAMES)).toBeNull();
  });

  it('each drive is driving for its driver and sleeper berth for the other; the driver on duty works the fuel and dock stops', () => {
    const segments = dallasToLa();
    expect(teamDutyStatuses(segments, ROSA)).toEqual([
      'ON_DUTY_DRIVING',
      'OFF_DUTY',
      'SLEEPER_BERTH',
      'SLEEPER_BERTH',
      'SLEEPER_BERTH',
      'OFF_DUTY',
      'ON_DUTY_DRIVING',
      'OFF_DUTY',
      'SLEEPER_BERTH',
      'OFF_DUTY',
      'ON_DUTY_DRIVING',
      'ON_DUTY_NOT_DRIVING',
    ]);
    expect(teamDutyStatuses(segments, OMAR)).toEqual([
      'SLEEPER_BERTH',
      'OFF_DUTY',
      'ON_DUTY_DRIVING',
      'ON_DUTY_NOT_DRIVING',
      'ON_DUTY_DRIVING',
      'OFF_DUTY',
      'SLEEPER_BERTH',
      'OFF_DUTY',
      'ON_DUTY_DRIVING',
      'OFF_DUTY',
      'SLEEPER_BERTH',
      'SLEEPER_BERTH',
    ]);
  });

  it('each driver’s driving in their grid is the sum of their drive segments, and together the plan’s driving', () => {
    const segments = dallasToLa();
    const from = Date.parse(segments[0]!.start_time);
    const to = Date.parse(segments[segments.length - 1]!.end_time);
    const driving = (id: string) => logDays(spansOf(segments, id), from, to, 'America/Chicago').reduce((sum, d) => sum + d.totals.ON_DUTY_DRIVING, 0);
    expect(drivingHoursOf(segments, ROSA)).toBeCloseTo(11.5, 9);
    expect(drivingHoursOf(segments, OMAR)).toBeCloseTo(11, 9);
    expect(driving(ROSA)).toBeCloseTo(drivingHoursOf(segments, ROSA), 9);
    expect(driving(OMAR)).toBeCloseTo(drivingHoursOf(segments, OMAR), 9);
    const all = segments.filter((s) => s.type === 'drive').reduce((sum, s) => sum + s.duration_hours!, 0);
    expect(driving(ROSA) + driving(OMAR)).toBeCloseTo(all, 9);
    // In the timeline's minutes the two drivers' driving adds up to the plan's.
    const minute = (iso: string) => Math.round(Date.parse(iso) / 60_000);
    const planDrive = segments.filter((s) => s.type === 'drive').reduce((sum, s) => sum + minute(s.end_time) - minute(s.start_time), 0);
    expect(drivingMinutesOf(segments, ROSA) + drivingMinutesOf(segments, OMAR)).toBe(planDrive);
    expect(drivingMinutesOf(segments, ROSA)).toBe(11.5 * 60);
    // Each grid covers the whole trip, day by day.
    for (const id of [ROSA, OMAR]) {
      const days = logDays(spansOf(segments, id), from, to, 'America/Chicago');
      const total = days.reduce((sum, d) => sum + Object.values(d.totals).reduce((a, b) => a + b, 0), 0);
      expect(total).toBeCloseTo((to - from) / H, 9);
    }
  });

  it('the two grids never show both drivers driving, nor both on duty, at once', () => {
    const segments = dallasToLa();
    const rosa = spansOf(segments, ROSA);
    const omar = spansOf(segments, OMAR);
    const overlap = (a: DutySpan, b: DutySpan) => Math.min(a.endMs, b.endMs) > Math.max(a.startMs, b.startMs);
    const working = (s: DutySpan) => s.status === 'ON_DUTY_DRIVING' || s.status === 'ON_DUTY_NOT_DRIVING';
    for (const r of rosa.filter(working)) for (const o of omar.filter(working)) expect(overlap(r, o), `${iso(r.startMs)} / ${iso(o.startMs)}`).toBe(false);
    expect(rosa.some((s) => s.status === 'ON_DUTY_DRIVING') && omar.some((s) => s.status === 'ON_DUTY_DRIVING')).toBe(true);
  });

  it('a dock before any drive is the first driver’s; a stop right after a driver change is the new driver’s', () => {
    t = T0;
    const segments = [seg('dock', 1), drive(2, OMAR), change(ROSA, OMAR), seg('fuel', 0.25), drive(3, ROSA), seg('dock', 1)];
    expect(dutyDrivers(segments)).toEqual([OMAR, OMAR, OMAR, ROSA, ROSA, ROSA]);
    expect(teamDutyStatuses(segments, OMAR)).toEqual(['ON_DUTY_NOT_DRIVING', 'ON_DUTY_DRIVING', 'OFF_DUTY', 'SLEEPER_BERTH', 'SLEEPER_BERTH', 'SLEEPER_BERTH']);
    expect(teamDutyStatuses(segments, ROSA)).toEqual(['SLEEPER_BERTH', 'SLEEPER_BERTH', 'OFF_DUTY', 'ON_DUTY_NOT_DRIVING', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING']);
  });

  it('rests are the rest’s status for both; waits are off duty for both, in the sleeper berth from 7 hours', () => {
    t = T0;
    const segments = [
      drive(10, ROSA),
      seg('rest', 10, { duty_status: 'SLEEPER_BERTH', reason: 'Neither driver can drive' }),
      seg('rest', 0.5, { duty_status: 'OFF_DUTY' }),
      seg('wait', 2, { reason: 'Waiting for the appointment window' }),
      seg('wait', 7.5, { reason: 'Waiting for the appointment window' }),
      drive(1, OMAR),
    ];
    for (const id of [ROSA, OMAR]) expect(teamDutyStatuses(segments, id).slice(1, 5)).toEqual(['SLEEPER_BERTH', 'OFF_DUTY', 'OFF_DUTY', 'SLEEPER_BERTH']);
    // The same as one driver's log would show for them.
    expect(planDutyChanges(segments as never).slice(1, 5).map((c) => c.status)).toEqual(['SLEEPER_BERTH', 'OFF_DUTY', 'OFF_DUTY', 'SLEEPER_BERTH']);
  });

  it('a one-driver plan has no driver on duty to name', () => {
    t = T0;
    const segments = [seg('drive', 3), seg('fuel', 0.25)];
    expect(dutyDrivers(segments)).toEqual([null, null]);
  });
});

describe('turns at the wheel', () => {
  it('a turn runs through its fuel stops and ends at a driver change or a rest', () => {
    const segments = dallasToLa();
    const turns = turnsAtTheWheel(segments);
    expect(turns.map((x) => [x.driverId, (x.endMs - x.startMs) / H])).toEqual([
      [ROSA, 8],
      [OMAR, expect.closeTo(8.25, 9)],
      [ROSA, 3],
      [OMAR, 3],
      [ROSA, 0.5],
    ]);
    expect(turns[1]).toMatchObject({ startZone: 'America/Chicago', endZone: 'America/Denver' });
    t = T0;
    expect(turnsAtTheWheel([drive(5, ROSA), seg('rest', 10, { duty_status: 'SLEEPER_BERTH' }), drive(5, ROSA)])).toHaveLength(2);
  });

  it('knows who has the wheel now and who is next', () => {
    const segments = dallasToLa();
    expect(wheelNow(segments, T0 - H)).toMatchObject({ current: null, next: { driverId: ROSA, startMs: T0 } });
    expect(wheelNow(segments, T0 + H)).toMatchObject({ current: { driverId: ROSA, endMs: T0 + 8 * H }, next: { driverId: OMAR, startMs: T0 + 8.1 * H } });
    // During the change nobody drives; during Omar's fuel stop his turn goes on.
    expect(wheelNow(segments, T0 + 8.05 * H).current).toBeNull();
    expect(wheelNow(segments, T0 + 11.1 * H).current?.driverId).toBe(OMAR);
    expect(wheelNow(segments, T0 + 40 * H)).toEqual({ current: null, next: null });
  });

  it('says it in the driver’s words, the times in the zone where the turn starts or ends', () => {
    const segments = dallasToLa();
    // 15:00 in Dallas (CST): Rosa drives until 22:00 UTC = 16:00 CST; Omar takes over at 16:06.
    expect(wheelLines(segments, ROSA, NAMES, T0 + H)).toEqual({ current: 'You are at the wheel until 16:00', next: 'Next at the wheel: Omar Haddad, from 16:06' });
    expect(wheelLines(segments, OMAR, NAMES, T0 + H)).toEqual({ current: 'Rosa Diaz is at the wheel until 16:00', next: 'Next at the wheel: you, from 16:06' });
    expect(wheelLines(segments, OMAR, NAMES, T0 - H)).toEqual({ current: null, next: 'Next at the wheel: Rosa Diaz, from 08:00' });
    // Another day: the date too.
    expect(wheelLines(segments, OMAR, NAMES, T0 - 20 * H).next).toBe('Next at the wheel: Rosa Diaz, from Tue, Mar 3, 08:00 CST');
    // Late in the trip (02:00 in Los Angeles) Omar drives, in Los Angeles' time, until 22.55 h after 14:00 UTC.
    expect(wheelLines(segments, OMAR, NAMES, T0 + 20 * H)).toEqual({ current: 'You are at the wheel until 04:33', next: 'Next at the wheel: Rosa Diaz, from 04:39' });
    expect(wheelLines(segments, OMAR, {}, T0 + H).current).toBe(`${ROSA} is at the wheel until 16:00`);
    expect(wheelTime(T0, T0, 'America/Chicago')).toBe('08:00');
    expect(wheelTime(T0 + 24 * H, T0, 'America/Chicago')).toBe('Wed, Mar 4, 08:00 CST');
  });

  it('names the drivers whose profile is known', () => {
    const rosa = { firstName: 'Rosa', lastName: 'Diaz' };
    const omar = { firstName: 'Omar', lastName: 'Haddad' };
    expect(driverNames({ driverId: ROSA, coDriverId: OMAR }, rosa, omar)).toEqual(NAMES);
    expect(driverNames({ driverId: ROSA, coDriverId: OMAR }, rosa, null)).toEqual({ [ROSA]: 'Rosa Diaz' });
    expect(driverNames({ driverId: ROSA, coDriverId: null }, rosa, omar)).toEqual({ [ROSA]: 'Rosa Diaz' });
  });

  it('finds the other driver of a team route', () => {
    expect(teammateOf({ driverId: ROSA, coDriverId: OMAR }, ROSA)).toBe(OMAR);
    expect(teammateOf({ driverId: ROSA, coDriverId: OMAR }, OMAR)).toBe(ROSA);
    expect(teammateOf({ driverId: ROSA, coDriverId: null }, ROSA)).toBeNull();
    expect(teammateOf({ driverId: ROSA, coDriverId: OMAR }, 'drv_other')).toBeNull();
    const team = { driverId: ROSA, coDriverId: OMAR };
    expect(teammateLabel(team, OMAR, { driverName: 'Rosa Diaz' })).toEqual({ id: ROSA, name: 'Rosa Diaz', role: 'the route’s driver', named: true });
    expect(teammateLabel(team, ROSA, { driverName: 'Rosa Diaz', coDriverName: 'Omar Haddad' })).toEqual({ id: OMAR, name: 'Omar Haddad', role: 'your co-driver', named: true });
    // A DRIVER user cannot read the co-driver's profile: "your co-driver".
    expect(teammateLabel(team, ROSA, { driverName: 'Rosa Diaz' })).toEqual({ id: OMAR, name: 'your co-driver', role: 'your co-driver', named: false });
    expect(teammateLabel({ driverId: ROSA, coDriverId: null }, ROSA, {})).toBeNull();
  });
});
