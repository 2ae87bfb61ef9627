import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, VendorHttpClient, type Sleep } from './http.js';
import { IntegrationError } from './port.js';
import { startMotiveSandbox, type MotiveSandbox } from './motive/sandbox.js';
import { startSamsaraSandbox, type SamsaraSandbox } from './samsara/sandbox.js';

const CANARY = 'samsara_api_CANARY_7f3e9a1b2c4d';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-15T12:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 15 Jan 2026 12:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Thu, 15 Jan 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt, is jittered by random and capped', () => {
    expect(backoffDelay(1, 500, 30_000, () => 1)).toBe(500);
    expect(backoffDelay(3, 500, 30_000, () => 1)).toBe(2000);
    expect(backoffDelay(3, 500, 30_000, () => 0.5)).toBe(1000);
    expect(backoffDelay(20, 500, 30_000, () => 1)).toBe(30_000);
  });
});

describe('VendorHttpClient against the Samsara sandbox', () => {
  let sandbox: SamsaraSandbox;
  let waits: number[];
  const fakeSleep: Sleep = async (ms) => void waits.push(ms);

  beforeEach(async () => {
    sandbox = await startSamsaraSandbox({ token: CANARY, now: new Date('2026-01-15T18:00:00Z') });
    waits = [];
  });
  afterEach(() => sandbox.close());

  const client = (over: Partial<ConstructorParameters<typeof VendorHttpClient>[0]> = {}): VendorHttpClient =>
    new VendorHttpClient({
      baseUrl: sandbox.url,
      headers: { authorization: `Bearer ${CANARY}` },
      secrets: [CANARY],
      sleep: fakeSleep,
      random: () => 1,
      timeoutMs: 2000,
      ...over,
    });

  async function failureOf(promise: Promise<unknown>): Promise<IntegrationError> {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(IntegrationError);
    const error = err as IntegrationError;
    // The canary credential never leaks into an error.
    expect(`${error.message} ${error.details} ${error.stack ?? ''} ${JSON.stringify(error)}`).not.toContain(CANARY);
    expect(`${error.message} ${error.details}`).not.toContain('CANARY');
    return error;
  }

  it('follows cursor pagination across pages', async () => {
    const drivers = await client().getAllPages<{ id: string }>('/fleet/drivers', { limit: 1 });
    expect(drivers.map((d) => d.id)).toEqual(['1001', '1002', '1003']);
    const calls = sandbox.state.requests.filter((r) => r.path === '/fleet/drivers');
    expect(calls).toHaveLength(3);
    expect(calls[0]?.query.after).toBeUndefined();
    expect(calls[1]?.query.after).toBeTruthy();
  });

  it('maps 401 to AUTH_FAILED without retrying, and scrubs a vendor that echoes the token', async () => {
    const wrong = 'samsara_api_WRONG_but_secret_123';
    const c = client({ headers: { authorization: `Bearer ${wrong}` }, secrets: [wrong] });
    const error = await failureOf(c.getJson('/me'));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.details).toContain('401');
    expect(error.details).not.toContain(wrong);
    expect(error.details).toContain('[redacted]');
    expect(sandbox.state.requests).toHaveLength(1);
  });

  it('maps 404 to NOT_FOUND', async () => {
    sandbox.inject({ path: '/me', kind: 'not-found', times: 1 });
    const error = await failureOf(client().getJson('/me'));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.details).toBe('GET /me: 404 (Not found)');
  });

  it('retries 429 honouring Retry-After, then RATE_LIMITED once the attempts are spent', async () => {
    sandbox.inject({ path: '/me', kind: 'rate-limit', times: Infinity, retryAfter: '7' });
    const error = await failureOf(client({ maxAttempts: 3 }).getJson('/me'));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.details).toContain('after 3 attempts');
    expect(waits).toEqual([7000, 7000]);
    expect(sandbox.state.requests).toHaveLength(3);
  });

  it('caps a Retry-After beyond maxDelayMs', async () => {
    sandbox.inject({ path: '/me', kind: 'rate-limit', times: 1, retryAfter: '3600' });
    await client({ maxDelayMs: 5000 }).getJson('/me');
    expect(waits).toEqual([5000]);
  });

  it('retries 500 with exponential backoff and succeeds', async () => {
    sandbox.inject({ path: '/me', kind: 'server-error', times: 2 });
    const me = await client({ baseDelayMs: 100 }).getJson<{ data: { id: string } }>('/me');
    expect(me.data.id).toBe('9001');
    expect(waits).toEqual([100, 200]);
  });

  it('maps persistent 5xx to VENDOR_ERROR', async () => {
    sandbox.inject({ kind: 'server-error', times: Infinity });
    const error = await failureOf(client({ maxAttempts: 2 }).getJson('/me'));
    expect(error.code).toBe('VENDOR_ERROR');
    expect(error.details).toBe('GET /me: 500 (Internal server error) after 2 attempts');
  });

  it('retries a hanging vendor (a GET is safe to repeat), then maps it to TIMEOUT', async () => {
    sandbox.inject({ path: '/me', kind: 'hang', times: Infinity });
    const error = await failureOf(client({ timeoutMs: 150, maxAttempts: 2 }).getJson('/me'));
    expect(error.code).toBe('TIMEOUT');
    expect(sandbox.state.requests.filter((r) => r.path === '/me')).toHaveLength(2);
  });

  it('a vendor that hangs once answers on the retry', async () => {
    sandbox.inject({ path: '/me', kind: 'hang', times: 1 });
    await expect(client({ timeoutMs: 150, maxAttempts: 2 }).getJson('/me')).resolves.toMatchObject({ data: { id: '9001' } });
  });

  it('maps an unreachable host to NETWORK_ERROR after retries', async () => {
    const url = sandbox.url;
    await sandbox.close();
    const error = await failureOf(client({ baseUrl: url, maxAttempts: 2 }).getJson('/me'));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(waits).toHaveLength(1);
    sandbox = await startSamsaraSandbox();
  });

  it("stops at once when the caller's signal aborts", async () => {
    sandbox.inject({ path: '/me', kind: 'hang', times: 1 });
    const controller = new AbortController();
    const pending = client({ timeoutMs: 60_000 }).getJson('/me', {}, controller.signal);
    controller.abort(new Error('shutdown'));
    await expect(pending).rejects.toThrow('shutdown');
  });
});

describe('VendorHttpClient page-number pagination against the Motive sandbox', () => {
  const KEY = 'motive-api-CANARY-http-key-0123';
  let sandbox: MotiveSandbox;
  beforeEach(async () => {
    sandbox = await startMotiveSandbox({ apiKey: KEY, pageSize: 2 });
  });
  afterEach(() => sandbox.close());
  const client = (): VendorHttpClient => new VendorHttpClient({ baseUrl: sandbox.url, headers: { 'x-api-key': KEY }, sleep: async () => {}, timeoutMs: 2000 });
  const pagesAsked = () => sandbox.state.requests.map((r) => r.query.page_no);

  it('reads pages 1, 2, … until the total, keeping the query', async () => {
    const users = await client().getAllNumberedPages<{ user: { id: number } }>('/v1/users', { status: 'active' }, { itemsKey: 'users', perPage: 100 });
    expect(users.map((u) => u.user.id)).toEqual([1001, 1002, 1003, 1004, 1006]);
    expect(pagesAsked()).toEqual(['1', '2', '3']);
    expect(sandbox.state.requests.every((r) => r.query.status === 'active' && r.query.per_page === '100')).toBe(true);
  });

  it('stops at an empty first page', async () => {
    sandbox.state.faultCodes = [];
    expect(await client().getAllNumberedPages('/v1/fault_codes', {}, { itemsKey: 'fault_codes', perPage: 100 })).toEqual([]);
    expect(pagesAsked()).toEqual(['1']);
  });

  it('fails with VENDOR_ERROR on an answer without the items array, or past maxPages', async () => {
    const noArray = await client().getAllNumberedPages('/v1/users', {}, { itemsKey: 'drivers', perPage: 100 }).catch((e: unknown) => e);
    expect(noArray).toMatchObject({ code: 'VENDOR_ERROR', details: 'GET /v1/users: response has no drivers array' });
    const tooMany = await client().getAllNumberedPages('/v1/users', {}, { itemsKey: 'users', perPage: 100, maxPages: 2 }).catch((e: unknown) => e);
    expect(tooMany).toMatchObject({ code: 'VENDOR_ERROR', details: 'GET /v1/users: more than 2 pages' });
  });
});
