/**
 * project44 visibility adapter (a visibility TMS): the tenant's tracked truckload shipments and, per
 * shipment, project44's tracking status — predicted arrivals per stop and exceptions — normalized into
 * VisibilitySyncResult. project44's REST API v4 (https://developers.project44.com/api-reference).
 *
 * Verified against project44's developer portal (search corpora):
 * - Hosts: NA production https://na12.api.project44.com, sandbox https://na12.api.sandbox.p-44.com (EU
 *   https://eu12.api.project44.com is not offered here).
 * - OAuth2 client credentials: POST /api/v4/oauth2/token, a URL-encoded form (grant_type=client_credentials,
 *   client_id, client_secret; no Authorization header then) → access_token, expires_in (seconds; tokens
 *   last 12 hours), used as `Authorization: Bearer …`. /api/v4/oauth/token is deprecated. project44 asks
 *   integrations to store and reuse tokens, and to fetch a new one on a 401.
 * - Truckload shipments are created with POST /api/v4/tl/shipments (carrierIdentifier, shipmentIdentifiers
 *   of type ORDER / BILL_OF_LADING, shipmentStops [{stopNumber, appointmentWindow {startDateTime,
 *   endDateTime}, location}], equipmentIdentifiers) and carry a project44 `id`.
 * - A truckload status: latestStatusUpdate {timestamp, statusCode, statusReason {code}, geoCoordinates};
 *   the status × reason table (DISPATCHED: PENDING_TRACKING_METHOD, SCHEDULED, PENDING_APPROVAL,
 *   PENDING_CARRIER, ACQUIRING_LOCATION; IN_TRANSIT: IN_MOTION, IDLE; COMPLETED: APPROVAL_DENIED,
 *   TIMED_OUT, CANCELED, DEPARTED_FINAL_STOP); latestStopStatuses [{stopNumber, statusCode EN_ROUTE |
 *   ARRIVED | DEPARTED, arrivalCode, arrivalEstimate {estimatedArrivalWindow {startDateTime,
 *   endDateTime}, lastCalculatedDateTime}}]; exceptions {namespace, category, reason, status ACTIVE |
 *   RESOLVED}.
 *
 * Assumed (not found in the public material; the sandbox speaks these, check them on a real account):
 * - Listing the tracked shipments: GET /api/v4/tl/shipments?page=&size= → {shipments[], page, size,
 *   hasNextPage}, page numbers from 0.
 * - A shipment's status: GET /api/v4/tl/shipments/{id}/statuses → {shipment, latestStatusUpdate,
 *   latestStopStatuses[], exceptions[]} (the portal documents "track (GET)" without the path text).
 * - A refused client id / secret answers 401 (an OAuth2 server may answer 400 invalid_client).
 */
import { syncIntervalProblem } from '../config-checks.js';
import { VendorHttpClient, type Sleep } from '../http.js';
import {
  IntegrationError,
  type ConnectionTestResult,
  type IntegrationAdapter,
  type IntegrationErrorCode,
  type SyncContext,
  type VendorInfo,
  type VisibilityShipment,
  type VisibilitySyncResult,
} from '../port.js';
import { mapShipmentStatus } from './mapping.js';
import { SHIPMENTS_PATH, statusPath, TOKEN_PATH, type P44Shipment, type P44ShipmentStatus } from './sandbox.js';
import { TokenCache, type IssuedToken } from './token-cache.js';

export const PROJECT44_HOSTS = { production: 'https://na12.api.project44.com', sandbox: 'https://na12.api.sandbox.p-44.com' } as const;
export type Project44Environment = keyof typeof PROJECT44_HOSTS;
export const PROJECT44_API_VERSION = 'v4';
/** Shipments per list page. */
const PAGE_SIZE = 100;
/** A runaway list (a vendor repeating pages) stops here. */
const MAX_PAGES = 200;

export interface Project44AdapterOptions {
  /** Overrides both hosts (PROJECT44_BASE_URL in config.ts: the sandbox in tests and the demo). */
  baseUrl?: string;
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: Sleep;
  random?: () => number;
  fetch?: typeof fetch;
  /** Wall clock (ms) for token expiry. */
  now?: () => number;
  /** Clock for latency measurement (ms). */
  monotonicNow?: () => number;
  pageSize?: number;
}

interface Creds {
  clientId: string;
  clientSecret: string;
  environment: Project44Environment;
}

export class Project44Adapter implements IntegrationAdapter {
  readonly info: VendorInfo = {
    vendor: 'project44',
    name: 'project44',
    category: 'TMS',
    description: 'project44 visibility: tracked truckload shipments, predictive ETAs per stop and exceptions, matched to loads on active routes.',
    requiredFields: ['clientId', 'clientSecret'],
    optionalFields: ['environment', 'syncIntervalMinutes'],
    defaultSyncInterval: 15,
    documentationUrl: 'https://developers.project44.com/api-reference',
    secretFields: ['clientId', 'clientSecret'],
  };

  private readonly tokens: TokenCache;

  constructor(private readonly options: Project44AdapterOptions = {}) {
    this.tokens = new TokenCache(options.now ?? Date.now);
  }

  validateConfig(config: Record<string, unknown>): string[] {
    const problems: string[] = [];
    const { clientId, clientSecret, environment } = config;
    if (typeof clientId !== 'string' || clientId.trim() === '') problems.push('clientId: required, the project44 client application id');
    else if (/\s/.test(clientId) || clientId.length > 200) problems.push('clientId: up to 200 characters without spaces');
    if (typeof clientSecret !== 'string' || clientSecret.trim() === '') problems.push('clientSecret: required, the project44 client application secret');
    else if (/\s/.test(clientSecret) || clientSecret.length < 8 || clientSecret.length > 512) problems.push('clientSecret: 8 to 512 characters without spaces');
    if (environment !== undefined && environment !== 'sandbox' && environment !== 'production') problems.push('environment: sandbox or production');
    const intervalProblem = syncIntervalProblem(config, 5);
    if (intervalProblem) problems.push(intervalProblem);
    return problems;
  }

  async test(config: Record<string, unknown>, signal?: AbortSignal): Promise<ConnectionTestResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) return failure('INVALID_CONFIG', problems.join('; '));
    const creds = credsOf(config);
    const clock = this.options.monotonicNow ?? (() => performance.now());
    const started = clock();
    try {
      const page = await this.listPage(creds, 0, 1, signal);
      return {
        ok: true,
        // No config value in the message or details: the service scrubs every one of them as a credential.
        message: 'Connected to project44',
        details: { shipments: typeof page.totalElements === 'number' ? page.totalElements : page.shipments.length, apiVersion: PROJECT44_API_VERSION, latency: `${Math.round(clock() - started)} ms` },
      };
    } catch (err) {
      if (err instanceof IntegrationError) return failure(err.code, err.details);
      if (signal?.aborted) throw err;
      return failure('VENDOR_ERROR', 'unexpected failure talking to project44');
    }
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<VisibilitySyncResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) throw new IntegrationError('INVALID_CONFIG', problems.join('; '));
    const creds = credsOf(config);
    const { signal } = ctx;
    const listed: P44Shipment[] = [];
    const size = this.options.pageSize ?? PAGE_SIZE;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) throw new IntegrationError('VENDOR_ERROR', `GET ${SHIPMENTS_PATH}: more than ${MAX_PAGES} pages`);
      const body = await this.listPage(creds, page, size, signal);
      listed.push(...body.shipments);
      if (!body.hasNextPage || body.shipments.length === 0) break;
    }
    const shipments: VisibilityShipment[] = [];
    const seen = new Set<string>();
    // One shipment at a time: a sync of a few hundred shipments stays well inside project44's rate limits.
    for (const s of listed) {
      if (typeof s?.id !== 'string' || seen.has(s.id)) continue;
      seen.add(s.id);
      let status: P44ShipmentStatus;
      try {
        status = await this.authedGet<P44ShipmentStatus>(creds, statusPath(encodeURIComponent(s.id)), {}, signal);
      } catch (err) {
        // Deleted between the list and its status: not there to track any more.
        if (err instanceof IntegrationError && err.code === 'NOT_FOUND') continue;
        throw err;
      }
      try {
        shipments.push(mapShipmentStatus({ ...status, shipment: status.shipment ?? s }));
      } catch {
        throw new IntegrationError('VENDOR_ERROR', 'project44 answered with an unexpected payload shape');
      }
    }
    return { kind: 'VISIBILITY', shipments };
  }

  private async listPage(creds: Creds, page: number, size: number, signal?: AbortSignal): Promise<{ shipments: P44Shipment[]; hasNextPage: boolean; totalElements?: number }> {
    const body = await this.authedGet<{ shipments?: unknown; hasNextPage?: unknown; totalElements?: unknown }>(creds, SHIPMENTS_PATH, { page, size }, signal);
    if (!Array.isArray(body?.shipments)) throw new IntegrationError('VENDOR_ERROR', `GET ${SHIPMENTS_PATH}: response has no shipments array`);
    return { shipments: body.shipments as P44Shipment[], hasNextPage: body.hasNextPage === true, totalElements: typeof body.totalElements === 'number' ? body.totalElements : undefined };
  }

  /** A GET with a bearer token; a 401 on a cached token drops it and tries once more with a new one. */
  private async authedGet<T>(creds: Creds, path: string, query: Record<string, string | number>, signal?: AbortSignal): Promise<T> {
    const key = `${creds.environment}\u0000${creds.clientId}`;
    const issue = (): Promise<IssuedToken> => this.issueToken(creds, signal);
    const first = await this.tokens.get(key, creds.clientSecret, issue);
    try {
      return await this.client(creds, first.token).getJson<T>(path, query, signal);
    } catch (err) {
      if (!(err instanceof IntegrationError) || err.code !== 'AUTH_FAILED' || !first.cached) throw err;
      this.tokens.drop(key, first.token);
      const fresh = await this.tokens.get(key, creds.clientSecret, issue);
      return this.client(creds, fresh.token).getJson<T>(path, query, signal);
    }
  }

  private async issueToken(creds: Creds, signal?: AbortSignal): Promise<IssuedToken> {
    const body = await this.client(creds).postForm<{ access_token?: unknown; expires_in?: unknown }>(
      TOKEN_PATH,
      { grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret },
      signal,
    );
    if (typeof body?.access_token !== 'string' || body.access_token === '') throw new IntegrationError('VENDOR_ERROR', `POST ${TOKEN_PATH}: no access_token in the answer`);
    const expires = typeof body.expires_in === 'number' && Number.isFinite(body.expires_in) && body.expires_in > 0 ? body.expires_in : null;
    return { accessToken: body.access_token, expiresInSeconds: expires };
  }

  private client(creds: Creds, token?: string): VendorHttpClient {
    return new VendorHttpClient({
      baseUrl: this.options.baseUrl ?? PROJECT44_HOSTS[creds.environment],
      headers: token ? { authorization: `Bearer ${token}` } : {},
      secrets: [creds.clientSecret, encodeURIComponent(creds.clientSecret), ...(token ? [token] : [])],
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

function credsOf(config: Record<string, unknown>): Creds {
  return { clientId: String(config.clientId), clientSecret: String(config.clientSecret), environment: config.environment === 'sandbox' ? 'sandbox' : 'production' };
}

function failure(code: IntegrationErrorCode, details: string): ConnectionTestResult {
  return { ok: false, message: `project44 connection failed: ${code}`, details: {}, error: { code, details } };
}
