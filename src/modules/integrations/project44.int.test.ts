/**
 * The project44 visibility integration through the public API, against the local project44 sandbox:
 * the registry entry; a connection test that succeeds (one token, reused by the syncs after it) or
 * fails with AUTH_FAILED, NOT_FOUND, RATE_LIMITED, TIMEOUT, VENDOR_ERROR; a sync by the integrations
 * worker that maps each shipment onto its load's ACTIVE route as one ETA route signal; a second sync
 * that changes nothing; a moved ETA and a shipment gone; a token refused mid-life; and 429 / 500 / a hang
 * during a sync: retried, then a clean failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { activeRouteForLoad, dallasHoustonStops } from '../../../test/helpers/visibility.js';
import { apiCall, connectIntegration, expectSyncFailedCleanly, hookDns, runSyncPass, subscribeSyncFailed, type IntegrationHarness } from '../../../test/helpers/integrations.js';
import { Project44Adapter } from '../../adapters/integrations/project44/adapter.js';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, SHIPMENTS_PATH, startProject44Sandbox, statusPath, type Project44Sandbox } from '../../adapters/integrations/project44/sandbox.js';

const NOW = new Date('2026-03-02T14:00:00.000Z');
const at = (minutes: number): string => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const CONFIG = { clientId: SANDBOX_CLIENT_ID, clientSecret: SANDBOX_CLIENT_SECRET, environment: 'sandbox' };
const SYNC_INTERVAL_MS = 15 * 60_000;
const byRoute = (a: { route_id: string }, b: { route_id: string }): number => (a.route_id < b.route_id ? -1 : a.route_id > b.route_id ? 1 : 0);

/** Dallas → Houston, delivery window [now+2 h, now+4 h]; the sandbox predicts Houston at now+4.5 h. */
const HOUSTON_ROUTE = dallasHoustonStops(at(120), at(240));

describe.each(DB_KINDS)('the project44 integration against its sandbox (%s)', (kind) => {
  let t: TestApp;
  let h: IntegrationHarness;
  let sandbox: Project44Sandbox;
  let webhookId: string;
  let integrationId: string;
  const routes: Record<'houston' | 'laredo', string> = { houston: '', laredo: '' };

  beforeAll(async () => {
    sandbox = await startProject44Sandbox({ now: NOW });
    const clock = new FakeClock(NOW);
    const adapter = new Project44Adapter({ baseUrl: sandbox.url, timeoutMs: 300, sleep: async () => {}, now: () => clock.now().getTime() });
    t = await buildTestApp(kind, { clock, integrationAdapters: [adapter], webhookResolver: hookDns });
    const tenant = await createTenant(t.app, { name: 'Visible Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
    webhookId = await subscribeSyncFailed(h);
    routes.houston = (await activeRouteForLoad(h, 'load-p44-1001', HOUSTON_ROUTE, at(-240))).routeId;
    // The second load came from a dispatch TMS: its external id is the shipment's bill of lading.
    const laredo = await activeRouteForLoad(
      h,
      'TMS-ORDER-2',
      [
        { name: 'Austin DC', latitude: 30.2672, longitude: -97.7431, type: 'ORIGIN' },
        { name: 'San Antonio Store', latitude: 29.4241, longitude: -98.4936, type: 'DELIVERY', dockDurationHours: 0.5 },
        { name: 'Laredo Store', latitude: 27.5036, longitude: -99.5075, type: 'DELIVERY', dockDurationHours: 0.5 },
      ],
      at(-120),
    );
    routes.laredo = laredo.routeId;
    await t.db.system((tx) => tx.query(`UPDATE loads SET source = 'mcleod', external_id = 'BOL-77002' WHERE id = $1`, [laredo.loadId]));
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  const signals = async () =>
    (
      await t.db.system((tx) =>
        tx.query<{ route_id: string; integration_id: string; kind: string; source: string; data: unknown; observed_at: Date | string }>(
          `SELECT route_id, integration_id, kind, source, data, observed_at FROM route_signals`,
        ),
      )
    ).rows
      .map((r) => ({ ...r, data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data, observed_at: new Date(r.observed_at).toISOString() }))
      .sort(byRoute);
  const requestsTo = (path: string) => sandbox.state.requests.filter((r) => r.path === path).length;
  const failedTest = async (config: Record<string, unknown>) => {
    const created = await apiCall(h, 'POST', '/api/v1/integrations', { vendor: 'project44', name: 'p44 failing', config });
    return { id: created.id as string, res: await t.app.inject({ method: 'POST', url: `/api/v1/integrations/${created.id as string}/test`, headers: h.auth }) };
  };

  it('is in the vendor registry with the spec fields', async () => {
    const vendors = await apiCall(h, 'GET', '/api/v1/integrations/vendors');
    expect(vendors.data).toContainEqual(
      expect.objectContaining({ vendor: 'project44', category: 'TMS', requiredFields: ['clientId', 'clientSecret'], optionalFields: ['environment', 'syncIntervalMinutes'], defaultSyncInterval: 15 }),
    );
  });

  it('connects with one token, syncs with the same token, and stores one ETA signal per matched route, field by field', async () => {
    integrationId = await connectIntegration(h, 'project44', CONFIG);
    expect(sandbox.tokenRequests()).toBe(1);
    const tested = await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`);
    expect(tested).toMatchObject({ status: 'ACTIVE', lastTest: { testResult: 'SUCCESS' } });

    await runSyncPass(h);
    expect(sandbox.tokenRequests()).toBe(1);
    const after = await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`);
    expect(after).toMatchObject({ status: 'ACTIVE', lastError: null });
    expect(after.lastSyncCounts).toEqual({ shipments: 3, exceptions: 3, shipmentsMatched: 2, shipmentsUnmatched: 1, etaUpdated: 2, etaUnchanged: 0, etaRemoved: 0 });
    const syncedAt = after.lastSyncAt as string;
    expect(await signals()).toEqual(
      [
        {
          route_id: routes.houston,
          integration_id: integrationId,
          kind: 'ETA',
          source: 'project44',
          data: { predictions: [{ stopIndex: 1, predictedArrival: at(270), at: at(-2) }], exceptions: ['RUNNING_LATE'] },
          observed_at: syncedAt,
        },
        {
          route_id: routes.laredo,
          integration_id: integrationId,
          kind: 'ETA',
          source: 'project44',
          data: {
            predictions: [
              { stopIndex: 1, predictedArrival: at(70), at: at(-4) },
              { stopIndex: 2, predictedArrival: at(330), at: at(-4) },
            ],
            exceptions: ['HIGH_WINDS'],
          },
          observed_at: syncedAt,
        },
      ].sort(byRoute),
    );
  });

  it('the route reads the prediction at its stops, the figure the appointment alerts use (the dispatcher and the driver see one ETA)', async () => {
    const houston = await apiCall(h, 'GET', `/api/v1/routes/${routes.houston}`);
    const stops = houston.stops as Array<{ name: string; prediction: unknown }>;
    expect(stops.map((s) => s.prediction)).toEqual([null, { arrivalTime: at(270), source: 'project44', estimatedAt: at(-2) }]);
    const laredo = await apiCall(h, 'GET', `/api/v1/routes/${routes.laredo}`);
    expect((laredo.stops as Array<{ prediction: { arrivalTime: string } | null }>).map((s) => s.prediction?.arrivalTime ?? null)).toEqual([null, at(70), at(330)]);
    // The list does not carry it (one query per page, not one per route).
    const list = await apiCall(h, 'GET', '/api/v1/routes?status=ACTIVE');
    expect(JSON.stringify(list)).not.toContain('"prediction"');
  });

  it('a second sync changes nothing: etaUnchanged, rows and observed_at untouched', async () => {
    const before = await signals();
    const tokenRequests = sandbox.tokenRequests();
    t.clock.advance(SYNC_INTERVAL_MS);
    await runSyncPass(h);
    const after = await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`);
    expect(after.lastSyncAt).toBe(t.clock.now().toISOString());
    expect(after.lastSyncCounts).toMatchObject({ shipmentsMatched: 2, etaUpdated: 0, etaUnchanged: 2, etaRemoved: 0 });
    expect(await signals()).toEqual(before);
    expect(sandbox.tokenRequests()).toBe(tokenRequests);
  });

  it('a moved ETA rewrites its row only; a shipment no longer tracked loses its row', async () => {
    const before = await signals();
    const houston = sandbox.state.shipments.find((s) => s.shipment.id === 'P44-SHIP-1')!;
    houston.latestStopStatuses![1]!.arrivalEstimate = { estimatedArrivalWindow: { startDateTime: at(300), endDateTime: at(330) }, lastCalculatedDateTime: at(10) };
    const removed = sandbox.state.shipments.splice(1, 1);
    t.clock.advance(SYNC_INTERVAL_MS);
    await runSyncPass(h);
    const after = await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`);
    expect(after.lastSyncCounts).toMatchObject({ shipments: 2, shipmentsMatched: 1, shipmentsUnmatched: 1, etaUpdated: 1, etaUnchanged: 0, etaRemoved: 1 });
    const rows = await signals();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ route_id: routes.houston, data: { predictions: [{ stopIndex: 1, predictedArrival: at(300), at: at(10) }], exceptions: ['RUNNING_LATE'] }, observed_at: t.clock.now().toISOString() });
    expect(rows[0]!.observed_at).not.toBe(before.find((r) => r.route_id === routes.houston)!.observed_at);
    sandbox.state.shipments.splice(1, 0, ...removed);
  });

  it('a token project44 stops accepting is dropped and replaced once, and the sync goes through', async () => {
    const tokenRequests = sandbox.tokenRequests();
    sandbox.revokeTokens();
    t.clock.advance(SYNC_INTERVAL_MS);
    await runSyncPass(h);
    expect(sandbox.tokenRequests()).toBe(tokenRequests + 1);
    expect(await apiCall(h, 'GET', `/api/v1/integrations/${integrationId}`)).toMatchObject({ status: 'ACTIVE', lastError: null, lastSyncAt: t.clock.now().toISOString() });
  });

  it('a wrong secret fails the test with AUTH_FAILED and never shows the secret (the sandbox echoes it)', async () => {
    const secret = 'p44_WRONG_secret_canary_7f3a9b';
    const { res } = await failedTest({ ...CONFIG, clientSecret: secret });
    expect(res.json()).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED' } });
    expect(res.body).not.toContain(secret);
    const { rows } = await t.db.system((tx) => tx.query<{ last_error: unknown; last_test: unknown }>(`SELECT last_error, last_test FROM integrations`));
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it.each([
    ['not-found', 'NOT_FOUND', 1],
    ['rate-limit', 'RATE_LIMITED', 4],
    ['server-error', 'VENDOR_ERROR', 4],
    ['hang', 'TIMEOUT', 4],
  ] as const)('a connection test answered with %s fails with %s after %i request(s)', async (fault, code, attempts) => {
    const before = requestsTo(SHIPMENTS_PATH);
    sandbox.inject({ path: SHIPMENTS_PATH, kind: fault, times: attempts, retryAfter: '1' });
    const { res } = await failedTest(CONFIG);
    expect(res.json()).toMatchObject({ testResult: 'FAILED', error: { code } });
    expect(requestsTo(SHIPMENTS_PATH) - before).toBe(attempts);
  });

  it.each([
    ['rate-limit', 'RATE_LIMITED', 4],
    ['server-error', 'VENDOR_ERROR', 4],
    ['hang', 'TIMEOUT', 4],
  ] as const)('a sync answered with %s fails cleanly with %s after %i request(s)', async (fault, code, attempts) => {
    t.clock.advance(SYNC_INTERVAL_MS);
    const id = await connectIntegration(h, 'project44', CONFIG, `p44 ${fault}`);
    // Only the new integration is due: the main one synced less than an interval ago.
    await apiCall(h, 'POST', `/api/v1/integrations/${integrationId}/disable`);
    const path = statusPath('P44-SHIP-1');
    const before = requestsTo(path);
    sandbox.inject({ path, kind: fault, times: attempts, retryAfter: '1' });
    await runSyncPass(h);
    expect(requestsTo(path) - before).toBe(attempts);
    await expectSyncFailedCleanly(h, id, code, webhookId);
    await apiCall(h, 'POST', `/api/v1/integrations/${id}/disable`);
    await apiCall(h, 'POST', `/api/v1/integrations/${integrationId}/enable`);
  });
});
