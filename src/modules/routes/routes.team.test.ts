/**
 * Team routes through the API (issue 20): a plan with a co-driver, who drives which segment, both logs
 * audited, and what the co-driver can see and do. The planner's own team tests are in
 * src/domain/planning/team.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

type Auth = Record<string, string>;
interface Route {
  id: string;
  driverId: string;
  coDriverId: string | null;
  departureTime: string;
  arrivalTime: string;
  summary: { hosViolations: number; totalDistanceMiles: number };
  segments: { type: string; driver_id?: string; reason?: string; duration_hours: number }[];
}

const NOW = '2026-04-06T12:00:00.000Z';
const HOUR = 3_600_000;
const DALLAS = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' };
const LA = { name: 'Los Angeles, CA', latitude: 34.0522, longitude: -118.2437, type: 'DELIVERY', dockDurationHours: 1 };

describe.each(DB_KINDS)('team routes API (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let other: TenantFixture;
  const d = { rosa: '', omar: '', solo: '', busy: '' };

  const post = (auth: Auth, url: string, payload?: unknown) => t.app.inject({ method: 'POST', url, headers: auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const get = (auth: Auth, url: string) => t.app.inject({ method: 'GET', url, headers: auth });
  const plan = async (payload: Record<string, unknown>, auth: Auth = acme.auth): Promise<Route> => {
    const res = await post(auth, '/api/v1/routes/plan', payload);
    expect(res.statusCode, res.body.slice(0, 400)).toBe(201);
    return res.json<Route>();
  };

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock: new FakeClock(NOW) });
    acme = await createTenant(t.app, { name: 'Team Freight' });
    other = await createTenant(t.app, { name: 'Other Team Freight' });
    d.rosa = (await createDriver(t.app, acme.auth, { firstName: 'Rosa', lastName: 'Diaz' })).id;
    d.omar = (await createDriver(t.app, acme.auth, { firstName: 'Omar', lastName: 'Haddad' })).id;
    d.solo = (await createDriver(t.app, acme.auth, { firstName: 'Sam', lastName: 'Solo' })).id;
    d.busy = (await createDriver(t.app, acme.auth, { firstName: 'Bea', lastName: 'Busy' })).id;
  });
  afterAll(async () => t?.close());

  it('plans Dallas → Los Angeles for a team at least 30 % sooner than for one driver; each drive names its driver; GET answers the same', async () => {
    const team = await plan({ driverId: d.rosa, coDriverId: d.omar, departureTime: NOW, stops: [DALLAS, LA] });
    const solo = await plan({ driverId: d.solo, departureTime: NOW, stops: [DALLAS, LA] });
    expect(team.coDriverId).toBe(d.omar);
    expect(solo.coDriverId).toBeNull();
    const hours = (r: Route) => (Date.parse(r.arrivalTime) - Date.parse(r.departureTime)) / HOUR;
    expect(hours(team)).toBeLessThanOrEqual(0.7 * hours(solo));
    expect(team.summary.hosViolations).toBe(0);
    const drivers = team.segments.filter((s) => s.type === 'drive').map((s) => s.driver_id);
    expect(new Set(drivers)).toEqual(new Set([d.rosa, d.omar]));
    expect(solo.segments.filter((s) => s.type === 'drive').every((s) => s.driver_id === undefined)).toBe(true);
    expect(team.segments.some((s) => s.type === 'wait' && s.reason!.startsWith('Driver change'))).toBe(true);
    expect((await get(acme.auth, `/api/v1/routes/${team.id}`)).json()).toStrictEqual(team);
    // The event carries both drivers.
    const { rows } = await t.db.system((tx) => tx.query<{ payload: unknown }>("SELECT payload FROM outbox_events WHERE tenant_id = $1 AND event_type = 'route.planned'", [acme.tenantId]));
    const payloads = rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>);
    expect(payloads.find((p) => p.planId === team.id)).toMatchObject({ driverId: d.rosa, coDriverId: d.omar });
  });

  it('starts with the co-driver when the driver, typed in by hand, has 2 h of driving left', async () => {
    const team = await plan({ driverId: d.rosa, coDriverId: d.omar, departureTime: NOW, stops: [DALLAS, LA], driverState: { hoursDriven: 9, onDutyHours: 9.5, hoursSinceBreak: 1.5, cycleHoursUsed: 30 } });
    expect(team.segments.find((s) => s.type === 'drive')!.driver_id).toBe(d.omar);
  });

  it('lists a route under either driver; a DRIVER user who is the co-driver sees it; either one busy on an ACTIVE route blocks activation', async () => {
    const team = await plan({ driverId: d.busy, coDriverId: d.omar, departureTime: NOW, stops: [DALLAS, LA] });
    const list = async (driverId: string) => (await get(acme.auth, `/api/v1/routes?driverId=${driverId}&pageSize=100`)).json<{ data: Route[] }>().data.map((r) => r.id);
    expect(await list(d.omar)).toContain(team.id);
    expect(await list(d.busy)).toContain(team.id);
    const omarUser = await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId: d.omar });
    expect((await get(omarUser.auth, `/api/v1/routes/${team.id}`)).statusCode).toBe(200);
    const mine = (await get(omarUser.auth, '/api/v1/routes?pageSize=100')).json<{ data: (Route & { driverName: string; coDriverName: string | null })[] }>().data;
    expect(mine.find((r) => r.id === team.id)).toMatchObject({ driverName: 'Bea Busy', coDriverName: 'Omar Haddad' });
    const soloUser = await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId: d.solo });
    expect((await get(soloUser.auth, `/api/v1/routes/${team.id}`)).statusCode).toBe(404);
    // Omar drives another route: the team route cannot start.
    const omars = await plan({ driverId: d.omar, departureTime: NOW, stops: [DALLAS, LA] });
    expect((await post(acme.auth, `/api/v1/routes/${omars.id}/activate`)).statusCode).toBe(200);
    const blocked = await post(acme.auth, `/api/v1/routes/${team.id}/activate`);
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json()).toMatchObject({ message: expect.stringMatching(/^Omar Haddad is already driving the active route Dallas, TX → Los Angeles, CA; complete/), details: [{ field: 'route.coDriverId', routeId: omars.id }] });
    expect((await post(acme.auth, `/api/v1/routes/${omars.id}/cancel`, { reason: 'test' })).statusCode).toBe(200);
    expect((await post(acme.auth, `/api/v1/routes/${team.id}/activate`)).statusCode).toBe(200);
  });

  it('refuses the same driver twice, another tenant’s co-driver (404), an impossible co-driver state (400 on its field)', async () => {
    const same = await post(acme.auth, '/api/v1/routes/plan', { driverId: d.solo, coDriverId: d.solo, stops: [DALLAS, LA] });
    expect(same.statusCode).toBe(400);
    expect(same.json<{ details: { field: string }[] }>().details[0]!.field).toBe('body.coDriverId');
    const stranger = (await createDriver(t.app, other.auth)).id;
    expect((await post(acme.auth, '/api/v1/routes/plan', { driverId: d.solo, coDriverId: stranger, stops: [DALLAS, LA] })).statusCode).toBe(404);
    const impossible = await post(acme.auth, '/api/v1/routes/plan', { driverId: d.solo, coDriverId: d.rosa, stops: [DALLAS, LA], coDriverState: { hoursDriven: 6, onDutyHours: 3, hoursSinceBreak: 2, cycleHoursUsed: 20 } });
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json<{ details: { field: string }[] }>().details[0]!.field).toMatch(/^body\.coDriverState/);
  });

  it('a driver on an ACTIVE team route is judged by the team provisions: Canada’s team split in GET /drivers/{id}/hos', async () => {
    // Last in this file: the clock moves on. An API key (an access token lives 15 minutes of that clock).
    const north = await createTenant(t.app, { name: 'Northern Team Lines' });
    const key = { 'x-api-key': (await createApiKey(t.app, north)).key };
    expect((await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/hos', headers: key, payload: { ruleSet: 'CANADA_CYCLE_1' } })).statusCode).toBe(200);
    const lead = (await createDriver(t.app, key, { firstName: 'Lea', lastName: 'Tremblay' })).id;
    const mate = (await createDriver(t.app, key, { firstName: 'Marc', lastName: 'Gagnon' })).id;
    // Marc's log, the hand-computed s.19 case: drives 14:00–22:00, sleeper 22:00–02:00, drives 02:00–07:00, sleeper from 07:00.
    const day = Date.parse('2026-04-07T00:00:00.000Z');
    t.clock.set(new Date(day + 7 * HOUR).toISOString());
    for (const [status, h] of [['ON_DUTY_DRIVING', -10], ['SLEEPER_BERTH', -2], ['ON_DUTY_DRIVING', 2], ['SLEEPER_BERTH', 7]] as const) {
      const res = await post(key, `/api/v1/drivers/${mate}/duty-status`, { status, at: new Date(day + h * HOUR).toISOString() });
      expect(res.statusCode, res.body).toBe(201);
    }
    t.clock.set(new Date(day + 11 * HOUR).toISOString());
    const hos = async () => (await get(key, `/api/v1/drivers/${mate}/hos`)).json<{ violations: unknown[]; driveTimeRemaining: number }>();
    // On his own: 4 h + 4 h in the sleeper is no single-driver split (s.18: 2 h + 2 h totalling 10 h).
    expect((await hos()).violations.length).toBeGreaterThan(0);
    const route = await plan({ driverId: lead, coDriverId: mate, stops: [DALLAS, LA] }, key);
    expect((await post(key, `/api/v1/routes/${route.id}/activate`)).statusCode).toBe(200);
    // In the team: the two periods pair; 13 − 5 = 8 h of driving left, no violation.
    expect(await hos()).toMatchObject({ violations: [], driveTimeRemaining: 8 });
  });
});
