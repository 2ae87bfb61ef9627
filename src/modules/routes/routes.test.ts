import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS, openTestDatabase } from '../../../test/helpers/db.js';
import type { Tx } from '../../db/types.js';
import { createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { startOsrmSandbox, type OsrmSandbox } from '../../adapters/maps/osrm/osrm.sandbox.js';
import { haversineMiles } from '../../domain/geo/index.js';
import { ROAD_FACTOR } from '../../adapters/maps/index.js';
import { GREAT_CIRCLE_WARNING, ROAD_FACTOR_WARNING } from './distance-warning.js';

type Auth = Record<string, string>;
type Json = Record<string, unknown>;

interface HosAfter {
  hours_driven: number;
  on_duty_hours: number;
  hours_since_break: number;
  drive_hours_remaining: number;
  duty_hours_remaining: number;
  cycle_hours_used: number;
  cycle_hours_remaining: number;
}
interface Segment {
  sequence: number;
  type: 'drive' | 'rest' | 'dock' | 'fuel' | 'wait';
  start_time: string;
  end_time: string;
  duration_hours: number;
  hos_state_after: HosAfter;
  distance_miles?: number;
  from?: { name: string; latitude: number; longitude: number };
  to?: { name: string; latitude: number; longitude: number };
  location?: string;
  latitude?: number;
  longitude?: number;
  rest_type?: string;
  duty_status?: string;
  reason?: string;
  stop_type?: string;
  gallons?: number;
  cost?: number;
}
interface StopEta {
  sequence: number;
  name: string;
  type: string;
  latitude: number;
  longitude: number;
  arrivalTime: string;
  departureTime: string;
  appointment: { earliest: string | null; latest: string | null } | null;
  withinWindow: boolean | null;
  lateByHours: number;
}
interface Summary {
  totalDistanceMiles: number;
  totalDriveHours: number;
  totalOnDutyHours: number;
  totalRestHours: number;
  totalTripHours: number;
  minutes: { drive: number; onDuty: number; rest: number; trip: number };
  restStops: number;
  breaks: number;
  fuelStops: number;
  estimatedFuelCost: number;
  fuelBurnedGallons: number;
  fuelPurchasedGallons: number;
  fuelPurchasedCost: number;
  hosViolations: number;
  appointmentsMissed: number;
  distanceMethod: string;
}
interface Plan {
  id: string;
  status: string;
  driverId: string;
  vehicleId: string | null;
  loadId: string | null;
  departureTime: string;
  arrivalTime: string;
  distanceMethod: string;
  summary: Summary;
  stops: StopEta[];
  segments: Segment[];
  warnings: string[];
  createdAt: string;
  updatedAt: string;
  activatedAt: string | null;
  completedAt: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
}

const HOUR = 3_600_000;
const START = '2026-03-02T12:00:00.000Z';
const DEPART = '2026-03-03T06:00:00.000Z';
const SNAKE = /^[a-z]+(_[a-z]+)*$/;

const DALLAS = { name: 'Dallas yard', latitude: 32.7767, longitude: -96.797 };
const OKC = { name: 'Oklahoma City DC', latitude: 35.4676, longitude: -97.5164 };
const AMARILLO = { name: 'Amarillo customer', latitude: 35.222, longitude: -101.8313 };
const SHORT_TRIP = [DALLAS, OKC];

/** Every key of a segment, nested objects included, is snake_case (spec: rest segment fields; DESIGN §4). */
function snakeKeys(v: unknown, path = 'segment'): string[] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
  return Object.entries(v).flatMap(([k, child]) => [...(SNAKE.test(k) ? [] : [`${path}.${k}`]), ...snakeKeys(child, `${path}.${k}`)]);
}

/** What every plan the API returns must satisfy, whatever the trip. */
function expectConsistentPlan(p: Plan): void {
  expect(p.id).toMatch(/^rte_[0-9A-Za-z]{22}$/);
  expect(p.summary.hosViolations).toBe(0);
  const segs = p.segments;
  expect(segs.length).toBeGreaterThan(0);
  expect(segs[0]!.start_time).toBe(p.departureTime);
  expect(segs[segs.length - 1]!.end_time).toBe(p.arrivalTime);
  let drive = 0;
  let miles = 0;
  segs.forEach((s, i) => {
    const where = `segment ${s.sequence} (${s.type})`;
    expect(s.sequence, where).toBe(i + 1);
    if (i > 0) expect(s.start_time, where).toBe(segs[i - 1]!.end_time);
    expect(Math.abs((Date.parse(s.end_time) - Date.parse(s.start_time)) / HOUR - s.duration_hours), where).toBeLessThanOrEqual(0.006);
    expect(snakeKeys(s), where).toEqual([]);
    const h = s.hos_state_after;
    expect(Object.keys(h).sort(), where).toEqual(['cycle_hours_remaining', 'cycle_hours_used', 'drive_hours_remaining', 'duty_hours_remaining', 'hours_driven', 'hours_since_break', 'on_duty_hours']);
    for (const v of Object.values(h)) expect(v, where).toBeGreaterThanOrEqual(0);
    expect(h.hours_driven, where).toBeLessThanOrEqual(11);
    expect(h.on_duty_hours, where).toBeLessThanOrEqual(14);
    expect(h.hours_since_break, where).toBeLessThanOrEqual(8);
    expect(h.cycle_hours_used, where).toBeLessThanOrEqual(70);
    expect(Math.abs(h.drive_hours_remaining - (11 - h.hours_driven)), where).toBeLessThanOrEqual(0.011);
    expect(Math.abs(h.cycle_hours_remaining - (70 - h.cycle_hours_used)), where).toBeLessThanOrEqual(0.011);
    if (s.type === 'drive') {
      drive += s.duration_hours;
      miles += s.distance_miles!;
      expect(s.distance_miles, where).toBeGreaterThan(0);
      expect(s.from, where).toMatchObject({ name: expect.any(String), latitude: expect.any(Number), longitude: expect.any(Number) });
      expect(s.to, where).toMatchObject({ name: expect.any(String), latitude: expect.any(Number), longitude: expect.any(Number) });
    }
    if (s.type === 'rest') {
      expect(s.location, where).toEqual(expect.any(String));
      expect(s.location!.length, where).toBeGreaterThan(0);
      expect(s, where).toMatchObject({ latitude: expect.any(Number), longitude: expect.any(Number) });
      expect(['full_rest', 'partial_rest', 'break'], where).toContain(s.rest_type);
      expect(s.reason!.length, where).toBeGreaterThan(10);
      if (s.rest_type === 'break') {
        expect(s.duration_hours, where).toBe(0.5);
        expect(h.hours_since_break, where).toBe(0);
      }
      if (s.rest_type === 'full_rest' && s.duration_hours === 10) {
        // Spec: "clocks reset for full rest: 0, 0, 0, 11".
        expect(h, where).toMatchObject({ hours_driven: 0, on_duty_hours: 0, hours_since_break: 0, drive_hours_remaining: 11, duty_hours_remaining: 14 });
      }
    }
  });
  expect(Math.abs(miles - p.summary.totalDistanceMiles)).toBeLessThanOrEqual(0.1);
  expect(Math.abs(drive - p.summary.totalDriveHours)).toBeLessThanOrEqual(0.05);
  const rests = segs.filter((s) => s.type === 'rest');
  expect(p.summary.breaks).toBe(rests.filter((s) => s.rest_type === 'break').length);
  expect(p.summary.restStops).toBe(rests.filter((s) => s.rest_type !== 'break').length);
  expect(p.summary.fuelStops).toBe(segs.filter((s) => s.type === 'fuel').length);
  expect(p.summary.totalTripHours).toBeCloseTo((Date.parse(p.arrivalTime) - Date.parse(p.departureTime)) / HOUR, 1);
  p.stops.forEach((s, i) => {
    expect(s.sequence).toBe(i + 1);
    expect(Date.parse(s.departureTime)).toBeGreaterThanOrEqual(Date.parse(s.arrivalTime));
    if (i > 0) expect(Date.parse(s.arrivalTime)).toBeGreaterThanOrEqual(Date.parse(p.stops[i - 1]!.departureTime));
  });
  expect(p.stops[0]!.arrivalTime).toBe(p.departureTime);
  expect(p.stops[p.stops.length - 1]!.departureTime).toBe(p.arrivalTime);
}

/** The suite plans many routes for one driver: the double-booking warnings about them are another test's (routes.booking.int.test.ts). */
const notBooking = (w: string) => !/ is already on /.test(w);

describe.each(DB_KINDS)('routes API (%s)', (kind) => {
  let t: TestApp;
  let clock: FakeClock;
  let acme: TenantFixture;
  let other: TenantFixture;
  let driverId: string;
  let otherDriverId: string;

  beforeAll(async () => {
    clock = new FakeClock(START);
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Acme Freight' });
    other = await createTenant(t.app, { name: 'Other Carrier' });
    driverId = (await createDriver(t.app, acme.auth)).id;
    otherDriverId = (await createDriver(t.app, other.auth)).id;
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const plan = (auth: Auth, payload: unknown) => inject({ method: 'POST', url: '/api/v1/routes/plan', headers: auth, payload: payload as Json });
  const planOk = async (auth: Auth, payload: Json): Promise<Plan> => {
    // Distinct createdAt for every plan: the list is ordered by it.
    clock.advance(1_000);
    const res = await plan(auth, payload);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(201);
    // The answer is built from the JSON stored (routeInsert), not by the response serializer: it must say
    // exactly what the serializer says for the same route (GET): the same fields, none more, the same
    // values (the order of the keys inside a segment may differ).
    const got = await inject({ method: 'GET', url: `/api/v1/routes/${res.json<Plan>().id}`, headers: auth });
    expect(res.headers['content-type']).toBe(got.headers['content-type']);
    expect(res.json()).toStrictEqual(got.json());
    return res.json<Plan>();
  };
  const action = (auth: Auth, id: string, name: 'activate' | 'complete' | 'cancel', payload?: Json) =>
    inject({ method: 'POST', url: `/api/v1/routes/${id}/${name}`, headers: auth, ...(payload ? { payload } : {}) });
  const expect400 = async (payload: unknown, match: { message?: RegExp | string; field?: string }, auth: Auth = acme.auth) => {
    const res = await plan(auth, payload);
    expect(res.statusCode, `${JSON.stringify(payload).slice(0, 200)} → ${res.body.slice(0, 300)}`).toBe(400);
    const body = res.json<{ statusCode: number; error: string; message: string; details?: Array<{ field: string; message: string }> }>();
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    // The message, or (for a single problem among several checks) the message of one of the details.
    if (match.message) expect([body.message, ...(body.details ?? []).map((d) => d.message)].some((m) => (typeof match.message === 'string' ? m === match.message : match.message!.test(m))), JSON.stringify(body)).toBe(true);
    if (match.field) expect(body.details?.map((d) => d.field), body.message).toContain(match.field);
    return body;
  };
  const outbox = async (tenantId: string, type: string, key: string, value: string) =>
    (
      await t.db.tenant(tenantId, (tx) =>
        tx.query<{ event_type: string; payload: Json }>('SELECT event_type, payload FROM outbox_events WHERE event_type = $1 AND payload->>$2 = $3 ORDER BY created_at, id', [type, key, value]),
      )
    ).rows.map((r) => r.payload);
  const createLoad = async (auth: Auth, overrides: Json = {}) => {
    const res = await inject({
      method: 'POST',
      url: '/api/v1/loads',
      headers: auth,
      payload: {
        referenceNumber: `PO-${Math.random().toString(36).slice(2, 10)}`,
        originAddress: '100 Commerce St, Dallas, TX 75201',
        destinationAddress: '2000 Ponce de Leon Blvd, Atlanta, GA 30307',
        scheduledPickup: '2026-03-03T10:00:00.000Z',
        scheduledDelivery: '2026-03-04T16:00:00.000Z',
        ...overrides,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; referenceNumber: string; status: string }>();
  };
  const createVehicle = async (auth: Auth, overrides: Json = {}) => {
    const res = await inject({ method: 'POST', url: '/api/v1/vehicles', headers: auth, payload: { unitNumber: `U-${Math.random().toString(36).slice(2, 8)}`, ...overrides } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; unitNumber: string }>();
  };
  const loadStatus = async (id: string) => (await inject({ method: 'GET', url: `/api/v1/loads/${id}`, headers: acme.auth })).json<{ status: string }>().status;

  it('plans by address: 201 with the full plan, rests inserted where the clocks run out, readable by id', async () => {
    const p = await planOk(acme.auth, { driverId, departureTime: DEPART, stops: [{ address: 'Dallas, TX' }, { address: 'Los Angeles, CA' }] });
    expect(p).toMatchObject({
      status: 'PLANNED',
      driverId,
      vehicleId: null,
      loadId: null,
      departureTime: DEPART,
      distanceMethod: 'haversine',
      // Great circle runs short of the road, and the plan says so.
      warnings: [GREAT_CIRCLE_WARNING],
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
      activatedAt: null,
      completedAt: null,
      cancelledAt: null,
      cancelReason: null,
    });
    expect(Object.keys(p.summary).sort()).toEqual(
      [
        'appointmentsMissed', 'breaks', 'distanceMethod', 'estimatedFuelCost', 'fuelBurnedGallons', 'fuelPurchasedCost', 'fuelPurchasedGallons', 'fuelStops',
        'hosViolations', 'minutes', 'restStops', 'totalDistanceMiles', 'totalDriveHours', 'totalOnDutyHours', 'totalRestHours', 'totalTripHours',
      ].sort(),
    );
    expect(p.summary.distanceMethod).toBe('haversine');
    // Exact hours: the drive segments' durations added up, not rounded to hundredths.
    const driveSegments = p.segments.filter((s) => s.type === 'drive');
    expect(p.summary.totalDriveHours).toBeCloseTo(driveSegments.reduce((a, s) => a + s.duration_hours, 0), 6);
    // The minutes a timeline of the plan adds up to: each segment between its start and end rounded to the minute.
    const minute = (iso: string) => Math.round(Date.parse(iso) / 60_000);
    const minutes = (types: string[]) => p.segments.filter((s) => types.includes(s.type)).reduce((a, s) => a + minute(s.end_time) - minute(s.start_time), 0);
    expect(p.summary.minutes).toEqual({
      drive: minutes(['drive']),
      onDuty: minutes(['drive', 'dock', 'fuel']),
      rest: minutes(['rest', 'wait']),
      trip: minute(p.arrivalTime) - minute(p.departureTime),
    });
    expect(minutes(['drive', 'dock', 'fuel', 'rest', 'wait'])).toBe(p.summary.minutes.trip);
    expectConsistentPlan(p);
    // Dallas → Los Angeles is ~1,240 great-circle miles: more than two days' driving at 55 mph.
    expect(p.summary.totalDistanceMiles).toBeGreaterThan(1_200);
    expect(p.summary.totalDistanceMiles).toBeLessThan(1_280);
    expect(p.summary.totalDriveHours).toBeCloseTo(p.summary.totalDistanceMiles / 55, 1);
    expect(p.summary.restStops).toBeGreaterThanOrEqual(2);
    expect(p.summary.breaks).toBeGreaterThanOrEqual(1);
    expect(p.summary.totalTripHours).toBeGreaterThan(p.summary.totalDriveHours + 20);
    // A fresh driver drives 8 hours, then takes the 30-minute break (a fuel stop may be merged into that stop).
    expect(p.segments[0]).toMatchObject({ type: 'drive', duration_hours: 8, from: { name: 'Dallas, TX' } });
    const firstRest = p.segments.findIndex((s) => s.type === 'rest');
    expect(p.segments[firstRest]).toMatchObject({ type: 'rest', rest_type: 'break', duration_hours: 0.5, duty_status: 'OFF_DUTY' });
    expect(p.segments.slice(1, firstRest).every((s) => s.type === 'fuel')).toBe(true);
    const full = p.segments.find((s) => s.type === 'rest' && s.rest_type === 'full_rest')!;
    expect(full.duration_hours).toBe(10);
    expect(full.reason).toMatch(/10-hour rest/);
    expect(full.location).toMatch(/\S/);
    expect(p.stops.map((s) => [s.sequence, s.name, s.type])).toEqual([
      [1, 'Dallas, TX', 'ORIGIN'],
      [2, 'Los Angeles, CA', 'DELIVERY'],
    ]);
    expect(p.stops[0]).toMatchObject({ latitude: expect.closeTo(32.78, 1), longitude: expect.closeTo(-96.8, 1), appointment: null, withinWindow: null, lateByHours: 0 });
    expect(p.stops[1]!.arrivalTime).toBe(p.arrivalTime);

    const got = await inject({ method: 'GET', url: `/api/v1/routes/${p.id}`, headers: acme.auth });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(p);
    const [planned] = await outbox(acme.tenantId, 'route.planned', 'planId', p.id);
    expect(planned).toMatchObject({ planId: p.id, driverId, summary: p.summary });
  });

  it('plans by coordinates: names, default stop types, ETAs and great-circle distances', async () => {
    const p = await planOk(acme.auth, { driverId, departureTime: DEPART, stops: [DALLAS, { ...OKC, dockDurationHours: 1.5 }, AMARILLO] });
    expectConsistentPlan(p);
    expect(p.stops.map((s) => [s.name, s.type, s.latitude, s.longitude])).toEqual([
      [DALLAS.name, 'ORIGIN', DALLAS.latitude, DALLAS.longitude],
      [OKC.name, 'WAYPOINT', OKC.latitude, OKC.longitude],
      [AMARILLO.name, 'DELIVERY', AMARILLO.latitude, AMARILLO.longitude],
    ]);
    const expected = haversineMiles(DALLAS, OKC) + haversineMiles(OKC, AMARILLO);
    expect(p.summary.totalDistanceMiles).toBeCloseTo(expected, 0);
    // ETA at the waypoint: the first leg at 55 mph, then 1.5 h at the dock.
    const leg1 = haversineMiles(DALLAS, OKC) / 55;
    expect(Date.parse(p.stops[1]!.arrivalTime) - Date.parse(DEPART)).toBeCloseTo(leg1 * HOUR, -4);
    expect(Date.parse(p.stops[1]!.departureTime) - Date.parse(p.stops[1]!.arrivalTime)).toBe(1.5 * HOUR);
    const dock = p.segments.find((s) => s.type === 'dock')!;
    expect(dock).toMatchObject({ location: OKC.name, stop_type: 'WAYPOINT', duration_hours: 1.5, appointment: null });
    expect(p.segments.filter((s) => s.type === 'drive')[0]).toMatchObject({ from: { name: DALLAS.name }, to: { name: OKC.name } });
    expect(p.summary.totalOnDutyHours).toBeCloseTo(p.summary.totalDriveHours + 1.5, 1);
  });

  it('plans from a loadId alone: stops from the load, docks and appointments; the load becomes ASSIGNED with an event', async () => {
    const load = await createLoad(acme.auth);
    const p = await planOk(acme.auth, { driverId, loadId: load.id, departureTime: DEPART });
    expectConsistentPlan(p);
    expect(p.loadId).toBe(load.id);
    expect(p.stops.map((s) => [s.name, s.type])).toEqual([
      ['100 Commerce St, Dallas, TX 75201', 'PICKUP'],
      ['2000 Ponce de Leon Blvd, Atlanta, GA 30307', 'DELIVERY'],
    ]);
    // Pickup window opens at 10:00: four hours of waiting, then an hour at the dock.
    expect(p.stops[0]).toMatchObject({ arrivalTime: DEPART, departureTime: '2026-03-03T11:00:00.000Z', appointment: { earliest: '2026-03-03T10:00:00.000Z', latest: null }, withinWindow: true });
    expect(p.segments[0]).toMatchObject({ type: 'wait', duration_hours: 4, location: '100 Commerce St, Dallas, TX 75201' });
    expect(p.segments[1]).toMatchObject({ type: 'dock', stop_type: 'PICKUP', duration_hours: 1 });
    expect(p.segments[p.segments.length - 1]).toMatchObject({ type: 'dock', stop_type: 'DELIVERY', duration_hours: 1 });
    // The delivery window opens at 16:00 the next day: the truck waits for it, then unloads for an hour.
    expect(p.stops[1]).toMatchObject({ appointment: { earliest: '2026-03-04T16:00:00.000Z', latest: null }, withinWindow: true, departureTime: '2026-03-04T17:00:00.000Z' });
    expect(Date.parse(p.stops[1]!.arrivalTime)).toBeLessThan(Date.parse('2026-03-04T16:00:00.000Z'));
    expect(p.segments[p.segments.length - 2]).toMatchObject({ type: 'wait', end_time: '2026-03-04T16:00:00.000Z', location: '2000 Ponce de Leon Blvd, Atlanta, GA 30307' });
    expect(p.summary.totalDistanceMiles).toBeGreaterThan(700);

    expect(await loadStatus(load.id)).toBe('ASSIGNED');
    const changes = await outbox(acme.tenantId, 'load.status_changed', 'loadId', load.id);
    expect(changes).toEqual([expect.objectContaining({ loadId: load.id, referenceNumber: load.referenceNumber, oldStatus: 'PENDING', newStatus: 'ASSIGNED' })]);

    // A load without addresses needs stops; a delivered one cannot be planned.
    const bare = await createLoad(acme.auth, { originAddress: null, destinationAddress: null });
    // The load is on this route now: a second plan for it is refused until the first is cancelled.
    await expect400({ driverId, loadId: load.id, departureTime: DEPART }, { message: new RegExp(`already on route ${p.id}`) });
    await expect400({ driverId, loadId: bare.id }, { message: /no origin and destination address/, field: 'body.stops' });
    const done = await createLoad(acme.auth);
    expect((await inject({ method: 'POST', url: `/api/v1/loads/${done.id}/status`, headers: acme.auth, payload: { status: 'CANCELLED' } })).statusCode).toBe(200);
    await expect400({ driverId, loadId: done.id }, { message: /CANCELLED/ });
  });

  it("uses the vehicle's tank size and fuel economy", async () => {
    const stops = [{ address: 'Dallas, TX' }, { address: 'Los Angeles, CA' }];
    const thrifty = await createVehicle(acme.auth, { fuelTankGallons: 300, mpg: 7 });
    const thirsty = await createVehicle(acme.auth, { fuelTankGallons: 100, mpg: 4 });

    // Without fuel stops the cost is the fuel burned at the default price: miles / mpg × 3.85.
    const noFuel = { includeFuelStops: false };
    const byDefault = await planOk(acme.auth, { driverId, departureTime: DEPART, stops, options: noFuel });
    const withThirsty = await planOk(acme.auth, { driverId, vehicleId: thirsty.id, departureTime: DEPART, stops, options: noFuel });
    expect(withThirsty.vehicleId).toBe(thirsty.id);
    const listed = (await inject({ method: 'GET', url: `/api/v1/routes?driverId=${driverId}&pageSize=1`, headers: acme.auth })).json<{ data: Json[] }>().data[0];
    expect(listed).toMatchObject({ id: withThirsty.id, vehicleId: thirsty.id, vehicleUnit: thirsty.unitNumber });
    expect(byDefault.summary.estimatedFuelCost).toBeCloseTo((byDefault.summary.totalDistanceMiles / 6.5) * 3.85, 0);
    expect(withThirsty.summary.estimatedFuelCost).toBeCloseTo((withThirsty.summary.totalDistanceMiles / 4) * 3.85, 0);
    // An explicit mpg beats the vehicle's.
    const overridden = await planOk(acme.auth, { driverId, vehicleId: thirsty.id, departureTime: DEPART, stops, options: { ...noFuel, mpg: 8 } });
    expect(overridden.summary.estimatedFuelCost).toBeCloseTo((overridden.summary.totalDistanceMiles / 8) * 3.85, 0);

    // Range: 300 gal × 7 mpg covers the trip on one tank; 150 × 6.5 does not; 100 × 4 needs several stops.
    const far = await planOk(acme.auth, { driverId, vehicleId: thrifty.id, departureTime: DEPART, stops });
    const standard = await planOk(acme.auth, { driverId, departureTime: DEPART, stops });
    const often = await planOk(acme.auth, { driverId, vehicleId: thirsty.id, departureTime: DEPART, stops });
    for (const p of [far, standard, often]) expectConsistentPlan(p);
    expect(far.summary.fuelStops).toBe(0);
    expect(standard.summary.fuelStops).toBeGreaterThanOrEqual(1);
    expect(often.summary.fuelStops).toBeGreaterThan(standard.summary.fuelStops);
    for (const s of often.segments.filter((x) => x.type === 'fuel')) expect(s.gallons).toBeLessThanOrEqual(100);

    // estimatedFuelCost is the fuel the trip burns (miles / mpg × price; no station prices known here, so
    // 3.85 throughout); what the stops buy is reported apart and is less, since each truck leaves full.
    for (const [p, mpg] of [[far, 7], [standard, 6.5], [often, 4]] as const) {
      const fuelSegs = p.segments.filter((x) => x.type === 'fuel');
      expect(p.summary.fuelBurnedGallons).toBeCloseTo(p.summary.totalDistanceMiles / mpg, 1);
      expect(p.summary.estimatedFuelCost).toBeCloseTo((p.summary.totalDistanceMiles / mpg) * 3.85, 1);
      expect(p.summary.fuelPurchasedCost).toBeCloseTo(fuelSegs.reduce((sum, x) => sum + x.cost!, 0), 1);
      expect(p.summary.fuelPurchasedGallons).toBeCloseTo(fuelSegs.reduce((sum, x) => sum + x.gallons!, 0), 1);
      expect(p.summary.fuelPurchasedCost).toBeLessThan(p.summary.estimatedFuelCost);
    }
    expect(far.summary).toMatchObject({ fuelPurchasedCost: 0, fuelPurchasedGallons: 0 });
    expect(far.summary.estimatedFuelCost).toBeGreaterThan(600);

    // The starting fuel is checked against the vehicle's tank, not the default one.
    await planOk(acme.auth, { driverId, vehicleId: thrifty.id, departureTime: DEPART, stops: SHORT_TRIP, options: { startingFuelGallons: 250 } });
    await expect400({ driverId, vehicleId: thirsty.id, departureTime: DEPART, stops: SHORT_TRIP, options: { startingFuelGallons: 120 } }, { field: 'body.options.startingFuelGallons' });

    // A vehicle that is not ACTIVE cannot be assigned.
    const shop = await createVehicle(acme.auth, { status: 'IN_MAINTENANCE' });
    await expect400({ driverId, vehicleId: shop.id, departureTime: DEPART, stops: SHORT_TRIP }, { message: /IN_MAINTENANCE/ });
  });

  it('rejects bad input with 400 (naming the stop or field), unknown resources with 404', async () => {
    const base = { driverId, departureTime: DEPART, stops: SHORT_TRIP };

    const unknown = await plan(acme.auth, { ...base, driverId: 'drv_doesnotexist000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Driver not found' });

    const inactive = await createDriver(t.app, acme.auth, { firstName: 'Ina', lastName: 'Active' });
    expect((await inject({ method: 'POST', url: `/api/v1/drivers/${inactive.id}/deactivate`, headers: acme.auth })).statusCode).toBe(200);
    await expect400({ ...base, driverId: inactive.id }, { message: /Ina Active is INACTIVE; only ACTIVE drivers/ });

    // Another tenant's driver, vehicle and load are unknown here.
    const theirVehicle = await createVehicle(other.auth);
    const theirLoad = await createLoad(other.auth);
    for (const [payload, what] of [
      [{ ...base, driverId: otherDriverId }, 'Driver'],
      [{ ...base, vehicleId: theirVehicle.id }, 'Vehicle'],
      [{ ...base, loadId: theirLoad.id }, 'Load'],
      [{ ...base, vehicleId: 'veh_doesnotexist000000000' }, 'Vehicle'],
      [{ driverId, loadId: 'ld_doesnotexist000000000' }, 'Load'],
    ] as const) {
      const res = await plan(acme.auth, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(404);
      expect(res.json().message).toBe(`${what} not found`);
    }
    expect((await inject({ method: 'GET', url: `/api/v1/loads/${theirLoad.id}`, headers: other.auth })).json().status).toBe('PENDING');

    await expect400({ ...base, stops: [DALLAS] }, { message: 'Validation failed', field: 'body.stops' });
    await expect400({ driverId, departureTime: DEPART }, { message: /at least two stops/, field: 'body.stops' });
    await expect400({ ...base, stops: [DALLAS, { name: 'Paris', latitude: 48.8566, longitude: 2.3522 }] }, { message: /^Stop 2 \(Paris\): is outside North America/, field: 'body.stops.1' });
    await expect400({ ...base, stops: [DALLAS, { latitude: 35.7, longitude: 139.7 }] }, { message: /^Stop 2: is outside North America/ });
    await expect400({ ...base, stops: [DALLAS, { name: 'Mystery dock' }] }, { message: /^Stop 2 \(Mystery dock\): give either coordinates \(latitude and longitude\) or an address/, field: 'body.stops.1' });
    await expect400({ ...base, stops: [DALLAS, { latitude: 35.2 }] }, { message: /latitude and longitude must be given together/ });
    await expect400({ ...base, stops: [{ address: 'Dallas, TX' }, { address: 'Nowhereville, ZZ' }] }, { message: /^Stop 2 \("Nowhereville, ZZ"\): the address could not be resolved/, field: 'body.stops.1.address' });
    const both = await expect400({ ...base, stops: [{ address: 'Atlantis, XX' }, { address: 'Nowhereville, ZZ' }] }, { message: 'Validation failed' });
    expect(both.details!.map((d) => d.field)).toEqual(['body.stops.0.address', 'body.stops.1.address']);
    await expect400(
      { ...base, stops: [DALLAS, { ...OKC, appointment: { earliest: '2026-03-03T12:00:00Z', latest: '2026-03-03T11:00:00Z' } }] },
      { message: /^Stop 2 \(Oklahoma City DC\): the appointment window ends before it starts/, field: 'body.stops.1.appointment' },
    );
    await expect400({ ...base, stops: [DALLAS, { ...OKC, appointment: { earliest: 'tomorrow' } }] }, { message: 'Validation failed' });
    for (const averageSpeedMph of [0, 5, 200, -55]) {
      await expect400({ ...base, options: { averageSpeedMph } }, { message: 'Validation failed', field: 'body.options.averageSpeedMph' });
    }
    const tank = await expect400({ ...base, options: { startingFuelGallons: 151 } }, { field: 'body.options.startingFuelGallons' });
    expect(tank.details).toEqual([{ field: 'body.options.startingFuelGallons', message: 'cannot exceed the tank size' }]);
    await expect400({ ...base, options: { fuelTankGallons: 100, startingFuelGallons: 120 } }, { field: 'body.options.startingFuelGallons' });
    await expect400({ ...base, driverState: { hoursDriven: 2, onDutyHours: 3, hoursSinceBreak: 5, cycleHoursUsed: 20 } }, { message: /cannot exceed hoursDriven/, field: 'body.driverState.hoursSinceBreak' });
    await expect400({ ...base, driverState: { hoursDriven: 6, onDutyHours: 5, hoursSinceBreak: 1, cycleHoursUsed: 20 } }, { field: 'body.driverState.hoursDriven' });
    await expect400({ ...base, driverState: { hoursDriven: 6, onDutyHours: 7, hoursSinceBreak: 1, cycleHoursUsed: 3 } }, { field: 'body.driverState.cycleHoursUsed' });
    await expect400({ ...base, driverState: { hoursDriven: 6, onDutyHours: 7, hoursSinceBreak: 1 } }, { field: 'body.driverState.cycleHoursUsed' });
    await expect400({ ...base, driverState: { hoursDriven: 25, onDutyHours: 7, hoursSinceBreak: 1, cycleHoursUsed: 30 } }, { field: 'body.driverState.hoursDriven' });
    await expect400({ ...base, priority: 'high' }, { message: 'Validation failed', field: 'body.priority' });
    await expect400({ ...base, options: { turbo: true } }, { message: 'Validation failed' });
    await expect400({ ...base, stops: [DALLAS, { ...OKC, color: 'red' }] }, { message: 'Validation failed' });
    await expect400({ ...base, driverId: 'not-a-driver' }, { field: 'body.driverId' });
    await expect400({ ...base, departureTime: 'next tuesday' }, { field: 'body.departureTime' });
    await expect400({ stops: SHORT_TRIP }, { field: 'body.driverId' });
    await expect400({ ...base, stops: Array.from({ length: 26 }, () => DALLAS) }, { field: 'body.stops' });
    await expect400({ ...base, stops: Array.from({ length: 11 }, (_, i) => ({ latitude: 33 + i * 0.1, longitude: -97 })), options: { optimizeStopOrder: true } }, { field: 'body.stops' });

    // Nothing was planned by any of these.
    const list = (await inject({ method: 'GET', url: `/api/v1/routes?driverId=${inactive.id}`, headers: acme.auth })).json();
    expect(list.total).toBe(0);
  });

  it('distanceMethod haversine_road: great circle × the calibrated road factor, said in the plan; DISTANCE_METHOD sets the default', async () => {
    const stops = [{ address: 'Dallas, TX' }, { address: 'Chicago, IL' }, { address: 'Columbus, OH' }];
    const great = await planOk(acme.auth, { driverId, departureTime: DEPART, stops });
    const road = await planOk(acme.auth, { driverId, departureTime: DEPART, stops, options: { distanceMethod: 'haversine_road' } });
    expectConsistentPlan(road);
    expect(great).toMatchObject({ distanceMethod: 'haversine', summary: { distanceMethod: 'haversine' } });
    expect(great.warnings).toContain(GREAT_CIRCLE_WARNING);
    expect(GREAT_CIRCLE_WARNING).toMatch(/roads run longer/);
    expect(road).toMatchObject({ distanceMethod: 'haversine_road', summary: { distanceMethod: 'haversine_road' } });
    expect(road.warnings.filter(notBooking)).toEqual([ROAD_FACTOR_WARNING]);
    expect(road.summary.totalDistanceMiles).toBeCloseTo(great.summary.totalDistanceMiles * ROAD_FACTOR, 0);
    // Dallas → Chicago → Columbus is about 925 + 355 = 1,280 road miles; great circle says ~1,080.
    expect(great.summary.totalDistanceMiles).toBeLessThan(1_280 * 0.87);
    expect(Math.abs(road.summary.totalDistanceMiles / 1_280 - 1)).toBeLessThan(0.05);
    // The drive hours follow the longer distance.
    expect(road.summary.totalDriveHours).toBeCloseTo(road.summary.totalDistanceMiles / 55, 1);
    // Read back and listed: the method is kept.
    const again = await inject({ method: 'GET', url: `/api/v1/routes/${road.id}`, headers: acme.auth });
    expect(again.json<Plan>()).toMatchObject({ distanceMethod: 'haversine_road', summary: road.summary, warnings: road.warnings });

    const d = await buildTestApp(kind, { clock: new FakeClock(START), env: { DISTANCE_METHOD: 'haversine_road' } });
    try {
      const tenant = await createTenant(d.app);
      const driver = await createDriver(d.app, tenant.auth);
      const plan = async (options?: Json) => {
        const res = await d.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: tenant.auth, payload: { driverId: driver.id, departureTime: DEPART, stops: SHORT_TRIP, ...(options ? { options } : {}) } });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<Plan>();
      };
      expect((await plan()).summary.distanceMethod).toBe('haversine_road');
      expect((await plan({ averageSpeedMph: 60 })).summary.distanceMethod).toBe('haversine_road');
      expect((await plan({ distanceMethod: 'haversine' })).summary.distanceMethod).toBe('haversine');
    } finally {
      await d.close();
    }
  });

  it('the OpenAPI document describes the distance methods and what the fuel figures mean', async () => {
    const res = await inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const op = res.json().paths['/api/v1/routes/plan'].post;
    const method = op.requestBody.content['application/json'].schema.properties.options.properties.distanceMethod;
    expect(method.anyOf.flatMap((o: { enum: string[] }) => o.enum)).toEqual(['haversine', 'haversine_road', 'osrm']);
    expect(method.description).toMatch(/haversine_road: great-circle × a road factor \(1\.13\)/);
    expect(method.description).toMatch(/Default: the server’s DISTANCE_METHOD setting, which is haversine unless set/);
    const summary = op.responses['201'].content['application/json'].schema.properties.summary;
    expect(summary.properties.estimatedFuelCost.description).toMatch(/^Cost of the fuel the trip burns/);
    expect(summary.properties.fuelPurchasedCost.description).toMatch(/planned fuel stops/);
    expect(summary.required).toEqual(expect.arrayContaining(['estimatedFuelCost', 'distanceMethod']));
  });

  it('a plan stored before the summary named its method and fuel split is still served, its method from the column', async () => {
    const p = await planOk(acme.auth, { driverId, departureTime: DEPART, stops: SHORT_TRIP });
    const { distanceMethod: _m, fuelBurnedGallons: _b, fuelPurchasedGallons: _g, fuelPurchasedCost: _c, ...legacy } = p.summary;
    await t.db.tenant(acme.tenantId, (tx) => tx.query('UPDATE route_plans SET summary = $3 WHERE tenant_id = $1 AND id = $2', [acme.tenantId, p.id, JSON.stringify(legacy)]));
    const res = await inject({ method: 'GET', url: `/api/v1/routes/${p.id}`, headers: acme.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Plan>().summary).toEqual({ ...legacy, distanceMethod: 'haversine' });
    const list = await inject({ method: 'GET', url: `/api/v1/routes?driverId=${driverId}&pageSize=100`, headers: acme.auth });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ data: Plan[] }>().data.find((x) => x.id === p.id)!.summary.distanceMethod).toBe('haversine');
  });

  it('distanceMethod osrm: 400 without OSRM_URL; road distances from the mapping service when configured; NoRoute → 400', async () => {
    await expect400({ driverId, departureTime: DEPART, stops: SHORT_TRIP, options: { distanceMethod: 'osrm' } }, { message: 'Validation failed', field: 'body.options.distanceMethod' });

    // The sandbox has no road to Amarillo's surroundings west of -103° (a stand-in for a closed road network).
    const sandbox: OsrmSandbox = await startOsrmSandbox({ noRoute: (points) => points.some((p) => p.longitude < -103) });
    const osrmClock = new FakeClock(START);
    // The tenant transactions a plan request opens: two when a mapping service is asked between the read
    // and the write (no connection held while it answers), one when the distances are computed here.
    const base = await openTestDatabase(kind);
    let transactions = 0;
    const counted = new Proxy(base, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop === 'tenant') return (tenantId: string, fn: (tx: Tx) => Promise<unknown>) => (transactions++, target.tenant(tenantId, fn));
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const o = await buildTestApp(kind, { clock: osrmClock, env: { OSRM_URL: sandbox.url }, db: counted });
    try {
      const tenant = await createTenant(o.app);
      const driver = await createDriver(o.app, tenant.auth);
      const body = (distanceMethod: string, stops: unknown[] = [DALLAS, OKC, AMARILLO]) => ({ driverId: driver.id, departureTime: DEPART, stops, options: { distanceMethod } });
      transactions = 0;
      const road = await o.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: tenant.auth, payload: body('osrm') });
      expect(road.statusCode, road.body).toBe(201);
      expect(transactions).toBe(2);
      const r = road.json<Plan>();
      expectConsistentPlan(r);
      expect(r.distanceMethod).toBe('osrm');
      expect(sandbox.requests.length).toBe(1);
      expect(sandbox.requests[0]).toMatch(/^\/route\/v1\/driving\//);
      const gc = haversineMiles(DALLAS, OKC) + haversineMiles(OKC, AMARILLO);
      expect(r.summary.totalDistanceMiles / gc).toBeCloseTo(1.2, 2);
      // Each stop is reached after its own leg's road miles.
      const leg1 = (1.2 * haversineMiles(DALLAS, OKC)) / 55;
      expect((Date.parse(r.stops[1]!.arrivalTime) - Date.parse(DEPART)) / HOUR).toBeCloseTo(leg1, 2);

      transactions = 0;
      const great = await o.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: tenant.auth, payload: body('haversine') });
      expect(great.statusCode).toBe(201);
      expect(transactions).toBe(1);
      expect(great.json<Plan>().distanceMethod).toBe('haversine');
      expect(great.json<Plan>().summary.totalDistanceMiles).toBeCloseTo(gc, 0);
      expect(sandbox.requests.length).toBe(1);

      // The mapping service finds no route: a 400 that says so.
      const noRoad = await o.app.inject({
        method: 'POST',
        url: '/api/v1/routes/plan',
        headers: tenant.auth,
        payload: body('osrm', [{ address: 'Dallas, TX' }, { name: 'Santa Fe', latitude: 35.687, longitude: -105.938 }]),
      });
      expect(noRoad.statusCode, noRoad.body).toBe(400);
      expect(noRoad.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/no road route/) });

      // Los Angeles → Honolulu: no road between the land masses, whatever the distance method.
      for (const method of ['osrm', 'haversine']) {
        const island = await o.app.inject({
          method: 'POST',
          url: '/api/v1/routes/plan',
          headers: tenant.auth,
          payload: body(method, [{ address: 'Los Angeles, CA' }, { name: 'Honolulu', latitude: 21.307, longitude: -157.858 }]),
        });
        expect(island.statusCode, island.body).toBe(400);
        expect(island.json().message).toBe('Stop 2 (Honolulu) cannot be reached by road from stop 1 (Los Angeles, CA)');
      }
      const list = await o.app.inject({ method: 'GET', url: '/api/v1/routes', headers: tenant.auth });
      expect(list.json().total).toBe(2);
    } finally {
      await o.close();
      await base.close();
      await sandbox.close();
    }
  });

  it('lifecycle: activate (route.activated), one ACTIVE route per driver, complete (route.completed, load DELIVERED), cancel rules', async () => {
    const driver = await createDriver(t.app, acme.auth, { firstName: 'Lily', lastName: 'Cycle' });
    const vehicle = await createVehicle(acme.auth, { unitNumber: 'TRK-LC1' });
    const load = await createLoad(acme.auth);
    const first = await planOk(acme.auth, { driverId: driver.id, vehicleId: vehicle.id, loadId: load.id, departureTime: DEPART });
    const second = await planOk(acme.auth, { driverId: driver.id, departureTime: DEPART, stops: SHORT_TRIP });

    // Only ACTIVE routes complete.
    const early = await action(acme.auth, first.id, 'complete');
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('Cannot complete a route that is PLANNED');

    clock.advance(60_000);
    const activated = await action(acme.auth, first.id, 'activate');
    expect(activated.statusCode, activated.body).toBe(200);
    const a = activated.json<Plan>();
    expect(a).toMatchObject({ id: first.id, status: 'ACTIVE', activatedAt: clock.now().toISOString(), updatedAt: clock.now().toISOString(), completedAt: null });
    expect(a.segments).toEqual(first.segments);
    expect(await outbox(acme.tenantId, 'route.activated', 'planId', first.id)).toEqual([
      { planId: first.id, status: 'ACTIVE', driverId: driver.id, coDriverId: null, driverName: 'Lily Cycle', vehicleId: vehicle.id, vehicleUnit: 'TRK-LC1', activatedAt: a.activatedAt },
    ]);
    expect(await loadStatus(load.id)).toBe('IN_TRANSIT');

    const again = await action(acme.auth, first.id, 'activate');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Cannot activate a route that is ACTIVE');
    const rival = await action(acme.auth, second.id, 'activate');
    expect(rival.statusCode).toBe(400);
    expect(rival.json()).toMatchObject({
      message: expect.stringMatching(/^Lily Cycle is already driving the active route .+ → .+; complete or cancel it first$/),
      details: [{ field: 'route.driverId', routeId: first.id }],
    });
    expect((await inject({ method: 'GET', url: `/api/v1/routes/${second.id}`, headers: acme.auth })).json().status).toBe('PLANNED');

    clock.advance(60_000);
    const completed = await action(acme.auth, first.id, 'complete');
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json()).toMatchObject({ status: 'COMPLETED', completedAt: clock.now().toISOString(), activatedAt: a.activatedAt });
    const [done] = await outbox(acme.tenantId, 'route.completed', 'planId', first.id);
    expect(done).toMatchObject({ planId: first.id, status: 'COMPLETED', driverId: driver.id, completedAt: clock.now().toISOString(), summary: first.summary, plannedArrivalTime: first.arrivalTime });
    expect(await loadStatus(load.id)).toBe('DELIVERED');
    expect((await outbox(acme.tenantId, 'load.status_changed', 'loadId', load.id)).map((e) => [e.oldStatus, e.newStatus])).toEqual([
      ['PENDING', 'ASSIGNED'],
      ['ASSIGNED', 'IN_TRANSIT'],
      ['IN_TRANSIT', 'DELIVERED'],
    ]);

    for (const name of ['cancel', 'activate', 'complete'] as const) {
      const res = await action(acme.auth, first.id, name, name === 'cancel' ? { reason: 'too late' } : undefined);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message).toBe(`Cannot ${name} a route that is COMPLETED`);
    }

    // With the first route done, the driver's other route can start, then be cancelled with a reason.
    expect((await action(acme.auth, second.id, 'activate')).statusCode).toBe(200);
    const cancelled = await action(acme.auth, second.id, 'cancel', { reason: 'Customer closed the dock' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', cancelReason: 'Customer closed the dock', cancelledAt: clock.now().toISOString() });
    expect(await outbox(acme.tenantId, 'route.cancelled', 'planId', second.id)).toEqual([
      { planId: second.id, status: 'CANCELLED', driverId: driver.id, coDriverId: null, reason: 'Customer closed the dock', cancelledBy: acme.ownerId, cancelledAt: clock.now().toISOString() },
    ]);
    const twice = await action(acme.auth, second.id, 'cancel');
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('Cannot cancel a route that is CANCELLED');

    // Cancelling a PLANNED route: no body needed, reason null; its load goes back to PENDING.
    const load2 = await createLoad(acme.auth);
    const third = await planOk(acme.auth, { driverId: driver.id, loadId: load2.id, departureTime: DEPART });
    expect(await loadStatus(load2.id)).toBe('ASSIGNED');
    const plain = await action(acme.auth, third.id, 'cancel');
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json()).toMatchObject({ status: 'CANCELLED', cancelReason: null });
    expect((await outbox(acme.tenantId, 'route.cancelled', 'planId', third.id))[0]).toMatchObject({ reason: null });
    expect(await loadStatus(load2.id)).toBe('PENDING');
    expect((await action(acme.auth, third.id, 'activate')).statusCode).toBe(400);

    // Bodies: activate and complete take none; cancel takes only a reason.
    const fourth = await planOk(acme.auth, { driverId: driver.id, departureTime: DEPART, stops: SHORT_TRIP });
    expect((await action(acme.auth, fourth.id, 'activate', { force: true })).statusCode).toBe(400);
    expect((await action(acme.auth, fourth.id, 'cancel', { reason: 'x', note: 'y' })).statusCode).toBe(400);
    expect((await action(acme.auth, fourth.id, 'cancel', { reason: 'r'.repeat(501) })).statusCode).toBe(400);
    expect((await inject({ method: 'GET', url: `/api/v1/routes/${fourth.id}`, headers: acme.auth })).json().status).toBe('PLANNED');
  });

  it('concurrent activations of two routes of one driver: exactly one becomes ACTIVE', async () => {
    const driver = await createDriver(t.app, acme.auth);
    const plans = [];
    for (let i = 0; i < 3; i++) plans.push(await planOk(acme.auth, { driverId: driver.id, departureTime: DEPART, stops: SHORT_TRIP }));
    const results = await Promise.all(plans.map((p) => action(acme.auth, p.id, 'activate')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    for (const r of results.filter((x) => x.statusCode === 400)) expect(r.json().message).toMatch(/is already driving (the|another) active route/);
    const active = (await inject({ method: 'GET', url: `/api/v1/routes?driverId=${driver.id}&status=ACTIVE`, headers: acme.auth })).json();
    expect(active.total).toBe(1);
    let events = 0;
    for (const p of plans) events += (await outbox(acme.tenantId, 'route.activated', 'planId', p.id)).length;
    expect(events).toBe(1);
  });

  it('appointments: an early arrival waits off duty; a window that cannot be met is a warning, not an error', async () => {
    const leg = haversineMiles(DALLAS, OKC) / 55;
    const opens = new Date(Date.parse(DEPART) + (leg + 2) * HOUR).toISOString();
    const early = await planOk(acme.auth, { driverId, departureTime: DEPART, stops: [DALLAS, { ...OKC, appointment: { earliest: opens, latest: '2026-03-03T23:00:00.000Z' }, dockDurationHours: 2 }] });
    expectConsistentPlan(early);
    expect(early.segments.map((s) => s.type)).toEqual(['drive', 'wait', 'dock']);
    expect(early.segments[1]).toMatchObject({ end_time: opens, location: OKC.name });
    expect(early.segments[1]!.duration_hours).toBeCloseTo(2, 2);
    expect(early.stops[1]).toMatchObject({ withinWindow: true, lateByHours: 0, appointment: { earliest: opens, latest: '2026-03-03T23:00:00.000Z' } });
    expect(early.summary.appointmentsMissed).toBe(0);

    const closes = new Date(Date.parse(DEPART) + (leg - 1) * HOUR).toISOString();
    const late = await planOk(acme.auth, { driverId, departureTime: DEPART, stops: [DALLAS, { ...OKC, appointment: { latest: closes } }] });
    expectConsistentPlan(late);
    expect(late.stops[1]).toMatchObject({ withinWindow: false, appointment: { earliest: null, latest: closes } });
    expect(late.stops[1]!.lateByHours).toBeCloseTo(1, 1);
    expect(late.summary.appointmentsMissed).toBe(1);
    expect(late.warnings.filter(notBooking)).toEqual([GREAT_CIRCLE_WARNING, expect.stringMatching(/^Stop 2 \(Oklahoma City DC\) cannot be reached within its appointment window: 1:0\d late$/)]);
  });

  it('timestamps Date cannot represent (a leap second) are a 400, never a 500', async () => {
    await expect400({ driverId, departureTime: '2026-03-03T23:59:60Z', stops: SHORT_TRIP }, { message: 'Validation failed', field: 'body.departureTime' });
    await expect400({ driverId, departureTime: DEPART, stops: [DALLAS, { ...OKC, appointment: { earliest: '2026-03-03T23:59:60Z' } }] }, { field: 'body.stops.1.appointment.earliest' });
    const p = await planOk(acme.auth, { driverId: (await createDriver(t.app, acme.auth)).id, departureTime: DEPART, stops: SHORT_TRIP });
    expect((await action(acme.auth, p.id, 'activate')).statusCode).toBe(200);
    const res = await inject({ method: 'POST', url: `/api/v1/routes/${p.id}/positions`, headers: acme.auth, payload: { latitude: 33, longitude: -97, recordedAt: '2026-03-01T23:59:60Z' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('body.recordedAt');
  });

  it('refuses to activate a route whose driver was deactivated after planning', async () => {
    const driver = await createDriver(t.app, acme.auth);
    const p = await planOk(acme.auth, { driverId: driver.id, departureTime: DEPART, stops: SHORT_TRIP });
    expect((await inject({ method: 'POST', url: `/api/v1/drivers/${driver.id}/deactivate`, headers: acme.auth })).statusCode).toBe(200);
    const res = await action(acme.auth, p.id, 'activate');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(new RegExp(`^${driver.firstName} ${driver.lastName} is INACTIVE; only ACTIVE drivers can start a route$`));
    expect(await outbox(acme.tenantId, 'route.activated', 'planId', p.id)).toEqual([]);
    // Reactivated, the driver can start it.
    expect((await inject({ method: 'POST', url: `/api/v1/drivers/${driver.id}/reactivate`, headers: acme.auth })).statusCode).toBe(200);
    expect((await action(acme.auth, p.id, 'activate')).statusCode).toBe(200);
  });

  it('positions: only on ACTIVE routes, newest first, never in the future or long before activation', async () => {
    const driver = await createDriver(t.app, acme.auth);
    const p = await planOk(acme.auth, { driverId: driver.id, departureTime: DEPART, stops: SHORT_TRIP });
    const post = (payload: Json, auth: Auth = acme.auth) => inject({ method: 'POST', url: `/api/v1/routes/${p.id}/positions`, headers: auth, payload });
    const list = (query = '') => inject({ method: 'GET', url: `/api/v1/routes/${p.id}/positions${query}`, headers: acme.auth });

    const planned = await post({ latitude: 32.8, longitude: -96.8 });
    expect(planned.statusCode).toBe(400);
    expect(planned.json().message).toBe('Positions are recorded for ACTIVE routes; this route is PLANNED');
    expect((await list()).json()).toEqual({ data: [] });

    expect((await action(acme.auth, p.id, 'activate')).statusCode).toBe(200);
    const activatedAt = clock.now().getTime();
    const iso = (offsetMs: number) => new Date(activatedAt + offsetMs).toISOString();
    clock.advance(10 * 60_000);

    const a = await post({ latitude: 32.9, longitude: -96.9, recordedAt: iso(60_000), speedMph: 61.5, headingDegrees: 350, fuelLevelPercent: 92 });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toEqual({
      id: expect.stringMatching(/^pos_[0-9A-Za-z]{22}$/),
      routeId: p.id,
      latitude: 32.9,
      longitude: -96.9,
      recordedAt: iso(60_000),
      speedMph: 61.5,
      headingDegrees: 350,
      fuelLevelPercent: 92,
      source: 'APP',
      timeZone: 'America/Chicago',
      createdAt: clock.now().toISOString(),
    });
    const key = await createApiKey(t.app, acme, 'telematics');
    const c = await post({ latitude: 33.3, longitude: -97.1, recordedAt: iso(5 * 60_000) }, { 'x-api-key': key.key });
    expect(c.statusCode, c.body).toBe(201);
    expect(c.json()).toMatchObject({ source: 'API', speedMph: null, headingDegrees: null, fuelLevelPercent: null });
    // Out of order, and with the default recordedAt (now).
    const b = await post({ latitude: 33.1, longitude: -97.0, recordedAt: iso(3 * 60_000) });
    const d = await post({ latitude: 33.5, longitude: -97.2 });
    expect(d.json().recordedAt).toBe(clock.now().toISOString());

    const all = (await list()).json<{ data: Array<{ id: string }> }>().data;
    expect(all.map((x) => x.id)).toEqual([d.json().id, c.json().id, b.json().id, a.json().id]);
    expect((await list('?limit=2')).json().data.map((x: { id: string }) => x.id)).toEqual([d.json().id, c.json().id]);
    expect((await list('?limit=0')).statusCode).toBe(400);
    expect((await list('?limit=1001')).statusCode).toBe(400);

    const future = await post({ latitude: 33, longitude: -97, recordedAt: new Date(clock.now().getTime() + 5 * 60_000).toISOString() });
    expect(future.statusCode).toBe(400);
    expect(future.json().details).toEqual([{ field: 'body.recordedAt', message: 'must not be in the future' }]);
    const stale = await post({ latitude: 33, longitude: -97, recordedAt: iso(-2 * 3_600_000) });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().details).toEqual([{ field: 'body.recordedAt', message: 'is before the route was activated' }]);
    for (const payload of [{ latitude: 91, longitude: 0 }, { latitude: 33 }, { latitude: 33, longitude: -97, speedMph: -1 }, { latitude: 33, longitude: -97, altitude: 10 }, { latitude: '33', longitude: -97 }]) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await list()).json().data).toHaveLength(4);
    // The route list carries the newest position (by recordedAt, not by arrival), the driver's name and the truck.
    const listed = (await inject({ method: 'GET', url: `/api/v1/routes?driverId=${driver.id}`, headers: acme.auth })).json<{ data: Json[] }>().data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: p.id, driverName: 'Dana Driver', vehicleUnit: null, lastPosition: d.json() });

    expect((await action(acme.auth, p.id, 'complete')).statusCode).toBe(200);
    const after = await post({ latitude: 33, longitude: -97 });
    expect(after.statusCode).toBe(400);
    expect(after.json().message).toMatch(/this route is COMPLETED/);
    expect((await list()).json().data).toHaveLength(4);
  });

  it('lists with status and driverId filters and pagination (newest first, list subset)', async () => {
    const tenant = await createTenant(t.app);
    const d1 = await createDriver(t.app, tenant.auth);
    const d2 = await createDriver(t.app, tenant.auth);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await planOk(tenant.auth, { driverId: i < 3 ? d1.id : d2.id, departureTime: DEPART, stops: SHORT_TRIP })).id);
    expect((await action(tenant.auth, ids[0]!, 'activate')).statusCode).toBe(200);
    expect((await action(tenant.auth, ids[3]!, 'cancel', { reason: 'x' })).statusCode).toBe(200);
    const get = async (query: string) => {
      const res = await inject({ method: 'GET', url: `/api/v1/routes${query}`, headers: tenant.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: Array<Json & { id: string }>; total: number; page: number; pageSize: number }>();
    };

    const all = await get('');
    expect(all).toMatchObject({ total: 5, page: 1, pageSize: 20 });
    expect(all.data.map((r) => r.id)).toEqual([...ids].reverse());
    expect(Object.keys(all.data[0]!).sort()).toEqual(
      ['activatedAt', 'arrivalTime', 'cancelledAt', 'completedAt', 'coDriverId', 'coDriverName', 'createdAt', 'departureTime', 'destination', 'driverId', 'driverName', 'id', 'lastPosition', 'loadId', 'origin', 'revision', 'status', 'summary', 'vehicleId', 'vehicleUnit'].sort(),
    );
    expect(all.data[0]).toMatchObject({ driverName: 'Dana Driver', vehicleUnit: null, lastPosition: null });
    expect((await get(`?driverId=${d1.id}`)).data.map((r) => r.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect((await get(`?driverId=${d2.id}`)).total).toBe(2);
    expect((await get('?status=ACTIVE')).data.map((r) => r.id)).toEqual([ids[0]]);
    expect((await get('?status=CANCELLED')).data.map((r) => r.id)).toEqual([ids[3]]);
    expect((await get(`?status=PLANNED&driverId=${d2.id}`)).data.map((r) => r.id)).toEqual([ids[4]]);
    expect((await get('?status=COMPLETED')).total).toBe(0);
    expect((await get(`?driverId=${otherDriverId}`)).total).toBe(0);

    const p1 = await get('?pageSize=2');
    const p2 = await get('?pageSize=2&page=2');
    const p3 = await get('?pageSize=2&page=3');
    expect([p1, p2, p3].map((p) => p.total)).toEqual([5, 5, 5]);
    expect([...p1.data, ...p2.data, ...p3.data].map((r) => r.id)).toEqual([...ids].reverse());
    expect(await get('?page=9')).toMatchObject({ data: [], total: 5, page: 9 });
    for (const bad of ['?status=DONE', '?pageSize=101', '?page=0', '?driverId=nope', '?sort=id']) {
      expect((await inject({ method: 'GET', url: `/api/v1/routes${bad}`, headers: tenant.auth })).statusCode, bad).toBe(400);
    }
  });

  it('a DRIVER user sees only their own routes and reports positions on them; a VIEWER reads but cannot plan', async () => {
    const mine = await createDriver(t.app, acme.auth, { firstName: 'Dee', lastName: 'Self' });
    const colleague = await createDriver(t.app, acme.auth);
    const driverUser = await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId: mine.id });
    const viewer = await createUser(t.app, t.mailer, acme, 'VIEWER');
    const own = await planOk(acme.auth, { driverId: mine.id, departureTime: DEPART, stops: SHORT_TRIP });
    const theirs = await planOk(acme.auth, { driverId: colleague.id, departureTime: DEPART, stops: SHORT_TRIP });

    const list = (await inject({ method: 'GET', url: '/api/v1/routes', headers: driverUser.auth })).json();
    expect(list).toMatchObject({ total: 1, data: [{ id: own.id }] });
    expect((await inject({ method: 'GET', url: `/api/v1/routes?driverId=${colleague.id}`, headers: driverUser.auth })).json().total).toBe(0);
    expect((await inject({ method: 'GET', url: `/api/v1/routes/${own.id}`, headers: driverUser.auth })).statusCode).toBe(200);
    for (const [method, url] of [
      ['GET', `/api/v1/routes/${theirs.id}`],
      ['GET', `/api/v1/routes/${theirs.id}/positions`],
    ] as const) {
      const res = await inject({ method, url, headers: driverUser.auth });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe('Route not found');
    }
    // Drivers do not plan or change routes.
    expect((await plan(driverUser.auth, { driverId: mine.id, departureTime: DEPART, stops: SHORT_TRIP })).statusCode).toBe(403);
    expect((await action(driverUser.auth, own.id, 'activate')).statusCode).toBe(403);
    expect((await action(driverUser.auth, own.id, 'cancel')).statusCode).toBe(403);

    expect((await action(acme.auth, own.id, 'activate')).statusCode).toBe(200);
    expect((await action(acme.auth, theirs.id, 'activate')).statusCode).toBe(200);
    const pos = await inject({ method: 'POST', url: `/api/v1/routes/${own.id}/positions`, headers: driverUser.auth, payload: { latitude: 33, longitude: -97, speedMph: 55 } });
    expect(pos.statusCode, pos.body).toBe(201);
    expect(pos.json()).toMatchObject({ routeId: own.id, source: 'APP' });
    const foreign = await inject({ method: 'POST', url: `/api/v1/routes/${theirs.id}/positions`, headers: driverUser.auth, payload: { latitude: 33, longitude: -97 } });
    expect(foreign.statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: `/api/v1/routes/${own.id}/positions`, headers: driverUser.auth })).json().data).toHaveLength(1);
    expect((await inject({ method: 'GET', url: `/api/v1/routes/${theirs.id}/positions`, headers: acme.auth })).json().data).toHaveLength(0);

    // VIEWER: reads everything in the tenant, writes nothing.
    const denied = await plan(viewer.auth, { driverId: mine.id, departureTime: DEPART, stops: SHORT_TRIP });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect((await inject({ method: 'GET', url: '/api/v1/routes', headers: viewer.auth })).json().total).toBeGreaterThanOrEqual(2);
    expect((await inject({ method: 'GET', url: `/api/v1/routes/${theirs.id}`, headers: viewer.auth })).statusCode).toBe(200);
    expect((await inject({ method: 'POST', url: `/api/v1/routes/${theirs.id}/positions`, headers: viewer.auth, payload: { latitude: 33, longitude: -97 } })).statusCode).toBe(403);
    expect((await action(viewer.auth, theirs.id, 'complete')).statusCode).toBe(403);
  });

  it("another tenant's plan is not found on every route endpoint, and stays untouched", async () => {
    const theirs = await planOk(other.auth, { driverId: otherDriverId, departureTime: DEPART, stops: SHORT_TRIP });
    const key = await createApiKey(t.app, acme, 'cross-tenant');
    for (const auth of [acme.auth, { 'x-api-key': key.key }]) {
      for (const [method, url, payload] of [
        ['GET', `/api/v1/routes/${theirs.id}`, undefined],
        ['POST', `/api/v1/routes/${theirs.id}/activate`, undefined],
        ['POST', `/api/v1/routes/${theirs.id}/complete`, undefined],
        ['POST', `/api/v1/routes/${theirs.id}/cancel`, { reason: 'mine now' }],
        ['POST', `/api/v1/routes/${theirs.id}/positions`, { latitude: 33, longitude: -97 }],
        ['GET', `/api/v1/routes/${theirs.id}/positions`, undefined],
      ] as const) {
        const res = await inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route not found' });
      }
    }
    const list = (await inject({ method: 'GET', url: `/api/v1/routes?driverId=${otherDriverId}`, headers: acme.auth })).json();
    expect(list.total).toBe(0);
    const still = await inject({ method: 'GET', url: `/api/v1/routes/${theirs.id}`, headers: other.auth });
    expect(still.json()).toEqual(theirs);
    expect((await inject({ method: 'GET', url: '/api/v1/routes/rte_doesnotexist000000000', headers: acme.auth })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/v1/routes/not-a-plan', headers: acme.auth })).statusCode).toBe(400);
  });
});
