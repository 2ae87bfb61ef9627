import {
  IntegrationError,
  type ConnectionTestResult,
  type IntegrationAdapter,
  type SyncContext,
  type SyncResult,
  type VendorInfo,
} from '../../src/adapters/integrations/port.js';

export const FAKE_VENDOR = 'fake_eld';

/**
 * A scriptable ELD adapter: by default its test passes and a sync returns one location per vehicle.
 * Tests set `testOutcome` / `syncOutcome` to make it fail, and read `calls` to see what it was given.
 */
export class FakeIntegrationAdapter implements IntegrationAdapter {
  readonly info: VendorInfo;
  testOutcome: 'ok' | IntegrationError | Error = 'ok';
  syncOutcome: 'ok' | IntegrationError | Error = 'ok';
  readonly calls: { op: 'test' | 'sync'; config: Record<string, unknown>; ctx?: SyncContext }[] = [];

  constructor(info: Partial<VendorInfo> = {}) {
    this.info = {
      vendor: FAKE_VENDOR,
      name: 'Fake ELD',
      category: 'ELD',
      description: 'A test double of an ELD vendor',
      requiredFields: ['apiToken'],
      optionalFields: ['orgId', 'syncIntervalMinutes'],
      defaultSyncInterval: 15,
      ...info,
    };
  }

  validateConfig(config: Record<string, unknown>): string[] {
    return typeof config.apiToken === 'string' && config.apiToken.startsWith('bad-format') ? ['apiToken has the wrong format'] : [];
  }

  async test(config: Record<string, unknown>): Promise<ConnectionTestResult> {
    this.calls.push({ op: 'test', config });
    if (this.testOutcome instanceof IntegrationError) {
      return { ok: false, message: 'Authentication failed', details: {}, error: { code: this.testOutcome.code, details: this.testOutcome.details } };
    }
    if (this.testOutcome instanceof Error) throw this.testOutcome;
    return { ok: true, message: 'Connected', details: { vehicles: 2, apiVersion: 'v1', latency: '12 ms' } };
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<SyncResult> {
    this.calls.push({ op: 'sync', config, ctx });
    if (this.syncOutcome instanceof Error) throw this.syncOutcome;
    return {
      kind: 'ELD',
      clocks: [],
      logs: [],
      locations: ctx.vehicles.map((v) => ({ vehicleId: v.id, latitude: 32.7, longitude: -96.8, speedMph: 55, headingDegrees: 90, recordedAt: ctx.now.toISOString(), fuelLevelPercent: 70 })),
      faults: [],
      unmatched: { drivers: 1, vehicles: 0 },
    };
  }
}

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
