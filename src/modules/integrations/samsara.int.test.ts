/**
 * The built-in Samsara adapter through the public API, against the local Samsara sandbox (SAMSARA_BASE_URL):
 * listed among the vendors, a connection test that succeeds (ACTIVE) or fails with AUTH_FAILED, a
 * sync run by the integrations worker that completes with its event, and a manual sync straight from
 * CONFIGURED (tested first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { SANDBOX_TOKEN, startSamsaraSandbox, type SamsaraSandbox } from '../../adapters/integrations/samsara/sandbox.js';

describe.each(DB_KINDS)('the Samsara integration against its sandbox (%s)', (kind) => {
  let t: TestApp;
  let sandbox: SamsaraSandbox;
  let auth: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSamsaraSandbox();
    t = await buildTestApp(kind, { clock: new FakeClock(new Date()), env: { SAMSARA_BASE_URL: sandbox.url }, integrationAdapters: 'built-in' });
    const tenant = await createTenant(t.app, { name: 'Samsara Fleet' });
    auth = { 'x-api-key': (await createApiKey(t.app, tenant)).key };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

  it('is in the vendor registry with the spec fields', async () => {
    const res = await call('GET', '/api/v1/integrations/vendors');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toContainEqual(
      expect.objectContaining({ vendor: 'samsara', category: 'ELD', requiredFields: ['apiToken'], optionalFields: ['orgId', 'syncIntervalMinutes'], defaultSyncInterval: 15 }),
    );
  });

  it('connects with the sandbox token, syncs through the worker, and refuses a wrong token with AUTH_FAILED', async () => {
    const created = await call('POST', '/api/v1/integrations', { vendor: 'samsara', name: 'Samsara (sandbox)', config: { apiToken: SANDBOX_TOKEN } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain(SANDBOX_TOKEN);
    const id = created.json().id as string;
    const tested = await call('POST', `/api/v1/integrations/${id}/test`);
    expect(tested.json()).toMatchObject({ id, testResult: 'SUCCESS', details: { drivers: 3, vehicles: 3 } });
    expect((await call('GET', `/api/v1/integrations/${id}`)).json()).toMatchObject({ status: 'ACTIVE' });

    // The first sync is due at once: one pass of the integrations worker runs it against the sandbox.
    await t.app.workers.get('integrations').worker.runOnce(t.clock.now());
    const after = (await call('GET', `/api/v1/integrations/${id}`)).json();
    expect(after).toMatchObject({ status: 'ACTIVE', lastSyncAt: expect.any(String) });
    const { rows } = await t.db.system((tx) => tx.query<{ payload: unknown }>("SELECT payload FROM outbox_events WHERE event_type = 'integration.sync_completed'"));
    expect(rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))).toContainEqual(expect.objectContaining({ integrationId: id }));

    const wrong = await call('POST', '/api/v1/integrations', { vendor: 'samsara', name: 'Wrong token', config: { apiToken: 'samsara_not_the_right_token_42' } });
    const failed = await call('POST', `/api/v1/integrations/${wrong.json().id as string}/test`);
    expect(failed.json()).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED' } });
    expect(failed.body).not.toContain('samsara_not_the_right_token_42');
  });

  it('a manual sync of a never-tested (CONFIGURED) integration answers SYNCING; the worker tests, then syncs; a wrong token → ERROR AUTH_FAILED and integration.sync_failed', async () => {
    const created = await call('POST', '/api/v1/integrations', { vendor: 'samsara', name: 'Samsara (sync at once)', config: { apiToken: SANDBOX_TOKEN } });
    const id = created.json().id as string;
    const sync = await call('POST', `/api/v1/integrations/${id}/sync`);
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json()).toEqual({ id, status: 'SYNCING', syncStartedAt: t.clock.now().toISOString(), message: expect.stringContaining('connection test runs first') });
    await t.app.workers.get('integrations').worker.runOnce(t.clock.now());
    expect((await call('GET', `/api/v1/integrations/${id}`)).json()).toMatchObject({ status: 'ACTIVE', lastSyncAt: expect.any(String), lastError: null, lastTest: { testResult: 'SUCCESS' } });

    const wrong = await call('POST', '/api/v1/integrations', { vendor: 'samsara', name: 'Wrong token, sync at once', config: { apiToken: 'samsara_not_the_right_token_43' } });
    const wrongId = wrong.json().id as string;
    const refused = await call('POST', `/api/v1/integrations/${wrongId}/sync`);
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ id: wrongId, status: 'SYNCING', syncStartedAt: expect.any(String) });
    await t.app.workers.get('integrations').worker.runOnce(t.clock.now());
    const failed = await call('GET', `/api/v1/integrations/${wrongId}`);
    expect(failed.json()).toMatchObject({ status: 'ERROR', lastError: { code: 'AUTH_FAILED' }, lastTest: { testResult: 'FAILED' } });
    expect(failed.body).not.toContain('samsara_not_the_right_token_43');
    const { rows } = await t.db.system((tx) => tx.query<{ payload: unknown }>(`SELECT payload FROM outbox_events WHERE event_type = 'integration.sync_failed'`));
    const payloads = rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as { integrationId: string; error: { code: string } });
    expect(payloads.filter((p) => p.integrationId === wrongId)).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: 'AUTH_FAILED' }) })]);
  });
});
