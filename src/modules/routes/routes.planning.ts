/**
 * The steps of planning a route (routesService.plan): reading and checking what the plan is for,
 * ordering the stops, measuring the legs, pricing the fuel, running the planner, storing the result.
 */
import { type DistanceMethod, DistanceProviderError } from '../../adapters/maps/index.js';
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { runWithEvent } from '../../db/outbox.js';
import { isHosError } from '../../domain/hos/index.js';
import { PlanningError, planRoute, startState } from '../../domain/planning/planner.js';
import { optimizeStopOrder } from '../../domain/planning/stop-order.js';
import type { FuelOptions, NamedPoint, PlanInput, PlanLeg, PlanResult, PlanStop, RestSite } from '../../domain/planning/types.js';
import { BOOKED_READ_LIMIT, bookingWarnings, type Assignee, type BookedRoute } from '../../domain/dispatch/booking.js';
import { haversineMiles } from '../../domain/geo/index.js';
import { timeZoneAt } from '../../domain/planning/local-time.js';
import { DomainError, invalid, invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import { KNOWN_LOCATION_COLUMNS, knownLocationOf } from '../drivers/driver-locations.js';
import { findDriver, toDriver, type DriverRecord } from '../drivers/drivers.repository.js';
import { driverHistory, historyFromEvents, historySince } from '../hos/hos.service.js';
import { dutyEventsSinceSql, ruleSetOf, toEvent, type StoredHosSettings } from '../hos/hos.repository.js';
import { distanceWarning } from './distance-warning.js';
import type { FuelPriceAnswer, PlanningPorts } from './planning-ports.js';
import { changeLoadStatus, findLoadForPlan, findVehicleForPlan, REST_SITE_TYPES_SQL, toRestSite, type LoadForPlan, type RestSiteRow } from './routes.related.js';
import { routeInsert, type NewRoute, type RouteRecord } from './routes.repository.js';
import { MAX_OPTIMIZED_STOPS, PLAN_DEFAULTS } from './routes.schemas.js';
import { resolveStops, type StopInput } from './stops.js';

/** What a route plan is asked for: the body of the plan request. */
export interface PlanRequest {
  driverId: string;
  vehicleId?: string;
  loadId?: string;
  departureTime?: string;
  stops?: StopInput[];
  driverState?: { hoursDriven: number; onDutyHours: number; hoursSinceBreak: number; cycleHoursUsed: number };
  /** Team driving: the second driver in the truck, and (optionally) their state typed in by hand. */
  coDriverId?: string;
  coDriverState?: { hoursDriven: number; onDutyHours: number; hoursSinceBreak: number; cycleHoursUsed: number };
  options?: {
    averageSpeedMph?: number;
    distanceMethod?: DistanceMethod;
    optimizeStopOrder?: boolean;
    includeFuelStops?: boolean;
    fuelTankGallons?: number;
    mpg?: number;
    startingFuelGallons?: number;
    fuelPricePerGallon?: number;
  };
}

type PlanOptions = NonNullable<PlanRequest['options']>;

/**
 * The PLANNED routes of an assignee (`a.id`, in one role) still running at the departure ($5), earliest
 * first, and the PLANNED or ACTIVE one that ended last by then: each by its index (migration 013; the
 * PLANNED ones from the index alone), so a plan reads a bounded number of rows however many routes the
 * driver has had.
 */
const BOOKED_COLUMNS = 'r.id, r.status, r.driver_id, r.co_driver_id, r.departure_time, r.arrival_time';
const plannedFrom = (role: 'driver_id' | 'co_driver_id') => /* sql */ `(SELECT r.id, r.driver_id, r.co_driver_id, r.departure_time, r.arrival_time FROM route_plans r
    WHERE r.tenant_id = $1 AND r.status = 'PLANNED' AND r.${role} = a.id AND r.arrival_time > $5
    ORDER BY r.departure_time, r.id LIMIT ${BOOKED_READ_LIMIT + 1})`;
const endedBy = (role: 'driver_id' | 'co_driver_id') => /* sql */ `(SELECT ${BOOKED_COLUMNS} FROM route_plans r
    WHERE r.tenant_id = $1 AND r.status IN ('PLANNED', 'ACTIVE') AND r.${role} = a.id AND r.arrival_time <= $5
    ORDER BY r.arrival_time DESC LIMIT 1)`;

/** readPlanningContext's statement: one text, built once (it is prepared by name on each connection). */
const PLAN_CONTEXT_SQL = /* sql */ `SELECT (SELECT to_jsonb(d) FROM drivers d WHERE d.tenant_id = $1 AND d.id = $2) AS driver,
            (SELECT hos FROM tenant_settings WHERE tenant_id = $1) AS hos,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('name', name, 'type', type, 'latitude', latitude, 'longitude', longitude,
                                                          'amenities', amenities, 'fuel_discount_per_gallon', fuel_discount_per_gallon)), '[]'::jsonb)
               FROM locations WHERE tenant_id = $1 AND type IN ${REST_SITE_TYPES_SQL}) AS sites,
            EXISTS (SELECT 1 FROM integrations WHERE tenant_id = $1 AND category = 'FUEL' AND status <> 'DISABLED') AS fuel_integrations,
            -- The routes a double booking can be about (domain/dispatch/booking.ts), a bounded number whatever
            -- the driver's history: each assignee's ACTIVE route, the PLANNED ones still running at the
            -- departure (earliest first, at most BOOKED_READ_LIMIT + 1), and the last one ended by then. Only
            -- those a warning can name have their stops read (a plan's JSON is large).
            (SELECT coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'status', c.status, 'driver_id', c.driver_id, 'co_driver_id', c.co_driver_id,
                                                          'departure_time', c.departure_time, 'arrival_time', c.arrival_time,
                                                          -- The stops and the load only of the routes a warning can name (CASE: not read for the others).
                                                          'named', CASE WHEN c.named THEN (
                                                            SELECT json_build_object('from', r.stops->0, 'to', r.stops->-1,
                                                                                     'load_reference', (SELECT l.reference_number FROM loads l WHERE l.tenant_id = r.tenant_id AND l.id = r.load_id))
                                                              FROM route_plans r WHERE r.tenant_id = $1 AND r.id = c.id) END)), '[]'::jsonb)
               FROM (SELECT x.id, min(x.status) AS status, min(x.driver_id) AS driver_id, min(x.co_driver_id) AS co_driver_id,
                            min(x.departure_time) AS departure_time, min(x.arrival_time) AS arrival_time, bool_or(x.named) AS named FROM (
                       SELECT ${BOOKED_COLUMNS}, true AS named FROM route_plans r
                        WHERE r.tenant_id = $1 AND r.status = 'ACTIVE' AND (r.driver_id = ANY($3::text[]) OR r.co_driver_id = ANY($3::text[]))
                       UNION ALL
                       SELECT p.id, 'PLANNED', p.driver_id, p.co_driver_id, p.departure_time, p.arrival_time, p.n = 1 FROM unnest($3::text[]) AS a (id) CROSS JOIN LATERAL (
                         SELECT u.*, row_number() OVER (ORDER BY u.departure_time, u.id) AS n
                           FROM (${plannedFrom('driver_id')} UNION ALL ${plannedFrom('co_driver_id')}) u
                          ORDER BY u.departure_time, u.id LIMIT ${BOOKED_READ_LIMIT + 1}) p
                       UNION ALL
                       SELECT e.*, true FROM unnest($3::text[]) AS a (id) CROSS JOIN LATERAL (
                         SELECT u.* FROM (${endedBy('driver_id')} UNION ALL ${endedBy('co_driver_id')}) u
                          ORDER BY u.arrival_time DESC LIMIT 1) e
                     ) x GROUP BY x.id) c) AS booked,
            -- Each assignee looked up by its key (LATERAL with LIMIT 1, never flattened: the cached generic plan cannot know how many there are and would read every driver).
            (SELECT coalesce(jsonb_agg(jsonb_build_object('id', d.id, 'name', d.first_name || ' ' || d.last_name, 'known', to_jsonb(k))), '[]'::jsonb)
               FROM unnest($3::text[]) AS a (id)
               CROSS JOIN LATERAL (SELECT * FROM drivers d WHERE d.tenant_id = $1 AND d.id = a.id LIMIT 1) d
               CROSS JOIN LATERAL (SELECT ${KNOWN_LOCATION_COLUMNS}) k) AS whereabouts,
            -- The driver's own truck, for a plan that names no vehicle.
            (SELECT v.id FROM drivers d JOIN vehicles v ON v.tenant_id = d.tenant_id AND upper(v.unit_number) = upper(d.truck_number) AND v.status = 'ACTIVE'
              WHERE d.tenant_id = $1 AND d.id = $2 AND $4::boolean) AS truck,
            -- The driver's log since the history the rules need ($6), for a plan without driverState ($7).
            (SELECT coalesce(json_agg(e ORDER BY e.started_at, e.created_at), '[]'::json)
               FROM (${dutyEventsSinceSql('$1', '$2', '$6')}) e WHERE $7::boolean) AS events`;

/**
 * Everything the plan needs from the database, read in one short transaction: the driver, vehicle and
 * load (each must exist and be free to assign), the driver's duty history (unless the request gives the
 * driver's state by hand), the tenant's HOS rules and its rest sites, and whether the tenant has a fuel
 * price integration to ask. The driver, the rules, the rest sites and the fuel integrations come in one
 * statement (each statement is a round trip to the database, the largest cost of a plan request after
 * the planner; bench/README.md).
 */
export async function readPlanningContext(tx: Tx, tenantId: string, body: PlanRequest, departure: number) {
  const assignees = [body.driverId, ...(body.coDriverId ? [body.coDriverId] : [])];
  const { rows } = await tx.query<{
    driver: Record<string, unknown> | null;
    hos: StoredHosSettings | null;
    sites: RestSiteRow[];
    fuel_integrations: boolean;
    booked: BookedRow[] | string;
    whereabouts: { id: string; name: string; known: Record<string, unknown> }[] | string;
    truck: string | null;
    events: Record<string, unknown>[] | string;
  }>(
    PLAN_CONTEXT_SQL,
    [tenantId, body.driverId, assignees, body.vehicleId === undefined, new Date(departure), historySince(departure), !body.driverState],
    // Planned once per connection: planning this statement cost PostgreSQL ~5 ms, more than running it.
    { prepare: 'plan_context' },
  );
  const row = rows[0]!;
  const driver = assignableDriver(row.driver ? toDriver(row.driver) : null);
  const vehicleId = body.vehicleId ?? row.truck ?? undefined;
  const vehicle = vehicleId ? await assignableVehicle(tx, tenantId, vehicleId) : null;
  const load = body.loadId ? await assignableLoad(tx, tenantId, body.loadId) : null;
  const rules = ruleSetOf(row.hos);
  const history = body.driverState ? null : historyFromEvents(rules, parseJson(row.events).map(toEvent), departure);
  const coDriver = body.coDriverId ? await assignableCoDriver(tx, tenantId, body.coDriverId, driver.id) : null;
  const coHistory = coDriver && !body.coDriverState ? await driverHistory(tx, tenantId, coDriver.id, departure) : null;
  const sites: RestSite[] = row.sites.map(toRestSite);
  const booked = parseJson<BookedRow[]>(row.booked).map(toBookedRoute);
  const whereabouts = new Map(parseJson<{ id: string; name: string; known: Record<string, unknown> }[]>(row.whereabouts).map((w) => [w.id, { name: w.name, known: knownLocationOf(w.known) }]));
  return { driver, coDriver, vehicle, load, history, coHistory, rules, sites, fuelIntegrations: row.fuel_integrations, booked, whereabouts };
}

const parseJson = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

interface BookedRow {
  id: string;
  status: 'PLANNED' | 'ACTIVE';
  driver_id: string;
  co_driver_id: string | null;
  departure_time: string;
  arrival_time: string;
  /** Read only for the routes a warning can name (null for the others, counted only). */
  named: { from: NamedPoint | null; to: NamedPoint | null; load_reference: string | null } | null;
}

const namedPoint = (p: NamedPoint | null | undefined): NamedPoint | null => (p ? { name: p.name, latitude: Number(p.latitude), longitude: Number(p.longitude) } : null);

const toBookedRoute = (r: BookedRow): BookedRoute => ({
  id: r.id,
  status: r.status,
  driverId: r.driver_id,
  coDriverId: r.co_driver_id,
  departure: Date.parse(r.departure_time),
  arrival: Date.parse(r.arrival_time),
  from: namedPoint(r.named?.from),
  to: namedPoint(r.named?.to),
  loadReference: r.named?.load_reference ?? null,
});

/**
 * Double bookings said in the plan's warnings: the driver or co-driver already on another PLANNED or
 * ACTIVE route at the same time, or far from the origin when this one departs (domain/dispatch/booking.ts).
 */
export function planBookingWarnings(context: PlanningContext, plan: PlanResult, origin: NamedPoint, ports: Pick<PlanningPorts, 'nameNear'>): string[] {
  const assignees: Assignee[] = [context.driver, ...(context.coDriver ? [context.coDriver] : [])].map((d) => {
    const known = context.whereabouts.get(d.id)?.known ?? null;
    return {
      id: d.id,
      name: `${d.firstName} ${d.lastName}`,
      lastKnown: known ? { point: known, at: known.at, name: known.name ? `at ${known.name}` : ports.nameNear(known) } : null,
    };
  });
  return bookingWarnings({ departure: Date.parse(plan.departureTime), arrival: Date.parse(plan.arrivalTime), origin }, assignees, context.booked, { distance: haversineMiles, zoneAt: timeZoneAt });
}

/** What readPlanningContext reads. */
export type PlanningContext = Awaited<ReturnType<typeof readPlanningContext>>;

/** Distance methods computed in this process (no request to another service). */
export const IN_PROCESS_DISTANCE_METHODS: ReadonlySet<DistanceMethod> = new Set<DistanceMethod>(['haversine', 'haversine_road']);

/** Whether the plan asks a fuel vendor for prices (fuelOptions): fuel stops on and a fuel integration to ask. */
export function asksFuelVendor(opts: PlanOptions, fuelIntegrations: boolean): boolean {
  return (opts.includeFuelStops ?? true) && fuelIntegrations;
}

/** The driver to plan for: only an ACTIVE driver can be assigned to a route. */
function assignableDriver(driver: DriverRecord | null): DriverRecord {
  if (!driver) throw notFound('Driver');
  if (driver.status !== 'ACTIVE') throw invalidState(`Driver ${driver.firstName} ${driver.lastName} is ${driver.status}; only ACTIVE drivers can be assigned to a route`);
  return driver;
}

/**
 * The co-driver of a team plan: another ACTIVE driver of the organization. Both drivers' logs are kept
 * under the organization's HOS rule set (one rule set per organization), so a team never mixes two.
 */
async function assignableCoDriver(tx: Tx, tenantId: string, id: string, driverId: string): Promise<DriverRecord> {
  if (id === driverId) throw invalid('Validation failed', [{ field: 'body.coDriverId', message: 'the co-driver must be another driver than driverId' }]);
  const co = await findDriver(tx, tenantId, id);
  if (!co) throw notFound('Co-driver');
  if (co.status !== 'ACTIVE') throw invalidState(`Co-driver ${co.firstName} ${co.lastName} is ${co.status}; only ACTIVE drivers can be assigned to a route`);
  return co;
}

/** The vehicle to plan for: only an ACTIVE vehicle can be assigned to a route. */
async function assignableVehicle(tx: Tx, tenantId: string, id: string) {
  const vehicle = await findVehicleForPlan(tx, tenantId, id);
  if (!vehicle) throw notFound('Vehicle');
  if (vehicle.status !== 'ACTIVE') throw invalidState(`Vehicle ${vehicle.unitNumber} is ${vehicle.status}; only ACTIVE vehicles can be assigned to a route`);
  return vehicle;
}

/** The load to carry: not delivered or cancelled, and on no other PLANNED or ACTIVE route. */
async function assignableLoad(tx: Tx, tenantId: string, id: string): Promise<LoadForPlan> {
  const load = await findLoadForPlan(tx, tenantId, id);
  if (!load) throw notFound('Load');
  if (load.status === 'DELIVERED' || load.status === 'CANCELLED') throw invalidState(`Load ${load.referenceNumber} is ${load.status}`);
  const { rows } = await tx.query<{ id: string }>(
    "SELECT id FROM route_plans WHERE tenant_id = $1 AND load_id = $2 AND status IN ('PLANNED', 'ACTIVE') LIMIT 1",
    [tenantId, load.id],
  );
  if (rows[0]) throw invalidState(`Load ${load.referenceNumber} is already on route ${rows[0].id}; cancel that route first`);
  return load;
}

/** The stops in the order driven: as given (or the load's pickup and delivery), reordered when asked to. */
export function orderedStops(input: StopInput[] | undefined, load: LoadForPlan | null, opts: PlanOptions, ports: PlanningPorts, departure: number): PlanStop[] {
  const stops = resolveStops(input, load, ports);
  if (!opts.optimizeStopOrder) return stops;
  if (stops.length > MAX_OPTIMIZED_STOPS) {
    throw invalid('Validation failed', [{ field: 'body.stops', message: `optimizeStopOrder handles at most ${MAX_OPTIMIZED_STOPS} stops` }]);
  }
  return optimizeStopOrder(stops, { departureTime: departure, averageSpeedMph: opts.averageSpeedMph ?? PLAN_DEFAULTS.averageSpeedMph });
}

/**
 * The legs between the stops by the requested distance method, with the plan's warnings about them. A
 * mapping service that finds no road route is the caller's error (400); one that fails otherwise gives
 * way to great-circle distances.
 */
export async function roadLegs(deps: Pick<Deps, 'log'>, ports: PlanningPorts, stops: PlanStop[], method: DistanceMethod): Promise<{ legs: PlanLeg[]; distanceMethod: DistanceMethod; warnings: string[] }> {
  const warnings: string[] = [];
  let legs: PlanLeg[];
  let distanceMethod: DistanceMethod = method;
  const provider = ports.distance(method);
  try {
    legs = await provider.legs(stops);
  } catch (err) {
    if (err instanceof DistanceProviderError && ['NO_ROUTE', 'NO_SEGMENT', 'INVALID_INPUT'].includes(err.code)) {
      throw invalid(`The mapping service found no road route between the stops: ${err.message}`);
    }
    if (method === 'haversine') throw err;
    deps.log.warn({ err }, 'mapping service failed; planning with great-circle distances');
    warnings.push('The mapping service did not answer; distances are straight-line estimates');
    legs = await ports.distance('haversine').legs(stops);
    distanceMethod = 'haversine';
  }
  const distanceNote = distanceWarning(distanceMethod);
  if (distanceNote) warnings.push(distanceNote);
  return { legs, distanceMethod, warnings };
}

/**
 * The fuel side of the plan: tank and consumption (the request's, else the vehicle's, else the defaults),
 * the fuel on board at departure, and the diesel prices along the legs (with their warning, if any).
 */
export async function fuelOptions(
  ports: PlanningPorts,
  tenantId: string,
  opts: PlanOptions,
  vehicle: { fuelTankGallons: number; mpg: number } | null,
  legs: PlanLeg[],
  /** Whether the tenant has a fuel price integration (not DISABLED): without one there is no price source to ask. */
  fuelIntegrations: boolean,
): Promise<{ options: FuelOptions; warnings: string[] }> {
  const tank = opts.fuelTankGallons ?? vehicle?.fuelTankGallons ?? PLAN_DEFAULTS.fuelTankGallons;
  const fuelStart = opts.startingFuelGallons ?? tank;
  if (fuelStart > tank) throw invalid('Validation failed', [{ field: 'body.options.startingFuelGallons', message: 'cannot exceed the tank size' }]);
  const enabled = opts.includeFuelStops ?? true;
  const prices: FuelPriceAnswer = asksFuelVendor(opts, fuelIntegrations) ? await ports.fuelPrices.pricesAlong(tenantId, legs.flatMap((l) => l.geometry)) : { prices: [] };
  return {
    options: {
      enabled,
      tankGallons: tank,
      mpg: opts.mpg ?? vehicle?.mpg ?? PLAN_DEFAULTS.mpg,
      startingGallons: fuelStart,
      defaultPricePerGallon: opts.fuelPricePerGallon ?? PLAN_DEFAULTS.fuelPricePerGallon,
      prices: prices.prices,
    },
    warnings: prices.warning ? [prices.warning] : [],
  };
}

/**
 * The planner's input for a plan request, from what was read for it (readPlanningContext) and the stops,
 * legs and fuel options worked out from them: the driver's clocks as typed in (driverState) or from their
 * log, and for a team the co-driver's the same way.
 */
export function planInputOf(body: PlanRequest, context: PlanningContext, stops: PlanStop[], legs: PlanLeg[], fuel: FuelOptions, departure: number, ports: Pick<PlanningPorts, 'nameNear'>): PlanInput {
  return {
    departureTime: departure,
    stops,
    legs,
    rules: context.rules,
    history: body.driverState ? { snapshot: body.driverState } : { timeline: context.history!.timeline },
    averageSpeedMph: body.options?.averageSpeedMph ?? PLAN_DEFAULTS.averageSpeedMph,
    fuel,
    restSites: context.sites,
    nameNear: ports.nameNear,
    ...(context.coDriver
      ? {
          team: {
            driverIds: [context.driver.id, context.coDriver.id],
            driverNames: [`${context.driver.firstName} ${context.driver.lastName}`, `${context.coDriver.firstName} ${context.coDriver.lastName}`],
            coDriverHistory: body.coDriverState ? { snapshot: body.coDriverState } : { timeline: context.coHistory!.timeline },
          },
        }
      : {}),
  };
}

/**
 * Runs the planner. A trip it cannot plan is the caller's error (400), and so is an impossible driver
 * state given by hand (a state read from the log was validated as the log was written).
 */
export function planOrExplain(input: PlanInput): PlanResult {
  try {
    return planRoute(input);
  } catch (err) {
    if (err instanceof PlanningError && err.code === 'UNPLANNABLE') throw invalid(err.message);
    if (isHosError(err) && ('snapshot' in input.history || (input.team && 'snapshot' in input.team.coDriverHistory))) {
      // Which of the two typed-in states is impossible: the driver's is checked first.
      const which = 'snapshot' in input.history && !coSnapshotFailed(input) ? 'driverState' : 'coDriverState';
      throw new DomainError('VALIDATION', 'Validation failed', [{ field: err.field ? `body.${which}.${err.field}` : `body.${which}`, message: err.message }]);
    }
    throw err;
  }
}

/** Whether an HOS error comes from the co-driver's typed-in state (the driver's own is valid). */
function coSnapshotFailed(input: PlanInput): boolean {
  if (!input.team || !('snapshot' in input.team.coDriverHistory)) return false;
  if (!('snapshot' in input.history)) return true;
  try {
    startState({ history: input.history, rules: input.rules, departureTime: input.departureTime });
    return true;
  } catch {
    return false;
  }
}

/** A route just planned: its record, and the API's answer as JSON (routeInsert). */
export interface PlannedRoute {
  record: RouteRecord;
  json: string;
}

/** Stores the plan as a PLANNED route with its `route.planned` event, and marks its load ASSIGNED. */
export async function saveRoute(tx: Tx, ctx: TenantContext, route: Omit<NewRoute, 'id' | 'createdBy'>, now: Date): Promise<PlannedRoute> {
  const { statement, record: saved, json } = routeInsert(ctx.tenantId, { id: newId('route'), ...route, createdBy: ctx.userId }, now);
  // The route and its event in one statement (one round trip; bench/README.md).
  await runWithEvent(tx, statement, ctx.tenantId, 'route.planned', { planId: saved.id, driverId: saved.driverId, coDriverId: saved.coDriverId, vehicleId: saved.vehicleId, loadId: saved.loadId, departureTime: saved.departureTime, arrivalTime: saved.arrivalTime, summary: saved.summary }, now);
  if (saved.loadId) await changeLoadStatus(tx, ctx.tenantId, saved.loadId, ['PENDING'], 'ASSIGNED', ctx.userId, now);
  return { record: saved, json };
}
