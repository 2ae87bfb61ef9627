/**
 * Double bookings said before they happen: a plan for a driver (or co-driver) already on another route
 * at the same time, or far from the origin when it departs, answers with warnings naming the driver and
 * that route or place; Activate's refusal names the driver and the route in the way; a plan that names
 * no vehicle takes the driver's own truck.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant, type TenantFixture } from '../../../test/helpers/factories.js';

const NOW = Date.parse('2026-03-02T15:00:00.000Z'); // 09:00 CST
const H = 3_600_000;
const at = (hours: number) => new Date(NOW + hours * H).toISOString();
const DALLAS = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 };
const OKC = { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164 };
const TULSA = { name: 'Tulsa, OK', latitude: 36.154, longitude: -95.9928 };
const HOUSTON = { name: 'Houston, TX', latitude: 29.7604, longitude: -95.3698 };
const SAN_ANTONIO = { name: 'San Antonio, TX', latitude: 29.4241, longitude: -98.4936 };
const FRESH = { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 };

interface Plan {
  id: string;
  vehicleId: string | null;
  arrivalTime: string;
  warnings: string[];
}

describe.each(DB_KINDS)('double bookings and the driver’s truck (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let auth: Record<string, string>;
  const clock = new FakeClock(new Date(NOW));

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Booking Freight' });
    auth = { 'x-api-key': (await createApiKey(t.app, acme)).key };
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: auth, ...(payload ? { payload } : {}) });
  const plan = async (body: Record<string, unknown>): Promise<Plan> => {
    const res = await post('/api/v1/routes/plan', { driverState: FRESH, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Plan>();
  };
  const driver = async (firstName: string, lastName: string, extra: Record<string, unknown> = {}) => (await createDriver(t.app, auth, { firstName, lastName, ...extra })).id;
  const trip = (from: object, to: object) => [
    { ...from, type: 'ORIGIN' },
    { ...to, type: 'DELIVERY', dockDurationHours: 1 },
  ];

  it('a driver already on an overlapping ACTIVE route: the plan warns, naming that route; Activate refuses, naming the driver and linking the route', async () => {
    const maria = await driver('Maria', 'Lopez');
    const load = await post('/api/v1/loads', { referenceNumber: `BK-${kind}-1`, originAddress: 'Dallas, TX', destinationAddress: 'Oklahoma City, OK' });
    const first = await plan({ driverId: maria, loadId: load.json<{ id: string }>().id, departureTime: at(-1), stops: trip(DALLAS, OKC) });
    expect(first.warnings.filter((w) => w.includes('Maria Lopez'))).toEqual([]);
    expect((await post(`/api/v1/routes/${first.id}/activate`)).statusCode).toBe(200);

    const second = await plan({ driverId: maria, departureTime: at(0), stops: trip(DALLAS, TULSA) });
    const warning = second.warnings.find((w) => w.startsWith('Maria Lopez'));
    expect(warning).toMatch(
      new RegExp(
        `^Maria Lopez is already on the active route Dallas, TX → Oklahoma City, OK \\(load BK-${kind}-1\\), Mon, Mar 2, 08:00 CST to Mon, Mar 2, \\d\\d:\\d\\d CST, at the same time as this one: only one of the two can be driven; this route cannot be activated until that one is completed or cancelled\\.$`,
      ),
    );
    const refused = await post(`/api/v1/routes/${second.id}/activate`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Maria Lopez is already driving the active route Dallas, TX → Oklahoma City, OK; complete or cancel it first',
      details: [{ field: 'route.driverId', message: 'Maria Lopez is already driving the active route Dallas, TX → Oklahoma City, OK; complete or cancel it first', routeId: first.id }],
    });
    expect((await post(`/api/v1/routes/${first.id}/complete`)).statusCode).toBe(200);
    expect((await post(`/api/v1/routes/${second.id}/activate`)).statusCode).toBe(200);
    expect((await post(`/api/v1/routes/${second.id}/complete`)).statusCode).toBe(200);
  });

  it('a PLANNED route at the same time is a warning too (it may still be re-planned); one after the other is none', async () => {
    const sam = await driver('Sam', 'Stacked');
    const early = await plan({ driverId: sam, departureTime: at(1), stops: trip(DALLAS, OKC) });
    const overlapping = await plan({ driverId: sam, departureTime: at(2), stops: trip(DALLAS, TULSA) });
    expect(overlapping.warnings.filter((w) => w.startsWith('Sam Stacked'))).toEqual([
      expect.stringMatching(/^Sam Stacked is already on the planned route Dallas, TX → Oklahoma City, OK, .* at the same time as this one: only one of the two can be driven\.$/),
    ]);
    // After the later one ends, from where it ends: nothing to say.
    const last = Math.max(Date.parse(early.arrivalTime), Date.parse(overlapping.arrivalTime));
    const after = await plan({ driverId: sam, departureTime: new Date(last + H).toISOString(), stops: trip(TULSA, OKC) });
    expect(after.warnings.filter((w) => w.startsWith('Sam Stacked'))).toEqual([]);
    for (const id of [early.id, overlapping.id, after.id]) expect((await post(`/api/v1/routes/${id}/cancel`, { reason: 'test' })).statusCode).toBe(200);
  });

  it('a driver far from the origin when the route departs: where their other route ends, or where they were last seen', async () => {
    const james = await driver('James', 'Carter');
    const south = await plan({ driverId: james, departureTime: at(0), stops: trip(HOUSTON, SAN_ANTONIO) });
    const next = await plan({ driverId: james, departureTime: new Date(Date.parse(south.arrivalTime) + H).toISOString(), stops: trip(DALLAS, OKC) });
    expect(next.warnings.filter((w) => w.startsWith('James Carter'))).toEqual([
      expect.stringMatching(
        /^James Carter will be about 2\d\d mi from Dallas, TX when this route departs, Mon, Mar 2, \d\d:\d\d CST \(where their planned route Houston, TX → San Antonio, TX ends, Mon, Mar 2, \d\d:\d\d CST\): the plan does not include the drive there\.$/,
      ),
    ]);

    const lee = await driver('Lee', 'Located');
    expect((await post(`/api/v1/drivers/${lee}/location`, { latitude: 35.1495, longitude: -90.049, recordedAt: at(-2) })).statusCode).toBe(200);
    const far = await plan({ driverId: lee, departureTime: at(0), stops: trip(DALLAS, OKC) });
    expect(far.warnings.filter((w) => w.startsWith('Lee Located'))).toEqual([
      expect.stringMatching(/^Lee Located will be about 4\d\d mi from Dallas, TX when this route departs, Mon, Mar 2, 09:00 CST \(last known near Memphis, TN, Mon, Mar 2, 07:00 CST\): the plan does not include the drive there\.$/),
    ]);
    // Reported in Dallas: nothing to say.
    expect((await post(`/api/v1/routes/${far.id}/cancel`, { reason: 'test' })).statusCode).toBe(200);
    expect((await post(`/api/v1/drivers/${lee}/location`, { latitude: DALLAS.latitude, longitude: DALLAS.longitude, recordedAt: at(-1) })).statusCode).toBe(200);
    const near = await plan({ driverId: lee, departureTime: at(0), stops: trip(DALLAS, OKC) });
    expect(near.warnings.filter((w) => w.startsWith('Lee Located'))).toEqual([]);
  });

  it('a team: the co-driver’s other route is named the same way', async () => {
    const rosa = await driver('Rosa', 'Diaz');
    const omar = await driver('Omar', 'Haddad');
    await plan({ driverId: omar, departureTime: at(0), stops: trip(DALLAS, OKC) });
    const team = await plan({ driverId: rosa, coDriverId: omar, coDriverState: FRESH, departureTime: at(1), stops: trip(DALLAS, TULSA) });
    expect(team.warnings.filter((w) => /^(Rosa Diaz|Omar Haddad)/.test(w))).toEqual([expect.stringMatching(/^Omar Haddad is already on the planned route Dallas, TX → Oklahoma City, OK, /)]);
  });

  it('a plan that names no vehicle takes the driver’s own truck (an ACTIVE vehicle of that unit number); a named one wins', async () => {
    const truck = await post('/api/v1/vehicles', { unitNumber: `T-${kind}-7` });
    const spare = await post('/api/v1/vehicles', { unitNumber: `S-${kind}-8` });
    const tia = await driver('Tia', 'Trucker', { truckNumber: `t-${kind}-7` });
    expect((await plan({ driverId: tia, departureTime: at(10), stops: trip(DALLAS, OKC) })).vehicleId).toBe(truck.json<{ id: string }>().id);
    expect((await plan({ driverId: tia, vehicleId: spare.json<{ id: string }>().id, departureTime: at(30), stops: trip(DALLAS, OKC) })).vehicleId).toBe(spare.json<{ id: string }>().id);
    // A truck in maintenance is not taken.
    expect((await t.app.inject({ method: 'PUT', url: `/api/v1/vehicles/${truck.json<{ id: string }>().id}`, headers: auth, payload: { status: 'IN_MAINTENANCE' } })).statusCode).toBe(200);
    expect((await plan({ driverId: tia, departureTime: at(50), stops: trip(DALLAS, OKC) })).vehicleId).toBeNull();
    // A candidate's plan request (as "Plan with this driver" sends it) gets the truck the same way.
    expect((await t.app.inject({ method: 'PUT', url: `/api/v1/vehicles/${truck.json<{ id: string }>().id}`, headers: auth, payload: { status: 'ACTIVE' } })).statusCode).toBe(200);
    const candidates = await post('/api/v1/dispatch/candidates', { driverIds: [tia], stops: [{ ...DALLAS }, { ...OKC, type: 'DELIVERY' }], departureNotBefore: at(70) });
    const request = candidates.json<{ data: { planRequest: Record<string, unknown> }[] }>().data[0]!.planRequest;
    expect((await plan({ ...request })).vehicleId).toBe(truck.json<{ id: string }>().id);
  });

  it('a driver with hundreds of planned routes at that time: the plan reads a bounded number, says "more than 10", names the earliest', async () => {
    const kai = await driver('Kai', 'Many');
    const first = await plan({ driverId: kai, departureTime: at(2), stops: trip(DALLAS, OKC) });
    // 150 more copies of that PLANNED route, all at the same time (what a client that plans and never activates leaves).
    await t.db.system((tx) =>
      tx.query(
        `INSERT INTO route_plans (tenant_id, id, driver_id, vehicle_id, load_id, status, departure_time, arrival_time, distance_method, request, summary, stops, segments, created_by, created_at, updated_at)
         SELECT tenant_id, id || '_' || n, driver_id, vehicle_id, load_id, status, departure_time + n * interval '1 second', arrival_time, distance_method, request, summary, stops, segments, created_by, created_at, updated_at
           FROM route_plans, generate_series(1, 150) AS n WHERE tenant_id = $1 AND id = $2`,
        [acme.tenantId, first.id],
      ),
    );
    const again = await plan({ driverId: kai, departureTime: at(1), stops: trip(DALLAS, OKC) });
    expect(again.warnings.filter((w) => w.includes('Kai Many'))).toEqual([
      expect.stringMatching(/^Kai Many is already on more than 10 other routes at the same time as this one, among them the planned route Dallas, TX → Oklahoma City, OK, Mon, Mar 2, 11:00 CST to /),
    ]);
  });
});
