import fs from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/infra/webhook-http.js';
import { PLAN_DEFAULTS } from '../../src/modules/routes/routes.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminAction, createDriver, createTenant } from '../helpers/factories.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; description?: string; default?: unknown };
interface Media {
  schema: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, Media> };
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

/** The JSON body media of an operation, found by its operationId. */
function jsonBody(doc: Doc, operationId: string): Media {
  const found = operations(doc).find((o) => o.op.operationId === operationId);
  const media = found?.op.requestBody?.content['application/json'];
  if (!media) throw new Error(`${operationId}: no JSON request body`);
  return media;
}

function examplesOf(media: Media): unknown[] {
  return [...(media.example !== undefined ? [media.example] : []), ...Object.values(media.examples ?? {}).map((e) => e.value)];
}

/** The webhook example's host resolves to a public address (no DNS in tests). */
const exampleDns: HostResolver = async (host) => {
  if (host === 'dispatch.example.com') return [{ address: '93.184.216.34', family: 4 }];
  throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
};

describe('the OpenAPI document is ready for client generators', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await buildTestApp('pglite', { webhookResolver: exampleDns });
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

  const MAIN_REQUESTS = ['registerTenant', 'login', 'createDriver', 'planRoute', 'createWebhook'];

  it('shows an example body for each main request, valid against its own schema', () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    for (const id of MAIN_REQUESTS) {
      const media = jsonBody(doc, id);
      const examples = examplesOf(media);
      expect(examples.length, `${id} examples`).toBeGreaterThan(0);
      const validate = ajv.compile(media.schema);
      for (const example of examples) expect(validate(example) ? [] : validate.errors, `${id} example`).toEqual([]);
    }
  });

  it('the examples work when sent as written: register, login, create a driver, plan a route, create a webhook', async () => {
    const [register, loginBody, driver, plan, webhook] = MAIN_REQUESTS.map((id) => examplesOf(jsonBody(doc, id))[0] as Record<string, unknown>);
    const registered = await t.app.inject({ method: 'POST', url: '/api/v1/tenants/register', payload: register });
    expect(registered.statusCode, registered.body).toBe(201);
    await adminAction(t.app, registered.json().tenant.id, 'approve');
    const session = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: loginBody });
    expect(session.statusCode, session.body).toBe(200);
    const auth = { authorization: `Bearer ${session.json().accessToken}` };
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/drivers', headers: auth, payload: driver });
    expect(created.statusCode, created.body).toBe(201);
    // The plan example names a driver of its own; the only change is this tenant's driver id.
    const planned = await t.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: auth, payload: { ...plan, driverId: created.json().id } });
    expect(planned.statusCode, planned.body).toBe(201);
    expect(planned.json().stops.map((s: { name: string }) => s.name)).toEqual(['Dallas yard', 'Chicago DC', 'Columbus customer']);
    const hook = await t.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: auth, payload: webhook });
    expect(hook.statusCode, hook.body).toBe(201);
  });

  it('describes every plan option with its default, and the planner uses the defaults it states', async () => {
    const options = jsonBody(doc, 'planRoute').schema.properties!.options!.properties!;
    expect(Object.keys(options).length).toBeGreaterThanOrEqual(8);
    for (const [name, schema] of Object.entries(options)) {
      expect(schema.description, `options.${name}`).toMatch(/Default: \S/);
      if (schema.default !== undefined) expect(schema.description, `options.${name}`).toContain(`Default: ${String(schema.default)}.`);
    }
    expect(options.averageSpeedMph!.default).toBe(PLAN_DEFAULTS.averageSpeedMph);
    expect(options.fuelPricePerGallon!.default).toBe(PLAN_DEFAULTS.fuelPricePerGallon);
    expect(options.optimizeStopOrder!.default).toBe(false);
    expect(options.includeFuelStops!.default).toBe(true);

    // Without a vehicle, omitting the options plans exactly as giving their documented defaults.
    const tenant = await createTenant(t.app);
    const driver = await createDriver(t.app, tenant.auth);
    const base = {
      driverId: driver.id,
      departureTime: '2026-03-03T13:00:00Z',
      stops: [
        { name: 'Dallas yard', latitude: 32.7767, longitude: -96.797 },
        { name: 'Chicago DC', latitude: 41.8781, longitude: -87.6298 },
        { name: 'Columbus customer', latitude: 39.9612, longitude: -82.9988 },
      ],
      driverState: { hoursDriven: 6, onDutyHours: 7, hoursSinceBreak: 6, cycleHoursUsed: 30 },
    };
    const planOf = async (options?: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: tenant.auth, payload: { ...base, ...(options ? { options } : {}) } });
      expect(res.statusCode, res.body).toBe(201);
      const p = res.json();
      return { summary: p.summary, segments: p.segments, arrivalTime: p.arrivalTime, distanceMethod: p.distanceMethod };
    };
    const stated = {
      averageSpeedMph: options.averageSpeedMph!.default,
      distanceMethod: 'haversine', // the test server's DISTANCE_METHOD
      optimizeStopOrder: options.optimizeStopOrder!.default,
      includeFuelStops: options.includeFuelStops!.default,
      fuelTankGallons: PLAN_DEFAULTS.fuelTankGallons,
      mpg: PLAN_DEFAULTS.mpg,
      startingFuelGallons: PLAN_DEFAULTS.fuelTankGallons,
      fuelPricePerGallon: options.fuelPricePerGallon!.default,
    };
    const omitted = await planOf();
    expect(omitted.summary.fuelStops).toBeGreaterThan(0);
    expect(await planOf(stated)).toEqual(omitted);
    // The comparison notices a changed option.
    expect(await planOf({ ...stated, averageSpeedMph: 50 })).not.toEqual(omitted);
    expect(await planOf({ ...stated, startingFuelGallons: 40 })).not.toEqual(omitted);
  });
});
