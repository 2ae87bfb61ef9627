/**
 * OpenWeather weather adapter (the spec's weather vendor): One Call API 3.0 at each sampled point along
 * the tenant's active routes → government alerts and hazards from the 48-hour hourly forecast.
 *
 * Verified (openweathermap.org/api/one-call-3 and client code in the search corpora):
 * `GET /data/3.0/onecall?lat=&lon=&appid=&units=imperial&exclude=current,minutely,hourly,daily,alerts`;
 * `hourly[] {dt, visibility (metres, max 10 km), wind_speed, wind_gust (mph with imperial), pop,
 * rain/snow {1h}, weather[] {id, main, description}}`; `alerts[] {sender_name, event, start, end (Unix
 * UTC), description, tags}` (no severity); 401 `{cod, message: "Invalid API key. Please see …"}` for a
 * wrong key, 429 when the account's limit is exceeded; a separate "One Call by Call" subscription
 * (1,000 calls/day free, 2,000/day default cap).
 * Assumed: `alerts` is absent when there are none (handled either way); condition codes 511 / 611–613
 * (freezing rain, sleet) and 602 / 622 (heavy snow) are the road-relevant ones; a severity from the
 * alert's name (domain/weather/hazards.ts) stands in for the one OpenWeather does not send.
 */
import { syncIntervalProblem } from '../config-checks.js';
import { VendorHttpClient, type AdapterHttpOptions } from '../http.js';
import { IntegrationError, type ConnectionTestResult, type IntegrationAdapter, type IntegrationErrorCode, type SyncContext, type VendorInfo, type WeatherSyncResult } from '../port.js';
import { syncWeatherAlongRoutes } from '../weather-sync.js';
import { mapOneCall, ONECALL_PATH, type OwOneCall } from './mapping.js';

export const OPENWEATHER_DEFAULT_BASE_URL = 'https://api.openweathermap.org';
export const OPENWEATHER_API_VERSION = '3.0';
/** The connection test asks about Kansas City (any valid point would do; one call). */
const TEST_POINT = { lat: 39.0997, lon: -94.5786 };

/** The HTTP client's options; `baseUrl` defaults to https://api.openweathermap.org; the app passes OPENWEATHER_BASE_URL (config.ts) when set. */
export interface OpenWeatherAdapterOptions extends AdapterHttpOptions {
  /** One call per location; default 40 (hourly syncs then stay within the free 1,000 calls a day). */
  maxCallsPerSync?: number;
  /** Calls in flight at once; default 4. */
  concurrency?: number;
}

export class OpenWeatherAdapter implements IntegrationAdapter {
  readonly info: VendorInfo = {
    vendor: 'openweather',
    name: 'OpenWeather',
    category: 'WEATHER',
    description: 'OpenWeather One Call 3.0: government weather alerts and hazards from the hourly forecast along active routes.',
    requiredFields: ['apiKey'],
    optionalFields: ['syncIntervalMinutes'],
    defaultSyncInterval: 60,
    documentationUrl: 'https://openweathermap.org/api/one-call-3',
    secretFields: ['apiKey'],
  };

  private readonly baseUrl: string;

  constructor(private readonly options: OpenWeatherAdapterOptions = {}) {
    this.baseUrl = options.baseUrl ?? OPENWEATHER_DEFAULT_BASE_URL;
  }

  validateConfig(config: Record<string, unknown>): string[] {
    const problems: string[] = [];
    const key = config.apiKey;
    if (typeof key !== 'string' || key.trim() === '') problems.push('apiKey: required, an OpenWeather API key');
    else if (!/^[A-Za-z0-9]{16,64}$/.test(key)) problems.push('apiKey: 16 to 64 letters and digits (OpenWeather keys are 32 hexadecimal characters)');
    const interval = syncIntervalProblem(config, 10, 1440, 'One Call data changes every 10 minutes');
    if (interval) problems.push(interval);
    return problems;
  }

  async test(config: Record<string, unknown>, signal?: AbortSignal): Promise<ConnectionTestResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) return failure('INVALID_CONFIG', problems.join('; '));
    const clock = this.options.monotonicNow ?? (() => performance.now());
    const started = clock();
    try {
      const body = await this.client(config).getJson<OwOneCall>(ONECALL_PATH, { ...TEST_POINT, appid: String(config.apiKey), units: 'imperial', exclude: 'current,minutely,daily' }, signal);
      const latency = Math.round(clock() - started);
      if (typeof body !== 'object' || body === null || !Array.isArray(body.hourly)) return failure('VENDOR_ERROR', 'One Call answered without an hourly forecast');
      return {
        ok: true,
        message: 'Connected to OpenWeather One Call 3.0',
        details: { apiVersion: OPENWEATHER_API_VERSION, hourlyForecastHours: body.hourly.length, alertsAtTestPoint: body.alerts?.length ?? 0, latency: `${latency} ms` },
      };
    } catch (err) {
      if (err instanceof IntegrationError) return failure(err.code, err.details);
      if (signal?.aborted) throw err;
      return failure('VENDOR_ERROR', 'unexpected failure talking to OpenWeather');
    }
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<WeatherSyncResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) throw new IntegrationError('INVALID_CONFIG', problems.join('; '));
    const client = this.client(config);
    const appid = String(config.apiKey);
    const opts = { maxLocations: this.options.maxCallsPerSync ?? 40, concurrency: this.options.concurrency ?? 4 };
    return syncWeatherAlongRoutes(ctx, opts, async (loc, signal) => {
      const body = await client.getJson<OwOneCall>(ONECALL_PATH, { lat: loc.latitude, lon: loc.longitude, appid, units: 'imperial', exclude: 'current,minutely,daily' }, signal);
      try {
        return mapOneCall(body, ctx.now);
      } catch {
        throw new IntegrationError('VENDOR_ERROR', 'OpenWeather answered with an unexpected payload shape');
      }
    });
  }

  private client(config: Record<string, unknown>): VendorHttpClient {
    return new VendorHttpClient({
      baseUrl: this.baseUrl,
      secrets: [String(config.apiKey)],
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
  return { ok: false, message: `OpenWeather connection failed: ${code}`, details: {}, error: { code, details } };
}
