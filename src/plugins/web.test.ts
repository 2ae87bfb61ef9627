import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';

function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-web-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Fleet HOS</title><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
  fs.writeFileSync(path.join(dir, 'assets', 'states-10m-def456.json'), '{"type":"Topology"}');
  return dir;
}

describe('the dashboard served at /', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fakeBuild();
    t = await buildTestApp('pglite', { env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers / and every page path with index.html, not cached, under a content security policy', async () => {
    for (const url of ['/', '/drivers', '/drivers/drv_123', '/routes/new?x=1', '/settings/api-keys/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'; script-src 'self'/);
    }
  });

  it('serves hashed assets for a year, gzipped when the client accepts it, with an ETag that answers 304', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('console.log');
    const gz = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 10);
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    const again = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await t.app.inject({ method: 'GET', url: '/assets/states-10m-def456.json' })).json()).toEqual({ type: 'Topology' });
  });

  it('never answers a missing file, an API path or a traversal attempt with the dashboard', async () => {
    for (const url of ['/assets/index-old999.js', '/favicon.ico', '/api/v1/no-such-thing', '/api', '/socket.io/x', '/metrics/x', '/assets/..%2f..%2fpackage.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    // Files come only from the build read into memory: a traversal gets the dashboard page, never a file.
    const traversal = await t.app.inject({ method: 'GET', url: '/%2e%2e/%2e%2e/etc/passwd' });
    expect(traversal.body).toContain('<div id="root">');
    expect(traversal.body).not.toMatch(/root:/);
    // The API itself is untouched.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).json()).toMatchObject({ status: 'healthy' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/drivers' })).statusCode).toBe(401);
  });
});

describe('without a dashboard build', () => {
  it('/ leads to the API documentation and page paths are 404', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-web-none-'));
    const t = await buildTestApp('pglite', { env: { WEB_DIST_DIR: empty } });
    try {
      const root = await t.app.inject({ method: 'GET', url: '/' });
      expect(root.statusCode).toBe(302);
      expect(root.headers.location).toBe('/docs');
      expect((await t.app.inject({ method: 'GET', url: '/drivers' })).statusCode).toBe(404);
    } finally {
      await t.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
