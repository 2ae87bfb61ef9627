import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { metricsAccess } from './metrics.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const prodSecrets = { JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') };
const UNAUTHORIZED = { statusCode: 401, error: 'Unauthorized', message: 'Metrics require Authorization: Bearer <METRICS_TOKEN>' };

describe('METRICS_TOKEN (configuration)', () => {
  it('decides who reads /metrics: the token when set; otherwise everyone outside production and nobody in it', () => {
    expect(metricsAccess(loadConfig({ NODE_ENV: 'development' }))).toEqual({ kind: 'open' });
    expect(metricsAccess(loadConfig({ NODE_ENV: 'development', METRICS_TOKEN: TOKEN }))).toEqual({ kind: 'token', token: TOKEN });
    expect(metricsAccess(loadConfig({ NODE_ENV: 'production', ...prodSecrets }))).toEqual({ kind: 'disabled' });
    expect(metricsAccess(loadConfig({ NODE_ENV: 'production', ...prodSecrets, METRICS_TOKEN: TOKEN }))).toEqual({ kind: 'token', token: TOKEN });
  });

  it('refuses a short token or one with spaces, naming the variable', () => {
    for (const bad of ['short-token', 'has a space in it 0123456789']) {
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(/^METRICS_TOKEN: must be at least 16 characters without spaces$/);
    }
  });
});

describe('GET /metrics access', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const scrape = (authorization?: string) => t!.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('is open in development and tests when no token is set', async () => {
    t = await buildTestApp('pglite');
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('process_cpu_user_seconds_total');
  });

  it('in production without METRICS_TOKEN it is not served (404), the rest of the app is', async () => {
    t = await buildTestApp('pglite', { env: { NODE_ENV: 'production' } });
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route GET /metrics not found' });
    expect(res.body).not.toContain('process_cpu');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });

  for (const env of ['production', 'test'] as const) {
    it(`with METRICS_TOKEN (NODE_ENV=${env}): 401 without the bearer token or with a wrong one, 200 with it`, async () => {
      t = await buildTestApp('pglite', { env: { NODE_ENV: env, METRICS_TOKEN: TOKEN } });
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer x', TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN} extra`]) {
        const res = await scrape(authorization);
        expect(res.statusCode, String(authorization)).toBe(401);
        expect(res.json()).toEqual(UNAUTHORIZED);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(res.body).not.toContain(TOKEN);
      }
      for (const authorization of [`Bearer ${TOKEN}`, `bearer  ${TOKEN}`]) {
        const res = await scrape(authorization);
        expect(res.statusCode, authorization).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(res.body).toContain('http_requests_total');
      }
    });
  }
});
