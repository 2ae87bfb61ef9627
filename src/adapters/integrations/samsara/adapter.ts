/**
 * Samsara ELD adapter: HOS clocks and logs, vehicle locations with fuel level, J1939 fault codes and
 * unassigned driving segments from Samsara's REST API (https://developers.samsara.com/reference),
 * normalized into EldSyncResult. Unassigned driving: `GET /fleet/unassigned-driving-segments?startTime&endTime`
 * (filtered on the segments' creation time; items `id, startTime, endTime, status, annotation, driver, vehicle,
 * createdAtTime`), as Samsara's generated API clients describe it — not in the OpenAPI subset we hold.
 */
import { syncIntervalProblem } from '../config-checks.js';
import { VendorHttpClient, type AdapterHttpOptions } from '../http.js';
import { IntegrationError, type ConnectionTestResult, type EldSyncResult, type IntegrationAdapter, type IntegrationErrorCode, type SyncContext, type VendorInfo } from '../port.js';
import { mapClocks, mapFaults, mapLocations, mapLogs, mapUnassigned, matchDrivers, matchVehicles } from './mapping.js';
import type { SamsaraClock, SamsaraDriver, SamsaraFaultCodes, SamsaraHosLog, SamsaraLocation, SamsaraUnassignedSegment, SamsaraVehicle } from './sandbox.js';

export const SAMSARA_DEFAULT_BASE_URL = 'https://api.samsara.com';
/** The Samsara API version this adapter was written against (its OpenAPI `info.version`). */
export const SAMSARA_API_VERSION = '2025-10-23';
/** How far back HOS logs are read on each sync. */
export const SAMSARA_LOG_WINDOW_MS = 24 * 3_600_000;
/**
 * How far back unassigned driving segments are read (by their creation time) on each sync: the day and the 7
 * before it, the span the ELD specification (§4.6.1.6) looks at for unidentified driving.
 */
export const SAMSARA_UNASSIGNED_WINDOW_MS = 8 * 24 * 3_600_000;
/** Samsara's maximum page size. */
const PAGE_LIMIT = 512;

/** The HTTP client's options; `baseUrl` defaults to https://api.samsara.com; the app passes SAMSARA_BASE_URL (config.ts) when set. */
export type SamsaraAdapterOptions = AdapterHttpOptions;


export class SamsaraAdapter implements IntegrationAdapter {
  readonly info: VendorInfo = {
    vendor: 'samsara',
    name: 'Samsara',
    category: 'ELD',
    description: 'Samsara ELD: HOS clocks and logs, vehicle locations, fuel level and engine fault codes.',
    requiredFields: ['apiToken'],
    optionalFields: ['orgId', 'syncIntervalMinutes'],
    defaultSyncInterval: 15,
    documentationUrl: 'https://developers.samsara.com/reference',
    secretFields: ['apiToken'],
  };

  private readonly baseUrl: string;

  constructor(private readonly options: SamsaraAdapterOptions = {}) {
    this.baseUrl = options.baseUrl ?? SAMSARA_DEFAULT_BASE_URL;
  }

  validateConfig(config: Record<string, unknown>): string[] {
    const problems: string[] = [];
    const token = config.apiToken;
    if (typeof token !== 'string' || token.trim() === '') problems.push('apiToken: required, a Samsara API token');
    else if (/\s/.test(token) || token.length < 16 || token.length > 512) problems.push('apiToken: 16 to 512 characters without spaces');
    if (config.orgId !== undefined && (typeof config.orgId !== 'string' || !/^\d{1,20}$/.test(config.orgId))) problems.push('orgId: a numeric Samsara organization id, as text');
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
      const me = await client.getJson<{ data?: { id?: string; name?: string } }>('/me', {}, signal);
      const latency = Math.round(clock() - started);
      if (typeof config.orgId === 'string' && me.data?.id !== config.orgId) {
        return failure('INVALID_CONFIG', `the token belongs to organization ${String(me.data?.id)}, not ${config.orgId}`);
      }
      const [drivers, vehicles] = await Promise.all([
        client.getAllPages<SamsaraDriver>('/fleet/drivers', { limit: PAGE_LIMIT }, signal),
        client.getAllPages<SamsaraVehicle>('/fleet/vehicles', { limit: PAGE_LIMIT }, signal),
      ]);
      return {
        ok: true,
        message: `Connected to Samsara organization ${me.data?.name ?? me.data?.id ?? ''}`.trim(),
        details: { organization: me.data?.name ?? null, drivers: drivers.length, vehicles: vehicles.length, apiVersion: SAMSARA_API_VERSION, latency: `${latency} ms` },
      };
    } catch (err) {
      if (err instanceof IntegrationError) return failure(err.code, err.details);
      if (signal?.aborted) throw err;
      return failure('VENDOR_ERROR', 'unexpected failure talking to Samsara');
    }
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<EldSyncResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) throw new IntegrationError('INVALID_CONFIG', problems.join('; '));
    const client = this.client(config);
    const { signal } = ctx;
    const q = { limit: PAGE_LIMIT };
    // Sequential on purpose: one vendor connection at a time keeps us well inside Samsara's rate limits.
    const vendorDrivers = await client.getAllPages<SamsaraDriver>('/fleet/drivers', q, signal);
    const vendorVehicles = await client.getAllPages<SamsaraVehicle>('/fleet/vehicles', q, signal);
    const clocks = await client.getAllPages<SamsaraClock>('/fleet/hos/clocks', q, signal);
    const logs = await client.getAllPages<{ driver: { id: string }; hosLogs: SamsaraHosLog[] }>(
      '/fleet/hos/logs',
      { startTime: new Date(ctx.now.getTime() - SAMSARA_LOG_WINDOW_MS).toISOString(), endTime: ctx.now.toISOString() },
      signal,
    );
    const unassigned = await client.getAllPages<SamsaraUnassignedSegment>(
      '/fleet/unassigned-driving-segments',
      { startTime: new Date(ctx.now.getTime() - SAMSARA_UNASSIGNED_WINDOW_MS).toISOString(), endTime: ctx.now.toISOString() },
      signal,
    );
    const locations = await client.getAllPages<{ id: string; location?: SamsaraLocation }>('/fleet/vehicles/locations', {}, signal);
    const stats = await client.getAllPages<{ id: string; faultCodes?: SamsaraFaultCodes; fuelPercent?: { value: number } }>(
      '/fleet/vehicles/stats',
      { types: 'faultCodes,fuelPercents' },
      signal,
    );

    try {
      return normalizeSync(ctx, vendorDrivers, vendorVehicles, clocks, logs, locations, stats, unassigned);
    } catch {
      // A payload that does not have Samsara's documented shape: the vendor's fault, not a crash.
      throw new IntegrationError('VENDOR_ERROR', 'Samsara answered with an unexpected payload shape');
    }
  }

  private client(config: Record<string, unknown>): VendorHttpClient {
    const token = String(config.apiToken);
    return new VendorHttpClient({
      baseUrl: this.baseUrl,
      headers: { authorization: `Bearer ${token}` },
      secrets: [token],
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
  return { ok: false, message: `Samsara connection failed: ${code}`, details: {}, error: { code, details } };
}

function normalizeSync(
  ctx: SyncContext,
  vendorDrivers: SamsaraDriver[],
  vendorVehicles: SamsaraVehicle[],
  clocks: SamsaraClock[],
  logs: { driver: { id: string }; hosLogs: SamsaraHosLog[] }[],
  locations: { id: string; location?: SamsaraLocation }[],
  stats: { id: string; faultCodes?: SamsaraFaultCodes; fuelPercent?: { value: number } }[],
  unassigned: SamsaraUnassignedSegment[],
): EldSyncResult {
  const drivers = matchDrivers(vendorDrivers, ctx.drivers);
  const vehicles = matchVehicles(vendorVehicles, ctx.vehicles);
  const fuel = new Map(stats.flatMap((s) => (typeof s.fuelPercent?.value === 'number' ? [[s.id, s.fuelPercent.value] as const] : [])));
  return {
    kind: 'ELD',
    clocks: mapClocks(clocks, drivers.byVendorId),
    logs: mapLogs(logs, drivers.byVendorId),
    locations: mapLocations(locations, fuel, vehicles.byVendorId),
    faults: mapFaults(stats, vehicles.byVendorId),
    unassignedDriving: mapUnassigned(unassigned, vehicles.byVendorId),
    unmatched: { drivers: drivers.unmatched, vehicles: vehicles.unmatched },
  };
}
