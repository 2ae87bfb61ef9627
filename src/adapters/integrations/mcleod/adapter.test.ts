import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IntegrationError, type SyncContext } from '../port.js';
import { McLeodAdapter } from './adapter.js';
import { SANDBOX_API_KEY, SANDBOX_COMPANY_ID, startMcLeodSandbox, type McLeodSandbox } from './sandbox.js';

const NOW = new Date('2026-01-15T18:00:00Z');
const CANARY = 'mcleod_CANARY_key_7f3a9c0e';
const ctx: SyncContext = { now: NOW, drivers: [], vehicles: [], routePoints: [] };

describe('McLeodAdapter against its sandbox', () => {
  let sandbox: McLeodSandbox;
  const sleeps: number[] = [];
  const adapter = (over: ConstructorParameters<typeof McLeodAdapter>[0] = {}) =>
    new McLeodAdapter({ timeoutMs: 300, sleep: async (ms) => void sleeps.push(ms), random: () => 0.5, pageSize: 2, ...over });
  const config = (over: Record<string, unknown> = {}) => ({ apiUrl: sandbox.apiUrl, apiKey: SANDBOX_API_KEY, companyId: SANDBOX_COMPANY_ID, ...over });

  beforeEach(async () => {
    sleeps.length = 0;
    sandbox = await startMcLeodSandbox({ now: NOW });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('validates the config: http(s) URL without credentials, a key, a company id, an interval', () => {
    const a = adapter();
    expect(a.validateConfig(config())).toEqual([]);
    expect(a.validateConfig(config({ apiUrl: 'https://tms-abcd.loadtracking.com:5690/ws', syncIntervalMinutes: 30 }))).toEqual([]);
    for (const apiUrl of ['ftp://tms.example.com/ws', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '', 42]) {
      expect(a.validateConfig(config({ apiUrl })).join(';')).toMatch(/^apiUrl: /);
    }
    expect(a.validateConfig(config({ apiUrl: 'https://user:pw@tms.example.com/ws' }))).toEqual(['apiUrl: must not carry credentials (use apiKey)']);
    expect(a.validateConfig(config({ apiKey: 'has space in it' }))).toEqual(['apiKey: 8 to 1024 characters without spaces']);
    expect(a.validateConfig(config({ companyId: 'TMS\r\nX-Evil: 1' }))[0]).toMatch(/^companyId: /);
    expect(a.validateConfig(config({ syncIntervalMinutes: 2 }))).toEqual(['syncIntervalMinutes: an integer from 5 to 1440']);
  });

  it('sends the token and company headers, pages each active status, and returns only active orders mapped', async () => {
    const result = await adapter().sync(config(), ctx);
    expect(result.kind).toBe('TMS_LOADS');
    expect(result.loads.map((l) => [l.referenceNumber, l.status]).sort()).toEqual([
      ['MCL-1002', 'ASSIGNED'],
      ['MCL-1003', 'IN_TRANSIT'],
      ['MCL-1006', 'ASSIGNED'],
      ['MCL-1007', 'IN_TRANSIT'],
    ]);
    const searches = sandbox.state.requests.filter((r) => r.path === '/ws/orders/search');
    expect(searches.every((r) => r.authorized)).toBe(true);
    // C: 2 orders → a full page, then an empty one; P: 2 orders → the same.
    expect(searches.map((r) => [r.query['orders.status'], r.query.recordOffset, r.query.recordLength])).toEqual([
      ['C', '0', '2'],
      ['C', '2', '2'],
      ['P', '0', '2'],
      ['P', '2', '2'],
    ]);
  });

  it('keeps only active statuses even when the server ignores the status filter', async () => {
    const a = new McLeodAdapter({
      pageSize: 100,
      fetch: async (input) => {
        const url = new URL(String(input));
        const all = url.searchParams.get('orders.status') === 'C' ? sandbox.state.orders : [];
        return new Response(JSON.stringify(all), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    const result = await a.sync(config(), ctx);
    expect(result.loads.map((l) => l.referenceNumber).sort()).toEqual(['MCL-1002', 'MCL-1003', 'MCL-1006', 'MCL-1007']);
  });

  it('a wrong key is AUTH_FAILED and never echoes the key, although the server does', async () => {
    const res = await adapter().test(config({ apiKey: CANARY }));
    expect(res).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });
    expect(JSON.stringify(res)).not.toContain(CANARY);
    await expect(adapter().sync(config({ apiKey: CANARY }), ctx)).rejects.toSatisfy((e: unknown) => e instanceof IntegrationError && e.code === 'AUTH_FAILED' && !e.message.includes(CANARY));
  });

  it('an unknown company or a wrong base path is NOT_FOUND', async () => {
    expect(await adapter().test(config({ companyId: 'NOPE' }))).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await adapter().test(config({ apiUrl: sandbox.url }))).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('retries a 429 honouring Retry-After, then succeeds', async () => {
    sandbox.inject({ kind: 'rate-limit', times: 1, retryAfter: '3' });
    const res = await adapter().test(config());
    expect(res).toMatchObject({ ok: true, details: { activeOrders: 4, dispatched: 2, inTransit: 2 } });
    expect(sleeps).toEqual([3000]);
  });

  it('a payload that is not a list of orders is a VENDOR_ERROR', async () => {
    const a = new McLeodAdapter({ fetch: async () => new Response(JSON.stringify({ orders: 'nope' }), { status: 200, headers: { 'content-type': 'application/json' } }) });
    await expect(a.sync(config(), ctx)).rejects.toMatchObject({ code: 'VENDOR_ERROR' });
  });

  it('a hang is retried, then a TIMEOUT', async () => {
    sandbox.inject({ kind: 'hang', times: Infinity });
    expect(await adapter({ maxAttempts: 2 }).test(config())).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(sandbox.state.requests).toHaveLength(2);
  });

  it('a hang answered on the retry succeeds', async () => {
    sandbox.inject({ kind: 'hang', times: 1 });
    expect(await adapter().test(config())).toMatchObject({ ok: true });
  });
});
