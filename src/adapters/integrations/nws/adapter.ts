/**
 * US National Weather Service adapter (beyond the spec; keyless): active alerts and the hourly forecast
 * at each sampled point along the tenant's active routes, from api.weather.gov.
 *
 * Verified (weather.gov/documentation/services-web-api, the weather-gov/api issue tracker, client code
 * in the search corpora): no key, but a `User-Agent` identifying the application and a contact is
 * required (requests without one, or from an agent NWS has blocked, get 403); `GET /alerts/active?point=
 * lat,lon` → GeoJSON `features[].properties {event, severity (Extreme|Severe|Moderate|Minor|Unknown),
 * urgency, onset, ends, expires, effective, headline, description, status, messageType}`;
 * `/alerts/active/count`; `GET /points/{lat},{lon}` → `properties.forecastHourly` (an absolute URL),
 * whose `properties.periods[] {startTime, endTime, windSpeed "10 to 20 mph", shortForecast,
 * probabilityOfPrecipitation}`; errors are problem+json `{title, status, detail}` (404 "Data
 * Unavailable For Requested Point" outside NWS coverage; 503 at times on grid forecasts); coordinates
 * with more than 4 decimals are refused; the rate limit is not published, exceeding it briefly errors
 * (retry after ~5 s).
 * Assumed: the rate-limit error is a 429 (it may come from the CDN as another status: retried as 5xx
 * either way); `windGust` may appear in hourly periods (read when present); a point outside coverage
 * gets alerts (possibly none) but no forecast, rather than failing the sync.
 */
import { syncIntervalProblem } from '../config-checks.js';
import { VendorHttpClient, type Sleep } from '../http.js';
import { IntegrationError, type ConnectionTestResult, type IntegrationAdapter, type IntegrationErrorCode, type SyncContext, type VendorInfo, type WeatherSyncResult } from '../port.js';
import { syncWeatherAlongRoutes } from '../weather-sync.js';
import { mapAlerts, mapForecast, type NwsAlertCollection, type NwsForecast, type NwsPoint } from './mapping.js';

export const NWS_DEFAULT_BASE_URL = 'https://api.weather.gov';
/** Sent as the User-Agent product when the config names no contact. */
export const NWS_USER_AGENT_PRODUCT = 'FleetHosService/0.1';
/** Points resolved to their forecast URL, kept per adapter (a point's grid cell does not change). */
const MAX_CACHED_POINTS = 5000;

export interface NwsAdapterOptions {
  /** Default https://api.weather.gov; the app passes NWS_BASE_URL (config.ts) when set. */
  baseUrl?: string;
  /** Read the hourly forecast too (two more calls per new location, one once its grid cell is known); default true. */
  forecast?: boolean;
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: Sleep;
  random?: () => number;
  fetch?: typeof fetch;
  monotonicNow?: () => number;
  /** Vendor calls per sync (3 budgeted per location with the forecast, 1 without); default 90. */
  maxCallsPerSync?: number;
  /** Calls in flight at once; default 2 (NWS does not publish its limit). */
  concurrency?: number;
}

export class NwsAdapter implements IntegrationAdapter {
  readonly info: VendorInfo = {
    vendor: 'nws',
    name: 'National Weather Service (US)',
    category: 'WEATHER',
    description: 'US National Weather Service (api.weather.gov, no key): active watches, warnings and advisories and hazards from the hourly forecast along active routes in the US.',
    requiredFields: [],
    optionalFields: ['contactEmail', 'syncIntervalMinutes'],
    defaultSyncInterval: 30,
    documentationUrl: 'https://www.weather.gov/documentation/services-web-api',
    secretFields: [],
  };

  private readonly baseUrl: string;
  private readonly forecastPaths = new Map<string, string | null>();

  constructor(private readonly options: NwsAdapterOptions = {}) {
    this.baseUrl = options.baseUrl ?? NWS_DEFAULT_BASE_URL;
  }

  validateConfig(config: Record<string, unknown>): string[] {
    const problems: string[] = [];
    const email = config.contactEmail;
    if (email !== undefined && (typeof email !== 'string' || !/^[^\s@()<>,;]+@[^\s@()<>,;]+\.[^\s@()<>,;]+$/.test(email) || email.length > 254)) {
      problems.push('contactEmail: an e-mail address NWS can reach you at (sent in the User-Agent)');
    }
    const interval = syncIntervalProblem(config, 5);
    if (interval) problems.push(interval);
    return problems;
  }

  /** NWS asks for an agent naming the application and a contact. */
  userAgent(config: Record<string, unknown>): string {
    const contact = typeof config.contactEmail === 'string' ? config.contactEmail : 'fleet route weather monitoring; no contact configured';
    return `${NWS_USER_AGENT_PRODUCT} (${contact})`;
  }

  async test(config: Record<string, unknown>, signal?: AbortSignal): Promise<ConnectionTestResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) return failure('INVALID_CONFIG', problems.join('; '));
    const clock = this.options.monotonicNow ?? (() => performance.now());
    const started = clock();
    try {
      const count = await this.client(config).getJson<{ total?: unknown }>('/alerts/active/count', {}, signal);
      const latency = Math.round(clock() - started);
      if (typeof count?.total !== 'number') return failure('VENDOR_ERROR', 'the alert count answered without a total');
      return { ok: true, message: 'Connected to the National Weather Service API', details: { activeAlertsNationwide: count.total, contactConfigured: typeof config.contactEmail === 'string', latency: `${latency} ms` } };
    } catch (err) {
      if (err instanceof IntegrationError) return failure(err.code, err.details);
      if (signal?.aborted) throw err;
      return failure('VENDOR_ERROR', 'unexpected failure talking to the National Weather Service');
    }
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<WeatherSyncResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) throw new IntegrationError('INVALID_CONFIG', problems.join('; '));
    const client = this.client(config);
    const withForecast = this.options.forecast ?? true;
    const calls = this.options.maxCallsPerSync ?? 90;
    const opts = { maxLocations: Math.max(1, Math.floor(calls / (withForecast ? 3 : 1))), concurrency: this.options.concurrency ?? 2 };
    return syncWeatherAlongRoutes(ctx, opts, async (loc, signal) => {
      const point = `${loc.latitude},${loc.longitude}`;
      const alerts = await client.getJson<NwsAlertCollection>('/alerts/active', { point }, signal);
      const forecastPath = withForecast ? await this.forecastPath(client, point, signal) : null;
      const forecast = forecastPath === null ? null : await client.getJson<NwsForecast>(forecastPath, {}, signal);
      try {
        return { alerts: mapAlerts(alerts), forecastHazards: forecast === null ? [] : mapForecast(forecast, ctx.now) };
      } catch {
        throw new IntegrationError('VENDOR_ERROR', 'the National Weather Service answered with an unexpected payload shape');
      }
    });
  }

  /** The point's hourly forecast path on our base URL; null outside NWS coverage. */
  private async forecastPath(client: VendorHttpClient, point: string, signal?: AbortSignal): Promise<string | null> {
    const cached = this.forecastPaths.get(point);
    if (cached !== undefined) return cached;
    let path: string | null;
    try {
      const body = await client.getJson<NwsPoint>(`/points/${point}`, {}, signal);
      path = this.sameOriginPath(body?.properties?.forecastHourly);
    } catch (err) {
      if (!(err instanceof IntegrationError && err.code === 'NOT_FOUND')) throw err;
      path = null;
    }
    if (this.forecastPaths.size >= MAX_CACHED_POINTS) this.forecastPaths.delete(this.forecastPaths.keys().next().value!);
    this.forecastPaths.set(point, path);
    return path;
  }

  /** A forecast URL NWS gave us, as a path, only when it is on the configured base URL (never another host). */
  private sameOriginPath(url: unknown): string | null {
    if (url === null || url === undefined) return null;
    let parsed: URL;
    try {
      parsed = new URL(String(url));
    } catch {
      throw new IntegrationError('VENDOR_ERROR', 'the point answered with a forecast URL that is not a URL');
    }
    if (parsed.origin !== new URL(this.baseUrl).origin) throw new IntegrationError('VENDOR_ERROR', 'the point answered with a forecast URL on another host');
    return parsed.pathname;
  }

  private client(config: Record<string, unknown>): VendorHttpClient {
    return new VendorHttpClient({
      baseUrl: this.baseUrl,
      headers: { 'user-agent': this.userAgent(config), accept: 'application/geo+json' },
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

function failure(code: IntegrationErrorCode, details: string): ConnectionTestResult {
  return { ok: false, message: `National Weather Service connection failed: ${code}`, details: {}, error: { code, details } };
}
