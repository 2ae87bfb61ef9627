/**
 * A small resilient HTTP client for vendor APIs, on Node's global fetch: a timeout per attempt combined
 * with the caller's signal, retries with exponential backoff and full jitter on 429 / 5xx / network
 * errors (honouring Retry-After within a cap), and failures mapped to IntegrationError codes.
 * Credentials never reach an error: details are built from the method, path and status only, and every
 * text that leaves this module is scrubbed of the configured secrets.
 */
import { IntegrationError, type IntegrationErrorCode } from './port.js';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface VendorHttpOptions {
  baseUrl: string;
  /** Sent with every request (e.g. Authorization); never copied into errors. */
  headers?: Record<string, string>;
  /** Values scrubbed from every error text (the token); header values are added automatically. */
  secrets?: string[];
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
  /** Attempts including the first; default 4. */
  maxAttempts?: number;
  /** First backoff; default 500 ms, doubled per attempt. */
  baseDelayMs?: number;
  /** Cap on any wait, backoff or Retry-After; default 30 s. */
  maxDelayMs?: number;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  fetch?: typeof fetch;
}

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Exponential backoff with full jitter: random in [0, base * 2^(attempt-1)], capped. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling * random());
}

function codeForStatus(status: number): IntegrationErrorCode {
  if (status === 401 || status === 403) return 'AUTH_FAILED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  return 'VENDOR_ERROR';
}

const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

export interface Page<T> {
  data: T[];
  pagination?: { endCursor?: string; hasNextPage?: boolean };
}

export type Query = Record<string, string | number | undefined>;

/** A page-number-paginated collection (e.g. Motive): `page_no` / `per_page` in, `pagination {per_page, page_no, total}` out. */
export interface NumberedPagesOptions {
  /** The response key holding the page's items (Motive: 'users', 'vehicles', …). */
  itemsKey: string;
  perPage: number;
  /** Query parameter names; default `page_no` and `per_page`. */
  pageParam?: string;
  perPageParam?: string;
  maxPages?: number;
}

export interface NumberedPage {
  pagination?: { per_page?: number; page_no?: number; total?: number };
  [key: string]: unknown;
}

interface RequestBody {
  contentType: string;
  text: string;
}

export class VendorHttpClient {
  private readonly baseUrl: URL;
  private readonly headers: Record<string, string>;
  private readonly secrets: string[];
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: VendorHttpOptions) {
    this.baseUrl = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.headers = { accept: 'application/json', ...options.headers };
    const headerSecrets = Object.values(options.headers ?? {}).flatMap((v) => [v, v.replace(/^Bearer\s+/i, '')]);
    this.secrets = [...(options.secrets ?? []), ...headerSecrets].filter((s) => s.length >= 4);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  /** GET a JSON document, retrying what is worth retrying; throws IntegrationError. */
  async getJson<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> {
    return this.requestJson<T>('GET', this.url(path, query), undefined, signal);
  }

  /**
   * POST a URL-encoded form (an OAuth2 token request) and read a JSON answer, with the same retries.
   * The form's values never reach an error: pass the sensitive ones in `secrets` too.
   */
  async postForm<T>(path: string, form: Record<string, string>, signal?: AbortSignal): Promise<T> {
    return this.requestJson<T>('POST', this.url(path, {}), { contentType: 'application/x-www-form-urlencoded', text: new URLSearchParams(form).toString() }, signal);
  }

  private async requestJson<T>(method: 'GET' | 'POST', url: URL, body: RequestBody | undefined, signal?: AbortSignal): Promise<T> {
    const label = `${method} ${url.pathname}`;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(method, url, label, body, signal);
      if (outcome.kind === 'ok') return outcome.body as T;
      const last = attempt >= this.maxAttempts;
      if (!outcome.retryable || last) throw this.error(outcome.code, `${outcome.details}${last && outcome.retryable ? ` after ${attempt} attempts` : ''}`);
      const wait = outcome.retryAfterMs ?? backoffDelay(attempt, this.baseDelayMs, this.maxDelayMs, this.random);
      await this.sleep(Math.min(wait, this.maxDelayMs), signal);
    }
  }

  /** Every item of a cursor-paginated collection (`after` / `pagination {endCursor, hasNextPage}`). */
  async getAllPages<T>(path: string, query: Query = {}, signal?: AbortSignal, maxPages = 1000): Promise<T[]> {
    const items: T[] = [];
    let after: string | undefined;
    const seen = new Set<string>();
    for (let page = 0; page < maxPages; page++) {
      const body = await this.getJson<Page<T>>(path, { ...query, after }, signal);
      if (!Array.isArray(body?.data)) throw this.error('VENDOR_ERROR', `GET /${path.replace(/^\//, '')}: response has no data array`);
      items.push(...body.data);
      const next = body.pagination?.hasNextPage ? body.pagination.endCursor : undefined;
      if (!next) return items;
      if (seen.has(next)) throw this.error('VENDOR_ERROR', `GET /${path.replace(/^\//, '')}: pagination cursor repeated`);
      seen.add(next);
      after = next;
    }
    throw this.error('VENDOR_ERROR', `GET /${path.replace(/^\//, '')}: more than ${maxPages} pages`);
  }

  /**
   * Every item of a page-number-paginated collection: pages 1, 2, … until the vendor's `total` is reached
   * or a page comes back short. A page that is not the one asked for (the vendor ignoring `page_no`) is a
   * VENDOR_ERROR rather than a loop over the same page.
   */
  async getAllNumberedPages<T>(path: string, query: Query, options: NumberedPagesOptions, signal?: AbortSignal): Promise<T[]> {
    const { itemsKey, perPage, pageParam = 'page_no', perPageParam = 'per_page', maxPages = 1000 } = options;
    const label = `GET /${path.replace(/^\//, '')}`;
    const items: T[] = [];
    for (let page = 1; page <= maxPages; page++) {
      const body = await this.getJson<NumberedPage>(path, { ...query, [perPageParam]: perPage, [pageParam]: page }, signal);
      const data = body?.[itemsKey];
      if (!Array.isArray(data)) throw this.error('VENDOR_ERROR', `${label}: response has no ${itemsKey} array`);
      const p = body.pagination;
      if (typeof p?.page_no === 'number' && p.page_no !== page) throw this.error('VENDOR_ERROR', `${label}: asked for page ${page}, got page ${p.page_no}`);
      items.push(...(data as T[]));
      const total = typeof p?.total === 'number' ? p.total : undefined;
      const size = typeof p?.per_page === 'number' && p.per_page > 0 ? p.per_page : perPage;
      if (data.length === 0 || data.length < size || (total !== undefined && items.length >= total)) return items;
    }
    throw this.error('VENDOR_ERROR', `${label}: more than ${maxPages} pages`);
  }

  private url(path: string, query: Query): URL {
    const url = new URL(path.replace(/^\//, ''), this.baseUrl);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url;
  }

  private async attempt(
    method: 'GET' | 'POST',
    url: URL,
    label: string,
    body: RequestBody | undefined,
    signal?: AbortSignal,
  ): Promise<{ kind: 'ok'; body: unknown } | { kind: 'fail'; code: IntegrationErrorCode; details: string; retryable: boolean; retryAfterMs?: number }> {
    if (signal?.aborted) throw signal.reason;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      const headers = body ? { ...this.headers, 'content-type': body.contentType } : this.headers;
      response = await this.fetchImpl(url, { method, headers, body: body?.text, signal: combined, redirect: 'error' });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) return { kind: 'fail', code: 'TIMEOUT', details: `${label}: no answer within ${this.timeoutMs} ms`, retryable: true };
      return { kind: 'fail', code: 'NETWORK_ERROR', details: `${label}: ${networkReason(err)}`, retryable: true };
    }
    try {
      if (response.ok) {
        try {
          return { kind: 'ok', body: await response.json() };
        } catch {
          if (signal?.aborted) throw signal.reason;
          if (timeout.aborted) return { kind: 'fail', code: 'TIMEOUT', details: `${label}: body not received within ${this.timeoutMs} ms`, retryable: true };
          return { kind: 'fail', code: 'VENDOR_ERROR', details: `${label}: ${response.status} with a body that is not JSON`, retryable: false };
        }
      }
      const vendorMessage = await readVendorMessage(response);
      const details = `${label}: ${response.status}${vendorMessage ? ` (${vendorMessage})` : ''}`;
      const retryAfterMs = response.status === 429 || response.status === 503 ? parseRetryAfter(response.headers.get('retry-after'), this.now()) : undefined;
      return { kind: 'fail', code: codeForStatus(response.status), details, retryable: isRetryableStatus(response.status), retryAfterMs };
    } finally {
      if (!response.bodyUsed) await response.body?.cancel().catch(() => undefined);
    }
  }

  private error(code: IntegrationErrorCode, details: string): IntegrationError {
    return new IntegrationError(code, this.redact(details));
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    return out;
  }
}

/** The vendor's own short error message, if any (bounded; scrubbed by the caller). */
async function readVendorMessage(response: Response): Promise<string> {
  try {
    const text = (await response.text()).slice(0, 2000);
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed.message === 'string') return parsed.message.slice(0, 200);
    } catch {
      /* not JSON: no message */
    }
  } catch {
    /* body unreadable */
  }
  return '';
}

function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } })?.cause;
  if (cause && typeof cause.code === 'string') return `network error ${cause.code}`;
  return 'network error';
}

/** What every vendor adapter lets its caller set on its HTTP client (tests: short timeouts, no waiting). */
export interface AdapterHttpOptions {
  baseUrl?: string;
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: Sleep;
  random?: () => number;
  fetch?: typeof fetch;
  /** Clock for latency measurement (ms). */
  monotonicNow?: () => number;
}
