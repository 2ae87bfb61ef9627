/**
 * The fleet's HOS compliance through the API, on PGlite and PostgreSQL: the hand-computed 3-day log (one
 * violation, nothing certified), a truck that moves 30 miles while its driver's log says off duty, and the
 * unassigned driving of two trucks (one resolved by an annotation, one still open and flagged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { DST_LOG } from '../../../test/helpers/dst-log.js';
import { createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';


describe.each(DB_KINDS)('HOS compliance of the fleet (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let driverId: string;
  let driverAuth: Record<string, string>;
  const clock = new FakeClock('2026-11-03T12:00:00.000Z');
  const ok = async <T,>(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object): Promise<T> => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    return res.json<T>();
  };

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock });
    const owner = await createTenant(t.app, { name: 'Audit Freight' });
    acme = owner;
    // An API key: the test's clock moves past an access token's life.
    acme = { ...acme, auth: { 'x-api-key': (await createApiKey(t.app, acme)).key } as unknown as TenantFixture['auth'] };
    driverId = (await createDriver(t.app, acme.auth, { firstName: 'Dana', lastName: 'Daylight' })).id;
    for (const [at, status] of DST_LOG) await ok('POST', `/api/v1/drivers/${driverId}/duty-status`, acme.auth, { status, at });
    // Her truck on a route, moving 30 miles at 12:10–12:40Z while her log says off duty.
    const route = await ok<{ id: string }>('POST', '/api/v1/routes/plan', acme.auth, {
      driverId,
      stops: [{ name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 }, { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY' }],
    });
    await ok('POST', `/api/v1/routes/${route.id}/activate`, acme.auth);
    clock.set('2026-11-03T12:45:00.000Z');
    for (const [at, latitude] of [['2026-11-03T12:10:00.000Z', 32.78], ['2026-11-03T12:40:00.000Z', 33.215]] as const) {
      await ok('POST', `/api/v1/routes/${route.id}/positions`, acme.auth, { latitude, longitude: -96.8, recordedAt: at });
    }
    driverAuth = (await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId })).auth;
    // Unassigned driving: T-7 moved 40 minutes with nobody logged in this morning; T-8 10 minutes yesterday, a yard move.
    const t7 = (await ok<{ id: string }>('POST', '/api/v1/vehicles', acme.auth, { unitNumber: 'T-7' })).id;
    const t8 = (await ok<{ id: string }>('POST', '/api/v1/vehicles', acme.auth, { unitNumber: 'T-8' })).id;
    await ok('POST', `/api/v1/vehicles/${t7}/unassigned-driving`, acme.auth, { start: '2026-11-03T10:00:00.000Z', end: '2026-11-03T10:40:00.000Z' });
    const yard = await ok<{ id: string }>('POST', `/api/v1/vehicles/${t8}/unassigned-driving`, acme.auth, { start: '2026-11-02T15:00:00.000Z', end: '2026-11-02T15:10:00.000Z' });
    await ok('POST', `/api/v1/unassigned-driving/${yard.id}/annotate`, acme.auth, { annotation: 'Yard move' });
  });
  afterAll(async () => t?.close());

  type Row = { driverName: string; violations: Record<string, number>; violationCount: number; daysNotCertified: string[]; pendingEditRequests: number; drivingNotInLog: Array<{ date: string; start: string; end: string; miles: number }> };

  it('counts the violation, the days not certified and the driving the log does not show', async () => {
    const body = await ok<{ data: Row[]; from: string; to: string }>('GET', '/api/v1/compliance/hos?from=2026-10-31&to=2026-11-03', acme.auth);
    expect(body).toMatchObject({ from: '2026-10-31', to: '2026-11-03' });
    expect(body.data).toHaveLength(1);
    const row = body.data[0]!;
    expect(row).toMatchObject({ driverName: 'Dana Daylight', violations: { DRIVE: 1 }, violationCount: 1, pendingEditRequests: 0 });
    // Today (Nov 3) has not ended; the three days before have records and no certification.
    expect(row.daysNotCertified).toEqual(['2026-11-02', '2026-11-01', '2026-10-31']);
    expect(row.drivingNotInLog).toEqual([{ date: '2026-11-03', start: '2026-11-03T12:10:00.000Z', end: '2026-11-03T12:40:00.000Z', miles: expect.closeTo(30, 0) }]);
  });

  it('lists the unassigned driving per vehicle: the open 40 minutes flag T-7, the annotated yard move does not', async () => {
    const body = await ok<{ unassignedDriving: unknown[] }>('GET', '/api/v1/compliance/hos?from=2026-10-31&to=2026-11-03', acme.auth);
    expect(body.unassignedDriving).toEqual([
      expect.objectContaining({ vehicleUnitNumber: 'T-7', segments: 1, minutes: 40, unresolvedSegments: 1, unresolvedMinutes: 40, flagged: true }),
      expect.objectContaining({ vehicleUnitNumber: 'T-8', segments: 1, minutes: 10, unresolvedSegments: 0, unresolvedMinutes: 0, flagged: false }),
    ]);
    // Outside the range: none.
    expect((await ok<{ unassignedDriving: unknown[] }>('GET', '/api/v1/compliance/hos?from=2026-10-31&to=2026-11-01', acme.auth)).unassignedDriving).toEqual([]);
  });

  it('a certified day leaves the list; the fleet’s compliance is not for drivers', async () => {
    await ok('POST', `/api/v1/drivers/${driverId}/logs/2026-10-31/certify`, driverAuth);
    const row = (await ok<{ data: Row[] }>('GET', '/api/v1/compliance/hos?from=2026-10-31&to=2026-11-03', acme.auth)).data[0]!;
    expect(row.daysNotCertified).toEqual(['2026-11-02', '2026-11-01']);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/compliance/hos', headers: driverAuth })).statusCode).toBe(403);
    // A date that is no date, or a day not begun, cannot be certified.
    for (const date of ['2026-02-30', '2026-11-04']) expect((await t.app.inject({ method: 'POST', url: `/api/v1/drivers/${driverId}/logs/${date}/certify`, headers: driverAuth })).statusCode, date).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/compliance/hos?from=2026-09-01&to=2026-11-03', headers: acme.auth })).statusCode).toBe(400);
  });
});
