/**
 * Weather integration test support: an active route with sampled points, and — while the sync worker
 * does not yet fill `SyncContext.routePoints` — an adapter wrapper that supplies the points of the
 * routes of the tenant being synced (recognised by its drivers) when the worker gave none.
 */
import type { IntegrationAdapter, SyncContext } from '../../src/adapters/integrations/port.js';
import { createActiveRoute } from './factories.js';
import type { IntegrationHarness } from './integrations.js';

type RoutePoint = SyncContext['routePoints'][number];

/** Dallas → Oklahoma City as createActiveRoute plans it: its ends and a midpoint (about 95 miles apart each). */
export const DALLAS = { latitude: 32.7767, longitude: -96.797 };
export const MIDWAY = { latitude: 34.1222, longitude: -97.1567 };
export const OKLAHOMA_CITY = { latitude: 35.4676, longitude: -97.5164 };

export class RoutePointsShim {
  /** Points by the route's driver id. */
  readonly byDriver = new Map<string, RoutePoint[]>();

  wrap<A extends IntegrationAdapter>(adapter: A): IntegrationAdapter {
    return {
      info: adapter.info,
      validateConfig: (config) => adapter.validateConfig(config),
      test: (config, signal) => adapter.test(config, signal),
      sync: (config, ctx) => adapter.sync(config, ctx.routePoints.length > 0 ? ctx : { ...ctx, routePoints: ctx.drivers.flatMap((d) => this.byDriver.get(d.id) ?? []) }),
    };
  }
}

/** An active Dallas → Oklahoma City route sampled at `points` (default: both ends and the midpoint). */
export async function activeRouteWithPoints(h: IntegrationHarness, shim: RoutePointsShim, points = [DALLAS, MIDWAY, OKLAHOMA_CITY]): Promise<{ routeId: string; driverId: string }> {
  const { routeId, driverId } = await createActiveRoute(h.t.app, h.auth, { departureTime: h.t.clock.now().toISOString() });
  shim.byDriver.set(driverId, points.map((p) => ({ routeId, ...p })));
  return { routeId, driverId };
}

/** The integration's WEATHER row for the route, as stored (null when none). */
export async function weatherRow(h: IntegrationHarness, routeId: string, integrationId: string): Promise<{ source: string; data: unknown; observedAt: string } | null> {
  const { rows } = await h.t.db.system((tx) =>
    tx.query<{ source: string; data: unknown; observed_at: Date | string }>(
      `SELECT source, data, observed_at FROM route_signals WHERE route_id = $1 AND integration_id = $2 AND kind = 'WEATHER'`,
      [routeId, integrationId],
    ),
  );
  const r = rows[0];
  if (r === undefined) return null;
  return { source: r.source, data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data, observedAt: new Date(r.observed_at).toISOString() };
}
