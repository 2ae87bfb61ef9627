/**
 * DistanceProvider over an OSRM-compatible HTTP service (OSRM_URL):
 *   GET {base}/route/v1/{profile}/{lon},{lat};{lon},{lat}…?overview=full&geometries=geojson&steps=false&annotations=distance
 * Every request is bounded by one deadline covering connect, headers and body (default 10 s), so a
 * service that accepts the connection and never answers fails the plan instead of hanging it.
 */
import type { LatLng } from '../../../domain/geo/index.js';
import { type DistanceProvider, DistanceProviderError, type Leg } from '../distance.port.js';
import { assertValidPoints } from '../haversine.js';
import { legsFromOsrmResponse, osrmError } from './osrm.normalize.js';

export interface OsrmClientOptions {
  /** e.g. "http://localhost:5000" or a prefix such as "https://maps.internal/osrm". */
  baseUrl: string;
  /** The profile segment of the URL; OSRM serves whatever profile it was built with under any name. */
  profile?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const OSRM_DEFAULT_TIMEOUT_MS = 10_000;
/** osrm-routed's default --max-viaroute-size. */
export const OSRM_MAX_POINTS = 500;

export function createOsrmClient(options: OsrmClientOptions): DistanceProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const profile = options.profile ?? 'driving';
  const timeoutMs = options.timeoutMs ?? OSRM_DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  return {
    method: 'osrm',
    async legs(points: readonly LatLng[]): Promise<Leg[]> {
      if (points.length < 2) return [];
      assertValidPoints(points);
      if (points.length > OSRM_MAX_POINTS) {
        throw new DistanceProviderError('INVALID_INPUT', `At most ${OSRM_MAX_POINTS} points per route (got ${points.length})`);
      }
      const url = routeUrl(base, profile, points);
      const signal = AbortSignal.timeout(timeoutMs);
      let status: number;
      let body: unknown;
      try {
        const response = await doFetch(url, { signal, headers: { accept: 'application/json' } });
        status = response.status;
        const text = await response.text(); // the same signal bounds the body
        body = parseJson(text);
        if (body === undefined) {
          throw new DistanceProviderError(status >= 500 ? 'UNAVAILABLE' : 'BAD_RESPONSE', `OSRM answered HTTP ${status} without JSON`, {
            httpStatus: status,
          });
        }
      } catch (err) {
        if (err instanceof DistanceProviderError) throw err;
        if (signal.aborted) throw new DistanceProviderError('TIMEOUT', `OSRM did not answer within ${timeoutMs} ms`);
        throw new DistanceProviderError('UNAVAILABLE', `OSRM unreachable: ${(err as Error).cause ?? (err as Error).message}`);
      }
      const code = (body as { code?: unknown }).code;
      if (typeof code === 'string' && code !== 'Ok') throw osrmError(code, (body as { message?: string }).message, status);
      if (status !== 200) throw new DistanceProviderError('UNAVAILABLE', `OSRM answered HTTP ${status}`, { httpStatus: status });
      return legsFromOsrmResponse(body, points.length);
    },
  };
}

export function routeUrl(base: string, profile: string, points: readonly LatLng[]): string {
  const coordinates = points.map((p) => `${p.longitude.toFixed(6)},${p.latitude.toFixed(6)}`).join(';');
  return `${base}/route/v1/${encodeURIComponent(profile)}/${coordinates}?overview=full&geometries=geojson&steps=false&annotations=distance`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
