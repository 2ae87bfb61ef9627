/**
 * McLeod dispatch-TMS adapter (LoadMaster / PowerBroker web services): the active orders of the
 * customer's own McLeod instance become our loads (TmsLoadsSyncResult, the spec's field mapping in
 * mapping.ts). Each customer hosts their instance: `apiUrl` is its web-services base, e.g.
 * `https://tms-xxxx.loadtracking.com:5690/ws`; every instance serves its API docs under `{apiUrl}/docs`.
 *
 * Verified (McLeod's web-service docs as served by customer instances, `/ws/docs/services?service=
 * OrderService` and the types RowOrders, RowStop, Date):
 *  - `GET /orders/search` with field criteria (`orders.status=P`), paging by the reserved parameters
 *    `recordLength` and `recordOffset`, default sort `orders.id DESC`; the answer is a list of orders;
 *  - the `X-com.mcleodsoftware.CompanyID` header on every call; `Accept: application/json` (XML is the
 *    default otherwise); authorization schemes Basic and Token;
 *  - order fields `id` (the order number), `status`, `weight`, `weight_um`, `commodity`, the child
 *    elements `customer` and `stops` (RowStop: `address`, `address2`, `city_name`, `state`, `zip_code`,
 *    `sched_arrive_early`, `order_sequence`); dates as `yyyyMMddHHmmssZ` ("20160816170100-0500");
 *  - status codes P (in progress) and D (delivered), from the docs' own search examples.
 * Assumed (not verifiable from public material):
 *  - the Token scheme is sent as `Authorization: Token <apiKey>`;
 *  - status code C is "covered" (dispatched, not started) and A / V are available / void; the adapter
 *    asks for C and P and keeps only recognized active statuses whatever the server returns;
 *  - the JSON form names child elements by their `__name` (`customer`, `stops`);
 *  - an unknown company id answers 404 (the sandbox does; a real instance may answer 401 or 500).
 * The spec fixes the order shape in camelCase (orderNumber, billTo.name, stops[].earlyDate, totalWeight,
 * commodity.description, status words); the normaliser reads that form first, then McLeod's.
 */
import { syncIntervalProblem } from '../config-checks.js';
import { VendorHttpClient, type Sleep } from '../http.js';
import { IntegrationError, type ConnectionTestResult, type IntegrationAdapter, type IntegrationErrorCode, type SyncContext, type TmsLoadsSyncResult, type VendorInfo } from '../port.js';
import { MCLEOD_ACTIVE_CODES, mapOrders, type McLeodOrder } from './mapping.js';

/** Orders asked for per page. */
export const MCLEOD_PAGE_SIZE = 200;
/** A search longer than this many pages is a vendor fault (a server that ignores recordOffset). */
const MAX_PAGES = 500;

export interface McLeodAdapterOptions {
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: Sleep;
  random?: () => number;
  fetch?: typeof fetch;
  /** Orders per page (recordLength); default MCLEOD_PAGE_SIZE. */
  pageSize?: number;
  /** Clock for latency measurement (ms). */
  monotonicNow?: () => number;
}

export class McLeodAdapter implements IntegrationAdapter {
  readonly info: VendorInfo = {
    vendor: 'mcleod',
    name: 'McLeod',
    category: 'TMS',
    description: "McLeod LoadMaster / PowerBroker dispatch TMS (the customer's own instance): dispatched and in-transit orders become loads.",
    requiredFields: ['apiUrl', 'apiKey', 'companyId'],
    optionalFields: ['syncIntervalMinutes'],
    defaultSyncInterval: 30,
    documentationUrl: 'https://www.mcleodsoftware.com/',
    secretFields: ['apiKey'],
  };

  constructor(private readonly options: McLeodAdapterOptions = {}) {}

  validateConfig(config: Record<string, unknown>): string[] {
    const problems: string[] = [];
    const apiUrl = config.apiUrl;
    if (typeof apiUrl !== 'string' || apiUrl.trim() === '') problems.push('apiUrl: required, the web-services URL of your McLeod instance (e.g. https://tms-xxxx.loadtracking.com:5690/ws)');
    else problems.push(...urlProblems(apiUrl));
    const key = config.apiKey;
    if (typeof key !== 'string' || key.trim() === '') problems.push('apiKey: required, a McLeod API token');
    else if (/\s/.test(key) || key.length < 8 || key.length > 1024) problems.push('apiKey: 8 to 1024 characters without spaces');
    const company = config.companyId;
    if (typeof company !== 'string' || !/^[A-Za-z0-9_-]{1,16}$/.test(company)) problems.push('companyId: required, your McLeod company id (e.g. TMS), letters, digits, - or _');
    const interval = syncIntervalProblem(config, 5);
    if (interval) problems.push(interval);
    return problems;
  }

  async test(config: Record<string, unknown>, signal?: AbortSignal): Promise<ConnectionTestResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) return failure('INVALID_CONFIG', problems.join('; '));
    const clock = this.options.monotonicNow ?? (() => performance.now());
    const started = clock();
    try {
      const orders = await this.activeOrders(config, signal);
      const latency = Math.round(clock() - started);
      const loads = mapOrders(orders);
      return {
        ok: true,
        message: `Connected to McLeod company ${String(config.companyId)}`,
        details: {
          companyId: config.companyId,
          activeOrders: loads.length,
          dispatched: loads.filter((l) => l.status === 'ASSIGNED').length,
          inTransit: loads.filter((l) => l.status === 'IN_TRANSIT').length,
          latency: `${latency} ms`,
        },
      };
    } catch (err) {
      if (err instanceof IntegrationError) return failure(err.code, err.details);
      if (signal?.aborted) throw err;
      return failure('VENDOR_ERROR', 'unexpected failure talking to McLeod');
    }
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<TmsLoadsSyncResult> {
    const problems = this.validateConfig(config);
    if (problems.length > 0) throw new IntegrationError('INVALID_CONFIG', problems.join('; '));
    const orders = await this.activeOrders(config, ctx.signal);
    return { kind: 'TMS_LOADS', loads: mapOrders(orders) };
  }

  /** Every order with an active status code: one paged search per code, one request at a time. */
  private async activeOrders(config: Record<string, unknown>, signal?: AbortSignal): Promise<McLeodOrder[]> {
    const client = this.client(config);
    const pageSize = this.options.pageSize ?? MCLEOD_PAGE_SIZE;
    const orders: McLeodOrder[] = [];
    for (const code of MCLEOD_ACTIVE_CODES) {
      for (let page = 0, offset = 0; ; page++) {
        if (page >= MAX_PAGES) throw new IntegrationError('VENDOR_ERROR', `GET /orders/search: more than ${MAX_PAGES} pages`);
        const body = await client.getJson<unknown>('orders/search', { 'orders.status': code, recordLength: pageSize, recordOffset: offset }, signal);
        const items = listOf(body);
        if (!items) throw new IntegrationError('VENDOR_ERROR', 'GET /orders/search: the answer is not a list of orders');
        orders.push(...items);
        if (items.length < pageSize) break;
        offset += items.length;
      }
    }
    return orders;
  }

  private client(config: Record<string, unknown>): VendorHttpClient {
    const key = String(config.apiKey);
    return new VendorHttpClient({
      baseUrl: String(config.apiUrl).trim(),
      headers: { authorization: `Token ${key}`, accept: 'application/json', 'x-com.mcleodsoftware.companyid': String(config.companyId) },
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

/** An http(s) URL without credentials, query or fragment (the customer's instance). */
function urlProblems(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return ['apiUrl: not a valid URL'];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return ['apiUrl: must be an http or https URL'];
  if (url.username || url.password) return ['apiUrl: must not carry credentials (use apiKey)'];
  if (url.search || url.hash) return ['apiUrl: must not have a query or fragment'];
  if (value.length > 500) return ['apiUrl: at most 500 characters'];
  return [];
}

/** The list of orders in an answer: McLeod answers a bare JSON array; `{ data: [...] }` is accepted too. */
function listOf(body: unknown): McLeodOrder[] | undefined {
  if (Array.isArray(body)) return body.filter((o): o is McLeodOrder => o !== null && typeof o === 'object');
  const data = (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data.filter((o): o is McLeodOrder => o !== null && typeof o === 'object') : undefined;
}

function failure(code: IntegrationErrorCode, details: string): ConnectionTestResult {
  return { ok: false, message: `McLeod connection failed: ${code}`, details: {}, error: { code, details } };
}
