/**
 * The conformance check every test app runs (test/helpers/openapi-conformance.ts) finds what it should:
 * a response that breaks its operation's schema, a request the service accepted that the document
 * refuses (a required body sent without one) — and not the exchanges that keep to the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAPIBackend } from 'openapi-backend';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createDriver, createTenant, type TenantFixture } from '../helpers/factories.js';
import { violationsOf, type Exchange } from '../helpers/openapi-conformance.js';

describe('the OpenAPI conformance check', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let api: OpenAPIBackend;
  let doc: Record<string, any>;
  const exchange = (x: Partial<Exchange>): Exchange => ({ method: 'GET', url: '/', headers: {}, body: undefined, statusCode: 200, contentType: 'application/json; charset=utf-8', payload: '{}', ...x });

  beforeAll(async () => {
    t = await buildTestApp('pglite');
    tenant = await createTenant(t.app);
    doc = JSON.parse(JSON.stringify(t.app.swagger()));
    api = await new OpenAPIBackend({ definition: JSON.parse(JSON.stringify(doc)), quick: true, strict: false }).init();
  });
  afterAll(async () => t?.close());

  it('passes a real exchange and finds a response that breaks its schema', async () => {
    const driver = await createDriver(t.app, tenant.auth);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driver.id}`, headers: tenant.auth });
    const real = exchange({ url: `/api/v1/drivers/${driver.id}`, payload: res.body });
    expect(violationsOf(api, real)).toEqual([]);
    const { firstName: _f, ...broken } = res.json();
    expect(violationsOf(api, { ...real, payload: JSON.stringify(broken) })).toEqual([expect.stringMatching(/getDriver.*the response breaks the document.*firstName/)]);
    // An error body is held to the error schema too.
    expect(violationsOf(api, exchange({ url: `/api/v1/drivers/${driver.id}`, statusCode: 404, payload: JSON.stringify({ message: 'gone' }) }))).toHaveLength(1);
  });

  it('action endpoints take no body: the document does not require one, so a body-less call keeps to it', async () => {
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId?: string; requestBody?: { required: boolean } }>>).flatMap((item) => Object.values(item));
    const byId = (id: string) => ops.find((o) => o.operationId === id)!;
    for (const id of ['approveTenant', 'activateRoute', 'completeRoute', 'cancelRoute', 'replanRoute', 'acknowledgeAlert', 'resolveAlert', 'syncIntegration', 'testIntegration', 'rotateWebhookSecret', 'disableWebhook', 'deleteDriver']) {
      expect(byId(id)?.requestBody?.required, id).toBe(false);
    }
    expect(byId('createDriver').requestBody?.required).toBe(true);
    const bodyless = exchange({ method: 'POST', url: '/api/v1/routes/rte_abc/activate', body: undefined, payload: '{}' });
    const requestProblems = (a: OpenAPIBackend) => violationsOf(a, bodyless).filter((v) => v.includes('accepted a request'));
    expect(requestProblems(api)).toEqual([]);
    // Against a document that required the body (as @fastify/swagger writes it), the same call is a finding.
    const strict = JSON.parse(JSON.stringify(doc));
    strict.paths['/api/v1/routes/{planId}/activate'].post.requestBody.required = true;
    const strictApi = await new OpenAPIBackend({ definition: strict, quick: true, strict: false }).init();
    expect(requestProblems(strictApi)).toEqual([expect.stringMatching(/activateRoute.*accepted a request the document refuses/)]);
  });

  it('the SSE stream’s ?apiKey= credential is a security scheme of the document', () => {
    expect(doc.components.securitySchemes.apiKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'apiKey' });
    expect(doc.paths['/api/v1/sse/alerts'].get.security).toContainEqual({ apiKeyQuery: [] });
  });
});
