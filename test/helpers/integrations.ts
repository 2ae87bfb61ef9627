// The fake adapter has its own file: app.ts installs it, and this file's harness refers to app.ts's TestApp.
export { FAKE_VENDOR, FakeIntegrationAdapter } from './fake-integration-adapter.js';

/** What a test needs to drive the integration lifecycle through the public API. */
export interface IntegrationHarness {
  t: import('./app.js').TestApp;
  auth: Record<string, string>;
}

/** One request through the API; fails the test on a status ≥ 300 and answers the JSON body. */
export async function apiCall(h: IntegrationHarness, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<any> {
  const res = await h.t.app.inject({ method, url, headers: h.auth, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
  return res.body === '' ? null : res.json();
}

/** One pass of the integrations worker, then the outbox dispatcher until idle (webhook deliveries are queued). */
export async function runSyncPass(h: IntegrationHarness): Promise<void> {
  await h.t.app.workers.get('integrations').worker.runOnce(h.t.clock.now());
  while ((await h.t.app.workers.get('outbox').worker.runOnce(h.t.clock.now())) > 0);
}

/** Creates an integration, tests it (must pass: ACTIVE) and returns its id. */
export async function connectIntegration(h: IntegrationHarness, vendor: string, config: Record<string, unknown>, name = `${vendor} (sandbox)`): Promise<string> {
  const created = await apiCall(h, 'POST', '/api/v1/integrations', { vendor, name, config });
  const tested = await apiCall(h, 'POST', `/api/v1/integrations/${created.id as string}/test`);
  if (tested.testResult !== 'SUCCESS') throw new Error(`connection test failed: ${JSON.stringify(tested)}`);
  return created.id as string;
}

/** DNS for `subscribeSyncFailed`'s webhook host: pass as buildTestApp's `webhookResolver`. */
export const hookDns: import('../../src/infra/webhook-http.js').HostResolver = async (host) => {
  if (host === 'hooks.example.test') return [{ address: '93.184.216.34', family: 4 }];
  throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
};

/**
 * Subscribes a webhook to `integration.sync_failed` (the receiver need not exist: the test looks at the
 * queued delivery, not its sending). Needs the app built with `webhookResolver: hookDns`. Call before
 * the failing sync.
 */
export async function subscribeSyncFailed(h: IntegrationHarness): Promise<string> {
  const hook = await apiCall(h, 'POST', '/api/v1/webhooks', { url: 'https://hooks.example.test/fleet', events: ['integration.sync_failed'], description: 'integration watch' });
  return hook.id as string;
}

/**
 * The claims of a sync that failed cleanly: ERROR with the expected lastError code, one ACTIVE
 * INTEGRATION_SYNC_FAILED alert naming the integration, the `integration.sync_failed` event, and a
 * delivery queued for the subscribed webhook.
 */
export async function expectSyncFailedCleanly(h: IntegrationHarness, integrationId: string, code: string, webhookId: string): Promise<void> {
  const { expect } = await import('vitest');
  const row = await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`);
  expect(row).toMatchObject({ status: 'ERROR', lastError: { code } });
  const alerts = await apiCall(h, 'GET', '/api/v1/alerts?type=INTEGRATION_SYNC_FAILED&status=ACTIVE');
  const mine = (alerts.data as { metadata: { integrationId?: string } }[]).filter((a) => a.metadata.integrationId === integrationId);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({ type: 'INTEGRATION_SYNC_FAILED', category: 'SYSTEM', priority: 'MEDIUM', metadata: { error: { code } } });
  const deliveries = await apiCall(h, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`);
  const failed = (deliveries.data as { event: string; payload?: { data?: { integrationId?: string } } }[]).filter((d) => d.event === 'integration.sync_failed');
  expect(failed.length).toBeGreaterThanOrEqual(1);
}
