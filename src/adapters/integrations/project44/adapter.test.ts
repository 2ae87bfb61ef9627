import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncContext, VisibilitySyncResult } from '../port.js';
import { PROJECT44_HOSTS, Project44Adapter } from './adapter.js';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, SHIPMENTS_PATH, startProject44Sandbox, statusPath, TOKEN_PATH, type Project44Sandbox } from './sandbox.js';
import { TOKEN_REFRESH_MARGIN_MS } from './token-cache.js';

const NOW = new Date('2026-01-15T18:00:00Z');
const at = (minutes: number): string => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const CONFIG = { clientId: SANDBOX_CLIENT_ID, clientSecret: SANDBOX_CLIENT_SECRET, environment: 'sandbox' };
const ctx: SyncContext = { now: NOW, drivers: [], vehicles: [], routePoints: [] };

const EXPECTED: VisibilitySyncResult = {
  kind: 'VISIBILITY',
  shipments: [
    {
      externalId: 'P44-SHIP-1',
      referenceNumber: 'LOAD-P44-1001',
      identifiers: ['LOAD-P44-1001', 'BOL-77001'],
      status: { code: 'IN_TRANSIT', reason: 'IN_MOTION', at: at(-3) },
      position: { latitude: 30.6, longitude: -96.3, recordedAt: at(-3) },
      stops: [
        { stopNumber: 1, predictedArrival: null, estimatedAt: null, appointmentLatest: at(-240) },
        { stopNumber: 2, predictedArrival: at(270), estimatedAt: at(-2), appointmentLatest: at(240) },
      ],
      exceptions: ['RUNNING_LATE'],
    },
    {
      externalId: 'P44-SHIP-2',
      referenceNumber: 'BOL-77002',
      identifiers: ['BOL-77002'],
      status: { code: 'IN_TRANSIT', reason: 'IDLE', at: at(-5) },
      position: { latitude: 29.9, longitude: -97.9, recordedAt: at(-5) },
      stops: [
        { stopNumber: 1, predictedArrival: null, estimatedAt: null, appointmentLatest: at(-60) },
        { stopNumber: 2, predictedArrival: at(70), estimatedAt: at(-4), appointmentLatest: at(120) },
        { stopNumber: 3, predictedArrival: at(330), estimatedAt: at(-4), appointmentLatest: at(420) },
      ],
      exceptions: ['HIGH_WINDS'],
    },
    {
      externalId: 'P44-SHIP-3',
      referenceNumber: 'ORD-UNKNOWN-9',
      identifiers: ['ORD-UNKNOWN-9'],
      status: { code: 'DISPATCHED', reason: 'PENDING_TRACKING_METHOD', at: at(-30) },
      position: null,
      stops: [
        { stopNumber: 1, predictedArrival: null, estimatedAt: null, appointmentLatest: at(660) },
        { stopNumber: 2, predictedArrival: null, estimatedAt: null, appointmentLatest: at(960) },
      ],
      exceptions: ['PENDING_TRACKING_METHOD'],
    },
  ],
};

describe('Project44Adapter against the sandbox', () => {
  let sandbox: Project44Sandbox;
  let clock: number;
  const adapter = (over: ConstructorParameters<typeof Project44Adapter>[0] = {}) =>
    new Project44Adapter({ baseUrl: sandbox.url, timeoutMs: 500, sleep: async () => {}, now: () => clock, ...over });
  const paths = () => sandbox.state.requests.map((r) => r.path);

  beforeEach(async () => {
    clock = NOW.getTime();
    // One clock for both sides: the sandbox's tokens expire when the adapter thinks they do.
    sandbox = await startProject44Sandbox({ now: NOW, clock: () => clock, tokenTtlSeconds: 3600 });
  });
  afterEach(async () => sandbox.close());

  it('maps every shipment, page by page, with one token for every request', async () => {
    const result = await adapter().sync(CONFIG, ctx);
    expect(result).toEqual(EXPECTED);
    expect(sandbox.tokenRequests()).toBe(1);
    // Two list pages (page size 2), then one status per shipment.
    expect(sandbox.state.requests.filter((r) => r.path === SHIPMENTS_PATH).map((r) => r.query.page)).toEqual(['0', '1']);
    expect(paths().filter((p) => p.endsWith('/statuses'))).toHaveLength(3);
    expect(sandbox.state.requests.filter((r) => r.path !== TOKEN_PATH).every((r) => r.authorized)).toBe(true);
  });

  it('reuses the token across a connection test and syncs until shortly before it expires, then fetches a new one', async () => {
    const a = adapter();
    expect(await a.test(CONFIG)).toMatchObject({ ok: true, details: { shipments: 3, apiVersion: 'v4' } });
    await a.sync(CONFIG, ctx);
    clock += 3600_000 - TOKEN_REFRESH_MARGIN_MS - 1;
    await a.sync(CONFIG, ctx);
    expect(sandbox.tokenRequests()).toBe(1);
    clock += 1;
    await a.sync(CONFIG, ctx);
    expect(sandbox.tokenRequests()).toBe(2);
  });

  it('concurrent syncs share one token request', async () => {
    const a = adapter();
    await Promise.all([a.sync(CONFIG, ctx), a.sync(CONFIG, ctx), a.test(CONFIG)]);
    expect(sandbox.tokenRequests()).toBe(1);
  });

  it('a 401 on a cached token drops it and retries the request once with a new token', async () => {
    const a = adapter();
    await a.test(CONFIG);
    sandbox.revokeTokens();
    const before = sandbox.state.requests.length;
    expect(await a.test(CONFIG)).toMatchObject({ ok: true });
    expect(sandbox.state.requests.slice(before).map((r) => [r.path, r.authorized])).toEqual([
      [SHIPMENTS_PATH, false],
      [TOKEN_PATH, true],
      [SHIPMENTS_PATH, true],
    ]);
  });

  it('a 401 on a token just issued is AUTH_FAILED, without a loop of token requests', async () => {
    const a = adapter();
    sandbox.state.tokenTtlSeconds = 0; // every token is dead on arrival
    const result = await a.test(CONFIG);
    expect(result).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });
    expect(paths()).toEqual([TOKEN_PATH, SHIPMENTS_PATH]);
  });

  it('a wrong secret never rides on a token cached for the right one, and never appears in the error', async () => {
    const a = adapter();
    expect(await a.test(CONFIG)).toMatchObject({ ok: true });
    const canary = 'p44_CANARY_wrong_secret_9d2e';
    const failed = await a.test({ ...CONFIG, clientSecret: canary });
    expect(failed).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });
    expect(JSON.stringify(failed)).not.toContain(canary);
    expect(sandbox.tokenRequests()).toBe(2);
  });

  it('a token request answered 429 is retried; a token is never in an error', async () => {
    sandbox.inject({ path: TOKEN_PATH, kind: 'rate-limit', times: 2, retryAfter: '1' });
    expect(await adapter().test(CONFIG)).toMatchObject({ ok: true });
    expect(sandbox.tokenRequests()).toBe(3);
  });

  it('a shipment deleted between the list and its status is skipped', async () => {
    sandbox.inject({ path: statusPath('P44-SHIP-2'), kind: 'not-found', times: 1 });
    const result = await adapter().sync(CONFIG, ctx);
    expect(result.shipments.map((s) => s.externalId)).toEqual(['P44-SHIP-1', 'P44-SHIP-3']);
  });

  it('an unexpected payload shape is a VENDOR_ERROR', async () => {
    sandbox.state.shipments[0]!.latestStopStatuses = 'nope' as never;
    await expect(adapter().sync(CONFIG, ctx)).rejects.toMatchObject({ code: 'VENDOR_ERROR' });
  });

  it('validates the config: required credentials, environment sandbox | production', () => {
    const a = adapter();
    expect(a.validateConfig(CONFIG)).toEqual([]);
    expect(a.validateConfig({})).toEqual([expect.stringMatching(/^clientId/), expect.stringMatching(/^clientSecret/)]);
    expect(a.validateConfig({ ...CONFIG, environment: 'staging' })).toEqual(['environment: sandbox or production']);
  });
});

describe('Project44Adapter hosts', () => {
  it('uses the environment’s host when no base URL overrides it', async () => {
    const urls: string[] = [];
    const fetchStub = (async (url: URL | string) => {
      urls.push(String(url));
      return new Response(JSON.stringify({ message: 'no' }), { status: 401, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const a = new Project44Adapter({ fetch: fetchStub, sleep: async () => {} });
    await a.test(CONFIG);
    await a.test({ clientId: SANDBOX_CLIENT_ID, clientSecret: SANDBOX_CLIENT_SECRET });
    expect(urls).toEqual([`${PROJECT44_HOSTS.sandbox}${TOKEN_PATH}`, `${PROJECT44_HOSTS.production}${TOKEN_PATH}`]);
  });
});
