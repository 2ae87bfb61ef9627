/**
 * Applies a weather sync (issue 9): one `route_signals` row (kind WEATHER) per route and weather
 * integration, its data the route's hazards and weather delay (domain/weather/route-signal.ts), which
 * monitoring reads for SEVERE_WEATHER_IN_PATH, WEATHER_ADVISORY and WEATHER_DELAY. A row is written only
 * when its data changed (a repeated sync leaves it and its observed_at alone). The integration's rows
 * for routes no longer among the sampled points (completed, cancelled) go; rows of routes the vendor
 * call cap left unasked stay as they are.
 */
import type { WeatherSyncResult } from '../../../adapters/integrations/port.js';
import type { Tx } from '../../../db/types.js';
import { routeWeatherSignal, type RoutePointWeather, type RouteWeatherSignal } from '../../../domain/weather/index.js';
import type { ApplyCounts, ApplyTarget } from './types.js';

/** The route's points in sync order, each with its alerts and forecast hazards as one list. */
function pointsByRoute(result: WeatherSyncResult): Map<string, RoutePointWeather[]> {
  const byRoute = new Map<string, RoutePointWeather[]>();
  for (const p of result.points) {
    const hazards = [
      ...p.alerts.map((a) => ({ severity: a.severity, event: a.event, headline: a.headline, startsAt: a.start, endsAt: a.end })),
      ...p.forecastHazards,
    ];
    const list = byRoute.get(p.routeId) ?? [];
    list.push({ latitude: p.latitude, longitude: p.longitude, hazards });
    byRoute.set(p.routeId, list);
  }
  return byRoute;
}

/** JSON with object keys sorted: equal data compare equal whatever order jsonb hands the keys back in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

export async function applyWeather(tx: Tx, target: ApplyTarget, result: WeatherSyncResult, now: Date): Promise<ApplyCounts> {
  const { tenantId, integrationId, vendor } = target;
  const byRoute = pointsByRoute(result);
  const asked = [...byRoute.keys()];
  // A route deleted since the sync began has no row to hold its weather.
  const existing = asked.length === 0 ? new Set<string>() : new Set(
    (await tx.query<{ id: string }>(`SELECT id FROM route_plans WHERE tenant_id = $1 AND id = ANY($2::text[])`, [tenantId, asked])).rows.map((r) => r.id),
  );
  const stored = new Map(
    (await tx.query<{ route_id: string; data: unknown }>(
      `SELECT route_id, data FROM route_signals WHERE tenant_id = $1 AND integration_id = $2 AND kind = 'WEATHER'`,
      [tenantId, integrationId],
    )).rows.map((r) => [r.route_id, typeof r.data === 'string' ? (JSON.parse(r.data) as unknown) : r.data]),
  );

  const counts = { forecastHazards: 0, routesCreated: 0, routesUpdated: 0, routesUnchanged: 0, routesRemoved: 0, routesUncovered: result.uncoveredRouteIds.length };
  for (const p of result.points) counts.forecastHazards += p.forecastHazards.length;
  for (const routeId of asked) {
    if (!existing.has(routeId)) continue;
    const signal: RouteWeatherSignal = routeWeatherSignal(byRoute.get(routeId)!, now.getTime());
    const before = stored.get(routeId);
    if (before !== undefined && canonical(before) === canonical(signal)) {
      counts.routesUnchanged += 1;
      continue;
    }
    await tx.query(
      `INSERT INTO route_signals (tenant_id, route_id, integration_id, kind, source, data, observed_at)
       VALUES ($1, $2, $3, 'WEATHER', $4, $5::jsonb, $6)
       ON CONFLICT (tenant_id, route_id, integration_id, kind) DO UPDATE SET source = EXCLUDED.source, data = EXCLUDED.data, observed_at = EXCLUDED.observed_at`,
      [tenantId, routeId, integrationId, vendor, JSON.stringify(signal), now],
    );
    if (before === undefined) counts.routesCreated += 1;
    else counts.routesUpdated += 1;
  }

  const keep = [...asked.filter((id) => existing.has(id)), ...result.uncoveredRouteIds];
  const removed = await tx.query(
    `DELETE FROM route_signals WHERE tenant_id = $1 AND integration_id = $2 AND kind = 'WEATHER' AND NOT (route_id = ANY($3::text[]))`,
    [tenantId, integrationId, keep],
  );
  counts.routesRemoved = removed.rowCount;
  return counts;
}
