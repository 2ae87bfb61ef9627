import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTenant } from '../helpers/factories.js';

describe('platform surface: health, errors, OpenAPI, docs, metrics, request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('pglite');
  });
  afterAll(async () => t?.close());

  it('reports healthy with a database check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'healthy', checks: { database: { status: 'up', kind: 'pglite' } } });
  });

  it('answers an unknown route with the 404 error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route GET /api/v1/no-such-thing not found' });
  });

  it('answers malformed JSON, a wrong content type and a huge body with 4xx error bodies', async () => {
    const tenant = await createTenant(t.app);
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/drivers', headers: { ...tenant.auth, 'content-type': 'application/json' }, payload: '{"firstName": ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Malformed JSON body' });
    const proto = await t.app.inject({
      method: 'POST',
      url: '/api/v1/drivers',
      headers: { ...tenant.auth, 'content-type': 'application/json' },
      payload: '{"__proto__": {"admin": true}, "firstName": "a"}',
    });
    expect(proto.statusCode).toBe(400);
    const xml = await t.app.inject({ method: 'POST', url: '/api/v1/drivers', headers: { ...tenant.auth, 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/v1/drivers',
      headers: { ...tenant.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ firstName: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas, and the interactive reference', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of ['/api/v1/drivers', '/api/v1/drivers/{driverId}', '/api/v1/tenants/register', '/api/v1/auth/login', '/api/v1/api-keys', '/api/v1/tenant/settings/alerts']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const create = doc.paths['/api/v1/drivers'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['firstName', 'lastName', 'licenseNumber', 'licenseState']);
    expect(create.responses['201']).toBeDefined();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const docs = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
  });

  it('exposes Prometheus metrics by route pattern, with error counts', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    await t.app.inject({ method: 'GET', url: '/api/v1/drivers/drv_abc' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/health",status_code="200"\} \d+/);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/drivers\/:driverId",status_code="401"\} 1/);
    expect(res.body).toContain('http_request_duration_seconds_bucket');
    expect(res.body).toContain('http_request_errors_total');
    expect(res.body).not.toContain('drv_abc');
  });

  it('returns a request id on every response, honouring a well-formed incoming one', async () => {
    const given = await t.app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers['x-request-id']).toBe('trace-123');
    const made = await t.app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
