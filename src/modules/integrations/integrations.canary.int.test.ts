/**
 * No integration credential anywhere: every built-in vendor, against its sandbox, with a canary value as
 * its credential — accepted (test, sync) and refused (the sandbox then echoes it back in its 401 body,
 * as some vendors do) and failing (500s until the retries are spent). The canary must appear in no API
 * response, no log line (at debug level), no event, no alert, no webhook delivery; the stored config is
 * ciphertext.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VENDOR_SANDBOXES, type RunningSandbox } from '../../adapters/integrations/sandboxes.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createActiveRoute, createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { hookDns, runSyncPass, subscribeSyncFailed, type IntegrationHarness } from '../../../test/helpers/integrations.js';

const CANARY = 'canaryCredential7f3a9c1e2b5d4c3b';
const WRONG = 'canaryWrongCredential9e8d7c6b5a4f';

describe.each(DB_KINDS)('no credential leaks, every vendor against its sandbox (%s)', (kind) => {
  let t: TestApp;
  let h: IntegrationHarness;
  const sandboxes = new Map<string, RunningSandbox>();
  const logs: string[] = [];
  const bodies: string[] = [];
  const clock = new FakeClock('2026-03-02T14:00:00.000Z');

  beforeAll(async () => {
    const env: Record<string, string> = { LOG_LEVEL: 'debug' };
    for (const s of VENDOR_SANDBOXES) {
      const running = await s.start({ now: clock.now(), secret: CANARY });
      sandboxes.set(s.vendor, running);
      if (s.envVar) env[s.envVar] = running.url;
    }
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logs.push(String(chunk));
        done();
      },
    });
    t = await buildTestApp(kind, { clock, env, integrationAdapters: 'built-in', webhookResolver: hookDns, logStream });
    const tenant = await createTenant(t.app, { name: 'Canary Freight' });
    h = { t, auth: { 'x-api-key': (await createApiKey(t.app, tenant)).key } };
  });
  afterAll(async () => {
    await t?.close();
    for (const s of sandboxes.values()) await s.close();
  });

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: h.auth, ...(payload ? { payload } : {}) });
    bodies.push(res.body);
    return res;
  };

  // A keyless vendor (nws) has no credential to plant.
  it.each(VENDOR_SANDBOXES.filter((s) => s.secretFields.length > 0).map((s) => [s.vendor, s] as const))('%s: accepted, refused and failing, the canary is nowhere', async (vendor, s) => {
    const sandbox = sandboxes.get(vendor)!;
    await subscribeSyncFailed(h);
    const good = (await call('POST', '/api/v1/integrations', { vendor, name: `${vendor} canary`, config: s.config(sandbox, CANARY) })).json();
    expect(good.id, JSON.stringify(good)).toBeTruthy();
    expect((await call('POST', `/api/v1/integrations/${good.id as string}/test`)).json()).toMatchObject({ testResult: 'SUCCESS' });
    await runSyncPass(h);
    expect((await call('GET', `/api/v1/integrations/${good.id as string}`)).json()).toMatchObject({ status: 'ACTIVE' });

    // Refused: the sandbox echoes the wrong credential in its answer.
    const wrongConfig = Object.fromEntries(Object.entries(s.config(sandbox, CANARY)).map(([k, v]) => [k, s.secretFields.includes(k) ? WRONG : v]));
    const bad = (await call('POST', '/api/v1/integrations', { vendor, name: `${vendor} wrong`, config: wrongConfig })).json();
    expect((await call('POST', `/api/v1/integrations/${bad.id as string}/test`)).json()).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED' } });

    // Failing: 500 until the retries are spent, in a sync.
    clock.advance(24 * 3_600_000);
    // An active route from now on, so that vendors asked about route points (weather, fuel) are called.
    await createActiveRoute(t.app, h.auth, { departureTime: clock.now().toISOString() });
    await call('POST', `/api/v1/integrations/${good.id as string}/sync`);
    sandbox.inject({ kind: 'server-error', times: 50 });
    await runSyncPass(h);
    expect((await call('GET', `/api/v1/integrations/${good.id as string}`)).json()).toMatchObject({ status: 'ERROR' });
    await call('GET', '/api/v1/integrations');
    await call('GET', '/api/v1/alerts?type=INTEGRATION_SYNC_FAILED');

    const stored = await t.db.system((tx) => tx.query<Record<string, unknown>>('SELECT * FROM integrations'));
    const events = await t.db.system((tx) => tx.query<Record<string, unknown>>('SELECT * FROM outbox_events'));
    const alerts = await t.db.system((tx) => tx.query<Record<string, unknown>>('SELECT * FROM alerts'));
    const deliveries = await t.db.system((tx) => tx.query<Record<string, unknown>>('SELECT * FROM webhook_deliveries'));
    expect(logs.length).toBeGreaterThan(10);
    for (const [what, text] of [
      ['responses', bodies.join('\n')],
      ['logs', logs.join('')],
      ['integrations rows', JSON.stringify(stored.rows)],
      ['events', JSON.stringify(events.rows)],
      ['alerts', JSON.stringify(alerts.rows)],
      ['webhook deliveries', JSON.stringify(deliveries.rows)],
    ] as const) {
      expect(text.includes(CANARY), `${vendor}: the credential is in the ${what}`).toBe(false);
      expect(text.includes(WRONG), `${vendor}: the wrong credential is in the ${what}`).toBe(false);
    }
    expect(String(stored.rows.find((r) => r.id === good.id)!.config_ciphertext)).toMatch(/^[A-Za-z0-9+/=:._-]+$/);
  });
});
