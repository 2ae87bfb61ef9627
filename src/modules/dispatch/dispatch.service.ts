/**
 * Dispatch candidates (issue 19): for one load, every driver who might take it — where they start, with
 * which clocks, the trip the HOS planner plans for them, and whether it keeps every appointment — ranked
 * by the pure core (src/domain/dispatch/candidates.ts). This side reads the drivers' starts and clocks
 * in one short transaction, measures the legs, and shapes the answer; `planCandidate` plans the best
 * feasible one through POST /routes/plan's own path.
 */
import { timeZoneAt } from '../../domain/planning/local-time.js';
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { dispatchCandidates, type Candidate, type CandidateDriver, type CandidateLoad, type CandidateSort } from '../../domain/dispatch/candidates.js';
import { hosNow, isHosError, limitsOf } from '../../domain/hos/index.js';
import { ELD_CLOCKS_MAX_AGE_MS } from '../../domain/hos/eld-clocks.js';
import type { ClockSnapshot, HosClocks, RuleSet } from '../../domain/hos/types.js';
import type { PlanLeg, PlanStop, Point, Segment } from '../../domain/planning/types.js';
import { forbidden, invalid, invalidState, notFound } from '../../lib/errors.js';
import { can } from '../../plugins/policies.js';
import type { TenantContext } from '../../plugins/context.js';
import { toEldClocks } from '../hos/eld-clocks.repository.js';
import { eldReport, snapshotOf } from '../hos/hos.service.js';
import { tenantRuleSet } from '../hos/hos.repository.js';
import { KNOWN_LOCATION_COLUMNS, knownLocationOf, type KnownLocationSource } from '../drivers/driver-locations.js';
import type { HomeTerminal } from '../drivers/drivers.repository.js';
import { HOS_HISTORY_MS, loadTimelines } from '../monitoring/monitoring.repository.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { fuelOptions, roadLegs, type PlanRequest } from '../routes/routes.planning.js';
import { findLoadForPlan, restSitesAndFuel, type LoadForPlan } from '../routes/routes.related.js';
import type { RouteRecord } from '../routes/routes.repository.js';
import { PLAN_DEFAULTS } from '../routes/routes.schemas.js';
import { routesService } from '../routes/routes.service.js';
import { LOAD_DOCK_HOURS, resolveStops, type StopInput } from '../routes/stops.js';

export interface CandidatesRequest {
  loadId?: string;
  stops?: StopInput[];
  driverIds?: string[];
  departureNotBefore?: string;
  sort?: CandidateSort;
  includePlans?: boolean;
  planCandidate?: boolean;
  options?: Omit<NonNullable<PlanRequest['options']>, 'optimizeStopOrder' | 'startingFuelGallons'>;
}

type StartSource = 'CURRENT_ROUTE' | KnownLocationSource | 'HOME_TERMINAL';

/** A driver as the candidates query reads them: who, and where and when they start. */
interface DriverStart {
  id: string;
  name: string;
  /** `at`: when they are there (ms); null for a home terminal (where they are based, not a sighting). */
  start: { name: string; latitude: number; longitude: number; source: StartSource; at: number | null; routeId: string | null } | null;
  /** The clocks the current route's plan ends with (CURRENT_ROUTE only). */
  routeEndClocks: ClockSnapshot | null;
}

const ms = (v: unknown) => new Date(v as string | Date).getTime();
const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/**
 * Each driver's start, in one statement: the PLANNED or ACTIVE route they are on (its last stop, at its
 * arrival, with the clocks its plan ends with); else the newest of what says where they were (a route
 * position, a location reported for them, a duty-status change with coordinates, the end of their last
 * completed route: driver-locations.ts); else their home terminal; else nothing (location unknown).
 */
async function driverStarts(tx: Tx, tenantId: string, driverIds: string[] | undefined): Promise<{ starts: DriverStart[]; inactive: string[] }> {
  const { rows } = await tx.query<{ id: string; first_name: string; last_name: string; status: string; home_terminal: unknown; current: Record<string, unknown> | null } & Record<string, unknown>>(
    `SELECT d.id, d.first_name, d.last_name, d.status, d.home_terminal,
            (SELECT json_build_object('id', r.id, 'arrival_time', r.arrival_time, 'stop', r.stops->-1, 'segment', r.segments->-1, 'team', r.co_driver_id IS NOT NULL)
               FROM route_plans r WHERE r.tenant_id = d.tenant_id AND (r.driver_id = d.id OR r.co_driver_id = d.id) AND r.status IN ('PLANNED', 'ACTIVE')
              ORDER BY r.arrival_time DESC LIMIT 1) AS current,
            ${KNOWN_LOCATION_COLUMNS}
       FROM drivers d
      WHERE d.tenant_id = $1 AND ${driverIds ? 'd.id = ANY($2::text[])' : "d.status = 'ACTIVE'"}
      ORDER BY d.id`,
    driverIds ? [tenantId, driverIds] : [tenantId],
  );
  if (driverIds) {
    const found = new Set(rows.map((r) => r.id));
    const missing = driverIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw notFound(`Driver ${missing[0]}`);
  }
  const inactive = rows.filter((r) => r.status !== 'ACTIVE').map((r) => `${r.first_name} ${r.last_name} (${r.id}) is ${r.status}`);
  const starts = rows
    .filter((r) => r.status === 'ACTIVE')
    .map((r): DriverStart => {
      const name = `${r.first_name} ${r.last_name}`;
      const current = r.current ? json<{ id: string; arrival_time: string; stop: { name: string; latitude: number; longitude: number }; segment: Segment | null; team: boolean }>(r.current) : null;
      if (current) {
        // A one-driver plan ends with its driver's clocks; a team plan's last clocks are whoever drove last, so
        // each of a team is taken from their own log instead.
        const after = current.team ? undefined : current.segment?.hos_state_after;
        return {
          id: r.id,
          name,
          start: { name: current.stop.name, latitude: current.stop.latitude, longitude: current.stop.longitude, source: 'CURRENT_ROUTE', at: ms(current.arrival_time), routeId: current.id },
          routeEndClocks: after ? snapshotOf({ hoursDriven: after.hours_driven, onDutyHours: after.on_duty_hours, hoursSinceBreak: after.hours_since_break, cycleHoursUsed: after.cycle_hours_used }) : null,
        };
      }
      const known = knownLocationOf(r);
      if (known) return { id: r.id, name, start: { name: known.name ?? '', latitude: known.latitude, longitude: known.longitude, source: known.source, at: known.at, routeId: known.routeId }, routeEndClocks: null };
      const home = r.home_terminal ? json<HomeTerminal>(r.home_terminal) : null;
      if (home) return { id: r.id, name, start: { name: home.name, latitude: home.latitude, longitude: home.longitude, source: 'HOME_TERMINAL', at: null, routeId: null }, routeEndClocks: null };
      return { id: r.id, name, start: null, routeEndClocks: null };
    });
  return { starts, inactive };
}

/** The load's stops as planned stops: a load's pickup is not before scheduledPickup; its delivery is due by scheduledDelivery. */
function loadStops(body: CandidatesRequest, load: LoadForPlan | null, ports: PlanningPorts): PlanStop[] {
  let input: StopInput[];
  if (body.stops) {
    input = body.stops.map((s, i) => ({ ...s, type: s.type ?? (i === 0 ? 'PICKUP' : i === body.stops!.length - 1 ? 'DELIVERY' : 'WAYPOINT') }));
  } else {
    if (!load!.originAddress || !load!.destinationAddress) {
      throw invalid(`Load ${load!.referenceNumber} has no origin and destination address; give the stops`, [{ field: 'body.loadId', message: 'the load has no origin and destination address' }]);
    }
    const iso = (t: number | null) => (t === null ? undefined : new Date(t).toISOString());
    input = [
      { name: load!.originAddress, address: load!.originAddress, type: 'PICKUP', appointment: load!.scheduledPickup === null ? undefined : { earliest: iso(load!.scheduledPickup) }, dockDurationHours: LOAD_DOCK_HOURS },
      { name: load!.destinationAddress, address: load!.destinationAddress, type: 'DELIVERY', appointment: load!.scheduledDelivery === null ? undefined : { latest: iso(load!.scheduledDelivery) }, dockDurationHours: LOAD_DOCK_HOURS },
    ];
  }
  return resolveStops(input, null, ports);
}

/** The POST /routes/plan body that plans a candidate's trip: its start, the load's stops by coordinates, its clocks when they are not the log's. */
function planRequestOf(c: Candidate, loadId: string | null, options: Record<string, unknown>): PlanRequest {
  const input = c.input;
  const stops: StopInput[] = input.stops.map((s) => {
    const a = s.appointment;
    const appointment = a && (a.earliest !== undefined || a.latest !== undefined) ? { ...(a.earliest !== undefined ? { earliest: new Date(a.earliest).toISOString() } : {}), ...(a.latest !== undefined ? { latest: new Date(a.latest).toISOString() } : {}) } : undefined;
    return { name: s.name, latitude: s.latitude, longitude: s.longitude, type: s.type, ...(appointment ? { appointment } : {}), dockDurationHours: s.dockDurationHours, ...(s.shipmentId ? { shipmentId: s.shipmentId } : {}) };
  });
  return {
    driverId: c.driverId,
    ...(loadId ? { loadId } : {}),
    departureTime: new Date(input.departureTime).toISOString(),
    stops,
    ...('snapshot' in input.history ? { driverState: input.history.snapshot } : {}),
    options: options as PlanRequest['options'],
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function clocksOut(source: string, c: Pick<HosClocks, 'hoursDriven' | 'onDutyHours' | 'hoursSinceBreak' | 'cycleHoursUsed'>, rules: RuleSet) {
  const l = limitsOf(rules);
  const left = (limit: number, used: number) => (Number.isFinite(limit) ? round2(Math.max(0, limit - used)) : 0);
  return {
    source,
    hoursDriven: round2(c.hoursDriven),
    onDutyHours: round2(c.onDutyHours),
    hoursSinceBreak: round2(c.hoursSinceBreak),
    cycleHoursUsed: round2(c.cycleHoursUsed),
    driveHoursRemaining: left(l.driveHours, c.hoursDriven),
    dutyHoursRemaining: left(l.windowHours, c.onDutyHours),
    cycleHoursRemaining: left(l.cycleHours, c.cycleHoursUsed),
  };
}

export function dispatchService(deps: Deps, ports: PlanningPorts) {
  const { db, clock } = deps;
  const routes = routesService(deps, ports);

  return {
    async candidates(ctx: TenantContext, body: CandidatesRequest) {
      if ((body.loadId === undefined) === (body.stops === undefined)) {
        throw invalid('Give either loadId or stops', [{ field: 'body', message: 'give either loadId or stops (not both)' }]);
      }
      if (body.planCandidate && !can(ctx.role, 'routes:write')) throw forbidden('planCandidate plans a route: it needs the routes:write permission (OWNER, ADMIN or DISPATCHER)');
      const now = clock.now().getTime();
      const notBefore = body.departureNotBefore ? Date.parse(body.departureNotBefore) : now;
      if (Number.isNaN(notBefore)) throw invalid('Validation failed', [{ field: 'body.departureNotBefore', message: 'is not a date-time that can be represented' }]);
      const earliest = Math.max(now, notBefore);
      const opts = body.options ?? {};
      const method = opts.distanceMethod ?? deps.config.distanceMethod;

      // Everything from the database in one short transaction; no connection is held while legs are measured.
      const read = await db.tenant(ctx.tenantId, async (tx) => {
        const load = body.loadId ? await findLoadForPlan(tx, ctx.tenantId, body.loadId) : null;
        if (body.loadId && !load) throw notFound('Load');
        if (load && (load.status === 'DELIVERED' || load.status === 'CANCELLED')) throw invalidState(`Load ${load.referenceNumber} is ${load.status}`);
        const { starts, inactive } = await driverStarts(tx, ctx.tenantId, body.driverIds);
        if (inactive.length > 0) throw invalidState(`Only ACTIVE drivers can take a load: ${inactive.join('; ')}`);
        const rules = await tenantRuleSet(tx, ctx.tenantId);
        // Drivers not on a route leave at the earliest time: their log replayed up to then, or their ELD's clocks.
        const free = starts.filter((d) => d.start !== null && (d.start.source !== 'CURRENT_ROUTE' || d.routeEndClocks === null)).map((d) => d.id);
        const timelines = await loadTimelines(tx, free.map((driverId) => ({ tenantId: ctx.tenantId, driverId })), earliest, HOS_HISTORY_MS);
        const eld = await tx.query<Record<string, unknown>>('SELECT * FROM driver_eld_clocks WHERE tenant_id = $1 AND driver_id = ANY($2::text[]) AND synced_at > $3', [
          ctx.tenantId,
          free,
          new Date(earliest - ELD_CLOCKS_MAX_AGE_MS),
        ]);
        const { sites, fuelIntegrations } = await restSitesAndFuel(tx, ctx.tenantId);
        return { load, starts, rules, timelines, eld: new Map(eld.rows.map((r) => [r.driver_id as string, toEldClocks(r)])), sites, fuelIntegrations };
      });

      const stops = loadStops(body, read.load, ports);
      const road = await roadLegs(deps, ports, stops, method);
      const fuel = await fuelOptions(ports, ctx.tenantId, opts, null, road.legs, read.fuelIntegrations);
      const distance = ports.distance(road.distanceMethod);
      const first: Point = stops[0]!;
      const startClocks = new Map<string, ReturnType<typeof clocksOut>>();
      const drivers: CandidateDriver[] = [];
      for (const d of read.starts) {
        if (d.start === null) continue;
        const point = { latitude: d.start.latitude, longitude: d.start.longitude };
        const name = d.start.name || ports.nameNear(point);
        let deadhead: PlanLeg;
        try {
          deadhead = (await distance.legs([point, first]))[0]!;
        } catch {
          deadhead = (await ports.distance('haversine').legs([point, first]))[0]!;
        }
        const availableAt = d.start.source === 'CURRENT_ROUTE' ? Math.max(earliest, d.start.at!) : earliest;
        let history: CandidateDriver['history'];
        if (d.start.source === 'CURRENT_ROUTE' && d.routeEndClocks) {
          history = { snapshot: d.routeEndClocks };
          startClocks.set(d.id, clocksOut('ROUTE_PLAN', d.routeEndClocks, read.rules));
        } else {
          const timeline = read.timelines.get(`${ctx.tenantId}|${d.id}`) ?? [];
          // The one truth of the driver's hours (hosNow), as their page and the Drivers list show it.
          const now = hosNow(timeline, read.rules, availableAt, eldReport(read.eld.get(d.id) ?? null));
          if (now.source.kind === 'ELD') {
            const snapshot = snapshotOf(now.clocks);
            history = { snapshot };
            startClocks.set(d.id, clocksOut(now.source.vendor ?? 'ELD', snapshot, read.rules));
          } else {
            history = { timeline };
            startClocks.set(d.id, clocksOut('LOG', now.clocks, read.rules));
          }
        }
        drivers.push({ driverId: d.id, start: { ...point, name }, availableAt, history, rules: read.rules, fuel: fuel.options, deadhead });
      }
      const load: CandidateLoad = {
        stops,
        legs: road.legs,
        departureNotBefore: earliest,
        averageSpeedMph: opts.averageSpeedMph ?? PLAN_DEFAULTS.averageSpeedMph,
        restSites: read.sites,
        nameNear: ports.nameNear,
      };
      let ranked: Candidate[];
      try {
        ranked = dispatchCandidates(load, drivers, body.sort ?? 'arrival');
      } catch (err) {
        if (isHosError(err)) throw invalid(err.message);
        throw err;
      }
      const names = new Map(read.starts.map((d) => [d.id, d]));
      const planOptions = { ...opts, distanceMethod: road.distanceMethod };
      const loadId = read.load?.id ?? null;
      const data = ranked.map((c) => {
        const d = names.get(c.driverId)!;
        const start = d.start!;
        return {
          driverId: c.driverId,
          driverName: d.name,
          feasible: c.feasible,
          locationKnown: true,
          reasons: c.reasons,
          deadheadMiles: c.deadheadMiles,
          departureTime: c.departureTime,
          arrivalTime: c.arrivalTime,
          summary: c.summary ? { ...c.summary, distanceMethod: road.distanceMethod } : null,
          start: { name: start.name || c.input.stops[0]!.name, latitude: start.latitude, longitude: start.longitude, source: start.source, at: start.at === null ? null : new Date(start.at).toISOString(), routeId: start.routeId, timeZone: timeZoneAt(start) },
          startClocks: startClocks.get(c.driverId) ?? null,
          stops: c.plan ? c.plan.stops.slice(1) : [],
          ...(body.includePlans && c.plan ? { segments: c.plan.segments } : {}),
          planRequest: planRequestOf(c, loadId, planOptions) as unknown as Record<string, unknown>,
        };
      });
      // Drivers whose location is unknown cannot be planned: they come last, apart from those the HOS or the
      // appointments rule out, saying what would place them.
      for (const d of read.starts.filter((s) => s.start === null)) {
        data.push({
          driverId: d.id,
          driverName: d.name,
          feasible: false,
          locationKnown: false,
          reasons: [
            `location unknown: ${d.name} has no route, no reported location and no home terminal; set their home terminal (homeTerminal, PUT /api/v1/drivers/{id}) or report where they are (POST /api/v1/drivers/{id}/location)`,
          ],
          deadheadMiles: null as never,
          departureTime: new Date(earliest).toISOString(),
          arrivalTime: null,
          summary: null,
          start: null as never,
          startClocks: null,
          stops: [],
          planRequest: null as never,
        });
      }
      let planned: RouteRecord | null = null;
      const best = data.find((c) => c.feasible);
      if (body.planCandidate && best) planned = (await routes.plan(ctx, best.planRequest as unknown as PlanRequest)).record;
      return { data, load: read.load ? { id: read.load.id, referenceNumber: read.load.referenceNumber } : null, planned };
    },
  };
}
