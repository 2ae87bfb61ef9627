import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant, createUser, login, type TenantFixture } from '../../../test/helpers/factories.js';

type Auth = Record<string, string>;
type DutyStatus = 'OFF_DUTY' | 'SLEEPER_BERTH' | 'ON_DUTY_DRIVING' | 'ON_DUTY_NOT_DRIVING';

interface HosRecord {
  driverId: string;
  driverName: string;
  currentHoursDriven: number;
  currentOnDutyTime: number;
  currentCycleUsed: number;
  hoursSinceLastBreak: number;
  lastRestartDate: string | null;
  driveTimeRemaining: number;
  dutyTimeRemaining: number;
  cycleTimeRemaining: number;
  breakRequired: boolean;
  breakRequiredWithin: number | null;
  currentDutyStatus: string;
  lastStatusChange: string | null;
  source: string;
  lastSyncedAt: string | null;
  ruleSet: string;
  violations: Array<{ kind: string; at: string; overHours: number; rule: string; explanation: string }>;
  nextRequiredRest: { kind: string; requiredAfterDrivingHours: number; requiredWithinHours: number; durationHours: number; limitedBy: string; explanation: string };
  explanation: string[];
}

interface Segment {
  type: string;
  duration_hours: number;
  rest_type?: string;
  hos_state_after: { hours_driven: number; on_duty_hours: number; hours_since_break: number; cycle_hours_used: number; drive_hours_remaining: number };
}

/** The Driver HOS record's fields as the spec lists them. */
const SPEC_FIELDS = [
  'driverId', 'driverName', 'currentHoursDriven', 'currentOnDutyTime', 'currentCycleUsed', 'hoursSinceLastBreak', 'lastRestartDate', 'driveTimeRemaining',
  'dutyTimeRemaining', 'cycleTimeRemaining', 'breakRequired', 'breakRequiredWithin', 'currentDutyStatus', 'lastStatusChange', 'source', 'lastSyncedAt',
];

/**
 * Each test lives on its own days, later than the previous test's: the fake clock only moves forward
 * (the rate limiter, like any real clock reader, is not built for time running backwards).
 */
let dayIndex = 0;
function newDays(): { DAY: string; NEXT: string } {
  const base = Date.parse('2026-03-02T00:00:00.000Z') + dayIndex * 86_400_000;
  dayIndex += 2;
  return { DAY: new Date(base).toISOString().slice(0, 10), NEXT: new Date(base + 86_400_000).toISOString().slice(0, 10) };
}
let DAY = '2026-03-02';
let NEXT = '2026-03-03';
const at = (hhmm: string, day = DAY) => `${day}T${hhmm}:00.000Z`;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const LONG_TRIP = [{ address: 'Dallas, TX' }, { address: 'Los Angeles, CA' }];

describe.each(DB_KINDS)('driver HOS and duty-status log (%s)', (kind) => {
  let t: TestApp;
  let clock: FakeClock;
  let acme: TenantFixture;
  let other: TenantFixture;
  /** The OWNER's API key: it does not expire when the fake clock moves hours ahead. */
  let owner: Auth;
  let ownerUserId: string;

  beforeAll(async () => {
    clock = new FakeClock(at('05:00'));
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Acme Freight' });
    other = await createTenant(t.app, { name: 'Other Carrier' });
    owner = { 'x-api-key': (await createApiKey(t.app, acme, 'hos tests')).key };
    ownerUserId = acme.ownerId;
  });
  afterAll(async () => t?.close());

  beforeEach(() => {
    ({ DAY, NEXT } = newDays());
  });

  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const hos = async (driverId: string, auth: Auth = owner) => {
    const res = await inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/hos`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<HosRecord>();
  };
  const post = (driverId: string, payload: Record<string, unknown>, auth: Auth = owner) =>
    inject({ method: 'POST', url: `/api/v1/drivers/${driverId}/duty-status`, headers: auth, payload });
  /** Appends the statuses in order (each `at` given explicitly); the clock must already be past the last. */
  const logDay = async (driverId: string, entries: Array<[string, DutyStatus]>, day = DAY) => {
    for (const [hhmm, status] of entries) {
      const res = await post(driverId, { status, at: at(hhmm, day) });
      expect(res.statusCode, `${status} at ${hhmm}: ${res.body}`).toBe(201);
    }
  };
  const newDriver = async (overrides: Record<string, unknown> = {}) => (await createDriver(t.app, owner, overrides)).id;

  it("a fresh driver's HOS record: every spec field, source MANUAL, 11/14/70 h remaining", async () => {
    clock.set(at('05:00'));
    const id = await newDriver({ firstName: 'Frieda', lastName: 'Fresh' });
    const r = await hos(id);
    expect(Object.keys(r)).toEqual(expect.arrayContaining(SPEC_FIELDS));
    expect(r).toMatchObject({
      driverId: id,
      driverName: 'Frieda Fresh',
      currentHoursDriven: 0,
      currentOnDutyTime: 0,
      currentCycleUsed: 0,
      hoursSinceLastBreak: 0,
      driveTimeRemaining: 11,
      dutyTimeRemaining: 14,
      cycleTimeRemaining: 70,
      breakRequired: false,
      breakRequiredWithin: 8,
      currentDutyStatus: 'OFF_DUTY',
      lastStatusChange: null,
      source: 'MANUAL',
      lastSyncedAt: null,
      ruleSet: 'US_PROPERTY_70_8',
      violations: [],
    });
    // Nothing logged: no restart anyone took.
    expect(r.lastRestartDate).toBeNull();
    expect(r.nextRequiredRest).toMatchObject({ kind: 'BREAK', requiredAfterDrivingHours: 8, durationHours: 0.5, limitedBy: 'BREAK' });
    expect(r.explanation.length).toBeGreaterThan(0);
    const log = await inject({ method: 'GET', url: `/api/v1/drivers/${id}/duty-status`, headers: owner });
    expect(log.json()).toEqual({ data: [] });
  });

  it('a day of duty statuses gives exact clocks; the driver record and list show the same hours, live', async () => {
    clock.set(at('17:00'));
    const id = await newDriver({ firstName: 'Dora', lastName: 'Day' });
    const first = await post(id, { status: 'ON_DUTY_NOT_DRIVING', at: at('06:00'), latitude: 32.78, longitude: -96.8, note: 'Pre-trip inspection' });
    expect(first.statusCode, first.body).toBe(201);
    const { event, hos: afterFirst } = first.json<{ event: Record<string, unknown>; hos: HosRecord }>();
    expect(event).toEqual({
      id: expect.stringMatching(/^dst_[0-9A-Za-z]{22}$/),
      driverId: id,
      status: 'ON_DUTY_NOT_DRIVING',
      at: at('06:00'),
      latitude: 32.78,
      longitude: -96.8,
      note: 'Pre-trip inspection',
      source: 'MANUAL',
      createdBy: ownerUserId,
      createdAt: at('17:00'),
      // The owner entered it for the driver: another authenticated user (ELD specification §7.22, origin 3).
      recordStatus: 'ACTIVE',
      origin: 'OTHER_USER',
      sequence: expect.any(Number),
      editId: null,
      annotation: null,
    });
    // On duty (not driving) since 06:00: 11 h of the window and the cycle, no driving.
    expect(afterFirst).toMatchObject({ currentHoursDriven: 0, currentOnDutyTime: 11, currentCycleUsed: 11, currentDutyStatus: 'ON_DUTY_NOT_DRIVING', lastStatusChange: at('06:00') });

    await logDay(id, [
      ['06:30', 'ON_DUTY_DRIVING'], // 4.5 h driving
      ['11:00', 'OFF_DUTY'], // 30-minute break
      ['11:30', 'ON_DUTY_DRIVING'], // 4 h driving
      ['15:30', 'ON_DUTY_NOT_DRIVING'], // 30 minutes fuelling: a qualifying break too (not driving)
      ['16:00', 'ON_DUTY_DRIVING'], // 1 h driving until 17:00
    ]);
    const r = await hos(id);
    expect(r).toMatchObject({
      currentHoursDriven: 9.5,
      currentOnDutyTime: 11, // 06:00 → 17:00
      currentCycleUsed: 10.5, // everything but the 30 minutes off duty
      hoursSinceLastBreak: 1,
      driveTimeRemaining: 1.5,
      dutyTimeRemaining: 3,
      cycleTimeRemaining: 59.5,
      breakRequired: false,
      breakRequiredWithin: 7,
      currentDutyStatus: 'ON_DUTY_DRIVING',
      lastStatusChange: at('16:00'),
      lastSyncedAt: at('17:00'),
      source: 'MANUAL',
      violations: [],
    });
    expect(r.nextRequiredRest).toMatchObject({ kind: 'FULL_REST', requiredAfterDrivingHours: 1.5, requiredWithinHours: 3, durationHours: 10, limitedBy: 'DRIVE' });

    // Fifteen minutes later the clocks have moved on; nothing was logged.
    clock.set(at('17:15'));
    expect(await hos(id)).toMatchObject({ currentHoursDriven: 9.75, currentOnDutyTime: 11.25, currentCycleUsed: 10.75, hoursSinceLastBreak: 1.25, driveTimeRemaining: 1.25, breakRequiredWithin: 6.75 });

    const log = (await inject({ method: 'GET', url: `/api/v1/drivers/${id}/duty-status`, headers: owner })).json<{ data: Array<{ status: string; at: string }> }>();
    expect(log.data.map((e) => [e.at.slice(11, 16), e.status])).toEqual([
      ['16:00', 'ON_DUTY_DRIVING'],
      ['15:30', 'ON_DUTY_NOT_DRIVING'],
      ['11:30', 'ON_DUTY_DRIVING'],
      ['11:00', 'OFF_DUTY'],
      ['06:30', 'ON_DUTY_DRIVING'],
      ['06:00', 'ON_DUTY_NOT_DRIVING'],
    ]);
    const window = (await inject({ method: 'GET', url: `/api/v1/drivers/${id}/duty-status?from=${at('11:00')}&to=${at('16:00')}&limit=2`, headers: owner })).json<{ data: Array<{ at: string }> }>();
    expect(window.data.map((e) => e.at)).toEqual([at('15:30'), at('11:30')]);
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${id}/duty-status?from=${at('12:00')}&to=${at('11:00')}`, headers: owner })).statusCode).toBe(400);

    // The driver record and the Drivers list show the same clocks as the HOS record, now (17:15), not a figure cached at 17:00.
    const list = (await inject({ method: 'GET', url: '/api/v1/drivers?search=Dora%20Day', headers: owner })).json<{ data: Array<Record<string, unknown>> }>();
    expect(list.data).toEqual([
      expect.objectContaining({
        id,
        currentHoursDriven: 9.75,
        currentOnDutyTime: 11.25,
        driveTimeRemaining: 1.25,
        dutyTimeRemaining: 2.75,
        currentDutyStatus: 'ON_DUTY_DRIVING',
        clockSource: { kind: 'LOG', vendor: null, name: 'the duty-status log', syncedAt: null },
        disagreement: null,
      }),
    ]);
    const full = (await inject({ method: 'GET', url: `/api/v1/drivers/${id}`, headers: owner })).json<Record<string, unknown>>();
    expect(full).toMatchObject({ currentHoursDriven: 9.75, currentOnDutyTime: 11.25, currentCycleUsed: 10.75, lastRestartDate: r.lastRestartDate });
  });

  it('driving past 11 hours shows a violation; 10 hours off duty reset the duty period but not the cycle', async () => {
    clock.set(at('18:30'));
    const id = await newDriver();
    await logDay(id, [
      ['06:00', 'ON_DUTY_DRIVING'], // 6 h
      ['12:00', 'OFF_DUTY'], // break
      ['12:30', 'ON_DUTY_DRIVING'], // 11 h reached at 17:30; still driving at 18:30
    ]);
    const over = await hos(id);
    expect(over).toMatchObject({ currentHoursDriven: 12, currentOnDutyTime: 12.5, hoursSinceLastBreak: 6, driveTimeRemaining: 0, dutyTimeRemaining: 1.5, currentCycleUsed: 12, breakRequiredWithin: 2 });
    expect(over.violations).toEqual([
      { kind: 'DRIVE', at: at('17:30'), overHours: 1, rule: expect.stringMatching(/395\.3\(a\)\(3\)\(i\)/), explanation: expect.any(String) },
    ]);

    const off = await post(id, { status: 'OFF_DUTY', at: at('18:30') });
    expect(off.statusCode).toBe(201);
    expect(off.json().hos).toMatchObject({ currentHoursDriven: 12, currentDutyStatus: 'OFF_DUTY' });

    clock.set(at('04:29', NEXT)); // 9 h 59 min off: not yet a reset
    expect(await hos(id)).toMatchObject({ currentHoursDriven: 12, driveTimeRemaining: 0, dutyTimeRemaining: 0, currentDutyStatus: 'OFF_DUTY', lastStatusChange: at('18:30') });

    clock.set(at('04:30', NEXT)); // 10 h off
    const reset = await hos(id);
    expect(reset).toMatchObject({
      currentHoursDriven: 0,
      currentOnDutyTime: 0,
      hoursSinceLastBreak: 0,
      driveTimeRemaining: 11,
      dutyTimeRemaining: 14,
      breakRequired: false,
      breakRequiredWithin: 8,
      currentCycleUsed: 12,
      cycleTimeRemaining: 58,
      currentDutyStatus: 'OFF_DUTY',
      lastStatusChange: at('18:30'),
    });
    // The violation is history: still reported, but no new one.
    expect(reset.violations.map((v) => [v.kind, v.at])).toEqual([['DRIVE', at('17:30')]]);
  });

  it('the 8-hour break rule: breakRequired once 8 hours are driven without 30 minutes off the wheel', async () => {
    clock.set(at('14:00'));
    const id = await newDriver();
    await logDay(id, [
      ['05:00', 'ON_DUTY_DRIVING'], // 05:00 → 13:00 is 8 h
      ['13:00', 'ON_DUTY_NOT_DRIVING'], // 29 minutes at the dock: not a break
      ['13:29', 'ON_DUTY_DRIVING'],
    ]);
    clock.set(at('13:29'));
    const due = await hos(id);
    expect(due).toMatchObject({ currentHoursDriven: 8, hoursSinceLastBreak: 8, breakRequired: true, breakRequiredWithin: 0 });
    expect(due.nextRequiredRest).toMatchObject({ kind: 'BREAK', limitedBy: 'BREAK', requiredAfterDrivingHours: 0 });
    clock.set(at('14:00'));
    const late = await hos(id);
    expect(late.violations.map((v) => v.kind)).toEqual(['BREAK']);
    expect(late.violations[0]!.at).toBe(at('13:29'));
  });

  it('the log is append-only: earlier or equal times, future times, repeated statuses and INACTIVE drivers → 400', async () => {
    clock.set(at('12:00'));
    const id = await newDriver();
    await logDay(id, [['08:00', 'ON_DUTY_DRIVING']]);

    const before = await post(id, { status: 'OFF_DUTY', at: at('07:59') });
    expect(before.statusCode).toBe(400);
    expect(before.json().message).toBe(`The log is append-only: the last status (ON_DUTY_DRIVING) starts at ${at('08:00')}; a new one must start after it`);
    expect((await post(id, { status: 'OFF_DUTY', at: at('08:00') })).statusCode).toBe(400);

    const future = await post(id, { status: 'OFF_DUTY', at: at('12:05') });
    expect(future.statusCode).toBe(400);
    expect(future.json()).toMatchObject({ message: 'Validation failed', details: [{ field: 'body.at', message: 'must not be in the future' }] });

    const ancient = await post(id, { status: 'OFF_DUTY', at: plus(at('12:00'), -17 * 86_400_000) });
    expect(ancient.statusCode).toBe(400);
    expect(ancient.json().details[0].field).toBe('body.at');

    const again = await post(id, { status: 'ON_DUTY_DRIVING', at: at('09:00') });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Driver is already ON_DUTY_DRIVING');

    for (const payload of [
      { status: 'DRIVING' },
      { status: 'OFF_DUTY', at: 'yesterday' },
      { status: 'OFF_DUTY', at: `${DAY}T23:59:60Z` }, // a leap second: RFC 3339, but not a time Date can hold
      { status: 'OFF_DUTY', latitude: 32.7 },
      { status: 'OFF_DUTY', latitude: 91, longitude: 0 },
      { status: 'OFF_DUTY', note: 'n'.repeat(501) },
      { status: 'OFF_DUTY', source: 'ELD' },
      {},
    ]) {
      const res = await post(id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
    }
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${id}/duty-status?from=${DAY}T23:59:60Z`, headers: owner })).statusCode).toBe(400);

    // Without `at`, the status starts now.
    const now = await post(id, { status: 'OFF_DUTY' });
    expect(now.statusCode).toBe(201);
    expect(now.json().event.at).toBe(at('12:00'));
    // Within a minute ahead of the server clock (device drift) is accepted, and the record stays consistent.
    const drift = await post(id, { status: 'ON_DUTY_NOT_DRIVING', at: plus(at('12:00'), 30_000) });
    expect(drift.statusCode, drift.body).toBe(201);
    expect((await hos(id)).currentHoursDriven).toBe(4);

    // Both are in the log straight away: the one logged now and the one a few seconds ahead.
    const log = (await inject({ method: 'GET', url: `/api/v1/drivers/${id}/duty-status`, headers: owner })).json<{ data: Array<{ status: string; at: string }> }>();
    expect(log.data.map((e) => [e.status, e.at])).toEqual([
      ['ON_DUTY_NOT_DRIVING', plus(at('12:00'), 30_000)],
      ['OFF_DUTY', at('12:00')],
      ['ON_DUTY_DRIVING', at('08:00')],
    ]);

    const inactive = await newDriver();
    expect((await inject({ method: 'POST', url: `/api/v1/drivers/${inactive}/deactivate`, headers: owner })).statusCode).toBe(200);
    const refused = await post(inactive, { status: 'ON_DUTY_DRIVING', at: at('10:00') });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Driver is INACTIVE; only ACTIVE drivers record duty status');
    expect((await hos(inactive)).currentDutyStatus).toBe('OFF_DUTY');

    const unknown = await post('drv_doesnotexist000000000', { status: 'OFF_DUTY' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Driver not found');
  });

  it('concurrent appends for one driver: exactly one wins, the log stays append-only', async () => {
    clock.set(at('12:00'));
    const id = await newDriver();
    const results = await Promise.all(
      ['06:00', '07:00', '08:00'].map((hhmm) => post(id, { status: 'ON_DUTY_DRIVING', at: at(hhmm) })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const log = (await inject({ method: 'GET', url: `/api/v1/drivers/${id}/duty-status`, headers: owner })).json<{ data: unknown[] }>();
    expect(log.data).toHaveLength(1);
  });

  it('a DRIVER user reads and logs only their own driver; other tenants and roles are refused', async () => {
    clock.set(at('12:00'));
    const mine = await newDriver();
    const colleague = await newDriver();
    // Access tokens last 15 minutes and the clock has moved on by days: sign the owners in again.
    const relogin = async (f: TenantFixture): Promise<TenantFixture> => ({ ...f, auth: { authorization: `Bearer ${await login(t.app, f.email, f.password)}` } });
    const acmeNow = await relogin(acme);
    const otherNow = await relogin(other);
    const driverUser = await createUser(t.app, t.mailer, acmeNow, 'DRIVER', { driverId: mine });
    const viewer = await createUser(t.app, t.mailer, acmeNow, 'VIEWER');
    const dispatcher = await createUser(t.app, t.mailer, acmeNow, 'DISPATCHER');

    const own = await post(mine, { status: 'ON_DUTY_NOT_DRIVING', at: at('11:00') }, driverUser.auth);
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().event.createdBy).toBe(driverUser.userId);
    expect((await hos(mine, driverUser.auth)).currentOnDutyTime).toBe(1);
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${mine}/duty-status`, headers: driverUser.auth })).json().data).toHaveLength(1);

    for (const [method, url, payload] of [
      ['GET', `/api/v1/drivers/${colleague}/hos`, undefined],
      ['GET', `/api/v1/drivers/${colleague}/duty-status`, undefined],
      ['POST', `/api/v1/drivers/${colleague}/duty-status`, { status: 'ON_DUTY_DRIVING', at: at('11:00') }],
    ] as const) {
      const res = await inject({ method, url, headers: driverUser.auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Driver not found' });
    }
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${colleague}/duty-status`, headers: owner })).json().data).toEqual([]);

    // A dispatcher logs for any driver; a viewer reads but does not log.
    expect((await post(colleague, { status: 'ON_DUTY_DRIVING', at: at('10:00') }, dispatcher.auth)).statusCode).toBe(201);
    expect((await hos(colleague, viewer.auth)).currentHoursDriven).toBe(2);
    const denied = await post(colleague, { status: 'OFF_DUTY' }, viewer.auth);
    expect(denied.statusCode).toBe(403);

    // Another tenant's driver does not exist here, for any endpoint.
    const theirs = (await createDriver(t.app, otherNow.auth)).id;
    for (const [method, url, payload] of [
      ['GET', `/api/v1/drivers/${theirs}/hos`, undefined],
      ['GET', `/api/v1/drivers/${theirs}/duty-status`, undefined],
      ['POST', `/api/v1/drivers/${theirs}/duty-status`, { status: 'ON_DUTY_DRIVING', at: at('10:00') }],
    ] as const) {
      const res = await inject({ method, url, headers: owner, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${theirs}/duty-status`, headers: otherNow.auth })).json().data).toEqual([]);
  });

  describe('planning from the HOS state', () => {
    const firstLegs = (segments: Segment[]) => segments.slice(0, 2);

    it('without driverState the plan starts from the log: a driver who drove 10 h drives at most 1 h, then rests', async () => {
      clock.set(at('15:00'));
      const id = await newDriver();
      await logDay(id, [
        ['04:00', 'ON_DUTY_DRIVING'], // 5 h
        ['09:00', 'OFF_DUTY'], // break
        ['09:30', 'ON_DUTY_DRIVING'], // 5 h
        ['14:30', 'OFF_DUTY'],
      ]);
      expect(await hos(id)).toMatchObject({ currentHoursDriven: 10, driveTimeRemaining: 1, currentOnDutyTime: 11 });

      const res = await inject({ method: 'POST', url: '/api/v1/routes/plan', headers: owner, payload: { driverId: id, departureTime: at('15:00'), stops: LONG_TRIP } });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
      const plan = res.json<{ summary: { hosViolations: number }; segments: Segment[] }>();
      expect(plan.summary.hosViolations).toBe(0);
      const [drive, rest] = firstLegs(plan.segments);
      expect(drive!.type).toBe('drive');
      expect(drive!.duration_hours).toBeLessThanOrEqual(1);
      expect(drive!.duration_hours).toBeGreaterThan(0.9);
      expect(drive!.hos_state_after).toMatchObject({ hours_driven: expect.closeTo(11, 1), drive_hours_remaining: expect.closeTo(0, 1) });
      expect(rest!.type).toBe('rest');
      expect(rest!.rest_type).toBe('full_rest');
      expect(rest!.hos_state_after).toMatchObject({ hours_driven: 0, drive_hours_remaining: 11 });

      // A fresh driver on the same trip drives 8 hours before the first stop.
      const fresh = await newDriver();
      const freshPlan = await inject({ method: 'POST', url: '/api/v1/routes/plan', headers: owner, payload: { driverId: fresh, departureTime: at('15:00'), stops: LONG_TRIP } });
      expect(freshPlan.json<{ segments: Segment[] }>().segments[0]).toMatchObject({ type: 'drive', duration_hours: 8 });
    });

    it('the log up to the departure time is what counts: statuses logged later (or slightly ahead) do not break planning', async () => {
      clock.set(at('12:00'));
      const id = await newDriver();
      await logDay(id, [
        ['06:00', 'ON_DUTY_NOT_DRIVING'],
        ['08:00', 'ON_DUTY_DRIVING'],
        ['10:00', 'OFF_DUTY'],
      ]);
      // A departure before the last logged status: the clocks at 09:00 (3 h on duty, 1 h driven).
      const past = await inject({ method: 'POST', url: '/api/v1/routes/plan', headers: owner, payload: { driverId: id, departureTime: at('09:00'), stops: LONG_TRIP } });
      expect(past.statusCode, past.body.slice(0, 300)).toBe(201);
      expect(past.json<{ segments: Segment[] }>().segments[0]).toMatchObject({ type: 'drive', hos_state_after: { hours_driven: 8, hours_since_break: 8 } });
      expect(past.json<{ segments: Segment[] }>().segments[0]!.duration_hours).toBe(7);

      // A status logged 30 s ahead of the server clock (allowed drift), then a plan departing now.
      const drift = await post(id, { status: 'ON_DUTY_NOT_DRIVING', at: plus(at('12:00'), 30_000) });
      expect(drift.statusCode).toBe(201);
      const now = await inject({ method: 'POST', url: '/api/v1/routes/plan', headers: owner, payload: { driverId: id, stops: LONG_TRIP } });
      expect(now.statusCode, now.body.slice(0, 300)).toBe(201);
      expect(now.json<{ departureTime: string }>().departureTime).toBe(at('12:00'));
    });

    it('with driverState {10, 10.5, 2, 40} the plan likewise drives 1 h, then rests', async () => {
      clock.set(at('15:00'));
      const id = await newDriver();
      const res = await inject({
        method: 'POST',
        url: '/api/v1/routes/plan',
        headers: owner,
        payload: { driverId: id, departureTime: at('15:00'), stops: LONG_TRIP, driverState: { hoursDriven: 10, onDutyHours: 10.5, hoursSinceBreak: 2, cycleHoursUsed: 40 } },
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
      const plan = res.json<{ summary: { hosViolations: number }; segments: Segment[] }>();
      expect(plan.summary.hosViolations).toBe(0);
      const [drive, rest] = firstLegs(plan.segments);
      expect(drive).toMatchObject({ type: 'drive', hos_state_after: { hours_driven: expect.closeTo(11, 1), hours_since_break: expect.closeTo(3, 1), cycle_hours_used: expect.closeTo(41, 1) } });
      expect(drive!.duration_hours).toBeLessThanOrEqual(1);
      expect(drive!.duration_hours).toBeGreaterThan(0.9);
      expect(rest).toMatchObject({ type: 'rest', rest_type: 'full_rest', duration_hours: 10 });
      expect(rest!.hos_state_after).toMatchObject({ hours_driven: 0, on_duty_hours: 0, hours_since_break: 0, drive_hours_remaining: 11, cycle_hours_used: expect.closeTo(41, 1) });
      // The log was not consulted (nor changed): the driver's own record is still fresh.
      expect((await hos(id)).currentHoursDriven).toBe(0);
    });
  });
});
