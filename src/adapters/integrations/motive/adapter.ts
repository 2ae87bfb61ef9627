/**
 * Motive (formerly KeepTruckin) ELD adapter: HOS available time and logs, vehicle locations with fuel
 * level, and fault codes from Motive's v1 REST API (https://developer.gomotive.com/reference), normalized
 * into the same EldSyncResult as every ELD vendor.
 *
 * What this was checked against (the `search` tool, 2026): Motive's developer docs
 * (developer.gomotive.com / developer-docs.gomotive.com), KeepTruckin's published v1 endpoint docs, and
 * several independent clients of the API.
 *
 * Verified:
 * - API key auth in the `X-Api-Key` header (docs' request example `curl -H 'X-Api-Key: …'
 *   https://api.keeptruckin.com/v1/users`); OAuth apps use `Authorization: Bearer` instead (not supported here).
 *   `api.gomotive.com` is the current host of `api.keeptruckin.com`.
 * - Pagination `per_page` (default 25, max 100) and `page_no` (from 1), answered with
 *   `pagination { per_page, page_no, total }`; collections wrap each item (`{ users: [{ user: {…} }] }`).
 * - `GET /v1/users?role=driver&status=active`: `id`, `first_name`, `last_name`, `driver_company_id`,
 *   `drivers_license_number`, `drivers_license_state`, `role`, `status`.
 * - `GET /v1/vehicles`: `id`, `number` (the unit number), `vin`, `metric_units`, `eld_device`.
 * - `GET /v1/available_time`: per user `duty_status` and `available_time { drive, shift, cycle, break }`
 *   in seconds; duty statuses `off_duty | on_duty | sleeper | driving | waiting`.
 * - `GET /v1/vehicle_locations`: per vehicle `current_location { lat, lon, located_at, bearing, speed }`,
 *   speed in mph (km/h for a vehicle with `metric_units`), and `fuel_primary_remaining_percentage`
 *   (seen in several clients, not in the docs we could read).
 * - `GET /v1/fault_codes` exists (query `vehicle_ids`, `status=open|closed`): `id`, `code`, `code_label`,
 *   `code_description`, `source_address_label`, `status`, `first_observed_at`, `last_observed_at`, `fmi`.
 *
 * Assumed (not found in what we could read; the sandbox speaks these shapes):
 * - `GET /v1/hos_logs?start_date&end_date` (dates) answers `{ hos_logs: [{ hos_log: { id, status,
 *   start_time, duration (s, null while current), lat, lon, location, driver { id }, vehicle { id, number } } }] }`;
 *   statuses also `personal_conveyance`, `yard_move`. Dates are read in the carrier's time zone, so the
 *   adapter asks one day more on each side and keeps the logs overlapping its own 24 h window.
 * - A fault code names its vehicle as `vehicle { id, number }`; a J1939 `code` is the SPN; no lamp states.
 * - `GET /v1/driving_periods?start_date&end_date&assigned_to_driver=false` (the endpoint and the parameter are
 *   documented: developer.gomotive.com "List company's driving periods" and its April 2025 changelog) answers
 *   `{ driving_periods: [{ driving_period: { id, start_time, end_time, duration, type (driving | pc | ym), status,
 *   annotation_status, notes, distance, origin_lat, origin_lon, destination_lat, destination_lon, source, driver,
 *   vehicle { id, number } } }] }`; the distance unit (miles, km for metric vehicles) and the origin / destination
 *   fields are assumed.
 * - Error bodies may carry `message` / `error_message`; 401 / 403 for a bad key, 429 with Retry-After.
 */
import { syncIntervalProblem } from '../config-checks.js';
import { VendorHttpClient, type AdapterHttpOptions } from '../http.js';
import { IntegrationError, type ConnectionTestResult, type EldSyncResult, type IntegrationAdapter, type IntegrationErrorCode, type SyncContext, type VendorInfo } from '../port.js';
import { mapClocks, mapFaults, mapLocations, mapLogs, mapUnassigned, matchDrivers, matchVehicles, type MotiveAvailableTimeRow, type MotiveVehicleLocationRow } from './mapping.js';
import type { MotiveDrivingPeriod, MotiveFaultCode, MotiveHosLog, MotiveUser, MotiveVehicle } from './sandbox.js';

export const MOTIVE_DEFAULT_BASE_URL = 'https://api.gomotive.com';
export const MOTIVE_API_VERSION = 'v1';
/** How far back HOS logs are kept on each sync. */
export const MOTIVE_LOG_WINDOW_MS = 24 * 3_600_000;
/** How far back unidentified driving periods are read: the day and the 7 before it (ELD specification §4.6.1.6). */
export const MOTIVE_UNASSIGNED_WINDOW_MS = 8 * 24 * 3_600_000;
/** Motive's maximum page size. */
const PER_PAGE = 100;
const DAY_MS = 24 * 3_600_000;

/** The HTTP client's options; `baseUrl` defaults to https://api.gomotive.com; the app passes MOTIVE_BASE_URL (config.ts) when set. */
export type MotiveAdapterOptions = AdapterHttpOptions;

type Wrapped<K extends string, T> = Record<K, T>;

export class MotiveAdapter implements IntegrationAdapter {
  readonly info: VendorInfo = {
    vendor: 'motive',
    name: 'Motive',
    category: 'ELD',
    description: 'Motive (formerly KeepTruckin) ELD: HOS available time and logs, vehicle locations, fuel level and fault codes.',
    requiredFields: ['apiKey'],
    optionalFields: ['syncIntervalMinutes'],
    defaultSyncInterval: 15,
    documentationUrl: 'https://developer.gomotive.com/reference',
    secretFields: ['apiKey'],
  };

  private readonly baseUrl: string;

  constructor(private readonly options: MotiveAdapterOptions = {}) {
    this.baseUrl = options.baseUrl ?? MOTIVE_DEFAULT_BASE_URL;
  }

  validateConfig(config: Record<string, unknown>): string[] {
    const problems: string[] = [];
    const key = config.apiKey;
    if (typeof key !== 'string' || key.trim() === '') problems.push('apiKey: required, a Motive API key');
    else if (/\s/.test(key) || key.length < 16 || key.length > 512) problems.push('apiKey: 16 to 512 characters without spaces');
    const interval = syncIntervalProblem(config, 5);
    if (interval) problems.push(interval);
    return problems;
  }

  async test(config: Record<string, unknown>, signal?: AbortSignal): Promise<ConnectionTestResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) return failure('INVALID_CONFIG', problems.join('; '));
    const client = this.client(config);
    const clock = this.options.monotonicNow ?? (() => performance.now());
    const started = clock();
    try {
      // One item per page: the counts come from `pagination.total`.
      const drivers = await client.getJson<{ users?: unknown[]; pagination?: { total?: number } }>('/v1/users', { role: 'driver', status: 'active', per_page: 1, page_no: 1 }, signal);
      const latency = Math.round(clock() - started);
      const vehicles = await client.getJson<{ vehicles?: unknown[]; pagination?: { total?: number } }>('/v1/vehicles', { per_page: 1, page_no: 1 }, signal);
      const count = (body: { pagination?: { total?: number } }, items: unknown[] | undefined): number =>
        typeof body.pagination?.total === 'number' ? body.pagination.total : (items?.length ?? 0);
      return {
        ok: true,
        message: 'Connected to Motive',
        details: { drivers: count(drivers, drivers.users), vehicles: count(vehicles, vehicles.vehicles), apiVersion: MOTIVE_API_VERSION, latency: `${latency} ms` },
      };
    } catch (err) {
      if (err instanceof IntegrationError) return failure(err.code, err.details);
      if (signal?.aborted) throw err;
      return failure('VENDOR_ERROR', 'unexpected failure talking to Motive');
    }
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<EldSyncResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) throw new IntegrationError('INVALID_CONFIG', problems.join('; '));
    const client = this.client(config);
    const { signal } = ctx;
    const all = <T>(path: string, itemsKey: string, query: Record<string, string> = {}): Promise<T[]> =>
      client.getAllNumberedPages<T>(path, query, { itemsKey, perPage: PER_PAGE }, signal);
    const window = { start: new Date(ctx.now.getTime() - MOTIVE_LOG_WINDOW_MS), end: ctx.now };
    const date = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

    // Sequential on purpose: one vendor connection at a time keeps us inside Motive's rate limits.
    const users = await all<Wrapped<'user', MotiveUser>>('/v1/users', 'users', { role: 'driver', status: 'active' });
    const vehicles = await all<Wrapped<'vehicle', MotiveVehicle>>('/v1/vehicles', 'vehicles');
    const available = await all<MotiveAvailableTimeRow>('/v1/available_time', 'users');
    const logs = await all<Wrapped<'hos_log', MotiveHosLog>>('/v1/hos_logs', 'hos_logs', {
      start_date: date(window.start.getTime() - DAY_MS),
      end_date: date(window.end.getTime() + DAY_MS),
    });
    const locations = await all<MotiveVehicleLocationRow>('/v1/vehicle_locations', 'vehicles');
    const faults = await all<Wrapped<'fault_code', MotiveFaultCode>>('/v1/fault_codes', 'fault_codes');
    const periods = await all<Wrapped<'driving_period', MotiveDrivingPeriod>>('/v1/driving_periods', 'driving_periods', {
      start_date: date(ctx.now.getTime() - MOTIVE_UNASSIGNED_WINDOW_MS - DAY_MS),
      end_date: date(ctx.now.getTime() + DAY_MS),
      assigned_to_driver: 'false',
    });

    try {
      const drivers = matchDrivers(users.map((u) => u.user), ctx.drivers);
      const fleet = vehicles.map((v) => v.vehicle);
      const matched = matchVehicles(fleet, ctx.vehicles);
      const metric = new Set(fleet.filter((v) => v.metric_units === true).map((v) => String(v.id)));
      return {
        kind: 'ELD',
        clocks: mapClocks(available, drivers.byVendorId),
        logs: mapLogs(logs, drivers.byVendorId, window),
        locations: mapLocations(locations, matched.byVendorId, metric),
        faults: mapFaults(faults, matched.byVendorId),
        unassignedDriving: mapUnassigned(periods.map((d) => d.driving_period), matched.byVendorId, metric),
        unmatched: { drivers: drivers.unmatched, vehicles: matched.unmatched },
      };
    } catch {
      // A payload that does not have Motive's shape: the vendor's fault, not a crash.
      throw new IntegrationError('VENDOR_ERROR', 'Motive answered with an unexpected payload shape');
    }
  }

  private client(config: Record<string, unknown>): VendorHttpClient {
    const key = String(config.apiKey);
    return new VendorHttpClient({
      baseUrl: this.baseUrl,
      headers: { 'x-api-key': key },
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

function failure(code: IntegrationErrorCode, details: string): ConnectionTestResult {
  return { ok: false, message: `Motive connection failed: ${code}`, details: {}, error: { code, details } };
}
