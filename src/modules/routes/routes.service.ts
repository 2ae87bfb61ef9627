import { type DistanceMethod, DistanceProviderError } from '../../adapters/maps/index.js';
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { emitEvent } from '../../db/outbox.js';
import { HOUR_MS } from '../../domain/hos/types.js';
import { isHosError } from '../../domain/hos/index.js';
import { PlanningError, planRoute } from '../../domain/planning/planner.js';
import { optimizeStopOrder } from '../../domain/planning/stop-order.js';
import type { PlanLeg, PlanStop, RestSite } from '../../domain/planning/types.js';
import { DomainError, invalid, invalidState, isUniqueViolation, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import { findDriver } from '../drivers/drivers.repository.js';
import { driverHistory } from '../hos/hos.service.js';
import { tenantRuleSet } from '../hos/hos.repository.js';
import type { PlanningPorts } from './planning-ports.js';
import { findRoute, insertRoute, listRoutes, setRouteStatus, type RouteRecord, type RouteStatus } from './routes.repository.js';
import { changeLoadStatus, findLoadForPlan, findVehicleForPlan, insertPosition, listPositions, restSitesOf } from './routes.related.js';
import { MAX_OPTIMIZED_STOPS, PLAN_DEFAULTS } from './routes.schemas.js';
import { resolveStops, type StopInput } from './stops.js';
import { distanceWarning } from './distance-warning.js';
import { endMonitoring, startMonitoring } from '../monitoring/monitoring.service.js';

export interface PlanRequest {
  driverId: string;
  vehicleId?: string;
  loadId?: string;
  departureTime?: string;
  stops?: StopInput[];
  driverState?: { hoursDriven: number; onDutyHours: number; hoursSinceBreak: number; cycleHoursUsed: number };
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

export const DEFAULT_FUEL_PRICE = PLAN_DEFAULTS.fuelPricePerGallon;

const TRANSITIONS: Record<'activate' | 'complete' | 'cancel', { from: RouteStatus[]; to: RouteStatus; event: string }> = {
  activate: { from: ['PLANNED'], to: 'ACTIVE', event: 'route.activated' },
  complete: { from: ['ACTIVE'], to: 'COMPLETED', event: 'route.completed' },
  cancel: { from: ['PLANNED', 'ACTIVE'], to: 'CANCELLED', event: 'route.cancelled' },
};

export function routesService(deps: Deps, ports: PlanningPorts) {
  const { db, clock } = deps;

  /** A DRIVER user sees only routes of their own driver profile; other routes are "not found". */
  async function routeFor(tx: Tx, ctx: TenantContext, id: string, forUpdate = false): Promise<RouteRecord> {
    const route = await findRoute(tx, ctx.tenantId, id, forUpdate);
    if (!route) throw notFound('Route');
    if (ctx.role === 'DRIVER') {
      const driver = await findDriver(tx, ctx.tenantId, route.driverId);
      if (driver?.userId !== ctx.userId) throw notFound('Route');
    }
    return route;
  }

  return {
    async plan(ctx: TenantContext, body: PlanRequest): Promise<RouteRecord> {
      const now = clock.now();
      const departure = body.departureTime ? Date.parse(body.departureTime) : now.getTime();
      const opts = body.options ?? {};
      const method = opts.distanceMethod ?? deps.config.distanceMethod;

      // Everything the plan needs from the database, read in one short transaction.
      const context = await db.tenant(ctx.tenantId, async (tx) => {
        const driver = await findDriver(tx, ctx.tenantId, body.driverId);
        if (!driver) throw notFound('Driver');
        if (driver.status !== 'ACTIVE') throw invalidState(`Driver ${driver.firstName} ${driver.lastName} is ${driver.status}; only ACTIVE drivers can be assigned to a route`);
        const vehicle = body.vehicleId ? await findVehicleForPlan(tx, ctx.tenantId, body.vehicleId) : null;
        if (body.vehicleId && !vehicle) throw notFound('Vehicle');
        if (vehicle && vehicle.status !== 'ACTIVE') throw invalidState(`Vehicle ${vehicle.unitNumber} is ${vehicle.status}; only ACTIVE vehicles can be assigned to a route`);
        const load = body.loadId ? await findLoadForPlan(tx, ctx.tenantId, body.loadId) : null;
        if (body.loadId && !load) throw notFound('Load');
        if (load && (load.status === 'DELIVERED' || load.status === 'CANCELLED')) throw invalidState(`Load ${load.referenceNumber} is ${load.status}`);
        if (load) {
          const { rows } = await tx.query<{ id: string }>(
            "SELECT id FROM route_plans WHERE tenant_id = $1 AND load_id = $2 AND status IN ('PLANNED', 'ACTIVE') LIMIT 1",
            [ctx.tenantId, load.id],
          );
          if (rows[0]) throw invalidState(`Load ${load.referenceNumber} is already on route ${rows[0].id}; cancel that route first`);
        }
        const history = body.driverState ? null : await driverHistory(tx, ctx.tenantId, driver.id, departure);
        const rules = history?.rules ?? (await tenantRuleSet(tx, ctx.tenantId));
        const sites: RestSite[] = await restSitesOf(tx, ctx.tenantId);
        return { driver, vehicle, load, history, rules, sites };
      });

      let stops = resolveStops(body.stops, context.load, ports);
      if (opts.optimizeStopOrder) {
        if (stops.length > MAX_OPTIMIZED_STOPS) {
          throw invalid('Validation failed', [{ field: 'body.stops', message: `optimizeStopOrder handles at most ${MAX_OPTIMIZED_STOPS} stops` }]);
        }
        stops = optimizeStopOrder(stops, { departureTime: departure, averageSpeedMph: opts.averageSpeedMph ?? PLAN_DEFAULTS.averageSpeedMph });
      }

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
        warnings.push('The mapping service did not answer; distances are great-circle (haversine) estimates');
        legs = await ports.distance('haversine').legs(stops);
        distanceMethod = 'haversine';
      }
      const distanceNote = distanceWarning(distanceMethod);
      if (distanceNote) warnings.push(distanceNote);

      const tank = opts.fuelTankGallons ?? context.vehicle?.fuelTankGallons ?? PLAN_DEFAULTS.fuelTankGallons;
      const fuelStart = opts.startingFuelGallons ?? tank;
      if (fuelStart > tank) throw invalid('Validation failed', [{ field: 'body.options.startingFuelGallons', message: 'cannot exceed the tank size' }]);
      const driverState = body.driverState;
      const fuelEnabled = opts.includeFuelStops ?? true;
      const fuelPrices = fuelEnabled ? await ports.fuelPrices.pricesAlong(ctx.tenantId, legs.flatMap((l) => l.geometry)) : { prices: [] };
      if (fuelPrices.warning) warnings.push(fuelPrices.warning);

      let plan;
      try {
        plan = planRoute({
          departureTime: departure,
          stops,
          legs,
          rules: context.rules,
          history: driverState ? { snapshot: driverState } : { timeline: context.history!.timeline },
          averageSpeedMph: opts.averageSpeedMph ?? PLAN_DEFAULTS.averageSpeedMph,
          fuel: {
            enabled: fuelEnabled,
            tankGallons: tank,
            mpg: opts.mpg ?? context.vehicle?.mpg ?? PLAN_DEFAULTS.mpg,
            startingGallons: fuelStart,
            defaultPricePerGallon: opts.fuelPricePerGallon ?? DEFAULT_FUEL_PRICE,
            prices: fuelPrices.prices,
          },
          restSites: context.sites,
          nameNear: ports.nameNear,
        });
      } catch (err) {
        if (err instanceof PlanningError && err.code === 'UNPLANNABLE') throw invalid(err.message);
        // Only a manual snapshot can be impossible; the log is validated as it is written.
        if (isHosError(err) && driverState) {
          throw new DomainError('VALIDATION', 'Validation failed', [{ field: err.field ? `body.driverState.${err.field}` : 'body.driverState', message: err.message }]);
        }
        throw err;
      }
      plan.warnings.unshift(...warnings);

      const route = await db.tenant(ctx.tenantId, async (tx) => {
        const saved = await insertRoute(
          tx,
          ctx.tenantId,
          {
            id: newId('route'),
            driverId: context.driver.id,
            vehicleId: context.vehicle?.id ?? null,
            loadId: context.load?.id ?? null,
            distanceMethod,
            request: body as unknown as Record<string, unknown>,
            plan,
            createdBy: ctx.userId,
          },
          now,
        );
        await emitEvent(tx, ctx.tenantId, 'route.planned', { planId: saved.id, driverId: saved.driverId, vehicleId: saved.vehicleId, loadId: saved.loadId, departureTime: saved.departureTime, arrivalTime: saved.arrivalTime, summary: saved.summary }, now);
        if (saved.loadId) await changeLoadStatus(tx, ctx.tenantId, saved.loadId, ['PENDING'], 'ASSIGNED', ctx.userId, now);
        return saved;
      });
      return route;
    },

    async get(ctx: TenantContext, id: string): Promise<RouteRecord> {
      return db.tenant(ctx.tenantId, (tx) => routeFor(tx, ctx, id));
    },

    async list(ctx: TenantContext, q: { status?: RouteStatus; driverId?: string; page: number; pageSize: number }) {
      const filter = { status: q.status, driverId: q.driverId, driverUserId: ctx.role === 'DRIVER' ? ctx.userId : undefined };
      const { data, total } = await db.tenant(ctx.tenantId, (tx) => listRoutes(tx, ctx.tenantId, filter, q.page, q.pageSize));
      return { data, total, page: q.page, pageSize: q.pageSize };
    },

    async transition(ctx: TenantContext, id: string, action: 'activate' | 'complete' | 'cancel', reason?: string): Promise<RouteRecord> {
      const rule = TRANSITIONS[action];
      const now = clock.now();
      try {
        return await db.tenant(ctx.tenantId, async (tx) => {
          const route = await routeFor(tx, ctx, id, true);
          if (!rule.from.includes(route.status)) throw invalidState(`Cannot ${action} a route that is ${route.status}`);
          const driver = await findDriver(tx, ctx.tenantId, route.driverId);
          if (action === 'activate') {
            if (driver?.status !== 'ACTIVE') throw invalidState(`Driver is ${driver?.status ?? 'missing'}; only ACTIVE drivers can start a route`);
            const active = await listRoutes(tx, ctx.tenantId, { status: 'ACTIVE', driverId: route.driverId }, 1, 1);
            if (active.total > 0) throw invalidState(`Driver already has an ACTIVE route (${active.data[0]!.id}); complete or cancel it first`);
          }
          const updated = await setRouteStatus(tx, ctx.tenantId, id, rule.to, now, reason);
          const vehicle = updated.vehicleId ? await findVehicleForPlan(tx, ctx.tenantId, updated.vehicleId) : null;
          const payload: Record<string, unknown> = { planId: updated.id, status: updated.status, driverId: updated.driverId };
          if (action === 'activate') Object.assign(payload, { driverName: driver ? `${driver.firstName} ${driver.lastName}` : null, vehicleId: updated.vehicleId, vehicleUnit: vehicle?.unitNumber ?? null, activatedAt: updated.activatedAt });
          if (action === 'complete') Object.assign(payload, { completedAt: updated.completedAt, summary: updated.summary, plannedArrivalTime: updated.arrivalTime });
          if (action === 'cancel') Object.assign(payload, { reason: reason ?? null, cancelledBy: ctx.userId, cancelledAt: updated.cancelledAt });
          await emitEvent(tx, ctx.tenantId, rule.event, payload, now);
          if (action === 'activate') await startMonitoring(tx, ctx.tenantId, id, now);
          else if (route.status === 'ACTIVE') await endMonitoring(tx, ctx.tenantId, id, action === 'complete' ? 'Route completed' : 'Route cancelled', now);
          if (updated.loadId) {
            if (action === 'activate') await changeLoadStatus(tx, ctx.tenantId, updated.loadId, ['PENDING', 'ASSIGNED'], 'IN_TRANSIT', ctx.userId, now);
            if (action === 'complete') await changeLoadStatus(tx, ctx.tenantId, updated.loadId, ['IN_TRANSIT'], 'DELIVERED', ctx.userId, now);
            if (action === 'cancel') await changeLoadStatus(tx, ctx.tenantId, updated.loadId, ['ASSIGNED'], 'PENDING', ctx.userId, now);
          }
          return updated;
        });
      } catch (err) {
        if (isUniqueViolation(err, 'route_plans_one_active_key')) throw invalidState('Driver already has an ACTIVE route; complete or cancel it first');
        throw err;
      }
    },

    async addPosition(ctx: TenantContext, id: string, p: { latitude: number; longitude: number; recordedAt?: string; speedMph?: number; headingDegrees?: number; fuelLevelPercent?: number }) {
      const now = clock.now();
      const recordedAt = p.recordedAt ? new Date(p.recordedAt) : now;
      if (recordedAt.getTime() > now.getTime() + 60_000) throw invalid('Validation failed', [{ field: 'body.recordedAt', message: 'must not be in the future' }]);
      return db.tenant(ctx.tenantId, async (tx) => {
        const route = await routeFor(tx, ctx, id);
        if (route.status !== 'ACTIVE') throw invalidState(`Positions are recorded for ACTIVE routes; this route is ${route.status}`);
        if (recordedAt.getTime() < Date.parse(route.activatedAt!) - HOUR_MS) {
          throw invalid('Validation failed', [{ field: 'body.recordedAt', message: 'is before the route was activated' }]);
        }
        return insertPosition(tx, ctx.tenantId, { id: newId('position'), routeId: id, ...p, recordedAt, source: ctx.via === 'apiKey' ? 'API' : 'APP' }, now);
      });
    },

    async positions(ctx: TenantContext, id: string, limit: number) {
      return db.tenant(ctx.tenantId, async (tx) => {
        await routeFor(tx, ctx, id);
        return { data: await listPositions(tx, ctx.tenantId, id, limit) };
      });
    },
  };
}
