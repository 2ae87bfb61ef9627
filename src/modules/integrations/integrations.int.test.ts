import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntegrationError } from '../../adapters/integrations/port.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { FAKE_VENDOR, FakeIntegrationAdapter } from '../../../test/helpers/integrations.js';
import { claimDueSyncs } from './integrations.repository.js';

/** A credential that must never leave the service: not in a response, a log line or an event. */
const CANARY = 'canary-cred-7f3a9c1e2b';
const BASE = '/api/v1/integrations';

describe.each(DB_KINDS)('integrations API and sync worker (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let rival: TenantFixture;
  /** API keys: the suite moves the clock by hours, past the access tokens' lifetime. */
  let acmeAuth: Record<string, string>;
  let rivalAuth: Record<string, string>;
  const eld = new FakeIntegrationAdapter();
  const tms = new FakeIntegrationAdapter({ vendor: 'fake_tms', name: 'Fake TMS', category: 'TMS', requiredFields: ['apiUrl', 'apiKey', 'companyId'], optionalFields: ['syncIntervalMinutes'], defaultSyncInterval: 30 });
  const clock = new FakeClock('2026-03-02T14:00:00.000Z');
  const logs: string[] = [];
  /** Every response body of the suite (the canary must be in none). */
  const bodies: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock, integrationAdapters: [eld, tms], logStream, env: { LOG_LEVEL: 'debug' } });
    acme = await createTenant(t.app, { name: 'Integrated Freight' });
    rival = await createTenant(t.app, { name: 'Rival Haulage' });
    acmeAuth = { 'x-api-key': (await createApiKey(t.app, acme)).key };
    rivalAuth = { 'x-api-key': (await createApiKey(t.app, rival)).key };
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = acmeAuth) => {
    const res = await t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
    bodies.push(res.body);
    return res;
  };
  const create = async (config: Record<string, unknown> = { apiToken: CANARY }, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', BASE, { vendor: FAKE_VENDOR, name: 'Main ELD', config, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; status: string; syncIntervalMinutes: number }>();
  };
  const stored = async (id: string) =>
    (await t.db.system((tx) => tx.query<{ status: string; config_ciphertext: string; next_sync_at: unknown }>('SELECT status, config_ciphertext, next_sync_at FROM integrations WHERE id = $1', [id]))).rows[0];
  const events = async (type: string) =>
    (await t.db.system((tx) => tx.query<{ payload: Record<string, unknown> }>('SELECT payload FROM outbox_events WHERE tenant_id = $1 AND event_type = $2 ORDER BY created_at, id', [acme.tenantId, type]))).rows.map(
      (r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    );
  const runWorker = () => t.app.workers.get('integrations').worker.runOnce(clock.now());

  it('lists the vendor registry', async () => {
    const res = await call('GET', `${BASE}/vendors`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({ vendor: FAKE_VENDOR, category: 'ELD', requiredFields: ['apiToken'], optionalFields: ['orgId', 'syncIntervalMinutes'], defaultSyncInterval: 15 }),
      expect.objectContaining({ vendor: 'fake_tms', category: 'TMS', defaultSyncInterval: 30 }),
    ]);
  });

  it('creates a CONFIGURED integration with the vendor default interval; the config is sealed and never returned', async () => {
    const res = await call('POST', BASE, { vendor: FAKE_VENDOR, name: ' Main ELD ', config: { apiToken: CANARY, orgId: 'org-1' } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ vendor: FAKE_VENDOR, category: 'ELD', name: 'Main ELD', status: 'CONFIGURED', syncIntervalMinutes: 15, lastSyncAt: null, nextSyncAt: null });
    expect(body.id).toMatch(/^int_/);
    expect(body).not.toHaveProperty('config');
    expect(res.body).not.toContain('org-1');
    const row = await stored(body.id);
    expect(row!.config_ciphertext).toMatch(/^v1\./);
    expect(row!.config_ciphertext).not.toContain(CANARY);
    const listed = await call('GET', BASE);
    expect(listed.json().data.map((i: { id: string }) => i.id)).toContain(body.id);
    const got = await call('GET', `${BASE}/${body.id}`);
    expect(got.json()).not.toHaveProperty('config');
    const tms1 = await call('POST', BASE, { vendor: 'fake_tms', name: 'TMS', config: { apiUrl: 'https://tms.example.com', apiKey: 'k-123456', companyId: 'c1' }, syncIntervalMinutes: 45 });
    expect(tms1.json()).toMatchObject({ category: 'TMS', syncIntervalMinutes: 45 });
    // syncIntervalMinutes inside the config (an optional field per the spec) is used when the body has none; out of range, ignored.
    const inConfig = await call('POST', BASE, { vendor: FAKE_VENDOR, name: 'x', config: { apiToken: CANARY, syncIntervalMinutes: 5 } });
    expect(inConfig.json()).toMatchObject({ syncIntervalMinutes: 5 });
    const huge = await call('POST', BASE, { vendor: FAKE_VENDOR, name: 'x', config: { apiToken: CANARY, syncIntervalMinutes: 1e12 } });
    expect(huge.statusCode, huge.body).toBe(201);
    expect(huge.json()).toMatchObject({ syncIntervalMinutes: 15 });
  });

  it("another tenant's integration is a 404 everywhere; a VIEWER reads but cannot create (403)", async () => {
    // (early in the suite: the VIEWER signs in with an access token, before the clock moves past its lifetime)
    const { id } = await create();
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['POST', '/sync'],
      ['POST', '/disable'],
      ['POST', '/enable'],
    ] as const) {
      const res = await call(method, `${BASE}/${id}${path}`, method === 'PUT' ? { name: 'stolen' } : undefined, rivalAuth);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    expect((await call('GET', BASE, undefined, rivalAuth)).json().data).toEqual([]);
    const viewer = await createUser(t.app, t.mailer, acme, 'VIEWER');
    expect((await call('POST', BASE, { vendor: FAKE_VENDOR, name: 'x', config: { apiToken: CANARY } }, viewer.auth)).statusCode).toBe(403);
    expect((await call('POST', `${BASE}/${id}/test`, undefined, viewer.auth)).statusCode).toBe(403);
    expect((await call('GET', `${BASE}/${id}`, undefined, viewer.auth)).statusCode).toBe(200);
    expect((await call('GET', `${BASE}/vendors`, undefined, viewer.auth)).statusCode).toBe(200);
  });

  it('refuses missing, empty and unknown config fields, an unknown vendor and a bad format with 400 and the spec error body', async () => {
    const cases: [unknown, string][] = [
      [{ vendor: FAKE_VENDOR, name: 'x', config: {} }, 'body.config.apiToken'],
      [{ vendor: FAKE_VENDOR, name: 'x', config: { apiToken: '   ' } }, 'body.config.apiToken'],
      [{ vendor: FAKE_VENDOR, name: 'x', config: { apiToken: 42 } }, 'body.config.apiToken'],
      [{ vendor: FAKE_VENDOR, name: 'x', config: { apiToken: CANARY, password: 'p' } }, 'body.config.password'],
      [{ vendor: FAKE_VENDOR, name: 'x', config: { apiToken: CANARY, orgId: { nested: true } } }, 'body.config.orgId'],
      [{ vendor: 'nosuchvendor', name: 'x', config: { apiToken: CANARY } }, 'body.vendor'],
      [{ vendor: FAKE_VENDOR, name: 'x', config: { apiToken: 'bad-format-' + CANARY } }, 'body.config'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', BASE, payload);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(typeof body.message).toBe('string');
      expect(JSON.stringify(body)).toContain(field);
    }
    for (const payload of [{ name: 'x', config: { apiToken: CANARY } }, { vendor: FAKE_VENDOR, config: { apiToken: CANARY } }, { vendor: FAKE_VENDOR, name: 'x' }, { vendor: FAKE_VENDOR, name: 'x', config: { apiToken: CANARY }, extra: 1 }]) {
      const res = await call('POST', BASE, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('test SUCCESS → ACTIVE with the first sync due now; sync → SYNCING → worker pass → ACTIVE with counts and a sync_completed event', async () => {
    await createVehicle();
    const { id } = await create();
    const tested = await call('POST', `${BASE}/${id}/test`);
    expect(tested.statusCode).toBe(200);
    expect(tested.json()).toEqual({ id, testResult: 'SUCCESS', message: 'Connected', details: { vehicles: 2, apiVersion: 'v1', latency: '12 ms' }, testedAt: clock.now().toISOString() });
    expect(eld.calls.at(-1)).toMatchObject({ op: 'test', config: { apiToken: CANARY } });
    const active = (await call('GET', `${BASE}/${id}`)).json();
    expect(active).toMatchObject({ status: 'ACTIVE', nextSyncAt: clock.now().toISOString(), lastTest: { testResult: 'SUCCESS' } });

    clock.advance(1000);
    const sync = await call('POST', `${BASE}/${id}/sync`);
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json()).toEqual({ id, status: 'SYNCING', syncStartedAt: clock.now().toISOString(), message: expect.any(String) });
    expect((await call('GET', `${BASE}/${id}`)).json().status).toBe('SYNCING');
    expect((await call('POST', `${BASE}/${id}/test`)).statusCode).toBe(400); // a sync is in progress

    clock.advance(1000);
    expect(await runWorker()).toBeGreaterThanOrEqual(1);
    const synced = (await call('GET', `${BASE}/${id}`)).json();
    expect(synced).toMatchObject({ status: 'ACTIVE', lastSyncAt: clock.now().toISOString(), nextSyncAt: new Date(clock.now().getTime() + 15 * 60_000).toISOString(), lastError: null, syncStartedAt: null });
    expect(synced.lastSyncCounts).toMatchObject({ locations: 1, unmatchedDrivers: 1 });
    const sync1 = eld.calls.filter((c) => c.op === 'sync').at(-1)!;
    expect(sync1.ctx!.vehicles).toHaveLength(1);
    const completed = (await events('integration.sync_completed')).filter((e) => e.integrationId === id);
    expect(completed).toEqual([expect.objectContaining({ integrationId: id, vendor: FAKE_VENDOR, counts: expect.objectContaining({ locations: 1 }) })]);

    // Nothing due until the interval has passed; then the worker syncs on its own.
    expect(await syncsOf(id)).toBe(1);
    await runWorker();
    expect(await syncsOf(id)).toBe(1);
    clock.advance(15 * 60_000);
    await runWorker();
    expect(await syncsOf(id)).toBe(2);
    expect((await events('integration.sync_completed')).filter((e) => e.integrationId === id)).toHaveLength(2);
  });

  it('a failed test is a 200 with testResult FAILED → ERROR with the error code; a thrown error is a VENDOR_ERROR that leaks nothing', async () => {
    const { id } = await create();
    eld.testOutcome = new IntegrationError('AUTH_FAILED', 'The API token was refused');
    try {
      const res = await call('POST', `${BASE}/${id}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id, testResult: 'FAILED', error: { code: 'AUTH_FAILED', details: 'The API token was refused' } });
      expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'ERROR', nextSyncAt: null, lastError: { code: 'AUTH_FAILED' } });
      expect((await call('POST', `${BASE}/${id}/sync`)).statusCode).toBe(200); // a manual sync retries an ERROR one

      eld.testOutcome = new Error(`connect ECONNREFUSED https://api.example.com/?token=${CANARY}`);
      const { id: id2 } = await create();
      const thrown = await call('POST', `${BASE}/${id2}/test`);
      expect(thrown.statusCode).toBe(200);
      expect(thrown.json()).toMatchObject({ testResult: 'FAILED', error: { code: 'VENDOR_ERROR' } });
      // An adapter echoing the credential in an IntegrationError's details is scrubbed too.
      eld.testOutcome = new IntegrationError('AUTH_FAILED', `token ${CANARY} refused`);
      const echoed = await call('POST', `${BASE}/${id2}/test`);
      expect(echoed.json().error).toEqual({ code: 'AUTH_FAILED', details: 'token [redacted] refused' });
    } finally {
      eld.testOutcome = 'ok';
    }
  });

  it('a failing sync → ERROR with lastError and an integration.sync_failed event', async () => {
    const { id } = await create();
    expect((await call('POST', `${BASE}/${id}/test`)).json().testResult).toBe('SUCCESS');
    eld.syncOutcome = new IntegrationError('RATE_LIMITED', 'Too many requests, retried 3 times');
    try {
      await runWorker();
    } finally {
      eld.syncOutcome = 'ok';
    }
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'ERROR', lastError: { code: 'RATE_LIMITED', details: 'Too many requests, retried 3 times' }, nextSyncAt: null });
    expect((await events('integration.sync_failed')).filter((e) => e.integrationId === id)).toEqual([
      expect.objectContaining({ integrationId: id, vendor: FAKE_VENDOR, error: { code: 'RATE_LIMITED', details: 'Too many requests, retried 3 times' } }),
    ]);
    // A thrown non-IntegrationError carrying the credential: VENDOR_ERROR, nothing of its message kept.
    expect((await call('POST', `${BASE}/${id}/sync`)).statusCode).toBe(200);
    eld.syncOutcome = new Error(`GET https://api.example.com/v1?apiToken=${CANARY} failed`);
    try {
      await runWorker();
    } finally {
      eld.syncOutcome = 'ok';
    }
    expect((await call('GET', `${BASE}/${id}`)).json().lastError).toMatchObject({ code: 'VENDOR_ERROR' });
  });

  it('disable keeps the credentials and stops syncing; enable runs the test (failure stays DISABLED, success → ACTIVE)', async () => {
    const { id } = await create();
    await call('POST', `${BASE}/${id}/test`);
    const disabled = await call('POST', `${BASE}/${id}/disable`);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({ status: 'DISABLED', nextSyncAt: null });
    const before = (await stored(id))!.config_ciphertext;
    const syncs = await syncsOf(id);
    clock.advance(60 * 60_000);
    await runWorker();
    expect(await syncsOf(id)).toBe(syncs);

    eld.testOutcome = new IntegrationError('AUTH_FAILED', 'revoked');
    try {
      const failed = await call('POST', `${BASE}/${id}/enable`);
      expect(failed.statusCode).toBe(200);
      expect(failed.json()).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED' } });
      expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'DISABLED', lastError: { code: 'AUTH_FAILED' } });
    } finally {
      eld.testOutcome = 'ok';
    }
    const enabled = await call('POST', `${BASE}/${id}/enable`);
    expect(enabled.json()).toMatchObject({ testResult: 'SUCCESS' });
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'ACTIVE', nextSyncAt: clock.now().toISOString(), lastError: null });
    expect((await stored(id))!.config_ciphertext).toBe(before);
    expect(eld.calls.at(-1)).toMatchObject({ op: 'test', config: { apiToken: CANARY } });
  });

  /** The spec's answer to POST …/sync: exactly id, status SYNCING, syncStartedAt, message. */
  const expectSyncing = (res: { statusCode: number; body: string; json: () => unknown }, id: string) => {
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['id', 'message', 'status', 'syncStartedAt']);
    expect(body).toEqual({ id, status: 'SYNCING', syncStartedAt: clock.now().toISOString(), message: expect.stringMatching(/^Sync started/) });
    return body;
  };
  const vendorCalls = () => eld.calls.length;

  it('POST …/sync answers SYNCING with syncStartedAt and a message from CONFIGURED, ACTIVE, ERROR and DISABLED, and asks nothing of the vendor in the request', async () => {
    const configured = await create();
    const active = await create();
    expect((await call('POST', `${BASE}/${active.id}/test`)).json().testResult).toBe('SUCCESS');
    const failedTest = await create();
    eld.testOutcome = new IntegrationError('AUTH_FAILED', 'The API token was refused');
    try {
      await call('POST', `${BASE}/${failedTest.id}/test`);
    } finally {
      eld.testOutcome = 'ok';
    }
    const disabled = await create();
    await call('POST', `${BASE}/${disabled.id}/test`);
    await call('POST', `${BASE}/${disabled.id}/disable`);
    const states = { CONFIGURED: configured.id, ACTIVE: active.id, ERROR: failedTest.id, DISABLED: disabled.id };
    for (const [state, id] of Object.entries(states)) expect((await call('GET', `${BASE}/${id}`)).json().status, state).toBe(state);

    clock.advance(1000);
    const before = vendorCalls();
    for (const [state, id] of Object.entries(states)) {
      const body = expectSyncing(await call('POST', `${BASE}/${id}/sync`), id);
      if (state === 'DISABLED') expect(body.message).toContain('stays DISABLED');
      if (state === 'CONFIGURED' || state === 'ERROR') expect(body.message).toContain('connection test runs first');
      expect((await call('GET', `${BASE}/${id}`)).json(), state).toMatchObject({ status: 'SYNCING', syncStartedAt: clock.now().toISOString() });
    }
    expect(vendorCalls()).toBe(before);
    // Asked again while it runs: the same sync, still nothing asked of the vendor.
    const again = await call('POST', `${BASE}/${configured.id}/sync`);
    expect(again.json()).toEqual({ id: configured.id, status: 'SYNCING', syncStartedAt: clock.now().toISOString(), message: 'A sync is already in progress' });
    expect(vendorCalls()).toBe(before);

    clock.advance(1000);
    await runWorker();
    // CONFIGURED and ERROR (a failed test) were tested first, then synced; ACTIVE and DISABLED synced as they were.
    expect(eld.calls.slice(before).filter((c) => c.op === 'test')).toHaveLength(2);
    for (const id of [configured.id, active.id, failedTest.id]) {
      expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({
        status: 'ACTIVE',
        lastSyncAt: clock.now().toISOString(),
        nextSyncAt: new Date(clock.now().getTime() + 15 * 60_000).toISOString(),
        syncStartedAt: null,
        lastError: null,
        lastTest: { testResult: 'SUCCESS' },
      });
    }
    expect((await call('GET', `${BASE}/${disabled.id}`)).json()).toMatchObject({ status: 'DISABLED', lastSyncAt: clock.now().toISOString(), nextSyncAt: null });
    for (const id of Object.values(states)) expect(await syncsOf(id)).toBe(1);
  });

  it('a manual sync of a CONFIGURED integration whose connection test fails: SYNCING, then ERROR with lastError, integration.sync_failed and an alert; nothing synced', async () => {
    const refused = await create({ apiToken: 'refused-token' });
    const syncCalls = () => eld.calls.filter((c) => c.op === 'sync' && c.config.apiToken === 'refused-token').length;
    eld.testOutcome = new IntegrationError('AUTH_FAILED', 'The API token was refused');
    try {
      expectSyncing(await call('POST', `${BASE}/${refused.id}/sync`), refused.id);
      clock.advance(1000);
      await runWorker();
    } finally {
      eld.testOutcome = 'ok';
    }
    expect(syncCalls()).toBe(0);
    expect((await call('GET', `${BASE}/${refused.id}`)).json()).toMatchObject({
      status: 'ERROR',
      nextSyncAt: null,
      syncStartedAt: null,
      lastTest: { testResult: 'FAILED', testedAt: clock.now().toISOString() },
      lastError: { code: 'AUTH_FAILED', details: 'The API token was refused', at: clock.now().toISOString() },
    });
    expect((await events('integration.sync_failed')).filter((e) => e.integrationId === refused.id)).toEqual([
      expect.objectContaining({ integrationId: refused.id, vendor: FAKE_VENDOR, error: { code: 'AUTH_FAILED', details: 'The API token was refused' } }),
    ]);
    const alerts = (await call('GET', '/api/v1/alerts?type=INTEGRATION_SYNC_FAILED&status=ACTIVE')).json().data as { metadata: { integrationId?: string } }[];
    expect(alerts.filter((a) => a.metadata.integrationId === refused.id)).toHaveLength(1);

    // A thrown error whose message holds the credential is a VENDOR_ERROR that leaks nothing.
    const { id } = await create();
    eld.testOutcome = new Error(`connect ECONNREFUSED https://api.example.com/?token=${CANARY}`);
    try {
      expectSyncing(await call('POST', `${BASE}/${id}/sync`), id);
      await runWorker();
    } finally {
      eld.testOutcome = 'ok';
    }
    const failed = await call('GET', `${BASE}/${id}`);
    expect(failed.json()).toMatchObject({ status: 'ERROR', lastError: { code: 'VENDOR_ERROR' }, lastTest: { testResult: 'FAILED' } });

    // Nothing is scheduled for an ERROR integration; a manual sync retries: tested again (the last test failed), then synced.
    clock.advance(60 * 60_000);
    await runWorker();
    expect(syncCalls()).toBe(0);
    expectSyncing(await call('POST', `${BASE}/${refused.id}/sync`), refused.id);
    await runWorker();
    expect(syncCalls()).toBe(1);
    expect((await call('GET', `${BASE}/${refused.id}`)).json()).toMatchObject({ status: 'ACTIVE', lastError: null, lastTest: { testResult: 'SUCCESS' } });
  });

  it('a connection test in progress is the one state a manual sync refuses (400); a TESTING left by a dead process is synced', async () => {
    const { id } = await create();
    const lockedUntil = new Date(clock.now().getTime() + 30_000);
    await t.db.system((tx) => tx.query(`UPDATE integrations SET status = 'TESTING', locked_until = $2 WHERE id = $1`, [id, lockedUntil]));
    const refused = await call('POST', `${BASE}/${id}/sync`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('connection test of this integration is in progress') });
    clock.advance(31_000);
    expectSyncing(await call('POST', `${BASE}/${id}/sync`), id);
    await runWorker();
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'ACTIVE', lastTest: { testResult: 'SUCCESS' } });
  });

  it('a manual sync of a DISABLED integration syncs once and leaves it DISABLED, with nothing scheduled (success and failure)', async () => {
    const { id } = await create();
    await call('POST', `${BASE}/${id}/test`);
    await runWorker();
    expect(await syncsOf(id)).toBe(1);
    expect((await call('POST', `${BASE}/${id}/disable`)).json()).toMatchObject({ status: 'DISABLED', nextSyncAt: null });

    clock.advance(1000);
    const res = await call('POST', `${BASE}/${id}/sync`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id, status: 'SYNCING', syncStartedAt: clock.now().toISOString(), message: 'Sync started. It runs once: the integration stays DISABLED (no scheduled syncs)' });
    expect((await call('GET', `${BASE}/${id}`)).json().status).toBe('SYNCING');
    clock.advance(1000);
    await runWorker();
    expect(await syncsOf(id)).toBe(2);
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'DISABLED', lastSyncAt: clock.now().toISOString(), nextSyncAt: null, syncStartedAt: null, lastError: null });
    expect((await events('integration.sync_completed')).filter((e) => e.integrationId === id).at(-1)).toMatchObject({ nextSyncAt: null });
    // Still paused: no scheduled sync however long it waits.
    clock.advance(2 * 60 * 60_000);
    await runWorker();
    expect(await syncsOf(id)).toBe(2);

    // A failing one-off sync: DISABLED with lastError and the sync_failed event, but no alert for a paused integration.
    expect((await call('POST', `${BASE}/${id}/sync`)).json().status).toBe('SYNCING');
    eld.syncOutcome = new IntegrationError('RATE_LIMITED', 'Too many requests');
    try {
      await runWorker();
    } finally {
      eld.syncOutcome = 'ok';
    }
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'DISABLED', nextSyncAt: null, lastError: { code: 'RATE_LIMITED' } });
    expect((await events('integration.sync_failed')).filter((e) => e.integrationId === id)).toEqual([expect.objectContaining({ error: { code: 'RATE_LIMITED', details: 'Too many requests' } })]);
    const alerts = (await call('GET', '/api/v1/alerts?type=INTEGRATION_SYNC_FAILED&status=ACTIVE')).json().data as { metadata: { integrationId?: string } }[];
    expect(alerts.filter((a) => a.metadata.integrationId === id)).toEqual([]);

    // enable is what resumes the schedule.
    expect((await call('POST', `${BASE}/${id}/enable`)).json()).toMatchObject({ testResult: 'SUCCESS' });
    await runWorker();
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'ACTIVE', nextSyncAt: new Date(clock.now().getTime() + 15 * 60_000).toISOString() });
  });

  it('a DISABLED integration that never passed a connection test is tested first by the worker: a failure leaves it DISABLED (no alert), a pass syncs it once', async () => {
    const { id } = await create();
    expect((await call('POST', `${BASE}/${id}/disable`)).json()).toMatchObject({ status: 'DISABLED' });
    eld.testOutcome = new IntegrationError('AUTH_FAILED', 'revoked');
    try {
      const failed = expectSyncing(await call('POST', `${BASE}/${id}/sync`), id);
      expect(failed.message).toContain('stays DISABLED');
      await runWorker();
    } finally {
      eld.testOutcome = 'ok';
    }
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'DISABLED', nextSyncAt: null, lastError: { code: 'AUTH_FAILED' }, lastTest: { testResult: 'FAILED' } });
    expect((await events('integration.sync_failed')).filter((e) => e.integrationId === id)).toEqual([expect.objectContaining({ error: { code: 'AUTH_FAILED', details: 'revoked' } })]);
    const alerts = (await call('GET', '/api/v1/alerts?type=INTEGRATION_SYNC_FAILED&status=ACTIVE')).json().data as { metadata: { integrationId?: string } }[];
    expect(alerts.filter((a) => a.metadata.integrationId === id)).toEqual([]);

    expectSyncing(await call('POST', `${BASE}/${id}/sync`), id);
    await runWorker();
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'DISABLED', lastSyncAt: clock.now().toISOString(), nextSyncAt: null, lastTest: { testResult: 'SUCCESS' } });
    // Now that it has passed one, the next manual sync needs no test.
    const tests = eld.calls.filter((c) => c.op === 'test').length;
    expectSyncing(await call('POST', `${BASE}/${id}/sync`), id);
    await runWorker();
    expect(eld.calls.filter((c) => c.op === 'test')).toHaveLength(tests);
    expect((await call('GET', `${BASE}/${id}`)).json().status).toBe('DISABLED');
  });

  it('a one-off sync of a DISABLED integration whose worker died is retaken after the lease, and still ends DISABLED', async () => {
    const { id } = await create();
    await call('POST', `${BASE}/${id}/test`);
    await runWorker();
    await call('POST', `${BASE}/${id}/disable`);
    expect((await call('POST', `${BASE}/${id}/sync`)).json().status).toBe('SYNCING');
    // A worker claims it and dies (its lease runs out without a result).
    const now = clock.now();
    const claimed = await t.db.system((tx) => claimDueSyncs(tx, now, 100, new Date(now.getTime() + 1000)));
    expect(claimed.find((c) => c.row.id === id)?.row).toMatchObject({ status: 'SYNCING', returnToDisabled: true });
    clock.advance(2000);
    await runWorker();
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'DISABLED', lastSyncAt: clock.now().toISOString(), nextSyncAt: null });
  });

  it('PUT renames, changes the interval, and a new config replaces the sealed one and goes back to CONFIGURED', async () => {
    const { id } = await create();
    await call('POST', `${BASE}/${id}/test`);
    const renamed = await call('PUT', `${BASE}/${id}`, { name: 'Renamed', syncIntervalMinutes: 60 });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed', syncIntervalMinutes: 60, status: 'ACTIVE' });
    const sealed = (await stored(id))!.config_ciphertext;
    const NEW = `${CANARY}-rotated`;
    const replaced = await call('PUT', `${BASE}/${id}`, { config: { apiToken: NEW } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ status: 'CONFIGURED', nextSyncAt: null });
    expect(replaced.json()).not.toHaveProperty('config');
    expect((await stored(id))!.config_ciphertext).not.toBe(sealed);
    await call('POST', `${BASE}/${id}/test`);
    expect(eld.calls.at(-1)).toMatchObject({ op: 'test', config: { apiToken: NEW } });
    expect((await call('PUT', `${BASE}/${id}`, { config: { apiToken: CANARY, nope: 'x' } })).statusCode).toBe(400);
    expect((await call('PUT', `${BASE}/${id}`, {})).statusCode).toBe(400);
    const del = await call('DELETE', `${BASE}/${id}`);
    expect(del.statusCode).toBe(200);
    expect((await call('GET', `${BASE}/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/${id}`)).statusCode).toBe(404);
    expect(await stored(id)).toBeUndefined();
  });

  it('canary: the credential is in no response body, log line or event payload', async () => {
    expect(bodies.length).toBeGreaterThan(50);
    for (const b of bodies) expect(b).not.toContain(CANARY);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('')).toContain('integration sync failed');
    expect(logs.join('')).not.toContain(CANARY);
    const payloads = await t.db.system((tx) => tx.query<{ payload: unknown }>('SELECT payload FROM outbox_events'));
    expect(payloads.rows.length).toBeGreaterThan(0);
    for (const r of payloads.rows) expect(JSON.stringify(r.payload)).not.toContain(CANARY);
    const rows = await t.db.system((tx) => tx.query<Record<string, unknown>>('SELECT * FROM integrations'));
    for (const r of rows.rows) expect(JSON.stringify(r)).not.toContain(CANARY);
  });

  async function createVehicle(): Promise<void> {
    const res = await call('POST', '/api/v1/vehicles', { unitNumber: 'T-100' });
    expect(res.statusCode, res.body).toBe(201);
  }

  async function syncsOf(id: string): Promise<number> {
    return (await events('integration.sync_completed')).filter((e) => e.integrationId === id).length;
  }
});
