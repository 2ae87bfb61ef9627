import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { emitEvent } from '../../db/outbox.js';
import { HOUR_MS } from '../../domain/hos/types.js';
import { invalid, invalidState, isUniqueViolation, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import { findDriver } from '../drivers/drivers.repository.js';
import { endMonitoring, startMonitoring } from '../monitoring/monitoring.service.js';
import type { PlanningPorts } from './planning-ports.js';
import { asksFuelVendor, fuelOptions, IN_PROCESS_DISTANCE_METHODS, orderedStops, planBookingWarnings, planInputOf, planOrExplain, readPlanningContext, roadLegs, saveRoute, type PlannedRoute, type PlanningContext, type PlanRequest } from './routes.planning.js';
import { changeLoadStatus, findVehicleForPlan, insertPosition, listPositions, stopPredictions } from './routes.related.js';
import { findRoute, listRoutes, setRouteStatus, type RouteRecord, type RouteStatus } from './routes.repository.js';
import { PLAN_DEFAULTS } from './routes.schemas.js';
import { replanning } from './routes.replan.js';

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
      // The driver's or the co-driver's own.
      const drivers = await Promise.all([route.driverId, route.coDriverId].filter((d): d is string => d !== null).map((d) => findDriver(tx, ctx.tenantId, d)));
      if (!drivers.some((d) => d?.userId === ctx.userId)) throw notFound('Route');
    }
    return route;
  }

  const replans = replanning(deps, ports, routeFor);

  /**
   * A route starts only when its driver (and co-driver) are ACTIVE and drive no other ACTIVE route: a
   * refusal names the driver and the route in the way (its id in the error's details, for a link).
   */
  async function assertFreeToStart(tx: Tx, ctx: TenantContext, route: RouteRecord): Promise<void> {
    const nameOf = (d: { firstName: string; lastName: string }) => `${d.firstName} ${d.lastName}`;
    for (const [field, id] of [['driverId', route.driverId], ['coDriverId', route.coDriverId]] as const) {
      if (id === null) continue;
      const who = await findDriver(tx, ctx.tenantId, id);
      if (who?.status !== 'ACTIVE') throw invalidState(`${who ? nameOf(who) : field === 'driverId' ? 'The driver' : 'The co-driver'} is ${who?.status ?? 'missing'}; only ACTIVE drivers can start a route`);
      const { rows } = await tx.query<{ id: string; origin: string; destination: string }>(
        `SELECT id, stops->0->>'name' AS origin, stops->-1->>'name' AS destination FROM route_plans
          WHERE tenant_id = $1 AND status = 'ACTIVE' AND (driver_id = $2 OR co_driver_id = $2) AND id <> $3 LIMIT 1`,
        [ctx.tenantId, id, route.id],
      );
      const other = rows[0];
      if (other) {
        const message = `${nameOf(who)} is already driving the active route ${other.origin} → ${other.destination}; complete or cancel it first`;
        throw invalidState(message, [{ field: `route.${field}`, message, routeId: other.id }]);
      }
    }
  }

  return {
    replan: replans.replan,
    revisions: replans.revisions,
    revision: replans.revision,

    /**
     * Plans a route: reads and checks the assignees, orders the stops, measures the legs, prices the
     * fuel, runs the planner, and stores the plan (PLANNED) with its event.
     */
    async plan(ctx: TenantContext, body: PlanRequest): Promise<PlannedRoute> {
      const now = clock.now();
      const departure = body.departureTime ? Date.parse(body.departureTime) : now.getTime();
      const opts = body.options ?? {};
      const method = opts.distanceMethod ?? deps.config.distanceMethod;
      const route = async (context: PlanningContext) => {
        const stops = orderedStops(body.stops, context.load, opts, ports, departure);
        const road = await roadLegs(deps, ports, stops, method);
        const fuel = await fuelOptions(ports, ctx.tenantId, opts, context.vehicle, road.legs, context.fuelIntegrations);
        const plan = planOrExplain(planInputOf(body, context, stops, road.legs, fuel.options, departure, ports));
        plan.warnings.unshift(...road.warnings, ...fuel.warnings);
        plan.warnings.push(...planBookingWarnings(context, plan, stops[0]!, ports));
        return { driverId: context.driver.id, coDriverId: context.coDriver?.id ?? null, vehicleId: context.vehicle?.id ?? null, loadId: context.load?.id ?? null, distanceMethod: road.distanceMethod, request: body as unknown as Record<string, unknown>, plan };
      };
      // One transaction when nothing between the read and the write waits on another service (distances
      // computed here, no fuel vendor to ask): three round trips fewer, the largest cost of a plan on
      // PostgreSQL after the planner (bench/README.md). Otherwise the read and the write are two short
      // transactions, so that no connection is held while a mapping service or a fuel vendor answers.
      const first = await db.tenant(ctx.tenantId, async (tx): Promise<{ saved: PlannedRoute } | { context: PlanningContext }> => {
        const context = await readPlanningContext(tx, ctx.tenantId, body, departure);
        if (!IN_PROCESS_DISTANCE_METHODS.has(method) || asksFuelVendor(opts, context.fuelIntegrations)) return { context };
        return { saved: await saveRoute(tx, ctx, await route(context), now) };
      });
      if ('saved' in first) return first.saved;
      const planned = await route(first.context);
      return db.tenant(ctx.tenantId, (tx) => saveRoute(tx, ctx, planned, now));
    },

    /** The route; an ACTIVE one's stops carry the visibility provider's newest predicted arrival (or null). */
    async get(ctx: TenantContext, id: string): Promise<RouteRecord> {
      return db.tenant(ctx.tenantId, async (tx) => {
        const route = await routeFor(tx, ctx, id);
        if (route.status !== 'ACTIVE') return route;
        const predictions = await stopPredictions(tx, ctx.tenantId, route.id);
        return { ...route, stops: route.stops.map((s, i) => ({ ...s, prediction: predictions.get(i) ?? null })) };
      });
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
          if (action === 'activate') await assertFreeToStart(tx, ctx, route);
          const updated = await setRouteStatus(tx, ctx.tenantId, id, rule.to, now, reason);
          const vehicle = updated.vehicleId ? await findVehicleForPlan(tx, ctx.tenantId, updated.vehicleId) : null;
          const payload: Record<string, unknown> = { planId: updated.id, status: updated.status, driverId: updated.driverId, coDriverId: updated.coDriverId };
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
        // Another activation of the same driver won the race: said as the check says it, now that it can see that route.
        if (isUniqueViolation(err, 'route_plans_one_active_key') || isUniqueViolation(err, 'route_plans_one_active_co_key')) {
          await db.tenant(ctx.tenantId, async (tx) => assertFreeToStart(tx, ctx, await routeFor(tx, ctx, id)));
          throw invalidState('The driver or co-driver of this route is already driving another active route; complete or cancel it first');
        }
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

