/**
 * Weather integration test support: an active route through the API, a wrapper that records the sync
 * contexts an adapter was given (the route points the worker sampled), and the stored WEATHER row.
 */
import type { IntegrationAdapter, SyncContext } from '../../src/adapters/integrations/port.js';
import { createActiveRoute } from './factories.js';
import type { IntegrationHarness } from './integrations.js';

type RoutePoint = SyncContext['routePoints'][number];

/** Records the sync contexts of the adapters it wraps (newest last). */
export class SyncContextSpy {
  readonly contexts: SyncContext[] = [];

  wrap(adapter: IntegrationAdapter): IntegrationAdapter {
    return {
      info: adapter.info,
      validateConfig: (config) => adapter.validateConfig(config),
      test: (config, signal) => adapter.test(config, signal),
      sync: (config, ctx) => {
        this.contexts.push(ctx);
        return adapter.sync(config, ctx);
      },
    };
  }

  /** The points of the route in the latest sync that had any. */
  pointsOf(routeId: string): RoutePoint[] {
    for (let i = this.contexts.length - 1; i >= 0; i--) {
      const points = this.contexts[i]!.routePoints.filter((p) => p.routeId === routeId);
      if (points.length > 0) return points;
    }
    return [];
  }
}

/** An active Dallas → Oklahoma City route (createActiveRoute) departing now. */
export async function activeRoute(h: IntegrationHarness): Promise<{ routeId: string; driverId: string }> {
  const { routeId, driverId } = await createActiveRoute(h.t.app, h.auth, { departureTime: h.t.clock.now().toISOString() });
  return { routeId, driverId };
}

export const OKLAHOMA_CITY = { latitude: 35.4676, longitude: -97.5164 };

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
