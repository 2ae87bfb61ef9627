/**
 * `npm run demo`: the service on an in-memory database with a live demo fleet. It seeds a demo tenant
 * through the public API (drivers with duty-status logs, vehicles, loads, planned and active routes)
 * and runs a driver simulator that moves the trucks along their plans by posting positions and
 * duty-status changes through the public API, as a driver app or telematics would. Some trucks
 * misbehave for a while and come back (one wanders off its route, one stops where no stop is planned,
 * one goes quiet), one driver is close to the end of their driving hours, so alerts are raised and
 * resolve themselves live. Time runs DEMO_SPEED times faster along the plans than on the clock.
 */
import { configFromEnvironment, startService } from '../server.js';
import type { Segment } from '../domain/planning/types.js';
import { misbehaviourAt, offsetBeside, positionOnPlan, type Behaviour } from './simulator.js';

const DEMO = {
  adminEmail: 'admin@demo.fleet',
  adminPassword: 'demo-admin-password',
  ownerEmail: 'dispatch@demo.fleet',
  ownerPassword: 'demo-password',
};
const SPEED = Math.max(1, Number(process.env.DEMO_SPEED ?? 10));
const TICK_MS = 5_000;
/** Each misbehaving truck does so once per cycle of real time. */
const CYCLE_MS = 10 * 60_000;
const HOUR = 3_600_000;

process.env.DATABASE_URL ??= 'memory://';
process.env.PLATFORM_ADMIN_EMAIL ??= DEMO.adminEmail;
process.env.PLATFORM_ADMIN_PASSWORD ??= DEMO.adminPassword;
process.env.LOG_LEVEL ??= 'warn';
process.env.WEBHOOK_ALLOW_INSECURE_TARGETS ??= 'true';

interface Place {
  name: string;
  latitude: number;
  longitude: number;
}
const P = (name: string, latitude: number, longitude: number): Place => ({ name, latitude, longitude });

interface TruckSpec {
  driver: { firstName: string; lastName: string; licenseNumber: string };
  unit: string;
  from: Place;
  to: Place;
  behaviour: Behaviour;
  /** Hours into the trip at the start of the demo. */
  underway: number;
  /** Drove most of the day already (close to the 11-hour limit). */
  tired?: boolean;
  /** Planned, not activated. */
  planned?: boolean;
}

const FLEET: TruckSpec[] = [
  { driver: { firstName: 'Maria', lastName: 'Lopez', licenseNumber: 'TX1000001' }, unit: 'T-101', from: P('Dallas, TX', 32.7767, -96.797), to: P('Oklahoma City, OK', 35.4676, -97.5164), behaviour: 'on-plan', underway: 1 },
  { driver: { firstName: 'James', lastName: 'Carter', licenseNumber: 'IL2000002' }, unit: 'T-102', from: P('Chicago, IL', 41.8781, -87.6298), to: P('Indianapolis, IN', 39.7684, -86.1581), behaviour: 'wanders-off', underway: 0.5 },
  { driver: { firstName: 'Aisha', lastName: 'Khan', licenseNumber: 'GA3000003' }, unit: 'T-103', from: P('Atlanta, GA', 33.749, -84.388), to: P('Nashville, TN', 36.1627, -86.7816), behaviour: 'stops', underway: 1.5 },
  { driver: { firstName: 'Tom', lastName: 'Becker', licenseNumber: 'CO4000004' }, unit: 'T-104', from: P('Denver, CO', 39.7392, -104.9903), to: P('Salt Lake City, UT', 40.7608, -111.891), behaviour: 'goes-quiet', underway: 2 },
  { driver: { firstName: 'Lena', lastName: 'Ortiz', licenseNumber: 'CA5000005' }, unit: 'T-105', from: P('Los Angeles, CA', 34.0522, -118.2437), to: P('Phoenix, AZ', 33.4484, -112.074), behaviour: 'on-plan', underway: 0.2, tired: true },
  { driver: { firstName: 'Sam', lastName: 'Nguyen', licenseNumber: 'WA6000006' }, unit: 'T-106', from: P('Seattle, WA', 47.6062, -122.3321), to: P('Portland, OR', 45.5152, -122.6784), behaviour: 'on-plan', underway: 0, planned: true },
];

class Api {
  constructor(
    private readonly base: string,
    private headers: Record<string, string> = {},
  ) {}

  as(headers: Record<string, string>): Api {
    return new Api(this.base, headers);
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.base + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...this.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as T;
    if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
}

interface Truck {
  spec: TruckSpec;
  driverId: string;
  vehicleId: string;
  routeId: string;
  segments: Segment[];
  /** Plan time at the simulation's start. */
  planStart: number;
  lastStatus: string;
  haltedAt: { latitude: number; longitude: number } | null;
}

async function seed(api: Api): Promise<{ owner: Api; trucks: Truck[]; apiKey: string }> {
  const reg = await api.call<{ tenant: { id: string } }>('POST', '/api/v1/tenants/register', {
    organization: { name: 'Demo Freight Lines', address: '100 Commerce St, Dallas, TX 75201', phone: '+1 214 555 0100', contactEmail: 'ops@demo.fleet', dotNumber: '3141592', mcNumber: 'MC-271828' },
    adminUser: { firstName: 'Dana', lastName: 'Dispatch', email: DEMO.ownerEmail, password: DEMO.ownerPassword },
  });
  const admin = await api.call<{ accessToken: string }>('POST', '/api/v1/auth/login', { email: DEMO.adminEmail, password: DEMO.adminPassword });
  await api.as({ authorization: `Bearer ${admin.accessToken}` }).call('POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`);
  const login = await api.call<{ accessToken: string }>('POST', '/api/v1/auth/login', { email: DEMO.ownerEmail, password: DEMO.ownerPassword });
  const asOwner = api.as({ authorization: `Bearer ${login.accessToken}` });
  const { key } = await asOwner.call<{ key: string }>('POST', '/api/v1/api-keys', { name: 'demo simulator' });
  const owner = api.as({ 'x-api-key': key });
  // Quick checks and short thresholds, so that a demo shows alerts coming and going within minutes.
  await owner.call('PUT', '/api/v1/tenant/settings/monitoring', { monitoringIntervalSeconds: 10, autoResolveDeviationAfterMinutes: 1, hosWarningThresholdMinutes: 30 });
  await owner.call('PUT', '/api/v1/tenant/settings/alerts', { hosApproachingThresholdHours: 2, routeDeviationThresholdMiles: 5, unplannedStopThresholdMinutes: 2, dockDelayThresholdMinutes: 30 });

  const now = Date.now();
  const trucks: Truck[] = [];
  for (const [i, spec] of FLEET.entries()) {
    const driver = await owner.call<{ id: string }>('POST', '/api/v1/drivers', { ...spec.driver, licenseState: spec.driver.licenseNumber.slice(0, 2), truckNumber: spec.unit, phoneNumber: `+1 555 010 ${1000 + i}` });
    const vehicle = await owner.call<{ id: string }>('POST', '/api/v1/vehicles', { unitNumber: spec.unit, make: 'Freightliner', model: 'Cascadia', year: 2023, fuelTankGallons: 150, mpg: 6.8 });
    const load = await owner.call<{ id: string }>('POST', '/api/v1/loads', {
      referenceNumber: `DEMO-${1001 + i}`,
      customer: ['Acme Grocers', 'Northwind Retail', 'Contoso Parts', 'Globex Foods', 'Initech Supply', 'Umbrella Medical'][i],
      originAddress: spec.from.name,
      destinationAddress: spec.to.name,
      weight: 38_000 + i * 1_500,
      commodity: ['Produce', 'Dry goods', 'Auto parts', 'Frozen food', 'Paper', 'Medical supplies'][i],
    });
    const departure = now - spec.underway * HOUR;
    await logDuty(owner, driver.id, spec, departure);
    const plan = await owner.call<{ id: string; segments: Segment[] }>('POST', '/api/v1/routes/plan', {
      driverId: driver.id,
      vehicleId: vehicle.id,
      loadId: load.id,
      departureTime: new Date(departure).toISOString(),
      stops: [
        { ...spec.from, type: 'ORIGIN' },
        { ...spec.to, type: 'DELIVERY', dockDurationHours: 1 },
      ],
      ...(spec.tired ? {} : { driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 20 } }),
    });
    if (!spec.planned) await owner.call('POST', `/api/v1/routes/${plan.id}/activate`);
    trucks.push({ spec, driverId: driver.id, vehicleId: vehicle.id, routeId: plan.id, segments: plan.segments, planStart: now, lastStatus: 'ON_DUTY_DRIVING', haltedAt: null });
  }
  return { owner, trucks, apiKey: key };
}

/** The duty-status log up to the departure: rested, or (the tired driver) most of a day's driving already. */
async function logDuty(api: Api, driverId: string, spec: TruckSpec, departure: number): Promise<void> {
  const at = (ms: number) => new Date(ms).toISOString();
  const post = (status: string, when: number) => api.call('POST', `/api/v1/drivers/${driverId}/duty-status`, { status, at: at(when) });
  if (spec.tired) {
    await post('OFF_DUTY', departure - 22 * HOUR);
    await post('ON_DUTY_DRIVING', departure - 9.5 * HOUR); // 5 h, a half-hour break, 4 h: 9 h driven at departure
    await post('OFF_DUTY', departure - 4.5 * HOUR);
    await post('ON_DUTY_DRIVING', departure - 4 * HOUR); // and on through the departure
    return;
  }
  await post('OFF_DUTY', departure - 12 * HOUR);
  await post('ON_DUTY_DRIVING', departure);
}

async function tick(owner: Api, trucks: Truck[], startedAt: number): Promise<void> {
  const now = Date.now();
  const elapsed = now - startedAt;
  for (const truck of trucks) {
    if (truck.spec.planned) continue;
    const planTime = Date.parse(truck.segments[0]!.start_time) + truck.spec.underway * HOUR + elapsed * SPEED;
    const where = positionOnPlan(truck.segments, planTime);
    if (where.arrived) {
      await turnAround(owner, truck);
      continue;
    }
    if (where.status !== truck.lastStatus) {
      await owner.call('POST', `/api/v1/drivers/${truck.driverId}/duty-status`, { status: where.status });
      truck.lastStatus = where.status;
    }
    const odd = misbehaviourAt(truck.spec.behaviour, elapsed, CYCLE_MS);
    if (odd.silent) continue;
    truck.haltedAt = odd.halted ? (truck.haltedAt ?? where.point) : null;
    const drive = truck.segments.find((s) => s.type === 'drive' && Date.parse(s.end_time) > planTime);
    const point = truck.haltedAt ?? (drive && drive.type === 'drive' ? offsetBeside(where.point, drive.from, drive.to, odd.offsetMiles) : where.point);
    await owner.call('POST', `/api/v1/routes/${truck.routeId}/positions`, {
      latitude: point.latitude,
      longitude: point.longitude,
      speedMph: truck.haltedAt ? 0 : Math.round(where.speedMph),
      fuelLevelPercent: 60,
    });
  }
}

/** At the end of its plan a truck completes the route and starts back the other way. */
async function turnAround(owner: Api, truck: Truck): Promise<void> {
  await owner.call('POST', `/api/v1/routes/${truck.routeId}/complete`);
  const spec = { ...truck.spec, from: truck.spec.to, to: truck.spec.from, underway: 0 };
  const plan = await owner.call<{ id: string; segments: Segment[] }>('POST', '/api/v1/routes/plan', {
    driverId: truck.driverId,
    vehicleId: truck.vehicleId,
    stops: [
      { ...spec.from, type: 'ORIGIN' },
      { ...spec.to, type: 'DELIVERY', dockDurationHours: 1 },
    ],
  });
  await owner.call('POST', `/api/v1/routes/${plan.id}/activate`);
  Object.assign(truck, { spec, routeId: plan.id, segments: plan.segments, haltedAt: null });
}

async function main(): Promise<void> {
  const config = configFromEnvironment();
  let timer: NodeJS.Timeout | undefined;
  await startService(config, {
    onShutdown: async () => {
      clearInterval(timer);
    },
  });
  const base = `http://127.0.0.1:${config.port}`;
  const { owner, trucks, apiKey } = await seed(new Api(base));
  const startedAt = Date.now();
  let busy = false;
  timer = setInterval(() => {
    if (busy) return;
    busy = true;
    tick(owner, trucks, startedAt)
      .catch((err: unknown) => console.error('demo simulator:', err instanceof Error ? err.message : err))
      .finally(() => (busy = false));
  }, TICK_MS);
  console.log(
    [
      '',
      `Demo fleet running at ${config.publicUrl} (API reference: ${config.publicUrl}/docs)`,
      `  dispatcher login:        ${DEMO.ownerEmail} / ${DEMO.ownerPassword}`,
      `  platform administrator:  ${DEMO.adminEmail} / ${DEMO.adminPassword}`,
      `  ${trucks.filter((t) => !t.spec.planned).length} trucks on the road, plans running ${SPEED}× faster than the clock (DEMO_SPEED);`,
      '  T-102 wanders off its route, T-103 stops unplanned, T-104 goes quiet, L. Ortiz is near her driving limit:',
      `  the demo's API key:      ${apiKey}`,
      `  watch alerts arrive and resolve:  curl -N "${base}/api/v1/sse/alerts?apiKey=${apiKey}"`,
      `  list the open ones:               curl -s "${base}/api/v1/alerts?status=ACTIVE" -H "x-api-key: ${apiKey}"`,
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error('demo failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
