import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

interface Operation {
  operationId?: string;
  summary?: string;
  requestBody?: { content: Record<string, { schema: Record<string, unknown>; examples?: Record<string, { value: unknown }> }> };
}
type Doc = { info: { version: string }; paths: Record<string, Record<string, Operation>> };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

function operations(doc: Doc): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ method, path, op })),
  );
}

describe('the OpenAPI document is ready for client generators', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await buildTestApp('pglite');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => t?.close());

  it('gives every operation a unique camelCase operationId', () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(80);
    const missing = ops.filter((o) => !o.op.operationId).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(missing, 'operations without an operationId').toEqual([]);
    const ids = ops.map((o) => o.op.operationId!);
    const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(duplicates, 'operationIds used twice').toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    // A few that clients will call by name.
    const byId = new Map(ops.map((o) => [o.op.operationId, `${o.method.toUpperCase()} ${o.path}`]));
    expect(byId.get('planRoute')).toBe('POST /api/v1/routes/plan');
    expect(byId.get('listDrivers')).toBe('GET /api/v1/drivers');
    expect(byId.get('registerTenant')).toBe('POST /api/v1/tenants/register');
    expect(byId.get('deactivateDriver')).toBe('POST /api/v1/drivers/{driverId}/deactivate');
    expect(byId.get('deleteDriver')).toBe('DELETE /api/v1/drivers/{driverId}');
  });

  it("carries package.json's version as info.version, and the health answer says the same", async () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(doc.info.version).toBe(pkg.version);
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.json().version).toBe(pkg.version);
  });
});
