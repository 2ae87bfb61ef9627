/**
 * HERE Fuel Prices adapter (vendor key `here`): diesel prices at stations within a radius of points
 * along the tenant's active routes, normalized into FuelSyncResult; it also answers the route planner
 * directly (`stationsNear`).
 *
 * Why HERE: of the candidates it is the one with a publicly documented REST API for station prices near
 * a point. TomTom's Fuel Prices API (`/search/2/fuelPrice.json?fuelPrice=<id>`) prices one station at a
 * time by an id taken from a separate POI search, and is sold to automotive customers only; OPIS
 * publishes no self-serve API reference.
 *
 * Verified against HERE's developer guide (developer.here.com/documentation/fuel-prices, docs.here.com/
 * fuel-prices): the `stations` resource, `GET https://fuel.hereapi.com/v3/stations` (v2:
 * `https://fuel-v2.cc.api.here.com/fuel/stations.json`); auth by the `apiKey` query parameter; the
 * search circle `prox=<lat>,<lng>,<radius in metres>`; `fueltype=1` is diesel (2 regular, 3 mid-grade,
 * 4 premium); `maxresults` and `offset` page the results; the answer `{hasMore, fuelStations
 * {fuelStation[]}}`, each station with a mandatory `id` and `position`, optional `name`, `brand`,
 * `address {city, region, …}`, `distance` (metres, with prox) and `fuelPrice[] {price, fuelType, unit,
 * currency, lastUpdateTimestamp}`; a price may be absent (HERE only knows the fuel is sold there);
 * station ids "change without notice". A `corridor` search (points + width) also exists; we use prox
 * because the spec's setting is a radius.
 * Assumed (not found in the public docs): the JSON field names of `position` (`latitude`, `longitude`,
 * as in the guide's PositionType); the unit code for US prices (we accept gallon and litre spellings and
 * convert litres); 401/403 for a bad key and 429 when rate limited (mapped like every vendor); the
 * largest radius HERE accepts (we cap searchRadiusMiles at 50).
 */
import { syncIntervalProblem } from '../config-checks.js';
import { haversineMiles } from '../../../domain/geo/index.js';
import { VendorHttpClient, type AdapterHttpOptions } from '../http.js';
import {
  IntegrationError,
  type ConnectionTestResult,
  type FuelAdapter,
  type FuelStationPrice,
  type FuelSyncResult,
  type IntegrationErrorCode,
  type SyncContext,
  type VendorInfo,
} from '../port.js';
import { HERE_DIESEL, mapStations, type HereFuelStation, type HereStationsResponse } from './mapping.js';

export const HERE_DEFAULT_BASE_URL = 'https://fuel.hereapi.com/v3';
export const HERE_API_VERSION = 'v3';
export const DEFAULT_SEARCH_RADIUS_MILES = 30;
export const MAX_SEARCH_RADIUS_MILES = 50;
const METRES_PER_MILE = 1609.344;
/** Results per request, and how many pages one circle may take. */
const PAGE_SIZE = 50;
const MAX_PAGES_PER_POINT = 10;
/** Circles asked at once (a route's worth of points comes back within the planner's short wait). */
const CONCURRENCY = 4;
/** The connection test asks for one station near this point (Dallas, TX): a cheap, harmless call. */
export const PROBE_POINT = { latitude: 32.7767, longitude: -96.797 };

/** The HTTP client's options; `baseUrl` defaults to https://fuel.hereapi.com/v3; the app passes HERE_BASE_URL (config.ts) when set. */
export type HereAdapterOptions = AdapterHttpOptions;

/** The radius to search around each point, from the config (miles). */
export function searchRadiusMiles(config: Record<string, unknown>): number {
  const r = config.searchRadiusMiles;
  return typeof r === 'number' && Number.isFinite(r) ? r : DEFAULT_SEARCH_RADIUS_MILES;
}

/**
 * The points worth a request: a point within `radiusMiles` of one already kept adds little, so it is
 * skipped (route points come every ~50 miles; several routes may share a highway).
 */
export function thinPoints(points: readonly { latitude: number; longitude: number }[], radiusMiles: number): { latitude: number; longitude: number }[] {
  const kept: { latitude: number; longitude: number }[] = [];
  for (const p of points) {
    if (!Number.isFinite(p.latitude) || !Number.isFinite(p.longitude)) continue;
    if (kept.some((k) => haversineMiles(k, p) < radiusMiles)) continue;
    kept.push({ latitude: p.latitude, longitude: p.longitude });
  }
  return kept;
}

export class HereFuelAdapter implements FuelAdapter {
  readonly info: VendorInfo = {
    vendor: 'here',
    name: 'HERE Fuel Prices',
    category: 'FUEL',
    description: 'HERE Fuel Prices: diesel prices at stations near the routes, for fuel-stop optimization.',
    requiredFields: ['apiKey'],
    optionalFields: ['searchRadiusMiles', 'syncIntervalMinutes'],
    defaultSyncInterval: 360,
    documentationUrl: 'https://developer.here.com/documentation/fuel-prices/dev_guide/topics/resource-stations.html',
    secretFields: ['apiKey'],
  };

  private readonly baseUrl: string;

  constructor(private readonly options: HereAdapterOptions = {}) {
    this.baseUrl = options.baseUrl ?? HERE_DEFAULT_BASE_URL;
  }

  validateConfig(config: Record<string, unknown>): string[] {
    const problems: string[] = [];
    const key = config.apiKey;
    if (typeof key !== 'string' || key.trim() === '') problems.push('apiKey: required, a HERE API key');
    else if (!/^[A-Za-z0-9_-]{20,512}$/.test(key)) problems.push('apiKey: 20 to 512 letters, digits, - or _');
    const radius = config.searchRadiusMiles;
    if (radius !== undefined && (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 1 || radius > MAX_SEARCH_RADIUS_MILES)) {
      problems.push(`searchRadiusMiles: a number of miles from 1 to ${MAX_SEARCH_RADIUS_MILES}`);
    }
    const interval = syncIntervalProblem(config, 15);
    if (interval) problems.push(interval);
    return problems;
  }

  async test(config: Record<string, unknown>, signal?: AbortSignal): Promise<ConnectionTestResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) return failure('INVALID_CONFIG', problems.join('; '));
    const clock = this.options.monotonicNow ?? (() => performance.now());
    const started = clock();
    try {
      const radius = searchRadiusMiles(config);
      const body = await this.client(config).getJson<HereStationsResponse>('/stations', this.query(PROBE_POINT, radius, PAGE_SIZE, 0), signal);
      const found = stationsOf(body);
      const latency = Math.round(clock() - started);
      return {
        ok: true,
        message: 'Connected to HERE Fuel Prices',
        details: { dieselStationsNearProbe: found.length, moreNearProbe: body.hasMore === true, searchRadiusMiles: radius, apiVersion: HERE_API_VERSION, latency: `${latency} ms` },
      };
    } catch (err) {
      if (err instanceof IntegrationError) return failure(err.code, err.details);
      if (signal?.aborted) throw err;
      return failure('VENDOR_ERROR', 'unexpected failure talking to HERE');
    }
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<FuelSyncResult> {
    return { kind: 'FUEL', stations: await this.stationsNear(config, ctx.routePoints, ctx.signal) };
  }

  async stationsNear(config: Record<string, unknown>, points: readonly { latitude: number; longitude: number }[], signal?: AbortSignal): Promise<FuelStationPrice[]> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) throw new IntegrationError('INVALID_CONFIG', problems.join('; '));
    const radius = searchRadiusMiles(config);
    const circles = thinPoints(points, radius);
    const client = this.client(config);
    const raw: HereFuelStation[] = [];
    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      while (next < circles.length && !failed) {
        const centre = circles[next++]!;
        try {
          raw.push(...(await this.circle(client, centre, radius, signal)));
        } catch (err) {
          failed = true; // the other workers stop asking: the answer is a failure anyway
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, circles.length) }, worker));
    try {
      // Stable order whatever the order the answers arrived in.
      return mapStations(raw.sort((a, b) => String(a.id).localeCompare(String(b.id)))).stations;
    } catch {
      throw new IntegrationError('VENDOR_ERROR', 'HERE answered with an unexpected payload shape');
    }
  }

  /** Every diesel station in one circle, page by page. */
  private async circle(client: VendorHttpClient, centre: { latitude: number; longitude: number }, radius: number, signal?: AbortSignal): Promise<HereFuelStation[]> {
    const out: HereFuelStation[] = [];
    for (let page = 0; page < MAX_PAGES_PER_POINT; page++) {
      const body = await client.getJson<HereStationsResponse>('/stations', this.query(centre, radius, PAGE_SIZE, out.length), signal);
      const stations = stationsOf(body);
      out.push(...stations);
      if (!body.hasMore || stations.length === 0) return out;
    }
    return out;
  }

  private query(centre: { latitude: number; longitude: number }, radiusMiles: number, maxresults: number, offset: number) {
    const prox = `${centre.latitude.toFixed(5)},${centre.longitude.toFixed(5)},${Math.round(radiusMiles * METRES_PER_MILE)}`;
    return { prox, fueltype: HERE_DIESEL, maxresults, offset: offset > 0 ? offset : undefined };
  }

  private client(config: Record<string, unknown>): VendorHttpClient {
    const key = String(config.apiKey);
    return new HereClient(key, {
      baseUrl: this.baseUrl,
      secrets: [key],
      timeoutMs: this.options.timeoutMs,
      maxAttempts: this.options.maxAttempts,
      baseDelayMs: this.options.baseDelayMs,
      maxDelayMs: this.options.maxDelayMs,
      sleep: this.options.sleep,
      random: this.options.random,
      fetch: this.options.fetch,
    });
  }
}

/**
 * HERE takes the key as the `apiKey` query parameter: added to every request here, never part of an
 * error (the shared client names only the method and path, and scrubs the key from vendor messages).
 */
class HereClient extends VendorHttpClient {
  constructor(
    private readonly apiKey: string,
    options: ConstructorParameters<typeof VendorHttpClient>[0],
  ) {
    super(options);
  }

  override getJson<T>(path: string, query: Parameters<VendorHttpClient['getJson']>[1] = {}, signal?: AbortSignal): Promise<T> {
    return super.getJson<T>(path, { ...query, apiKey: this.apiKey }, signal);
  }
}

/** The stations of an answer: none when HERE leaves the list out; one station may come unwrapped (XML-style JSON). */
function stationsOf(body: HereStationsResponse): HereFuelStation[] {
  if (body === null || typeof body !== 'object') throw new IntegrationError('VENDOR_ERROR', 'GET /stations: the answer is not an object');
  const list = body.fuelStations?.fuelStation as unknown;
  if (list === undefined) return [];
  if (Array.isArray(list)) return list as HereFuelStation[];
  if (list !== null && typeof list === 'object') return [list as HereFuelStation];
  throw new IntegrationError('VENDOR_ERROR', 'GET /stations: fuelStations.fuelStation is not a list of stations');
}

function failure(code: IntegrationErrorCode, details: string): ConnectionTestResult {
  return { ok: false, message: `HERE Fuel Prices connection failed: ${code}`, details: {}, error: { code, details } };
}
