import { promises as dns, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { parseTarget, refusedAddress, type TargetRules } from '../domain/webhooks/address-policy.js';

/** Name resolution, injectable so that tests need no network (and can play DNS rebinding). */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a: LookupAddress) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

export interface WebhookHttpOptions extends TargetRules {
  /** Per attempt, connection to last byte (10 s by default; WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  resolve: HostResolver;
}

/** What one POST came to: the receiver's status, or why there was none (error). */
export interface SendOutcome {
  statusCode: number | null;
  error: string | null;
  retryAfter: string | undefined;
  durationMs: number;
}

export type TargetCheck = { ok: true; address: { address: string; family: 4 | 6 } | null } | { ok: false; reason: string };

/** Added to the refusals that WEBHOOK_ALLOW_INSECURE_TARGETS lifts. */
export const INSECURE_HINT =
  '. A receiver on your own machine or network (http://, localhost, a private address) is allowed when the service is started with WEBHOOK_ALLOW_INSECURE_TARGETS=true (development and tests only)';

/** A receiver's answer beyond this is not read (the connection is dropped instead of reused). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Calls webhook targets without letting them reach inside the network (SSRF). The URL's form is
 * checked (https, no localhost, no refused IP literal); a host name is resolved here and every address
 * it resolves to must be public; the connection is then made to the checked address itself (a custom
 * `lookup` that answers with it), so a second, different DNS answer (rebinding) is never used.
 * Redirects are not followed: a 3xx is a failed attempt. WEBHOOK_ALLOW_INSECURE_TARGETS turns the
 * address checks off and allows http://.
 */
export class WebhookHttp {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 }),
  };

  constructor(readonly opts: WebhookHttpOptions) {}

  /**
   * Whether a URL may be registered (and, at delivery time, which checked address to connect to). A
   * refusal that WEBHOOK_ALLOW_INSECURE_TARGETS would lift says so: a receiver on a developer's own
   * machine is the first thing most people try.
   */
  async check(raw: string): Promise<TargetCheck> {
    const parsed = parseTarget(raw, this.opts);
    if (!parsed.ok) return parsed.insecure ? { ok: false, reason: `${parsed.reason}${INSECURE_HINT}` } : parsed;
    if (parsed.ip) return { ok: true, address: parsed.ip };
    let addresses: { address: string; family: 4 | 6 }[];
    try {
      addresses = await this.opts.resolve(parsed.host);
    } catch (err) {
      return { ok: false, reason: `host ${parsed.host} could not be resolved (${(err as { code?: string }).code ?? (err as Error).message})` };
    }
    if (addresses.length === 0) return { ok: false, reason: `host ${parsed.host} could not be resolved` };
    if (!this.opts.allowInsecure) {
      for (const a of addresses) {
        const why = refusedAddress(a.address);
        if (why) return { ok: false, reason: `host ${parsed.host} resolves to a ${why} address (${a.address})${INSECURE_HINT}` };
      }
    }
    return { ok: true, address: addresses[0]! };
  }

  /** One POST attempt. Never throws: every failure is an outcome with an error. */
  async post(raw: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const started = performance.now();
    const done = (o: Omit<SendOutcome, 'durationMs'>): SendOutcome => ({ ...o, durationMs: Math.round(performance.now() - started) });
    // Name resolution counts against the attempt's time too.
    let expired: NodeJS.Timeout | undefined;
    const target = await Promise.race([
      this.check(raw),
      new Promise<TargetCheck>((resolve) => {
        expired = setTimeout(() => resolve({ ok: false, reason: `name resolution timed out after ${this.opts.timeoutMs} ms` }), this.opts.timeoutMs);
      }),
    ]);
    clearTimeout(expired);
    if (!target.ok) return done({ statusCode: null, error: `target refused: ${target.reason}`, retryAfter: undefined });
    const remainingMs = Math.max(1, this.opts.timeoutMs - (performance.now() - started));
    const url = new URL(raw);
    const pinned = target.address;
    const lookup: LookupFunction | undefined = pinned
      ? (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [pinned]);
          else callback(null, pinned.address, pinned.family);
        }
      : undefined;
    const payload = Buffer.from(body, 'utf8');
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (o: Omit<SendOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(o));
      };
      const req = client.request(url, {
        method: 'POST',
        agent: this.agents[url.protocol as 'http:' | 'https:'],
        headers: { ...headers, 'content-length': String(payload.length) },
        ...(lookup ? { lookup } : {}),
      });
      // The answer's status counts once its headers are in; a body still arriving at the deadline is cut off.
      let answered: Omit<SendOutcome, 'durationMs'> | undefined;
      const timer = setTimeout(() => {
        finish(answered ?? { statusCode: null, error: `timed out after ${this.opts.timeoutMs} ms`, retryAfter: undefined });
        req.destroy();
      }, remainingMs);
      req.on('error', (err: NodeJS.ErrnoException) => finish({ statusCode: null, error: describe(err), retryAfter: undefined }));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined;
        const error =
          status >= 300 && status < 400
            ? `redirect (${status}) not followed${res.headers.location ? ` to ${String(res.headers.location).slice(0, 200)}` : ''}`
            : status >= 200 && status < 300
              ? null
              : `receiver answered ${status}`;
        answered = { statusCode: status, error, retryAfter };
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) {
            finish({ statusCode: status, error, retryAfter });
            res.destroy();
          }
        });
        res.on('end', () => finish({ statusCode: status, error, retryAfter }));
        res.on('error', () => finish({ statusCode: status, error, retryAfter }));
      });
      req.end(payload);
    });
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}

function describe(err: NodeJS.ErrnoException): string {
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ETIMEDOUT: 'connection timed out',
  };
  const text = (err.code && known[err.code]) ?? err.message;
  return text.slice(0, 300);
}
