/**
 * The McLeod dispatch-TMS integration through the public API, against the local McLeod sandbox: the
 * vendor entry; a connection test that succeeds or fails with each code; syncs that map every field of
 * the active orders into loads (GET /api/v1/loads), skip completed / voided ones, pick up new and changed
 * orders, change nothing the second time, and fail cleanly after retries. No response carries the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McLeodAdapter } from '../../adapters/integrations/mcleod/adapter.js';
import { SANDBOX_API_KEY, SANDBOX_COMPANY_ID, sandboxOrder, startMcLeodSandbox, type McLeodSandbox } from '../../adapters/integrations/mcleod/sandbox.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, expectSyncFailedCleanly, hookDns, runSyncPass, subscribeSyncFailed, type IntegrationHarness } from '../../../test/helpers/integrations.js';

const NOW = new Date('2026-02-10T15:00:00.000Z');
const WRONG_KEY = 'mcleod_wrong_key_CANARY_31415';
const at = (hours: number): string => new Date(NOW.getTime() + hours * 3_600_000).toISOString();

interface LoadView {
  id: string;
  referenceNumber: string;
  status: string;
  source: string;
  externalId: string | null;
  updatedAt: string;
  [field: string]: unknown;
}

describe.each(DB_KINDS)('the McLeod integration against its sandbox (%s)', (kind) => {
  let t: TestApp;
  let h: IntegrationHarness;
  let sandbox: McLeodSandbox;
  let mainId: string;
  /** Every response body seen, to check that none carries a credential. */
  const bodies: string[] = [];

  beforeAll(async () => {
    sandbox = await startMcLeodSandbox({ now: NOW });
    t = await buildTestApp(kind, {
      clock: new FakeClock(NOW),
      integrationAdapters: [new McLeodAdapter({ timeoutMs: 300, sleep: async () => {}, pageSize: 2 })],
      webhookResolver: hookDns,
    });
    const tenant = await createTenant(t.app, { name: 'McLeod Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      expect(body).not.toContain(SANDBOX_API_KEY);
      expect(body).not.toContain(WRONG_KEY);
    }
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: object): Promise<any> => {
    const res = await t.app.inject({ method, url, headers: h.auth, ...(payload ? { payload } : {}) });
    bodies.push(res.body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
    return res.json();
  };
  const config = (over: Record<string, unknown> = {}) => ({ apiUrl: sandbox.apiUrl, apiKey: SANDBOX_API_KEY, companyId: SANDBOX_COMPANY_ID, ...over });
  const testWith = async (cfg: Record<string, unknown>) => {
    const created = await call('POST', '/api/v1/integrations', { vendor: 'mcleod', name: 'McLeod (failing)', config: cfg });
    return call('POST', `/api/v1/integrations/${created.id as string}/test`);
  };
  const mcleodLoads = async (): Promise<Map<string, LoadView>> => {
    const page = await call('GET', '/api/v1/loads?pageSize=100');
    return new Map((page.data as LoadView[]).filter((l) => l.source === 'mcleod').map((l) => [l.referenceNumber, l]));
  };
  const syncNow = async (id: string) => {
    await call('POST', `/api/v1/integrations/${id}/sync`, {});
    await runSyncPass(h);
    return call('GET', `/api/v1/integrations/${id}`);
  };

  it('is in the vendor registry with the spec fields', async () => {
    const res = await call('GET', '/api/v1/integrations/vendors');
    expect(res.data).toContainEqual(
      expect.objectContaining({ vendor: 'mcleod', category: 'TMS', requiredFields: ['apiUrl', 'apiKey', 'companyId'], optionalFields: ['syncIntervalMinutes'], defaultSyncInterval: 30 }),
    );
  });

  it('refuses a config whose apiUrl is not http(s)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/integrations', headers: h.auth, payload: { vendor: 'mcleod', name: 'Bad URL', config: config({ apiUrl: 'ftp://tms.example.com/ws' }) } });
    bodies.push(res.body);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('apiUrl');
  });

  it('a connection test succeeds with the sandbox credentials (ACTIVE, counts of active orders)', async () => {
    mainId = await connectIntegration(h, 'mcleod', config());
    const row = await call('GET', `/api/v1/integrations/${mainId}`);
    expect(row).toMatchObject({ status: 'ACTIVE', syncIntervalMinutes: 30 });
    const tested = await call('POST', `/api/v1/integrations/${mainId}/test`);
    expect(tested).toMatchObject({ testResult: 'SUCCESS', details: { companyId: 'TMS', activeOrders: 4, dispatched: 2, inTransit: 2, latency: expect.stringMatching(/ ms$/) } });
  });

  it('connection test failures: AUTH_FAILED, NOT_FOUND (company, path), RATE_LIMITED, TIMEOUT, VENDOR_ERROR', async () => {
    const auth = await testWith(config({ apiKey: WRONG_KEY }));
    expect(auth).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED' } });
    expect(await testWith(config({ companyId: 'ACME' }))).toMatchObject({ testResult: 'FAILED', error: { code: 'NOT_FOUND' } });
    expect(await testWith(config({ apiUrl: `${sandbox.url}/wrong` }))).toMatchObject({ testResult: 'FAILED', error: { code: 'NOT_FOUND' } });
    sandbox.inject({ kind: 'rate-limit', times: 4, retryAfter: '1' });
    expect(await testWith(config())).toMatchObject({ testResult: 'FAILED', error: { code: 'RATE_LIMITED' } });
    sandbox.inject({ kind: 'hang', times: 4 });
    expect(await testWith(config())).toMatchObject({ testResult: 'FAILED', error: { code: 'TIMEOUT' } });
    sandbox.inject({ kind: 'server-error', times: 4 });
    expect(await testWith(config())).toMatchObject({ testResult: 'FAILED', error: { code: 'VENDOR_ERROR' } });
  });

  it('a full sync maps every field of the active orders; available, completed and voided orders do not sync', async () => {
    const row = await syncNow(mainId);
    expect(row).toMatchObject({ status: 'ACTIVE', lastSyncCounts: { loads: 4, loadsCreated: 4, loadsUpdated: 0, loadsUnchanged: 0, loadsConflicting: 0 } });
    const loads = await mcleodLoads();
    expect([...loads.keys()].sort()).toEqual(['MCL-1002', 'MCL-1003', 'MCL-1006', 'MCL-1007']);
    expect(loads.get('MCL-1002')).toMatchObject({
      referenceNumber: 'MCL-1002',
      customer: 'Acme Foods',
      originAddress: '1002 Commerce St, Dallas, TX 75202',
      destinationAddress: '1002 Peachtree St, Atlanta, GA 30303',
      scheduledPickup: at(4),
      scheduledDelivery: at(28),
      weight: 42_500,
      commodity: 'Frozen poultry',
      status: 'ASSIGNED',
      source: 'mcleod',
      externalId: 'ord-1002',
    });
    expect(loads.get('MCL-1003')).toMatchObject({ status: 'IN_TRANSIT', customer: 'Customer 1003 Inc', weight: 31_003, commodity: 'Commodity 1003', externalId: 'ord-1003' });
    // Three stops: origin from the first, destination from the last (not the middle one).
    expect(loads.get('MCL-1006')).toMatchObject({ originAddress: '1006 Commerce St, Dallas, TX 75202', destinationAddress: '1006 Peachtree St, Atlanta, GA 30303', scheduledPickup: at(8), scheduledDelivery: at(32) });
    // The search paged (2 per page) through both active status codes.
    const searches = sandbox.state.requests.filter((r) => r.path === '/ws/orders/search');
    expect(searches.length).toBeGreaterThanOrEqual(4);
  });

  it('a second sync changes nothing: counts say so and the rows are identical', async () => {
    const before = await mcleodLoads();
    t.clock.advance(60_000);
    const row = await syncNow(mainId);
    expect(row.lastSyncCounts).toEqual({ loads: 4, loadsCreated: 0, loadsUpdated: 0, loadsUnchanged: 4, loadsConflicting: 0 });
    expect(await mcleodLoads()).toEqual(before);
  });

  it('new, changed, completed and removed orders; a clash with a manual load is skipped and counted', async () => {
    const manual = await call('POST', '/api/v1/loads', { referenceNumber: 'MCL-1009', customer: 'Walk-in customer' });
    sandbox.addOrder(sandboxOrder(1008, 'dispatched', NOW));
    sandbox.addOrder(sandboxOrder(1009, 'dispatched', NOW));
    sandbox.updateOrder('ord-1002', (o) => {
      o.status = 'in-transit';
      o.billTo = { name: 'Acme Foods Holdings' };
      o.totalWeight = 41_000;
      o.stops[1]!.earlyDate = at(30);
    });
    sandbox.updateOrder('ord-1007', (o) => {
      o.status = 'completed';
    });
    sandbox.removeOrder('ord-1003');
    const before = await mcleodLoads();

    t.clock.advance(60_000);
    const row = await syncNow(mainId);
    expect(row.lastSyncCounts).toEqual({ loads: 4, loadsCreated: 1, loadsUpdated: 1, loadsUnchanged: 1, loadsConflicting: 1 });

    const loads = await mcleodLoads();
    expect(loads.get('MCL-1008')).toMatchObject({ status: 'ASSIGNED', customer: 'Customer 1008 Inc', externalId: 'ord-1008' });
    expect(loads.get('MCL-1002')).toMatchObject({ id: before.get('MCL-1002')!.id, status: 'IN_TRANSIT', customer: 'Acme Foods Holdings', weight: 41_000, scheduledDelivery: at(30), updatedAt: t.clock.now().toISOString() });
    // No longer among the active orders: left as they were.
    expect(loads.get('MCL-1003')).toEqual(before.get('MCL-1003'));
    expect(loads.get('MCL-1007')).toEqual(before.get('MCL-1007'));
    expect(loads.get('MCL-1006')).toEqual(before.get('MCL-1006'));
    // The manual load keeps its reference number and data; no McLeod load took it.
    expect(loads.has('MCL-1009')).toBe(false);
    expect(await call('GET', `/api/v1/loads/${manual.id as string}`)).toMatchObject({ source: 'MANUAL', customer: 'Walk-in customer', status: 'PENDING' });

    const { rows } = await t.db.system((tx) => tx.query<{ payload: unknown }>("SELECT payload FROM outbox_events WHERE event_type = 'load.status_changed'"));
    const events = rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
    expect(events).toContainEqual(expect.objectContaining({ loadId: before.get('MCL-1002')!.id, oldStatus: 'ASSIGNED', newStatus: 'IN_TRANSIT', changedBy: `integration:${mainId}` }));
  });

  it.each([
    ['rate-limit', 'RATE_LIMITED', 4],
    ['server-error', 'VENDOR_ERROR', 4],
    ['hang', 'TIMEOUT', 4],
  ] as const)('the vendor answering %s: the sync retries, then fails cleanly with %s', async (fault, code, attempts) => {
    const webhookId = await subscribeSyncFailed(h);
    const id = await connectIntegration(h, 'mcleod', config(), `McLeod (${fault})`);
    const before = await mcleodLoads();
    const seen = sandbox.state.requests.length;
    sandbox.inject({ kind: fault, times: attempts, retryAfter: fault === 'rate-limit' ? '2' : undefined });
    await runSyncPass(h);
    const requests = sandbox.state.requests.slice(seen);
    expect(requests).toHaveLength(attempts);
    expect(requests.every((r) => r.path === '/ws/orders/search' && r.query['orders.status'] === 'C' && r.query.recordOffset === '0')).toBe(true);
    await expectSyncFailedCleanly(h, id, code, webhookId);
    const row = await call('GET', `/api/v1/integrations/${id}`);
    expect(row.lastError.details).not.toContain(SANDBOX_API_KEY);
    // Nothing applied from a failed sync.
    expect(await mcleodLoads()).toEqual(before);
  });
});
