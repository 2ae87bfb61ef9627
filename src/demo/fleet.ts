/**
 * The demo fleet and its seeding through the public API: six trucks with their drivers (duty-status logs
 * up to the departure), loads, and planned routes, five of them activated and already underway. What
 * each truck does differently from its plan is its `behaviour` (simulator.ts).
 */
import type { Segment } from '../domain/planning/types.js';
import type { ApiCaller } from './api.js';
import type { Behaviour } from './simulator.js';

export const HOUR = 3_600_000;

export interface Place {
  name: string;
  latitude: number;
  longitude: number;
}
const P = (name: string, latitude: number, longitude: number): Place => ({ name, latitude, longitude });

export interface TruckSpec {
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
  /** The delivery's appointment: at the latest this many hours after the departure. */
  deliverWithinHours?: number;
}

export const FLEET: TruckSpec[] = [
  { driver: { firstName: 'Maria', lastName: 'Lopez', licenseNumber: 'TX1000001' }, unit: 'T-101', from: P('Dallas, TX', 32.7767, -96.797), to: P('Oklahoma City, OK', 35.4676, -97.5164), behaviour: 'on-plan', underway: 1 },
  { driver: { firstName: 'James', lastName: 'Carter', licenseNumber: 'IL2000002' }, unit: 'T-102', from: P('Chicago, IL', 41.8781, -87.6298), to: P('Indianapolis, IN', 39.7684, -86.1581), behaviour: 'wanders-off', underway: 0.5 },
  { driver: { firstName: 'Aisha', lastName: 'Khan', licenseNumber: 'GA3000003' }, unit: 'T-103', from: P('Atlanta, GA', 33.749, -84.388), to: P('Nashville, TN', 36.1627, -86.7816), behaviour: 'stops', underway: 1.5, deliverWithinHours: 6 },
  { driver: { firstName: 'Tom', lastName: 'Becker', licenseNumber: 'CO4000004' }, unit: 'T-104', from: P('Denver, CO', 39.7392, -104.9903), to: P('Salt Lake City, UT', 40.7608, -111.891), behaviour: 'goes-quiet', underway: 2 },
  { driver: { firstName: 'Lena', lastName: 'Ortiz', licenseNumber: 'CA5000005' }, unit: 'T-105', from: P('Los Angeles, CA', 34.0522, -118.2437), to: P('Phoenix, AZ', 33.4484, -112.074), behaviour: 'on-plan', underway: 0.2, tired: true },
  { driver: { firstName: 'Sam', lastName: 'Nguyen', licenseNumber: 'WA6000006' }, unit: 'T-106', from: P('Seattle, WA', 47.6062, -122.3321), to: P('Portland, OR', 45.5152, -122.6784), behaviour: 'on-plan', underway: 0, planned: true },
];

/**
 * A load waiting for a driver (no route): POST /api/v1/dispatch/candidates ranks the fleet for it (the
 * dashboard's "Find a driver" on its page). Picked up in Oklahoma City from 4 h after the demo starts,
 * due in Dallas 12 h after: T-101's driver, delivering in Oklahoma City, can take it; the others cannot.
 */
export const WAITING_LOAD = { referenceNumber: 'DEMO-2001', customer: 'Acme Grocers', originAddress: 'Oklahoma City, OK', destinationAddress: 'Dallas, TX', pickupInHours: 4, deliverWithinHours: 12 } as const;

/** A planned route's stop as the API answers it. */
export interface PlannedStop {
  name: string;
  latitude: number;
  longitude: number;
  arrivalTime: string;
  appointment: { earliest: string | null; latest: string | null } | null;
}

export interface Truck {
  spec: TruckSpec;
  driverId: string;
  vehicleId: string;
  /** The load's reference number (DEMO-1001 …); null on a return trip. */
  loadReference: string | null;
  routeId: string;
  segments: Segment[];
  stops: PlannedStop[];
  /** Real time at which the current plan's simulation began (at `spec.underway` hours into it). */
  planStart: number;
  lastStatus: string;
  haltedAt: { latitude: number; longitude: number } | null;
}

interface PlanResponse {
  id: string;
  segments: Segment[];
  stops: PlannedStop[];
}

/**
 * The tenant's settings for a lively demo and the fleet, departing `underway` hours before `now`.
 * `owner`: a caller with the tenant owner's API key.
 */
export async function seedFleet(owner: ApiCaller, now: number): Promise<Truck[]> {
  // Quick checks and short thresholds, so that a demo shows alerts coming and going within minutes.
  await owner.call('PUT', '/api/v1/tenant/settings/monitoring', { monitoringIntervalSeconds: 10, autoResolveDeviationAfterMinutes: 1, hosWarningThresholdMinutes: 30, telemetryStaleMinutes: 2 });
  await owner.call('PUT', '/api/v1/tenant/settings/alerts', { hosApproachingThresholdHours: 2, routeDeviationThresholdMiles: 5, unplannedStopThresholdMinutes: 2, dockDelayThresholdMinutes: 30 });

  const trucks: Truck[] = [];
  for (const [i, spec] of FLEET.entries()) {
    const driver = await owner.call<{ id: string }>('POST', '/api/v1/drivers', { ...spec.driver, licenseState: spec.driver.licenseNumber.slice(0, 2), truckNumber: spec.unit, phoneNumber: `+1 555 010 ${1000 + i}` });
    const vehicle = await owner.call<{ id: string }>('POST', '/api/v1/vehicles', { unitNumber: spec.unit, make: 'Freightliner', model: 'Cascadia', year: 2023, fuelTankGallons: 150, mpg: 6.8 });
    const referenceNumber = `DEMO-${1001 + i}`;
    const load = await owner.call<{ id: string }>('POST', '/api/v1/loads', {
      referenceNumber,
      customer: ['Acme Grocers', 'Northwind Retail', 'Contoso Parts', 'Globex Foods', 'Initech Supply', 'Umbrella Medical'][i],
      originAddress: spec.from.name,
      destinationAddress: spec.to.name,
      weight: 38_000 + i * 1_500,
      commodity: ['Produce', 'Dry goods', 'Auto parts', 'Frozen food', 'Paper', 'Medical supplies'][i],
    });
    const departure = now - spec.underway * HOUR;
    await logDuty(owner, driver.id, spec, departure);
    const appointment = spec.deliverWithinHours === undefined ? {} : { appointment: { latest: new Date(departure + spec.deliverWithinHours * HOUR).toISOString() } };
    const plan = await owner.call<PlanResponse>('POST', '/api/v1/routes/plan', {
      driverId: driver.id,
      vehicleId: vehicle.id,
      loadId: load.id,
      departureTime: new Date(departure).toISOString(),
      stops: [
        { ...spec.from, type: 'ORIGIN' },
        { ...spec.to, type: 'DELIVERY', dockDurationHours: 1, ...appointment },
      ],
      ...(spec.tired ? {} : { driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 20 } }),
    });
    if (!spec.planned) await owner.call('POST', `/api/v1/routes/${plan.id}/activate`);
    trucks.push({ spec, driverId: driver.id, vehicleId: vehicle.id, loadReference: referenceNumber, routeId: plan.id, segments: plan.segments, stops: plan.stops, planStart: now, lastStatus: 'ON_DUTY_DRIVING', haltedAt: null });
  }
  const { pickupInHours, deliverWithinHours, ...waiting } = WAITING_LOAD;
  await owner.call('POST', '/api/v1/loads', {
    ...waiting,
    scheduledPickup: new Date(now + pickupInHours * HOUR).toISOString(),
    scheduledDelivery: new Date(now + deliverWithinHours * HOUR).toISOString(),
    weight: 41_000,
    commodity: 'Produce',
  });
  return trucks;
}

/** The duty-status log up to the departure: rested, or (the tired driver) most of a day's driving already. */
async function logDuty(api: ApiCaller, driverId: string, spec: TruckSpec, departure: number): Promise<void> {
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

/** Where the truck is in its plan at real time `now`: plan time runs `speed` times faster than the clock. */
export function planTimeOf(truck: Truck, now: number, speed: number): number {
  return Date.parse(truck.segments[0]!.start_time) + truck.spec.underway * HOUR + (now - truck.planStart) * speed;
}

/** At the end of its plan a truck completes the route and starts back the other way (no load: a return trip). */
export async function turnAround(owner: ApiCaller, truck: Truck, now: number): Promise<void> {
  await owner.call('POST', `/api/v1/routes/${truck.routeId}/complete`);
  const spec: TruckSpec = { ...truck.spec, from: truck.spec.to, to: truck.spec.from, underway: 0, deliverWithinHours: undefined };
  const plan = await owner.call<PlanResponse>('POST', '/api/v1/routes/plan', {
    driverId: truck.driverId,
    vehicleId: truck.vehicleId,
    stops: [
      { ...spec.from, type: 'ORIGIN' },
      { ...spec.to, type: 'DELIVERY', dockDurationHours: 1 },
    ],
  });
  await owner.call('POST', `/api/v1/routes/${plan.id}/activate`);
  Object.assign(truck, { spec, loadReference: null, routeId: plan.id, segments: plan.segments, stops: plan.stops, planStart: now, haltedAt: null });
}
