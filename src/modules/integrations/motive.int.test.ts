/**
 * The Motive adapter through the public API, against the local Motive sandbox: the built-in adapter
 * reaches MOTIVE_BASE_URL and is listed among the vendors; a connection test succeeds (ACTIVE) or fails
 * with AUTH_FAILED, NOT_FOUND, RATE_LIMITED, TIMEOUT or VENDOR_ERROR; a sync run by the integrations
 * worker completes with its counts (and again with the same counts); a sync whose vendor answers 429 /
 * 500 or hangs is retried (sandbox requests counted) and then fails cleanly.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MotiveAdapter } from '../../adapters/integrations/motive/adapter.js';
import { MOTIVE_SANDBOX_API_KEY, startMotiveSandbox, type MotiveSandbox } from '../../adapters/integrations/motive/sandbox.js';
import type { SandboxFault } from '../../adapters/integrations/sandbox-kit.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, expectSyncFailedCleanly, hookDns, runSyncPass, subscribeSyncFailed, type IntegrationHarness } from '../../../test/helpers/integrations.js';

const NOW = '2026-01-15T18:00:00.000Z';
const KEY = MOTIVE_SANDBOX_API_KEY;

describe.each(DB_KINDS)('the built-in Motive integration (%s)', (kind) => {
  let t: TestApp;
  let sandbox: MotiveSandbox;
  let h: IntegrationHarness;

  beforeAll(async () => {
    sandbox = await startMotiveSandbox({ now: new Date(NOW) });
    t = await buildTestApp(kind, { clock: new FakeClock(NOW), env: { MOTIVE_BASE_URL: sandbox.url }, integrationAdapters: 'built-in' });
    const tenant = await createTenant(t.app, { name: 'Motive Fleet' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  it('is in the vendor registry with its fields and talks to MOTIVE_BASE_URL', async () => {
    const vendors = await apiCall(h, 'GET', '/api/v1/integrations/vendors');
    expect(vendors.data).toContainEqual({
      vendor: 'motive',
      name: 'Motive',
      category: 'ELD',
      description: expect.stringContaining('Motive'),
      requiredFields: ['apiKey'],
      optionalFields: ['syncIntervalMinutes'],
      defaultSyncInterval: 15,
      documentationUrl: 'https://developer.gomotive.com/reference',
    });
    const id = await connectIntegration(h, 'motive', { apiKey: KEY });
    expect(await apiCall(h, 'GET', `/api/v1/integrations/${id}`)).toMatchObject({ vendor: 'motive', status: 'ACTIVE', syncIntervalMinutes: 15 });
    expect(sandbox.state.requests.length).toBeGreaterThan(0);
  });
});

describe.each(DB_KINDS)('the Motive integration against its sandbox (%s)', (kind) => {
  let t: TestApp;
  let sandbox: MotiveSandbox;
  let h: IntegrationHarness;

  beforeAll(async () => {
    sandbox = await startMotiveSandbox({ now: new Date(NOW) });
    const adapter = new MotiveAdapter({ baseUrl: sandbox.url, timeoutMs: 300, sleep: async () => {} });
    t = await buildTestApp(kind, { clock: new FakeClock(NOW), integrationAdapters: [adapter], webhookResolver: hookDns });
    const tenant = await createTenant(t.app, { name: 'Motive Sandbox Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };

    // The tenant's fleet: Alice by her carrier id (Motive driver_company_id), Bob by license, Dan by his
    // Motive user id; Carla is unknown. Trucks by Motive id, and by unit number; TRK-999 is unknown.
    const alice = await createDriver(t.app, h.auth, { firstName: 'Alice', lastName: 'Moreno', licenseNumber: 'TX-ALICE-1' });
    await createDriver(t.app, h.auth, { firstName: 'Bob', lastName: 'Tran', licenseNumber: 'T7654321' });
    const dan = await createDriver(t.app, h.auth, { firstName: 'Dan', lastName: 'Ruiz', licenseNumber: 'IL-DAN-4' });
    await t.db.system(async (tx) => {
      await tx.query('UPDATE drivers SET external_id = $2 WHERE id = $1', [alice.id, 'EMP-001']);
      await tx.query('UPDATE drivers SET external_id = $2 WHERE id = $1', [dan.id, '1004']);
    });
    await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'UNIT-1', eldExternalId: '501' });
    await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'TRK-102' });
    await apiCall(h, 'POST', '/api/v1/vehicles', { unitNumber: 'TRK-103' });
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });
  // Each test's integrations go with it, so a sync pass only runs the next test's.
  afterEach(async () => {
    for (const i of (await apiCall(h, 'GET', '/api/v1/integrations')).data as { id: string }[]) await apiCall(h, 'DELETE', `/api/v1/integrations/${i.id}`);
  });

  const requestsTo = (path: string): number => sandbox.state.requests.filter((r) => r.path === path).length;
  const create = async (apiKey = KEY): Promise<string> => (await apiCall(h, 'POST', '/api/v1/integrations', { vendor: 'motive', name: 'Motive (sandbox)', config: { apiKey } })).id as string;

  it('passes the connection test with the sandbox key: ACTIVE, counts, never the key', async () => {
    const id = await create();
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/integrations/${id}/test`, headers: h.auth });
    expect(res.json()).toMatchObject({ id, testResult: 'SUCCESS', details: { drivers: 4, vehicles: 4, apiVersion: 'v1', latency: expect.stringMatching(/ ms$/) } });
    expect(res.body).not.toContain(KEY);
    const row = await t.app.inject({ method: 'GET', url: `/api/v1/integrations/${id}`, headers: h.auth });
    expect(row.json()).toMatchObject({ status: 'ACTIVE' });
    expect(row.body).not.toContain(KEY);
  });

  it('fails the connection test with AUTH_FAILED on a wrong key, which appears nowhere (the sandbox echoes it)', async () => {
    const wrong = 'motive-wrong-key-0000-canary-1111';
    const id = await create(wrong);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/integrations/${id}/test`, headers: h.auth });
    expect(res.json()).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED', details: expect.stringContaining('GET /v1/users: 401') } });
    expect(res.body).not.toContain(wrong);
    const row = await t.app.inject({ method: 'GET', url: `/api/v1/integrations/${id}`, headers: h.auth });
    expect(row.body).not.toContain(wrong);
  });

  const testFailures: { code: string; fault: SandboxFault; attempts: number }[] = [
    { code: 'NOT_FOUND', fault: { path: '/v1/users', kind: 'not-found', times: 1 }, attempts: 1 },
    { code: 'RATE_LIMITED', fault: { path: '/v1/users', kind: 'rate-limit', times: 4, retryAfter: '2' }, attempts: 4 },
    { code: 'VENDOR_ERROR', fault: { path: '/v1/users', kind: 'server-error', times: 4 }, attempts: 4 },
    { code: 'TIMEOUT', fault: { path: '/v1/users', kind: 'hang', times: 1 }, attempts: 1 },
  ];
  for (const c of testFailures) {
    it(`fails the connection test with ${c.code} (${c.fault.kind}, ${c.attempts} request(s))`, async () => {
      const id = await create();
      const before = requestsTo('/v1/users');
      sandbox.inject(c.fault);
      const result = await apiCall(h, 'POST', `/api/v1/integrations/${id}/test`);
      expect(result).toMatchObject({ testResult: 'FAILED', error: { code: c.code, details: expect.stringMatching(/^GET \/v1\/users: /) } });
      expect(requestsTo('/v1/users') - before).toBe(c.attempts);
      expect(JSON.stringify(result)).not.toContain(KEY);
    });
  }

  it('syncs through the worker: ACTIVE with the counts, and the same counts on the next sync', async () => {
    const id = await connectIntegration(h, 'motive', { apiKey: KEY });
    await runSyncPass(h);
    const first = await apiCall(h, 'GET', `/api/v1/integrations/${id}`);
    expect(first).toMatchObject({ status: 'ACTIVE', lastSyncAt: NOW, lastError: null });
    expect(first.lastSyncCounts).toMatchObject({ clocks: 3, logs: 7, locations: 3, faults: 3, unmatchedDrivers: 1, unmatchedVehicles: 1 });
    const { rows } = await t.db.system((tx) => tx.query<{ payload: unknown }>("SELECT payload FROM outbox_events WHERE event_type = 'integration.sync_completed'"));
    expect(rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))).toContainEqual(expect.objectContaining({ integrationId: id }));

    t.clock.advance(15 * 60_000);
    await runSyncPass(h);
    const second = await apiCall(h, 'GET', `/api/v1/integrations/${id}`);
    expect(second.lastSyncAt).not.toBe(first.lastSyncAt);
    expect(second).toMatchObject({ status: 'ACTIVE', lastSyncCounts: first.lastSyncCounts });
  });

  const syncFailures: { code: string; fault: SandboxFault; attempts: number }[] = [
    { code: 'RATE_LIMITED', fault: { path: '/v1/available_time', kind: 'rate-limit', times: 4, retryAfter: '1' }, attempts: 4 },
    { code: 'VENDOR_ERROR', fault: { path: '/v1/hos_logs', kind: 'server-error', times: 4 }, attempts: 4 },
    { code: 'TIMEOUT', fault: { path: '/v1/vehicle_locations', kind: 'hang', times: 1 }, attempts: 1 },
  ];
  for (const c of syncFailures) {
    it(`a sync whose vendor keeps answering ${c.fault.kind} on ${c.fault.path} is retried (${c.attempts}) then fails cleanly with ${c.code}`, async () => {
      const webhookId = await subscribeSyncFailed(h);
      const id = await connectIntegration(h, 'motive', { apiKey: KEY });
      const path = c.fault.path as string;
      const before = requestsTo(path);
      sandbox.inject(c.fault);
      t.clock.advance(60_000);
      await runSyncPass(h);
      expect(requestsTo(path) - before).toBe(c.attempts);
      await expectSyncFailedCleanly(h, id, c.code, webhookId);
      const row = await t.app.inject({ method: 'GET', url: `/api/v1/integrations/${id}`, headers: h.auth });
      expect(row.body).not.toContain(KEY);
    });
  }
});
