/**
 * What the weather adapters share: which locations to ask a vendor about for the points along the
 * tenant's active routes (a point within ~10 miles of one already asked about shares its answer; a cap
 * on locations per sync, spread over the routes round-robin), asking them a few at a time, and putting
 * the answers back on every route point. Each vendor supplies only `fetchLocation`.
 */
import { haversineMiles, isValidLatLng, type LatLng } from '../../domain/geo/index.js';
import type { SyncContext, WeatherSyncResult } from './port.js';

/** Points closer than this to an asked location share its weather (a forecast grid cell is 1.5–8 miles). */
export const MERGE_WITHIN_MILES = 10;

type RoutePoint = SyncContext['routePoints'][number];
type ResultPoint = WeatherSyncResult['points'][number];
export type LocationWeather = Pick<ResultPoint, 'alerts' | 'forecastHazards'>;

export interface QueryPlan {
  /** Where to ask, rounded to 4 decimals (what NWS accepts; ~11 m). */
  locations: LatLng[];
  /** For each route point (same index), the location whose answer it takes; null: not asked (cap). */
  assignment: (number | null)[];
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Plans the vendor calls for the route points: points are taken round-robin across routes (every
 * route's first point, then every route's second…) so that the cap leaves no route uncovered before
 * each has one location; a point joins the nearest planned location within `mergeWithinMiles`,
 * otherwise it opens a new one while fewer than `maxLocations` are planned.
 */
export function planWeatherQueries(points: readonly RoutePoint[], opts: { maxLocations: number; mergeWithinMiles?: number }): QueryPlan {
  const merge = opts.mergeWithinMiles ?? MERGE_WITHIN_MILES;
  const byRoute = new Map<string, number[]>();
  points.forEach((p, i) => {
    if (!isValidLatLng(p)) return;
    const list = byRoute.get(p.routeId) ?? [];
    list.push(i);
    byRoute.set(p.routeId, list);
  });
  const order: number[] = [];
  const lists = [...byRoute.values()];
  for (let k = 0; lists.some((l) => k < l.length); k++) for (const l of lists) if (k < l.length) order.push(l[k]!);

  const locations: LatLng[] = [];
  const assignment: (number | null)[] = points.map(() => null);
  for (const i of order) {
    const p = points[i]!;
    let best: number | null = null;
    let bestMiles = Number.POSITIVE_INFINITY;
    locations.forEach((loc, j) => {
      const miles = haversineMiles(p, loc);
      if (miles < merge && miles < bestMiles) [best, bestMiles] = [j, miles];
    });
    if (best === null && locations.length < opts.maxLocations) {
      locations.push({ latitude: round4(p.latitude), longitude: round4(p.longitude) });
      best = locations.length - 1;
    }
    assignment[i] = best;
  }
  return { locations, assignment };
}

/**
 * `fn` over the items with at most `limit` running at once, results in item order. The first failure
 * stops starting new ones; it is thrown once those running have settled.
 */
export async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
}

export interface WeatherSyncOptions {
  maxLocations: number;
  concurrency: number;
  mergeWithinMiles?: number;
}

/** Asks the vendor about the planned locations and answers for every covered route point. */
export async function syncWeatherAlongRoutes(
  ctx: SyncContext,
  opts: WeatherSyncOptions,
  fetchLocation: (location: LatLng, signal?: AbortSignal) => Promise<LocationWeather>,
): Promise<WeatherSyncResult> {
  const plan = planWeatherQueries(ctx.routePoints, opts);
  const answers = await mapPool(plan.locations, opts.concurrency, (loc) => fetchLocation(loc, ctx.signal));
  const points: ResultPoint[] = [];
  const covered = new Set<string>();
  ctx.routePoints.forEach((p, i) => {
    const at = plan.assignment[i];
    if (at === null || at === undefined) return;
    covered.add(p.routeId);
    const answer = answers[at]!;
    points.push({ routeId: p.routeId, latitude: p.latitude, longitude: p.longitude, alerts: answer.alerts, forecastHazards: answer.forecastHazards });
  });
  const uncoveredRouteIds = [...new Set(ctx.routePoints.map((p) => p.routeId))].filter((id) => !covered.has(id));
  return { kind: 'WEATHER', points, uncoveredRouteIds };
}
