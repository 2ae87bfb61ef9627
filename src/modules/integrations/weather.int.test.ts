/**
 * The weather integrations through the public API against their sandboxes: OpenWeather (the spec's,
 * apiKey) and the US National Weather Service (keyless, a User-Agent with the optional contactEmail).
 * Registry entries; connection tests that succeed and fail with each code; syncs that fail cleanly
 * after their retries (429, 500, a hang). The data a sync stores: weather.sync.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NwsAdapter } from '../../adapters/integrations/nws/adapter.js';
import { startNwsSandbox, type NwsSandbox } from '../../adapters/integrations/nws/sandbox.js';
import { OpenWeatherAdapter } from '../../adapters/integrations/openweather/adapter.js';
import { OPENWEATHER_SANDBOX_KEY, startOpenWeatherSandbox, type OpenWeatherSandbox } from '../../adapters/integrations/openweather/sandbox.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { apiCall, connectIntegration, expectSyncFailedCleanly, hookDns, runSyncPass, subscribeSyncFailed, type IntegrationHarness } from '../../../test/helpers/integrations.js';
import { activeRoute } from '../../../test/helpers/weather.js';

const ATTEMPTS = 3;
const WRONG_KEY = 'wrongkey0123456789abcdef01234567';

describe.each(DB_KINDS)('weather integrations against their sandboxes (%s)', (kind) => {
  let t: TestApp;
  let ow: OpenWeatherSandbox;
  let nws: NwsSandbox;
  const clock = new FakeClock('2026-03-02T14:20:00.000Z');
  const http = { timeoutMs: 300, maxAttempts: ATTEMPTS, sleep: async () => {}, concurrency: 1 };

  beforeAll(async () => {
    ow = await startOpenWeatherSandbox({ now: () => clock.now() });
    nws = await startNwsSandbox({ now: () => clock.now() });
    t = await buildTestApp(kind, {
      clock,
      integrationAdapters: [new OpenWeatherAdapter({ baseUrl: ow.url, ...http }), new NwsAdapter({ baseUrl: nws.url, ...http })],
      webhookResolver: hookDns,
    });
  });
  afterAll(async () => {
    await t?.close();
    await ow?.close();
    await nws?.close();
  });

  async function tenant(name: string): Promise<IntegrationHarness> {
    const fixture = await createTenant(t.app, { name });
    return { t, auth: { 'x-api-key': (await createApiKey(t.app, fixture)).key } };
  }

  const test = async (h: IntegrationHarness, vendor: string, config: Record<string, unknown>) => {
    const created = await apiCall(h, 'POST', '/api/v1/integrations', { vendor, name: `${vendor} test`, config });
    const res = await h.t.app.inject({ method: 'POST', url: `/api/v1/integrations/${created.id as string}/test`, headers: h.auth });
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.json(), raw: res.body };
  };

  it('both are in the vendor registry with the spec fields (openweather exactly as the spec table)', async () => {
    const h = await tenant('Registry Freight');
    const vendors = (await apiCall(h, 'GET', '/api/v1/integrations/vendors')).data;
    expect(vendors).toContainEqual({
      vendor: 'openweather',
      name: 'OpenWeather',
      category: 'WEATHER',
      description: expect.any(String),
      requiredFields: ['apiKey'],
      optionalFields: ['syncIntervalMinutes'],
      defaultSyncInterval: 60,
      documentationUrl: 'https://openweathermap.org/api/one-call-3',
      secretFields: ['apiKey'],
    });
    expect(vendors).toContainEqual(
      expect.objectContaining({ vendor: 'nws', category: 'WEATHER', requiredFields: [], optionalFields: ['contactEmail', 'syncIntervalMinutes'], defaultSyncInterval: 30 }),
    );
  });

  describe('openweather connection test', () => {
    it('succeeds with the sandbox key: One Call 3.0, 48 forecast hours; the key never comes back', async () => {
      const h = await tenant('OW Test Freight');
      const { body, raw } = await test(h, 'openweather', { apiKey: OPENWEATHER_SANDBOX_KEY });
      expect(body).toMatchObject({ testResult: 'SUCCESS', message: 'Connected to OpenWeather One Call 3.0', details: { apiVersion: '3.0', hourlyForecastHours: 48, alertsAtTestPoint: 0, latency: expect.stringMatching(/^\d+ ms$/) } });
      expect(raw).not.toContain(OPENWEATHER_SANDBOX_KEY);
      expect(ow.state.requests.at(-1)).toMatchObject({ path: '/data/3.0/onecall', query: { units: 'imperial', lat: '39.0997', lon: '-94.5786' }, authorized: true });
    });

    it('a wrong key: AUTH_FAILED, and the 401 body that echoes the key does not leak it', async () => {
      // The sandbox's 401 does carry the key: without scrubbing it would reach the answer.
      const direct = await fetch(`${ow.url}/data/3.0/onecall?lat=1&lon=1&appid=${WRONG_KEY}`);
      expect(direct.status).toBe(401);
      expect(await direct.text()).toContain(WRONG_KEY);
      const h = await tenant('OW Wrong Key Freight');
      const { body, raw } = await test(h, 'openweather', { apiKey: WRONG_KEY });
      expect(body).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED', details: expect.stringContaining('401') } });
      expect(raw).not.toContain(WRONG_KEY);
    });

    it.each([
      ['rate-limit', 'RATE_LIMITED', ATTEMPTS],
      ['server-error', 'VENDOR_ERROR', ATTEMPTS],
      ['hang', 'TIMEOUT', ATTEMPTS],
      ['not-found', 'NOT_FOUND', 1],
    ] as const)('the vendor answering %s: %s after %i request(s)', async (fault, code, requests) => {
      const h = await tenant(`OW ${fault} Freight`);
      const before = ow.state.requests.length;
      // Exactly as many faults as the attempts: one more attempt than expected would succeed.
      ow.inject({ kind: fault, times: requests, retryAfter: '1' });
      const { body, raw } = await test(h, 'openweather', { apiKey: OPENWEATHER_SANDBOX_KEY });
      expect(body).toMatchObject({ testResult: 'FAILED', error: { code } });
      expect(raw).not.toContain(OPENWEATHER_SANDBOX_KEY);
      expect(ow.state.requests.length - before).toBe(requests);
    });
  });

  describe('nws connection test', () => {
    it('succeeds without a key, sending a User-Agent with the contact e-mail (or naming the service)', async () => {
      const h = await tenant('NWS Test Freight');
      const { body } = await test(h, 'nws', { contactEmail: 'dispatch@fleet.example' });
      expect(body).toMatchObject({ testResult: 'SUCCESS', message: 'Connected to the National Weather Service API', details: { activeAlertsNationwide: 0, contactConfigured: true } });
      expect(nws.state.userAgents.at(-1)).toBe('FleetHosService/0.1 (dispatch@fleet.example)');
      const bare = await test(h, 'nws', {});
      expect(bare.body).toMatchObject({ testResult: 'SUCCESS', details: { contactConfigured: false } });
      expect(nws.state.userAgents.at(-1)).toMatch(/^FleetHosService\/0\.1 \(.+\)$/);
    });

    it('an agent NWS has blocked: AUTH_FAILED (403); an invalid contactEmail is refused at creation', async () => {
      const h = await tenant('NWS Blocked Freight');
      nws.state.blockedUserAgents.push('blocked@fleet.example');
      try {
        const { body } = await test(h, 'nws', { contactEmail: 'blocked@fleet.example' });
        expect(body).toMatchObject({ testResult: 'FAILED', error: { code: 'AUTH_FAILED', details: expect.stringContaining('403') } });
      } finally {
        nws.state.blockedUserAgents.length = 0;
      }
      const bad = await h.t.app.inject({ method: 'POST', url: '/api/v1/integrations', headers: h.auth, payload: { vendor: 'nws', name: 'bad', config: { contactEmail: 'not an email' } } });
      expect(bad.statusCode).toBe(400);
    });

    it.each([
      ['rate-limit', 'RATE_LIMITED', ATTEMPTS],
      ['server-error', 'VENDOR_ERROR', ATTEMPTS],
      ['hang', 'TIMEOUT', ATTEMPTS],
      ['not-found', 'NOT_FOUND', 1],
    ] as const)('the vendor answering %s: %s after %i request(s)', async (fault, code, requests) => {
      const h = await tenant(`NWS ${fault} Freight`);
      const before = nws.state.requests.length;
      nws.inject({ kind: fault, times: requests, retryAfter: '1' });
      const { body } = await test(h, 'nws', { contactEmail: 'ops@fleet.example' });
      expect(body).toMatchObject({ testResult: 'FAILED', error: { code } });
      expect(nws.state.requests.length - before).toBe(requests);
    });
  });

  describe.each([
    ['openweather', () => ow, { apiKey: OPENWEATHER_SANDBOX_KEY }],
    ['nws', () => nws, { contactEmail: 'ops@fleet.example' }],
  ] as const)('%s sync failing', (vendor, sandbox, config) => {
    it.each([
      ['rate-limit', 'RATE_LIMITED', ATTEMPTS],
      ['server-error', 'VENDOR_ERROR', ATTEMPTS],
      ['hang', 'TIMEOUT', ATTEMPTS],
    ] as const)('the vendor answering %s: the sync fails cleanly with %s after %i request(s)', async (fault, code, requests) => {
      const h = await tenant(`${vendor} sync ${fault} Freight`);
      const webhookId = await subscribeSyncFailed(h);
      await activeRoute(h);
      const id = await connectIntegration(h, vendor, config);
      const before = sandbox().state.requests.length;
      sandbox().inject({ kind: fault, times: requests, retryAfter: '1' });
      await runSyncPass(h);
      expect(sandbox().state.requests.length - before).toBe(requests);
      await expectSyncFailedCleanly(h, id, code, webhookId);
      const row = await apiCall(h, 'GET', `/api/v1/integrations/${id}`);
      expect(JSON.stringify(row)).not.toContain(OPENWEATHER_SANDBOX_KEY);
    });
  });
});
