/**
 * INTEGRATION_SYNC_FAILED through the public API: a failing sync leaves the integration in ERROR with
 * one alert naming it and a webhook delivery of `integration.sync_failed`; a second failure updates the
 * same alert; the next successful sync resolves it (resolvedBy system); a disable resolves it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntegrationError } from '../../adapters/integrations/port.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import {
  apiCall,
  connectIntegration,
  expectSyncFailedCleanly,
  FAKE_VENDOR,
  FakeIntegrationAdapter,
  hookDns,
  runSyncPass,
  subscribeSyncFailed,
  type IntegrationHarness,
} from '../../../test/helpers/integrations.js';

describe.each(DB_KINDS)('INTEGRATION_SYNC_FAILED alerts (%s)', (kind) => {
  let t: TestApp;
  let h: IntegrationHarness;
  const adapter = new FakeIntegrationAdapter();

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock: new FakeClock('2026-03-02T14:00:00.000Z'), integrationAdapters: [adapter], webhookResolver: hookDns });
    const tenant = await createTenant(t.app, { name: 'Alerting Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => t?.close());

  const openAlerts = async (id: string) =>
    ((await apiCall(h, 'GET', '/api/v1/alerts?type=INTEGRATION_SYNC_FAILED')).data as { id: string; status: string; resolvedBy: string | null; metadata: { integrationId: string } }[]).filter(
      (a) => a.metadata.integrationId === id,
    );

  it('a failed sync raises one alert with the ERROR status and the webhook; a second failure updates it; the next sync resolves it', async () => {
    const webhookId = await subscribeSyncFailed(h);
    const id = await connectIntegration(h, FAKE_VENDOR, { apiToken: 'fake-token-for-alerts' });
    adapter.syncOutcome = new IntegrationError('RATE_LIMITED', 'The vendor kept answering 429');
    await runSyncPass(h);
    await expectSyncFailedCleanly(h, id, 'RATE_LIMITED', webhookId);

    // ERROR → a passing test makes it ACTIVE again; the next sync fails too: the same alert, updated.
    await apiCall(h, 'POST', `/api/v1/integrations/${id}/test`);
    adapter.syncOutcome = new IntegrationError('VENDOR_ERROR', 'The vendor answered 500');
    t.clock.advance(60_000);
    await runSyncPass(h);
    const [again, ...more] = await openAlerts(id);
    expect(more).toHaveLength(0);
    expect(again).toMatchObject({ status: 'ACTIVE', metadata: { integrationId: id, error: { code: 'VENDOR_ERROR' } } });

    await apiCall(h, 'POST', `/api/v1/integrations/${id}/test`);
    adapter.syncOutcome = 'ok';
    t.clock.advance(60_000);
    await runSyncPass(h);
    expect(await apiCall(h, 'GET', `/api/v1/integrations/${id}`)).toMatchObject({ status: 'ACTIVE', lastError: null });
    expect(await openAlerts(id)).toEqual([expect.objectContaining({ id: again!.id, status: 'RESOLVED', resolvedBy: 'system' })]);
  });

  it('data that cannot be stored fails the sync cleanly (ERROR, alert, webhook), not a sync stuck in SYNCING', async () => {
    const webhookId = await subscribeSyncFailed(h);
    const id = await connectIntegration(h, FAKE_VENDOR, { apiToken: 'fake-token-for-bad-data' });
    const original = adapter.sync.bind(adapter);
    // Clocks for a driver id no tenant record has: the applier's insert violates its foreign key.
    adapter.sync = async (config, ctx) => ({
      ...(await original(config, ctx)),
      kind: 'ELD' as const,
      clocks: [{ driverId: 'drv_doesNotExist', vendorDriverId: 'v-1', currentStatus: 'OFF_DUTY' as const, driveRemainingMs: 1, shiftRemainingMs: 1, cycleRemainingMs: 1, breakRemainingMs: null }],
      logs: [],
      locations: [],
      faults: [],
      unmatched: { drivers: 0, vehicles: 0 },
    });
    try {
      adapter.syncOutcome = 'ok';
      await runSyncPass(h);
    } finally {
      adapter.sync = original;
    }
    await expectSyncFailedCleanly(h, id, 'VENDOR_ERROR', webhookId);
    expect((await apiCall(h, 'GET', `/api/v1/integrations/${id}`)).lastError.details).toMatch(/could not be applied/);
  });

  it('disabling a failing integration resolves its alert', async () => {
    const webhookId = await subscribeSyncFailed(h);
    const id = await connectIntegration(h, FAKE_VENDOR, { apiToken: 'fake-token-for-disable' });
    adapter.syncOutcome = new IntegrationError('AUTH_FAILED', 'The token was revoked');
    await runSyncPass(h);
    await expectSyncFailedCleanly(h, id, 'AUTH_FAILED', webhookId);
    await apiCall(h, 'POST', `/api/v1/integrations/${id}/disable`);
    expect(await openAlerts(id)).toEqual([expect.objectContaining({ status: 'RESOLVED', resolvedBy: 'system' })]);
  });
});
