/**
 * Re-planning an ACTIVE route from its live state (issue 19): from the truck's last reported position
 * (or one given) and the driver's clocks now (the ELD's when fresh, else the duty-status log), the stops
 * not yet completed are planned again with the route's own options (overridable). A preview changes
 * nothing; otherwise the new plan becomes the route's current one, the old one is kept as a revision,
 * `route.replanned` goes out, and monitoring checks the route at its next pass against the new plan.
 */
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { emitEvent } from '../../db/outbox.js';
import { mergeReplan, progressOn, remainingStops, replanChanges, type ReplanChanges } from '../../domain/dispatch/replan.js';
import type { PlanStop } from '../../domain/planning/types.js';
import { invalid, invalidState, notFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/rows.js';
import type { TenantContext } from '../../plugins/context.js';
import { planningHistory } from '../hos/hos.service.js';
import { startMonitoring } from '../monitoring/monitoring.service.js';
import type { PlanningPorts } from './planning-ports.js';
import { fuelOptions, planOrExplain, roadLegs, type PlanRequest } from './routes.planning.js';
import { findVehicleForPlan, listPositions, restSitesAndFuel } from './routes.related.js';
import { toRoute, type RouteRecord } from './routes.repository.js';
import { PLAN_DEFAULTS } from './routes.schemas.js';

type PlanOptions = NonNullable<PlanRequest['options']>;

export interface ReplanRequest {
  preview?: boolean;
  reason?: string;
  /** Where the truck is, when it is not (yet) reported: default the last reported position. */
  position?: { latitude: number; longitude: number };
  /** The index of the first stop not yet completed; default: from the position on the plan. */
  nextStop?: number;
  options?: Omit<PlanOptions, 'optimizeStopOrder'>;
}

export interface ReplanAnswer {
  preview: boolean;
  route: RouteRecord;
  changes: ReplanChanges;
  start: {
    latitude: number;
    longitude: number;
    name: string;
    source: 'POSITION' | 'REQUEST';
    recordedAt: string;
    completedStops: number;
    offPlanMiles: number;
    clocks: { source: string; hoursDriven: number; onDutyHours: number; hoursSinceBreak: number; cycleHoursUsed: number };
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The route's own options, as planned, with the body's on top (the fuel at departure is never carried over). */
function replanOptions(stored: Record<string, unknown>, body: ReplanRequest): PlanOptions {
  const original = (stored.options ?? {}) as PlanOptions;
  const { startingFuelGallons: _departureFuel, optimizeStopOrder: _order, ...kept } = original;
  return { ...kept, ...(body.options ?? {}) };
}

/** Two drivers' names ("first last"), in the order asked. */
async function driverNames(tx: Tx, tenantId: string, ids: [string, string]): Promise<[string, string]> {
  const { rows } = await tx.query<{ id: string; first_name: string; last_name: string }>('SELECT id, first_name, last_name FROM drivers WHERE tenant_id = $1 AND id = ANY($2::text[])', [tenantId, ids]);
  const name = (id: string) => {
    const r = rows.find((x) => x.id === id);
    return r ? `${r.first_name} ${r.last_name}` : id;
  };
  return [name(ids[0]), name(ids[1])];
}

export function replanning(deps: Deps, ports: PlanningPorts, routeFor: (tx: Tx, ctx: TenantContext, id: string, forUpdate?: boolean) => Promise<RouteRecord>) {
  const { db, clock } = deps;

  return {
    async replan(ctx: TenantContext, id: string, body: ReplanRequest): Promise<ReplanAnswer> {
      const now = clock.now();
      const read = await db.tenant(ctx.tenantId, async (tx) => {
        const route = await routeFor(tx, ctx, id);
        if (route.status === 'PLANNED') throw invalidState('Only ACTIVE routes are re-planned; a PLANNED route is simply planned again (cancel it and POST /routes/plan)');
        if (route.status !== 'ACTIVE') throw invalidState(`Only ACTIVE routes are re-planned; this route is ${route.status}`);
        const { rows } = await tx.query<{ request: unknown }>('SELECT request FROM route_plans WHERE tenant_id = $1 AND id = $2', [ctx.tenantId, id]);
        const request = typeof rows[0]!.request === 'string' ? (JSON.parse(rows[0]!.request) as Record<string, unknown>) : (rows[0]!.request as Record<string, unknown>);
        const [last] = await listPositions(tx, ctx.tenantId, id, 1);
        const vehicle = route.vehicleId ? await findVehicleForPlan(tx, ctx.tenantId, route.vehicleId) : null;
        const history = await planningHistory(tx, ctx.tenantId, route.driverId, now.getTime());
        const coHistory = route.coDriverId ? await planningHistory(tx, ctx.tenantId, route.coDriverId, now.getTime()) : null;
        const team = route.coDriverId ? await driverNames(tx, ctx.tenantId, [route.driverId, route.coDriverId]) : null;
        const sites = await restSitesAndFuel(tx, ctx.tenantId);
        return { route, request, last: last ?? null, vehicle, history, coHistory, team, ...sites };
      });
      const { route, last } = read;
      const position = body.position
        ? { ...body.position, at: now.getTime(), source: 'REQUEST' as const, fuelLevelPercent: null }
        : last
          ? { latitude: last.latitude, longitude: last.longitude, at: Date.parse(last.recordedAt), source: 'POSITION' as const, fuelLevelPercent: last.fuelLevelPercent }
          : null;
      if (!position) throw invalid('No position has been reported for this route; give the truck’s position in the body (position: {latitude, longitude})', [{ field: 'body.position', message: 'required: no position has been reported for this route' }]);
      if (body.nextStop !== undefined && body.nextStop >= route.stops.length) {
        throw invalid('Validation failed', [{ field: 'body.nextStop', message: `the route has ${route.stops.length} stops (0 to ${route.stops.length - 1})` }]);
      }
      const progress = progressOn(route, position, body.nextStop);
      if (progress.completed >= route.stops.length) throw invalidState('The truck has reached every stop of this route: nothing is left to re-plan (complete the route)');

      const opts = replanOptions(read.request, body);
      const method = opts.distanceMethod ?? route.distanceMethod as NonNullable<PlanOptions['distanceMethod']>;
      const point = { latitude: position.latitude, longitude: position.longitude };
      const origin: PlanStop = { name: ports.nameNear(point), ...point, type: 'ORIGIN', dockDurationHours: 0 };
      const stops = [origin, ...remainingStops(route, progress.completed)];
      const road = await roadLegs(deps, ports, stops, method);
      const tank = opts.fuelTankGallons ?? read.vehicle?.fuelTankGallons ?? PLAN_DEFAULTS.fuelTankGallons;
      const warnings: string[] = [];
      if (opts.startingFuelGallons === undefined) {
        if (position.fuelLevelPercent !== null) opts.startingFuelGallons = round2((tank * position.fuelLevelPercent) / 100);
        else warnings.push('The fuel on board is not known (no fuel level reported with the position): a full tank is assumed; give the fuel on board to plan from it');
      }
      const fuel = await fuelOptions(ports, ctx.tenantId, opts, read.vehicle, road.legs, read.fuelIntegrations);
      const fresh = planOrExplain({
        departureTime: now.getTime(),
        stops,
        legs: road.legs,
        rules: read.history.rules,
        history: read.history.history,
        averageSpeedMph: opts.averageSpeedMph ?? PLAN_DEFAULTS.averageSpeedMph,
        fuel: fuel.options,
        restSites: read.sites,
        nameNear: ports.nameNear,
        ...(route.coDriverId && read.coHistory && read.team
          ? { team: { driverIds: [route.driverId, route.coDriverId] as [string, string], driverNames: read.team, coDriverHistory: read.coHistory.history } }
          : {}),
      });
      fresh.warnings.unshift(...road.warnings, ...fuel.warnings, ...warnings);
      const merged = mergeReplan(route, progress.completed, fresh);
      const changes = replanChanges(route, progress, fresh);
      const c = read.history.clocks;
      const start: ReplanAnswer['start'] = {
        ...point,
        name: origin.name,
        source: position.source,
        recordedAt: new Date(position.at).toISOString(),
        completedStops: progress.completed,
        offPlanMiles: round2(progress.offPathMiles),
        clocks: { source: read.history.source, hoursDriven: round2(c.hoursDriven), onDutyHours: round2(c.onDutyHours), hoursSinceBreak: round2(c.hoursSinceBreak), cycleHoursUsed: round2(c.cycleHoursUsed) },
      };
      const summary = { ...merged.summary, distanceMethod: road.distanceMethod };
      const next: RouteRecord = {
        ...route,
        arrivalTime: merged.arrivalTime,
        distanceMethod: road.distanceMethod,
        summary,
        stops: merged.stops,
        segments: merged.segments,
        warnings: fresh.warnings,
        updatedAt: now.toISOString(),
        revision: route.revision + 1,
        revisedAt: now.toISOString(),
        revisedBy: ctx.userId,
        revisionReason: body.reason ?? null,
      };
      if (body.preview) return { preview: true, route: next, changes, start };

      const saved = await db.tenant(ctx.tenantId, async (tx) => {
        const current = await routeFor(tx, ctx, id, true);
        if (current.status !== 'ACTIVE') throw invalidState(`The route became ${current.status} while it was re-planned; nothing was changed`);
        if (current.revision !== route.revision) throw invalidState(`The route was re-planned by someone else meanwhile (now revision ${current.revision}); nothing was changed — re-plan again`);
        await tx.query(
          `INSERT INTO route_revisions (tenant_id, route_id, revision, created_at, created_by, reason, departure_time, arrival_time, distance_method,
                                        request, summary, stops, segments, superseded_at)
           SELECT tenant_id, id, revision, coalesce(revised_at, created_at), coalesce(revised_by, created_by), revision_reason, departure_time, arrival_time, distance_method,
                  request, summary, stops, segments, $3
             FROM route_plans WHERE tenant_id = $1 AND id = $2`,
          [ctx.tenantId, id, now],
        );
        const request = { ...read.request, options: { ...opts, distanceMethod: opts.distanceMethod }, warnings: fresh.warnings };
        if (opts.distanceMethod === undefined) delete (request.options as Record<string, unknown>).distanceMethod;
        const { rows } = await tx.query(
          `UPDATE route_plans SET arrival_time = $3, distance_method = $4, request = $5, summary = $6, stops = $7, segments = $8,
                  revision = revision + 1, revised_at = $9, revised_by = $10, revision_reason = $11, updated_at = $9
            WHERE tenant_id = $1 AND id = $2 RETURNING *`,
          [ctx.tenantId, id, merged.arrivalTime, road.distanceMethod, JSON.stringify(request), JSON.stringify(summary), JSON.stringify(merged.stops), JSON.stringify(merged.segments), now, ctx.userId, body.reason ?? null],
        );
        const updated = toRoute(rows[0]!);
        await emitEvent(
          tx,
          ctx.tenantId,
          'route.replanned',
          {
            planId: id,
            status: 'ACTIVE',
            revision: updated.revision,
            driverId: updated.driverId,
            coDriverId: updated.coDriverId,
            vehicleId: updated.vehicleId,
            loadId: updated.loadId,
            reason: body.reason ?? null,
            replannedBy: ctx.userId,
            replannedAt: now.toISOString(),
            previousArrivalTime: route.arrivalTime,
            arrivalTime: updated.arrivalTime,
            start: { latitude: start.latitude, longitude: start.longitude, name: start.name, source: start.source, recordedAt: start.recordedAt },
            stops: changes.stops.map((s) => ({ index: s.index, name: s.name, oldArrivalTime: s.oldArrivalTime, newArrivalTime: s.newArrivalTime, outcome: s.outcome })),
            summary: updated.summary,
          },
          now,
        );
        // Monitoring checks the route against its new plan at the next pass (alerts about the old one re-evaluated then).
        await startMonitoring(tx, ctx.tenantId, id, now);
        return updated;
      });
      return { preview: false, route: saved, changes, start };
    },

    async revisions(ctx: TenantContext, id: string) {
      return db.tenant(ctx.tenantId, async (tx) => {
        const route = await routeFor(tx, ctx, id);
        const { rows } = await tx.query<Record<string, unknown>>(
          `SELECT v.revision, v.created_at, v.created_by, v.reason, v.departure_time, v.arrival_time, v.summary, v.stops, v.superseded_at,
                  u.first_name, u.last_name
             FROM route_revisions v LEFT JOIN users u ON u.tenant_id = v.tenant_id AND u.id = v.created_by
            WHERE v.tenant_id = $1 AND v.route_id = $2 ORDER BY v.revision`,
          [ctx.tenantId, id],
        );
        const { rows: who } = await tx.query<{ created_by: string | null; first_name: string | null; last_name: string | null }>(
          `SELECT r.created_by, u.first_name, u.last_name FROM route_plans r LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = coalesce(r.revised_by, r.created_by)
            WHERE r.tenant_id = $1 AND r.id = $2`,
          [ctx.tenantId, id],
        );
        const name = (r: { first_name?: unknown; last_name?: unknown }) => (r.first_name ? `${r.first_name as string} ${r.last_name as string}` : null);
        const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
        const superseded = rows.map((r) => ({
          revision: Number(r.revision),
          current: false,
          createdAt: iso(r.created_at),
          createdBy: (r.created_by as string | null) ?? null,
          createdByName: name(r),
          reason: (r.reason as string | null) ?? null,
          departureTime: iso(r.departure_time),
          arrivalTime: iso(r.arrival_time),
          supersededAt: isoOrNull(r.superseded_at),
          summary: json<RouteRecord['summary']>(r.summary),
          stops: json<RouteRecord['stops']>(r.stops),
        }));
        const current = {
          revision: route.revision,
          current: true,
          createdAt: route.revisedAt ?? route.createdAt,
          createdBy: route.revisedBy ?? who[0]?.created_by ?? null,
          createdByName: who[0] ? name(who[0]) : null,
          reason: route.revisionReason,
          departureTime: route.departureTime,
          arrivalTime: route.arrivalTime,
          supersededAt: null,
          summary: route.summary,
          stops: route.stops,
        };
        return { data: [...superseded, current] };
      });
    },

    async revision(ctx: TenantContext, id: string, revision: number): Promise<RouteRecord> {
      return db.tenant(ctx.tenantId, async (tx) => {
        const route = await routeFor(tx, ctx, id);
        if (revision === route.revision) return route;
        // The route as it is, with that revision's plan (and who made it, why) in place of the current one.
        const { rows } = await tx.query<Record<string, unknown>>(
          `SELECT p.id, p.status, p.driver_id, p.co_driver_id, p.vehicle_id, p.load_id, p.created_at, p.updated_at, p.activated_at, p.completed_at, p.cancelled_at, p.cancel_reason,
                  v.revision, v.departure_time, v.arrival_time, v.distance_method, v.request, v.summary, v.stops, v.segments, v.reason AS revision_reason,
                  CASE WHEN v.revision = 1 THEN NULL ELSE v.created_at END AS revised_at, CASE WHEN v.revision = 1 THEN NULL ELSE v.created_by END AS revised_by
             FROM route_revisions v JOIN route_plans p ON p.tenant_id = v.tenant_id AND p.id = v.route_id
            WHERE v.tenant_id = $1 AND v.route_id = $2 AND v.revision = $3`,
          [ctx.tenantId, id, revision],
        );
        if (!rows[0]) throw notFound('Revision');
        return toRoute(rows[0]);
      });
    },
  };
}
