import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant, createUser, login, type TenantFixture } from '../../../test/helpers/factories.js';

type Auth = Record<string, string>;
interface CandidateOut {
  driverId: string;
  driverName: string;
  feasible: boolean;
  locationKnown: boolean;
  reasons: string[];
  deadheadMiles: number | null;
  departureTime: string;
  arrivalTime: string | null;
  summary: { totalDistanceMiles: number; hosViolations: number; appointmentsMissed: number; restStops: number; estimatedFuelCost: number } | null;
  start: { name: string; latitude: number; longitude: number; source: string; at: string | null; routeId: string | null } | null;
  startClocks: { source: string; hoursDriven: number; driveHoursRemaining: number } | null;
  stops: { name: string; type: string; arrivalTime: string; departureTime: string; withinWindow: boolean | null; lateByHours: number }[];
  segments?: unknown[];
  planRequest: Record<string, unknown> | null;
}
interface Answer {
  data: CandidateOut[];
  load: { id: string; referenceNumber: string } | null;
  planned: { id: string; driverId: string; loadId: string | null; stops: unknown[]; segments: unknown[]; summary: Record<string, unknown> } | null;
}

const HOUR = 3_600_000;
const NOW = '2026-05-04T13:00:00.000Z';
const FORT_WORTH = { latitude: 32.7555, longitude: -97.3308 };
const HOUSTON = { name: 'Houston, TX', latitude: 29.7604, longitude: -95.3698 };
const DALLAS = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 };
const OKC = { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164 };
const DENTON = { name: 'Denton, TX', latitude: 33.2148, longitude: -97.1331 };
const iso = (ms: number) => new Date(ms).toISOString();
const at = (hours: number) => iso(Date.parse(NOW) + hours * HOUR);

/** The load: picked up in Dallas from now, delivered in Oklahoma City by now + 9.5 h. */
const LOAD_STOPS = [
  { ...DALLAS, appointment: { earliest: NOW }, dockDurationHours: 1 },
  { ...OKC, appointment: { latest: at(9.5) }, dockDurationHours: 1 },
];

describe.each(DB_KINDS)('dispatch candidates API (%s)', (kind) => {
  let t: TestApp;
  let clock: FakeClock;
  let acme: TenantFixture;
  let other: TenantFixture;
  const ids = { near: '', far: '', tired: '', nowhere: '' };

  const post = (auth: Auth, url: string, payload?: unknown) => t.app.inject({ method: 'POST', url, headers: auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const candidates = async (payload: Record<string, unknown>, auth: Auth = acme.auth): Promise<Answer> => {
    const res = await post(auth, '/api/v1/dispatch/candidates', payload);
    expect(res.statusCode, res.body.slice(0, 600)).toBe(200);
    return res.json<Answer>();
  };

  /** A route for the driver from `from` to `to`, planned and activated 30 h ago (the clock only moves forward). */
  async function startRoute(driverId: string, from: { name: string; latitude: number; longitude: number }, to: { name: string; latitude: number; longitude: number }) {
    const res = await post(acme.auth, '/api/v1/routes/plan', {
      driverId,
      stops: [
        { ...from, type: 'ORIGIN' },
        { ...to, type: 'DELIVERY' },
      ],
      driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ id: string }>().id;
    expect((await post(acme.auth, `/api/v1/routes/${id}/activate`)).statusCode).toBe(200);
    return id;
  }

  beforeAll(async () => {
    clock = new FakeClock(at(-30));
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Acme Dispatch' });
    other = await createTenant(t.app, { name: 'Other Dispatch' });
    ids.near = (await createDriver(t.app, acme.auth, { firstName: 'Nora', lastName: 'Near' })).id;
    ids.far = (await createDriver(t.app, acme.auth, { firstName: 'Frank', lastName: 'Far' })).id;
    ids.tired = (await createDriver(t.app, acme.auth, { firstName: 'Tess', lastName: 'Tired' })).id;
    ids.nowhere = (await createDriver(t.app, acme.auth, { firstName: 'Nils', lastName: 'Nowhere' })).id;
    // Near: last reported at Fort Worth, 30 miles from the pickup. Far: ended a route in Houston.
    const near = await startRoute(ids.near, DENTON, DALLAS);
    const far = await startRoute(ids.far, DALLAS, HOUSTON);
    const tired = await startRoute(ids.tired, DENTON, DALLAS);
    clock.set(at(-2));
    acme = { ...acme, ...(await signIn(acme)) };
    expect((await post(acme.auth, `/api/v1/routes/${near}/positions`, FORT_WORTH)).statusCode).toBe(201);
    for (const id of [near, far, tired]) expect((await post(acme.auth, `/api/v1/routes/${id}/complete`)).statusCode).toBe(200);
    // Tired: 10 h of driving until 2 h ago: 1 h of driving left, 2 h of the 14-hour window.
    for (const [status, hours] of [['ON_DUTY_DRIVING', -12], ['ON_DUTY_NOT_DRIVING', -2]] as const) {
      const res = await post(acme.auth, `/api/v1/drivers/${ids.tired}/duty-status`, { status, at: at(hours) });
      expect(res.statusCode, res.body).toBe(201);
    }
    clock.set(NOW);
    // The owner's access token has expired over those hours: signed in again.
    acme = { ...acme, ...(await signIn(acme)) };
    other = { ...other, ...(await signIn(other)) };
  });
  const signIn = async (f: TenantFixture) => {
    const token = await login(t.app, f.email, f.password);
    return { token, auth: { authorization: `Bearer ${token}` } };
  };
  afterAll(async () => t?.close());

  it('ranks the fresh near driver first, the far one second, and the tired one infeasible with the reason', async () => {
    const answer = await candidates({ stops: LOAD_STOPS, driverIds: [ids.tired, ids.far, ids.near], includePlans: true });
    expect(answer.data.map((c) => c.driverId)).toEqual([ids.near, ids.far, ids.tired]);
    const [near, far, tired] = answer.data as [CandidateOut, CandidateOut, CandidateOut];
    expect(near).toMatchObject({ feasible: true, reasons: [], driverName: 'Nora Near', start: { source: 'POSITION', latitude: FORT_WORTH.latitude } });
    expect(near.deadheadMiles).toBeGreaterThan(20);
    expect(near.deadheadMiles).toBeLessThan(40);
    expect(far).toMatchObject({ feasible: true, reasons: [], start: { source: 'LAST_ROUTE', name: 'Houston, TX' } });
    expect(far.deadheadMiles).toBeGreaterThan(200);
    expect(Date.parse(near.arrivalTime!)).toBeLessThan(Date.parse(far.arrivalTime!));
    for (const c of [near, far]) {
      expect(c.summary).toMatchObject({ hosViolations: 0, appointmentsMissed: 0 });
      expect(c.stops.map((s) => s.withinWindow)).toEqual([true, true]);
      expect(c.startClocks).toMatchObject({ source: 'LOG', hoursDriven: 0 });
    }
    expect(tired.feasible).toBe(false);
    expect(tired.startClocks).toMatchObject({ source: 'LOG', hoursDriven: 10, driveHoursRemaining: 1 });
    expect(tired.reasons).toHaveLength(1);
    expect(tired.reasons[0]).toMatch(/^arrives at the delivery at Oklahoma City, OK \d+ h( \d+ min)? after its window closes: a 10 h rest is due before the delivery at Oklahoma City, OK$/);
    expect(tired.summary!.hosViolations).toBe(0);
    expect(tired.stops[1]!.withinWindow).toBe(false);
  });

  it('plans the first candidate, by its planRequest or with planCandidate, to the plan it was shown', async () => {
    const answer = await candidates({ stops: LOAD_STOPS, driverIds: [ids.tired, ids.far, ids.near], includePlans: true });
    const best = answer.data[0]!;
    const res = await post(acme.auth, '/api/v1/routes/plan', best.planRequest);
    expect(res.statusCode, res.body).toBe(201);
    const route = res.json<{ driverId: string; stops: (CandidateOut['stops'][number] & { departureTime: string })[]; segments: unknown[]; summary: Record<string, unknown> }>();
    expect(route.driverId).toBe(ids.near);
    expect(route.segments).toEqual(best.segments);
    expect(route.stops.slice(1).map((s) => [s.name, s.arrivalTime, s.withinWindow])).toEqual(best.stops.map((s) => [s.name, s.arrivalTime, s.withinWindow]));
    expect(route.summary).toEqual(best.summary);
    // The near driver is now on that PLANNED route: she starts where it ends, when it arrives.
    const again = await candidates({ stops: LOAD_STOPS, driverIds: [ids.near], planCandidate: true, includePlans: true });
    expect(again.data[0]!.start).toMatchObject({ source: 'CURRENT_ROUTE', name: OKC.name });
    expect(again.data[0]!.startClocks!.source).toBe('ROUTE_PLAN');
    expect(again.data[0]!.departureTime).toBe(route.stops[route.stops.length - 1]!.departureTime);
    // From Oklahoma City back to the Dallas pickup she cannot make the delivery window: planCandidate plans nothing.
    expect(again.data[0]!.feasible).toBe(false);
    expect(again.planned).toBeNull();
  });

  it('covers a load by its id: the pickup not before scheduledPickup, the delivery by scheduledDelivery; planCandidate assigns it', async () => {
    const load = await post(acme.auth, '/api/v1/loads', {
      referenceNumber: `LD-${kind}-1`,
      originAddress: 'Dallas, TX',
      destinationAddress: 'Oklahoma City, OK',
      scheduledPickup: at(1),
      scheduledDelivery: at(10),
    });
    expect(load.statusCode, load.body).toBe(201);
    const loadId = load.json<{ id: string }>().id;
    const answer = await candidates({ loadId, driverIds: [ids.far, ids.tired], planCandidate: true });
    expect(answer.load).toMatchObject({ id: loadId, referenceNumber: `LD-${kind}-1` });
    const far = answer.data.find((c) => c.driverId === ids.far)!;
    expect(far.feasible).toBe(true);
    expect(far.stops[0]!.type).toBe('PICKUP');
    expect(Date.parse(far.stops[0]!.arrivalTime)).toBeGreaterThanOrEqual(Date.parse(at(1)));
    expect(far.planRequest).toMatchObject({ loadId, driverId: ids.far });
    expect(answer.planned).toMatchObject({ driverId: ids.far, loadId });
    const after = await t.app.inject({ method: 'GET', url: `/api/v1/loads/${loadId}`, headers: acme.auth });
    expect(after.json<{ status: string }>().status).toBe('ASSIGNED');
  });

  it('considers every ACTIVE driver by default; a driver with no known location comes last, as location unknown (not HOS-infeasible)', async () => {
    const answer = await candidates({ stops: LOAD_STOPS, sort: 'deadhead' });
    expect(answer.data.map((c) => c.driverId).sort()).toEqual(Object.values(ids).sort());
    const last = answer.data[answer.data.length - 1]!;
    expect(last).toMatchObject({ driverId: ids.nowhere, feasible: false, locationKnown: false, start: null, deadheadMiles: null, planRequest: null, startClocks: null });
    expect(last.reasons).toEqual([
      'location unknown: Nils Nowhere has no route, no reported location and no home terminal; set their home terminal (homeTerminal, PUT /api/v1/drivers/{id}) or report where they are (POST /api/v1/drivers/{id}/location)',
    ]);
    // The HOS-infeasible driver is listed before, as what she is: located, and ruled out by her hours.
    const tired = answer.data.find((c) => c.driverId === ids.tired)!;
    expect(tired).toMatchObject({ feasible: false, locationKnown: true });
    expect(answer.data.indexOf(tired)).toBeLessThan(answer.data.length - 1);
    expect(answer.data.slice(0, -1).every((c) => c.locationKnown)).toBe(true);
    const feasible = answer.data.filter((c) => c.feasible);
    expect(feasible.map((c) => c.deadheadMiles)).toEqual([...feasible.map((c) => c.deadheadMiles)].sort((a, b) => a! - b!));
  });

  it('an idle driver whose home terminal is in Dallas is a feasible candidate for a Dallas → Oklahoma City load, starting there', async () => {
    const created = await post(acme.auth, '/api/v1/drivers', {
      firstName: 'Hana',
      lastName: 'Home',
      licenseNumber: `HOME-${kind}`,
      licenseState: 'TX',
      homeTerminal: { name: 'Dallas yard', address: 'Dallas, TX' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const home = created.json<{ id: string; homeTerminal: Record<string, unknown>; lastKnownLocation: unknown }>();
    expect(home.homeTerminal).toEqual({ name: 'Dallas yard', address: 'Dallas, TX', latitude: expect.closeTo(DALLAS.latitude, 1), longitude: expect.closeTo(DALLAS.longitude, 1), timeZone: 'America/Chicago' });
    expect(home.lastKnownLocation).toBeNull();
    const answer = await candidates({ stops: LOAD_STOPS, driverIds: [home.id], includePlans: true });
    const c = answer.data[0]!;
    expect(c).toMatchObject({ feasible: true, locationKnown: true, reasons: [], start: { source: 'HOME_TERMINAL', name: 'Dallas yard', at: null, routeId: null }, startClocks: { source: 'LOG', hoursDriven: 0 } });
    expect(c.deadheadMiles).toBeLessThan(5);
    expect(c.stops.map((s) => s.withinWindow)).toEqual([true, true]);
    // Its plan request plans that very trip.
    const planned = await post(acme.auth, '/api/v1/routes/plan', c.planRequest);
    expect(planned.statusCode, planned.body).toBe(201);
    expect(planned.json<{ segments: unknown[] }>().segments).toEqual(c.segments);
    expect((await post(acme.auth, `/api/v1/routes/${planned.json<{ id: string }>().id}/cancel`, { reason: 'test' })).statusCode).toBe(200);
  });

  it('a location reported without a route, or a duty-status change with coordinates, places an idle driver; the newest wins over the home terminal', async () => {
    const created = await post(acme.auth, '/api/v1/drivers', { firstName: 'Lee', lastName: 'Located', licenseNumber: `LOC-${kind}`, licenseState: 'TX', homeTerminal: { latitude: HOUSTON.latitude, longitude: HOUSTON.longitude } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string; homeTerminal: { name: string } }>().id;
    expect(created.json<{ homeTerminal: { name: string; address: null } }>().homeTerminal).toMatchObject({ name: expect.stringContaining('Houston, TX'), address: null });
    const start = async () => (await candidates({ stops: LOAD_STOPS, driverIds: [id] })).data[0]!.start!;
    expect(await start()).toMatchObject({ source: 'HOME_TERMINAL' });

    const report = await post(acme.auth, `/api/v1/drivers/${id}/location`, { ...FORT_WORTH, recordedAt: at(-1) });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toEqual({
      driverId: id,
      accepted: true,
      lastKnownLocation: { ...FORT_WORTH, name: expect.stringMatching(/Fort Worth, TX/), recordedAt: at(-1), timeZone: 'America/Chicago', source: 'LOCATION_REPORT', routeId: null },
    });
    expect(await start()).toMatchObject({ source: 'LOCATION_REPORT', latitude: FORT_WORTH.latitude, at: at(-1) });
    // An older report is not kept: the driver never moves back in time.
    const point = (p: { latitude: number; longitude: number }) => ({ latitude: p.latitude, longitude: p.longitude });
    const older = await post(acme.auth, `/api/v1/drivers/${id}/location`, { ...point(DENTON), recordedAt: at(-3) });
    expect(older.json()).toMatchObject({ accepted: false, lastKnownLocation: { latitude: FORT_WORTH.latitude, source: 'LOCATION_REPORT' } });

    // Going on duty in Denton, with coordinates, half an hour ago: newer, so that is where the driver is.
    const duty = await post(acme.auth, `/api/v1/drivers/${id}/duty-status`, { status: 'ON_DUTY_NOT_DRIVING', at: at(-0.5), latitude: DENTON.latitude, longitude: DENTON.longitude });
    expect(duty.statusCode, duty.body).toBe(201);
    expect(await start()).toMatchObject({ source: 'DUTY_STATUS', latitude: DENTON.latitude, at: at(-0.5) });
    const driver = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${id}`, headers: acme.auth });
    expect(driver.json()).toMatchObject({ lastKnownLocation: { source: 'DUTY_STATUS', name: expect.stringMatching(/Denton, TX/), recordedAt: at(-0.5) }, homeTerminal: { latitude: HOUSTON.latitude } });

    // The driver reports their own location; a DRIVER user cannot report another driver's (404), nor anyone from the future (400).
    const driverUser = await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId: id });
    const own = await post(driverUser.auth, `/api/v1/drivers/${id}/location`, point(DALLAS));
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ accepted: true, lastKnownLocation: { source: 'LOCATION_REPORT', recordedAt: NOW } });
    expect((await post(driverUser.auth, `/api/v1/drivers/${ids.near}/location`, point(DALLAS))).statusCode).toBe(404);
    const future = await post(acme.auth, `/api/v1/drivers/${id}/location`, { ...point(DALLAS), recordedAt: at(1) });
    expect(future.statusCode).toBe(400);
    expect((await post(other.auth, `/api/v1/drivers/${id}/location`, point(DALLAS))).statusCode).toBe(404);
    for (const body of [{ latitude: 91, longitude: 0 }, { latitude: 32 }, { ...point(DALLAS), extra: 1 }, { ...point(DALLAS), recordedAt: 'yesterday' }]) {
      const res = await post(acme.auth, `/api/v1/drivers/${id}/location`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('a home terminal is an address geocoded offline (an ambiguous one is a 400 with the candidates) or coordinates; null removes it', async () => {
    const base = { firstName: 'Tom', lastName: 'Terminal', licenseState: 'TX' };
    const ambiguous = await post(acme.auth, '/api/v1/drivers', { ...base, licenseNumber: `TT1-${kind}`, homeTerminal: { address: 'Columbus' } });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json()).toMatchObject({ details: [{ field: 'body.homeTerminal.address', candidates: expect.arrayContaining(['Columbus, OH']) }] });
    for (const homeTerminal of [{}, { address: 'Dallas, TX', latitude: 32, longitude: -96 }, { latitude: 32 }, { name: 'Yard' }, { address: 'Dallas, TX', extra: true }]) {
      const res = await post(acme.auth, '/api/v1/drivers', { ...base, licenseNumber: `TT2-${kind}`, homeTerminal });
      expect(res.statusCode, JSON.stringify(homeTerminal)).toBe(400);
    }
    const created = await post(acme.auth, '/api/v1/drivers', { ...base, licenseNumber: `TT3-${kind}` });
    const id = created.json<{ id: string; homeTerminal: unknown }>().id;
    expect(created.json<{ homeTerminal: unknown }>().homeTerminal).toBeNull();
    const put = async (homeTerminal: unknown) => t.app.inject({ method: 'PUT', url: `/api/v1/drivers/${id}`, headers: acme.auth, payload: { homeTerminal } });
    expect((await put({ address: 'Tulsa, OK' })).statusCode).toBe(200);
    const get = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${id}`, headers: acme.auth })).json<{ homeTerminal: { name: string; timeZone: string } | null }>();
    expect((await get()).homeTerminal).toMatchObject({ name: 'Tulsa, OK', timeZone: 'America/Chicago' });
    expect((await put({ address: 'Denver, CO', name: 'Denver terminal' })).statusCode).toBe(200);
    expect((await get()).homeTerminal).toMatchObject({ name: 'Denver terminal', timeZone: 'America/Denver' });
    expect((await put(null)).statusCode).toBe(200);
    expect((await get()).homeTerminal).toBeNull();
  });

  it('answers an API key as it answers a token', async () => {
    const key = await createApiKey(t.app, acme);
    const answer = await candidates({ stops: LOAD_STOPS, driverIds: [ids.near] }, { 'x-api-key': key.key });
    expect(answer.data[0]!.driverId).toBe(ids.near);
  });

  it('starts a driver from the clocks an ELD reported, when an integration synced them recently', async () => {
    const integration = await post(acme.auth, '/api/v1/integrations', { vendor: 'fake_eld', name: 'Test ELD', config: { apiToken: 'test-token-0000' } });
    expect(integration.statusCode, integration.body).toBe(201);
    const integrationId = integration.json<{ id: string }>().id;
    // The tired driver's ELD says: 5 h of driving left, 8 h of the window (the log says 1 h and 2 h).
    await t.db.system((tx) =>
      tx.query(
        `INSERT INTO driver_eld_clocks (tenant_id, driver_id, integration_id, source, vendor_driver_id, current_status, drive_remaining_ms, shift_remaining_ms, cycle_remaining_ms, break_remaining_ms, synced_at)
         VALUES ($1, $2, $3, 'fake_eld', 'v-tired', 'ON_DUTY_NOT_DRIVING', $4, $5, $6, $7, $8)`,
        [acme.tenantId, ids.tired, integrationId, 5 * HOUR, 8 * HOUR, 40 * HOUR, 4 * HOUR, new Date(Date.parse(NOW) - 60_000)],
      ),
    );
    const answer = await candidates({ stops: LOAD_STOPS, driverIds: [ids.tired] });
    expect(answer.data[0]!.startClocks).toMatchObject({ source: 'fake_eld', hoursDriven: 6, driveHoursRemaining: 5 });
    expect(answer.data[0]).toMatchObject({ feasible: true, reasons: [] });
    // Synced a minute ago: the window has run a minute since (not the driving: the driver is not driving).
    expect(answer.data[0]!.planRequest).toMatchObject({ driverState: { hoursDriven: 6, onDutyHours: 6.02 } });
    const planned = await post(acme.auth, '/api/v1/routes/plan', answer.data[0]!.planRequest);
    expect(planned.statusCode, planned.body).toBe(201);
    expect(planned.json<{ arrivalTime: string }>().arrivalTime).toBe(answer.data[0]!.stops[1]!.departureTime);
  });

  it('a driver who is the co-driver of a team route starts where that route ends', async () => {
    const partner = (await createDriver(t.app, acme.auth, { firstName: 'Pat', lastName: 'Partner' })).id;
    const team = await post(acme.auth, '/api/v1/routes/plan', {
      driverId: partner,
      coDriverId: ids.nowhere,
      stops: [
        { ...DALLAS, type: 'ORIGIN' },
        { ...HOUSTON, type: 'DELIVERY', dockDurationHours: 1 },
      ],
    });
    expect(team.statusCode, team.body).toBe(201);
    const answer = await candidates({ stops: LOAD_STOPS, driverIds: [ids.nowhere, partner] });
    for (const c of answer.data) {
      expect(c.start).toMatchObject({ source: 'CURRENT_ROUTE', name: HOUSTON.name, routeId: team.json<{ id: string }>().id });
      expect(c.startClocks!.source).toBe('LOG');
    }
  });

  it('refuses bad input with 400, another tenant’s drivers and loads with 404, a DRIVER user with 403', async () => {
    const bad = async (payload: unknown, status: number, message: RegExp) => {
      const res = await post(acme.auth, '/api/v1/dispatch/candidates', payload);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json<{ message: string }>().message).toMatch(message);
    };
    await bad({}, 400, /loadId or stops/);
    await bad({ stops: LOAD_STOPS, loadId: 'ld_abc' }, 400, /loadId or stops/);
    await bad({ stops: [DALLAS] }, 400, /Validation/);
    await bad({ stops: LOAD_STOPS, sort: 'fastest' }, 400, /Validation/);
    await bad({ stops: LOAD_STOPS, departureNotBefore: 'tomorrow' }, 400, /Validation/);
    const stranger = (await createDriver(t.app, other.auth)).id;
    await bad({ stops: LOAD_STOPS, driverIds: [ids.near, stranger] }, 404, /Driver .* not found/);
    const foreignLoad = await post(other.auth, '/api/v1/loads', { referenceNumber: 'OTHER-1', originAddress: 'Dallas, TX', destinationAddress: 'Tulsa, OK' });
    await bad({ loadId: foreignLoad.json<{ id: string }>().id }, 404, /Load not found/);
    const driverUser = await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId: ids.near });
    const res = await post(driverUser.auth, '/api/v1/dispatch/candidates', { stops: LOAD_STOPS });
    expect(res.statusCode).toBe(403);
    const viewer = await createUser(t.app, t.mailer, acme, 'VIEWER');
    expect((await post(viewer.auth, '/api/v1/dispatch/candidates', { stops: LOAD_STOPS, driverIds: [ids.near] })).statusCode).toBe(200);
    expect((await post(viewer.auth, '/api/v1/dispatch/candidates', { stops: LOAD_STOPS, driverIds: [ids.near], planCandidate: true })).statusCode).toBe(403);
  });
});
