/**
 * One security suite run against EVERY route of the app.
 *
 * The route list comes from the app itself (`app.routeCatalog`, filled by the auth plugin's onRoute
 * hook, cross-checked against Fastify's own router), and this file keeps a table (SAMPLES) that maps
 * each route to its expected access declaration and a sample request. A route without an entry, or an
 * entry without a route, fails the suite: new routes must be added here.
 *
 * For each protected route: (a) no credentials → 401; (b) invalid, expired, forged and revoked
 * credentials → 401; (c) every tenant role and API keys → 403 exactly when policies.ts says so;
 * (d) another tenant's resource id → 404; (e) platform admin token on tenant routes and tenant
 * credentials on /admin → 403; (f) SUSPENDED tenant → 403 naming the tenant, PENDING_APPROVAL tenant →
 * only GET /auth/me and GET /tenant.
 */
import { STATUS_CODES } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens, ACCESS_TOKEN_TTL_SECONDS } from '../../src/modules/auth/auth.tokens.js';
import { can, TENANT_ROLES, type Permission, type TenantRole } from '../../src/plugins/policies.js';
import { randomBase62 } from '../../src/lib/ids.js';
import { seedAlerts } from '../helpers/alerts.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { DB_KINDS } from '../helpers/db.js';
import { adminAction, adminToken, buildDriver, createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../helpers/factories.js';

type Kind = 'driver' | 'user' | 'apiKey' | 'invitation' | 'tenant' | 'vehicle' | 'load' | 'location' | 'route' | 'alert' | 'webhook' | 'delivery' | 'integration' | 'edit' | 'unassigned';
type ExpectedAccess =
  | { auth: 'public'; rateLimit?: boolean }
  | { auth: 'platform' }
  | { auth: 'tenant'; permission: Permission; apiKey?: false; allowPending?: true; queryApiKey?: true };

interface Sample {
  /** The access declaration the route must carry (pinned here so a silent change fails the suite). */
  access: ExpectedAccess;
  /** Which resource the route's single path parameter names. */
  param?: Kind;
  query?: string;
  /** A valid body; `u` is unique per call so creates do not collide; `w` is the world the request is sent to. */
  body?: (u: string, w: World) => unknown;
  /** Sent as text with this content type (default: JSON). */
  contentType?: string;
}

const PUBLIC = { auth: 'public' } as const;
const PUBLIC_UNLIMITED = { auth: 'public', rateLimit: false } as const;
const PLATFORM = { auth: 'platform' } as const;
const tenant = (permission: Permission, extra: { apiKey?: false; allowPending?: true; queryApiKey?: true } = {}): ExpectedAccess => ({ auth: 'tenant', permission, ...extra });

/** Every route the app serves (HEAD mirrors of GET routes are derived from their GET entry). */
const SAMPLES: Record<string, Sample> = {
  // Public: no credentials by design.
  'GET /': { access: PUBLIC_UNLIMITED },
  'GET /*': { access: PUBLIC_UNLIMITED },
  'GET /metrics': { access: PUBLIC_UNLIMITED },
  'GET /api/v1/openapi.json': { access: PUBLIC_UNLIMITED },
  'GET /api/v1/health': { access: PUBLIC_UNLIMITED },
  'GET /api/v1/health/ready': { access: PUBLIC_UNLIMITED },
  'POST /api/v1/tenants/register': { access: PUBLIC },
  'POST /api/v1/auth/login': { access: PUBLIC },
  'POST /api/v1/auth/idp/exchange': { access: PUBLIC },
  'POST /api/v1/auth/refresh': { access: PUBLIC },
  'POST /api/v1/auth/logout': { access: PUBLIC },
  'POST /api/v1/user-invitations/accept': { access: PUBLIC },
  'POST /api/v1/user-invitations/lookup': { access: PUBLIC },

  // Tenant and profile.
  'GET /api/v1/tenant': { access: tenant('tenant:read', { allowPending: true }) },
  'GET /api/v1/auth/me': { access: tenant('profile:read', { allowPending: true }) },

  // API keys.
  'POST /api/v1/api-keys': { access: tenant('api-keys:manage', { apiKey: false }), body: (u) => ({ name: `key ${u}` }) },
  'GET /api/v1/api-keys': { access: tenant('api-keys:manage'), query: 'page=1&pageSize=5' },
  'DELETE /api/v1/api-keys/:id': { access: tenant('api-keys:manage'), param: 'apiKey' },

  // Users.
  'GET /api/v1/users': { access: tenant('users:read'), query: 'page=1&pageSize=5' },
  'GET /api/v1/users/:id': { access: tenant('users:read'), param: 'user' },
  'PUT /api/v1/users/:id': { access: tenant('users:write'), param: 'user', body: () => ({ firstName: 'Renamed' }) },
  'DELETE /api/v1/users/:id': { access: tenant('users:write'), param: 'user' },

  // Invitations.
  'POST /api/v1/user-invitations': { access: tenant('invitations:write'), body: (u) => ({ email: `invitee-${u}@example.test`, role: 'VIEWER' }) },
  'GET /api/v1/user-invitations': { access: tenant('invitations:read'), query: 'page=1&pageSize=5' },
  'DELETE /api/v1/user-invitations/:id': { access: tenant('invitations:write'), param: 'invitation' },

  // Drivers.
  'POST /api/v1/drivers': { access: tenant('drivers:write'), body: () => buildDriver() },
  'GET /api/v1/drivers': { access: tenant('drivers:read'), query: 'status=ACTIVE&search=dana&page=1&pageSize=20' },
  'GET /api/v1/drivers/:driverId': { access: tenant('drivers:read'), param: 'driver' },
  'PUT /api/v1/drivers/:driverId': { access: tenant('drivers:write'), param: 'driver', body: () => ({ truckNumber: 'T-77', phoneNumber: '+1 214 555 0199' }) },
  'POST /api/v1/drivers/:driverId/deactivate': { access: tenant('drivers:write'), param: 'driver' },
  'DELETE /api/v1/drivers/:driverId': { access: tenant('drivers:write'), param: 'driver' },
  'POST /api/v1/drivers/:driverId/reactivate': { access: tenant('drivers:write'), param: 'driver' },

  // Driver HOS and the duty-status log.
  'GET /api/v1/drivers/:driverId/hos': { access: tenant('hos:read'), param: 'driver' },
  'POST /api/v1/drivers/:driverId/duty-status': { access: tenant('duty-status:write'), param: 'driver', body: () => ({ status: 'ON_DUTY_NOT_DRIVING', note: 'security suite' }) },
  'GET /api/v1/drivers/:driverId/duty-status': { access: tenant('hos:read'), param: 'driver', query: 'limit=10' },
  'POST /api/v1/drivers/:driverId/location': { access: tenant('duty-status:write'), param: 'driver', body: () => ({ latitude: 32.78, longitude: -96.8 }) },

  // Records of duty status: daily logs, corrections, certification. The second parameter (:date) is yesterday.
  'GET /api/v1/drivers/:driverId/logs': { access: tenant('hos:read'), param: 'driver' },
  'GET /api/v1/drivers/:driverId/logs.pdf': { access: tenant('hos:read'), param: 'driver' },
  'GET /api/v1/drivers/:driverId/logs.csv': { access: tenant('hos:read'), param: 'driver' },
  'POST /api/v1/drivers/:driverId/log-edits': { access: tenant('logs:edit'), param: 'driver', body: () => logEditBody() },
  'GET /api/v1/compliance/hos': { access: tenant('compliance:read'), query: 'page=1&pageSize=5' },
  'GET /api/v1/log-edits': { access: tenant('hos:read'), query: 'status=PENDING&page=1&pageSize=5' },
  'GET /api/v1/log-edits/:editId': { access: tenant('hos:read'), param: 'edit' },
  'POST /api/v1/log-edits/:editId/accept': { access: tenant('logs:decide'), param: 'edit', body: () => ({ annotation: 'Looks right to me' }) },
  'POST /api/v1/log-edits/:editId/reject': { access: tenant('logs:decide'), param: 'edit', body: () => ({ annotation: 'That is not what happened' }) },
  'POST /api/v1/log-edits/:editId/cancel': { access: tenant('logs:edit'), param: 'edit' },
  'POST /api/v1/vehicles/:vehicleId/unassigned-driving': { access: tenant('unassigned:write'), param: 'vehicle', body: () => unassignedBody() },
  'GET /api/v1/unassigned-driving': { access: tenant('unassigned:read'), query: 'status=UNASSIGNED&page=1&pageSize=5' },
  'GET /api/v1/unassigned-driving/:unassignedId': { access: tenant('unassigned:read'), param: 'unassigned' },
  'POST /api/v1/unassigned-driving/:unassignedId/assign': { access: tenant('unassigned:write'), param: 'unassigned', body: (_u, w) => ({ driverId: w.ids.driver }) },
  'POST /api/v1/unassigned-driving/:unassignedId/annotate': { access: tenant('unassigned:write'), param: 'unassigned', body: () => ({ annotation: 'Yard move' }) },
  'POST /api/v1/drivers/:driverId/logs/:date/certify': { access: tenant('logs:decide'), param: 'driver' },

  // Vehicles.
  'POST /api/v1/vehicles': { access: tenant('vehicles:write'), body: (u) => ({ unitNumber: `U-${u}`, make: 'Freightliner', year: 2021 }) },
  'GET /api/v1/vehicles': { access: tenant('vehicles:read'), query: 'status=ACTIVE&page=1&pageSize=5' },
  'GET /api/v1/vehicles/:vehicleId': { access: tenant('vehicles:read'), param: 'vehicle' },
  'PUT /api/v1/vehicles/:vehicleId': { access: tenant('vehicles:write'), param: 'vehicle', body: () => ({ mpg: 7.1 }) },
  'DELETE /api/v1/vehicles/:vehicleId': { access: tenant('vehicles:write'), param: 'vehicle' },

  // Loads.
  'POST /api/v1/loads': { access: tenant('loads:write'), body: (u) => ({ referenceNumber: `REF-${u}`, customer: 'Acme Foods' }) },
  'GET /api/v1/loads': { access: tenant('loads:read'), query: 'status=PENDING&page=1&pageSize=5' },
  'GET /api/v1/loads/:loadId': { access: tenant('loads:read'), param: 'load' },
  'PUT /api/v1/loads/:loadId': { access: tenant('loads:write'), param: 'load', body: () => ({ commodity: 'Steel coils' }) },
  'POST /api/v1/loads/:loadId/status': { access: tenant('loads:write'), param: 'load', body: () => ({ status: 'ASSIGNED' }) },
  'DELETE /api/v1/loads/:loadId': { access: tenant('loads:write'), param: 'load' },

  // Locations.
  'POST /api/v1/locations': { access: tenant('locations:write'), body: (u) => ({ name: `Stop ${u}`, type: 'TRUCK_STOP', latitude: 32.78, longitude: -96.8 }) },
  'GET /api/v1/locations': { access: tenant('locations:read'), query: 'type=TRUCK_STOP&near=32.7,-96.8&radiusMiles=100' },
  'GET /api/v1/locations/:locationId': { access: tenant('locations:read'), param: 'location' },
  'PUT /api/v1/locations/:locationId': { access: tenant('locations:write'), param: 'location', body: () => ({ amenities: { diesel: true } }) },
  'DELETE /api/v1/locations/:locationId': { access: tenant('locations:write'), param: 'location' },
  'POST /api/v1/locations/import': {
    access: tenant('locations:write'),
    contentType: 'text/csv',
    body: (u) => `name,type,latitude,longitude,externalId\nYard ${u},YARD,33.01,-97.02,ext-${u}\n`,
  },

  // Routes and rest recommendations.
  'POST /api/v1/routes/plan': {
    access: tenant('routes:write'),
    body: (_u, w) => ({ driverId: w.ids.driver, stops: [{ name: 'Dallas yard', latitude: 32.78, longitude: -96.8 }, { address: 'Fort Worth, TX' }] }),
  },
  'GET /api/v1/routes': { access: tenant('routes:read'), query: 'status=PLANNED&page=1&pageSize=5' },
  'GET /api/v1/routes/:planId': { access: tenant('routes:read'), param: 'route' },
  'POST /api/v1/routes/:planId/activate': { access: tenant('routes:write'), param: 'route' },
  'POST /api/v1/routes/:planId/complete': { access: tenant('routes:write'), param: 'route' },
  'POST /api/v1/routes/:planId/cancel': { access: tenant('routes:write'), param: 'route', body: () => ({ reason: 'security suite' }) },
  'POST /api/v1/routes/:planId/positions': { access: tenant('positions:write'), param: 'route', body: () => ({ latitude: 32.9, longitude: -97.0, speedMph: 55 }) },
  'GET /api/v1/routes/:planId/positions': { access: tenant('routes:read'), param: 'route', query: 'limit=5' },
  'POST /api/v1/routes/:planId/replan': { access: tenant('routes:write'), param: 'route', query: 'preview=true', body: () => ({ position: { latitude: 32.9, longitude: -97.0 } }) },
  'GET /api/v1/routes/:planId/revisions': { access: tenant('routes:read'), param: 'route' },
  // The second parameter (:revision) is 1.
  'GET /api/v1/routes/:planId/revisions/:revision': { access: tenant('routes:read'), param: 'route' },
  'POST /api/v1/dispatch/candidates': {
    access: tenant('dispatch:read'),
    body: (_u, w) => ({ driverIds: [w.ids.driver], stops: [{ name: 'Dallas yard', latitude: 32.78, longitude: -96.8 }, { address: 'Fort Worth, TX' }] }),
  },
  'POST /api/v1/rest/recommend': {
    access: tenant('rest:recommend'),
    body: () => ({
      current_location: { latitude: 35.22, longitude: -101.83, name: 'Amarillo truck stop' },
      driver_state: { hours_driven: 9, on_duty_hours: 10, hours_since_break: 1, cycle_hours_used: 40 },
      dock_duration_hours: 0,
      remaining_route_hours: 5,
      is_dedicated_rest_stop: true,
    }),
  },

  // Alerts.
  'GET /api/v1/alerts': { access: tenant('alerts:read'), query: 'status=ACTIVE,ACKNOWLEDGED&type=HOS_APPROACHING_LIMIT&page=1&pageSize=5' },
  'GET /api/v1/alerts/stats': { access: tenant('alerts:read') },
  'GET /api/v1/alerts/analytics/volume': { access: tenant('alerts:read'), query: 'interval=day' },
  'GET /api/v1/alerts/analytics/response-time': { access: tenant('alerts:read'), query: 'interval=hour' },
  'GET /api/v1/alerts/analytics/resolution': { access: tenant('alerts:read') },
  'GET /api/v1/alerts/analytics/top-types': { access: tenant('alerts:read'), query: 'limit=5' },
  'GET /api/v1/alerts/:alertId': { access: tenant('alerts:read'), param: 'alert' },
  'GET /api/v1/alerts/:alertId/notes': { access: tenant('alerts:read'), param: 'alert' },
  'POST /api/v1/alerts/:alertId/notes': { access: tenant('alerts:write'), param: 'alert', body: () => ({ text: 'security suite' }) },
  'POST /api/v1/alerts/:alertId/snooze': { access: tenant('alerts:write'), param: 'alert', body: () => ({ minutes: 15 }) },
  'POST /api/v1/alerts/:alertId/acknowledge': { access: tenant('alerts:write'), param: 'alert' },
  'POST /api/v1/alerts/:alertId/resolve': { access: tenant('alerts:write'), param: 'alert' },

  // Settings.
  'GET /api/v1/tenant/settings': { access: tenant('settings:read') },
  'PUT /api/v1/tenant/settings/alerts': { access: tenant('settings:write'), body: () => ({ enableWeatherAlerts: true, hosApproachingThresholdHours: 1 }) },
  'PUT /api/v1/tenant/settings/monitoring': { access: tenant('settings:write'), body: () => ({ monitoringIntervalSeconds: 60 }) },
  'PUT /api/v1/tenant/settings/hos': { access: tenant('settings:write'), body: () => ({ ruleSet: 'US_PROPERTY_70_8' }) },

  // Realtime (under app.inject the stream sends its preamble and replay, then ends).
  'GET /api/v1/sse/alerts': { access: tenant('alerts:read', { queryApiKey: true }), query: 'lastEventId=0' },
  // Webhooks (targets on this machine: the suite's app allows insecure targets; port 9 refuses at once).
  'POST /api/v1/webhooks': { access: tenant('webhooks:write'), body: () => ({ url: 'http://127.0.0.1:9/hook', events: ['alert.created'] }) },
  'GET /api/v1/webhooks': { access: tenant('webhooks:read'), query: 'page=1&pageSize=5' },
  'GET /api/v1/webhooks/:webhookId': { access: tenant('webhooks:read'), param: 'webhook' },
  'PUT /api/v1/webhooks/:webhookId': { access: tenant('webhooks:write'), param: 'webhook', body: () => ({ description: 'security suite' }) },
  'DELETE /api/v1/webhooks/:webhookId': { access: tenant('webhooks:write'), param: 'webhook' },
  'POST /api/v1/webhooks/:webhookId/test': { access: tenant('webhooks:write'), param: 'webhook' },
  'POST /api/v1/webhooks/:webhookId/rotate-secret': { access: tenant('webhooks:write'), param: 'webhook' },
  'GET /api/v1/webhooks/:webhookId/deliveries': { access: tenant('webhooks:read'), param: 'webhook', query: 'page=1&pageSize=5' },
  'GET /api/v1/webhooks/deliveries/:deliveryId': { access: tenant('webhooks:read'), param: 'delivery' },
  'POST /api/v1/webhooks/deliveries/:deliveryId/retry': { access: tenant('webhooks:write'), param: 'delivery' },

  // Integrations (the test app's fake ELD vendor).
  'GET /api/v1/integrations/vendors': { access: tenant('integrations:read') },
  'POST /api/v1/integrations': { access: tenant('integrations:write'), body: (u) => ({ vendor: 'fake_eld', name: `ELD ${u}`, config: { apiToken: `security-token-${u}` } }) },
  'GET /api/v1/integrations': { access: tenant('integrations:read') },
  'GET /api/v1/integrations/:integrationId': { access: tenant('integrations:read'), param: 'integration' },
  'PUT /api/v1/integrations/:integrationId': { access: tenant('integrations:write'), param: 'integration', body: () => ({ name: 'security suite' }) },
  'DELETE /api/v1/integrations/:integrationId': { access: tenant('integrations:write'), param: 'integration' },
  'POST /api/v1/integrations/:integrationId/test': { access: tenant('integrations:write'), param: 'integration' },
  'POST /api/v1/integrations/:integrationId/sync': { access: tenant('integrations:write'), param: 'integration' },
  'POST /api/v1/integrations/:integrationId/disable': { access: tenant('integrations:write'), param: 'integration' },
  'POST /api/v1/integrations/:integrationId/enable': { access: tenant('integrations:write'), param: 'integration' },

  // Platform administration.
  'GET /api/v1/admin/tenants': { access: PLATFORM, query: 'status=PENDING_APPROVAL&page=1&pageSize=5' },
  'POST /api/v1/admin/tenants/:id/approve': { access: PLATFORM, param: 'tenant' },
  'POST /api/v1/admin/tenants/:id/reject': { access: PLATFORM, param: 'tenant', body: () => ({ reason: 'security suite' }) },
  'POST /api/v1/admin/tenants/:id/suspend': { access: PLATFORM, param: 'tenant', body: () => ({ reason: 'security suite' }) },
  'POST /api/v1/admin/tenants/:id/reactivate': { access: PLATFORM, param: 'tenant' },
};

/**
 * Served by @fastify/swagger-ui, which is registered before the auth plugin and so never reaches its
 * onRoute hook (no catalog entry): public documentation, listed so the router cross-check is complete.
 */
const DOCS_ROUTES = ['/docs', '/docs/static/index.html', '/docs/static/swagger-initializer.js', '/docs/*', '/docs/json', '/docs/yaml'].flatMap((u) => [
  `GET ${u}`,
  `HEAD ${u}`,
]);

/** Routes that answer 200 to a PENDING_APPROVAL tenant (DESIGN §4: log in, view its profile). */
const PENDING_ALLOWED = new Set(['GET /api/v1/auth/me', 'GET /api/v1/tenant', 'HEAD /api/v1/auth/me', 'HEAD /api/v1/tenant']);

interface Case {
  key: string;
  method: string;
  url: string;
  sample: Sample;
}

const ALL_CASES: Case[] = Object.entries(SAMPLES).flatMap(([key, sample]) => {
  const [method, url] = key.split(' ') as [string, string];
  const cases: Case[] = [{ key, method, url, sample }];
  if (method === 'GET') cases.push({ key: `HEAD ${url}`, method: 'HEAD', url, sample });
  return cases;
});
const PROTECTED = ALL_CASES.filter((c) => c.sample.access.auth !== 'public');
const WITH_ID = PROTECTED.filter((c) => c.sample.param !== undefined);

/** Every method + path Fastify's router knows, read from printRoutes (includes routes added before any hook). */
function routerRoutes(text: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    // find-my-way prints a wildcard child without its separator ("docs" → "*" for /docs/*).
    const segment = m[2]!.startsWith('*') && !stack.join('').endsWith('/') ? `/${m[2]!}` : m[2]!;
    stack.push(segment);
    if (m[3]) for (const method of m[3].split(', ')) out.push(`${method} ${stack.join('')}`);
  }
  return out;
}

interface World {
  name: string;
  tenantId: string;
  owner: TenantFixture;
  ids: Record<Kind, string>;
  /** Credential headers per role (OWNER from the fixture, the others through the invitation flow). */
  roles: Partial<Record<TenantRole, Record<string, string>>>;
  ownerKey: string;
  adminKey?: string;
}

const unique = () => randomBase62(10).toLowerCase();
/** A correction of the hour that ended two hours ago (valid whenever it is sent). */
const logEditBody = () => {
  const from = new Date(Date.now() - 3 * 3_600_000).toISOString();
  return { from, to: new Date(Date.now() - 2 * 3_600_000).toISOString(), entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: from }], annotation: 'Pre-trip inspection' };
};

/** A minute of unassigned driving, each call's later than the last (a vehicle's segments may not overlap). */
let unassignedCount = 0;
const unassignedBody = () => {
  const start = Date.now() - 48 * 3_600_000 + unassignedCount++ * 120_000;
  return { start: new Date(start).toISOString(), end: new Date(start + 60_000).toISOString(), miles: 0.5 };
};

function expectErrorBody(res: LightMyRequestResponse, status: number, what: string, method: string): Record<string, unknown> {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBe(status);
  if (method === 'HEAD') return {};
  const body = res.json<Record<string, unknown>>();
  expect(body, what).toMatchObject({ statusCode: status, message: expect.any(String), error: STATUS_CODES[status] });
  expect((body.message as string).length, what).toBeGreaterThan(0);
  return body;
}

/**
 * SECURITY_DB_KINDS (comma-separated) narrows the database kinds, as FUZZ_DB_KINDS does for the fuzz suite:
 * CI checks every route on PostgreSQL on Node 24 and on PGlite on Node 22 (each half once, not PGlite twice).
 */
const SECURITY_KINDS = process.env.SECURITY_DB_KINDS ? DB_KINDS.filter((k) => process.env.SECURITY_DB_KINDS!.split(',').includes(k)) : DB_KINDS;

describe.each(SECURITY_KINDS)('security of every route (%s)', (kind) => {
  let t: TestApp;
  /** The tenant under test: every role, API keys, sample resources of each kind. */
  let A: World;
  /** Another ACTIVE tenant whose resource ids A must not reach. */
  let B: World;
  /** A tenant suspended after setup. */
  let S: World;
  /** A tenant still PENDING_APPROVAL (only its OWNER exists). */
  let P: { fixture: TenantFixture; name: string };
  let admin: Record<string, string>;
  const bad: Record<string, Record<string, string>> = {};

  async function invite(owner: TenantFixture): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/user-invitations', headers: owner.auth, payload: { email: `pending-${unique()}@example.test`, role: 'VIEWER' } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  }

  async function makeWorld(label: string, opts: { roles: boolean; adminTarget: string | null }): Promise<World> {
    const name = `${label} Freight ${unique()}`;
    const owner = await createTenant(t.app, { name });
    const driver = await createDriver(t.app, owner.auth);
    const victim = await createUser(t.app, t.mailer, owner, 'VIEWER');
    const victimKey = await createApiKey(t.app, owner, 'victim');
    const invitation = await invite(owner);
    const ownerKey = (await createApiKey(t.app, owner, 'owner key')).key;
    const create = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url, headers: owner.auth, payload });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const webhook = await create('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    const ping = async (id: string) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, headers: owner.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: string }>().id;
    };
    const vehicle = await create('/api/v1/vehicles', { unitNumber: `V-${unique()}` });
    const world: World = {
      name,
      tenantId: owner.tenantId,
      owner,
      ids: {
        driver: driver.id,
        user: victim.userId,
        apiKey: victimKey.id,
        invitation,
        tenant: opts.adminTarget ?? owner.tenantId,
        vehicle,
        load: await create('/api/v1/loads', { referenceNumber: `L-${unique()}` }),
        location: await create('/api/v1/locations', { name: 'Victim Yard', type: 'YARD', latitude: 32.9, longitude: -97.1 }),
        route: await create('/api/v1/routes/plan', { driverId: driver.id, stops: [{ latitude: 32.78, longitude: -96.8 }, { latitude: 32.75, longitude: -97.33 }] }),
        alert: (await seedAlerts(t.db, owner.tenantId, [{ type: 'ROUTE_DEVIATION', at: t.clock.now().toISOString(), driverId: driver.id }]))[0]!,
        webhook,
        delivery: await ping(webhook),
        integration: await create('/api/v1/integrations', { vendor: 'fake_eld', name: 'Victim ELD', config: { apiToken: `victim-token-${unique()}` } }),
        edit: await create(`/api/v1/drivers/${driver.id}/log-edits`, logEditBody()),
        unassigned: await create(`/api/v1/vehicles/${vehicle}/unassigned-driving`, unassignedBody()),
      },
      roles: { OWNER: owner.auth },
      ownerKey,
    };
    if (opts.roles) {
      for (const role of TENANT_ROLES.filter((r) => r !== 'OWNER')) world.roles[role] = (await createUser(t.app, t.mailer, owner, role)).auth;
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: world.roles.ADMIN!, payload: { name: 'admin key' } });
      expect(res.statusCode, res.body).toBe(201);
      world.adminKey = res.json<{ key: string }>().key;
    }
    return world;
  }

  function send(c: Case, w: World, headers: Record<string, string>) {
    const s = c.sample;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    let url = c.url.replace(/:\w+/g, (name) => (name === ':revision' ? '1' : name === ':date' ? yesterday : w.ids[s.param!]));
    if (s.query) url += `?${s.query}`;
    const body = c.method === 'GET' || c.method === 'HEAD' ? undefined : s.body?.(unique(), w);
    const withType = s.contentType && body !== undefined ? { ...headers, 'content-type': s.contentType } : headers;
    return t.app.inject({ method: c.method as 'GET', url, headers: withType, ...(body !== undefined ? { payload: body as object } : {}) });
  }

  beforeAll(async () => {
    t = await buildTestApp(kind, { env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    // The target of the admin samples: a throwaway tenant, so admin actions never touch A, B or S.
    const adminTarget = await createTenant(t.app, { approve: false });
    A = await makeWorld('Alpha', { roles: true, adminTarget: adminTarget.tenantId });
    B = await makeWorld('Bravo', { roles: false, adminTarget: null });
    S = await makeWorld('Suspended', { roles: false, adminTarget: null });
    await adminAction(t.app, S.tenantId, 'suspend', 'security suite');
    const pendingName = `Pending Freight ${unique()}`;
    P = { fixture: await createTenant(t.app, { approve: false, name: pendingName }), name: pendingName };
    admin = { authorization: `Bearer ${await adminToken(t.app)}` };

    // Credentials that must all answer 401.
    const ownerClaims = { userId: A.owner.ownerId, tenantId: A.tenantId, role: 'OWNER' as const };
    const past = new FakeClock(t.clock.now());
    past.advance(-(ACCESS_TOKEN_TTL_SECONDS * 1000 + 60_000));
    bad['garbage bearer token'] = { authorization: 'Bearer not-a-jwt' };
    bad['expired access token'] = { authorization: `Bearer ${await t.app.deps.tokens.issue(ownerClaims, past.now())}` };
    bad['token signed with another secret'] = {
      authorization: `Bearer ${await new AccessTokens(new TextEncoder().encode('some-other-secret-that-is-long-enough-0000')).issue(ownerClaims, t.clock.now())}`,
    };
    const [, payload] = (await t.app.deps.tokens.issue(ownerClaims, t.clock.now())).split('.');
    bad['unsigned token (alg none)'] = { authorization: `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.` };
    bad['non-Bearer scheme'] = { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` };
    const revoked = await createApiKey(t.app, A.owner, 'revoked');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${revoked.id}`, headers: A.owner.auth });
    expect(del.statusCode, del.body).toBe(200);
    bad['revoked API key (X-API-Key)'] = { 'x-api-key': revoked.key };
    bad['revoked API key (Bearer)'] = { authorization: `Bearer ${revoked.key}` };
    bad['malformed API key'] = { 'x-api-key': 'sk_staging_short' };
    bad['unknown API key'] = { 'x-api-key': `sk_staging_${randomBase62(32)}` };
    const gone = await createUser(t.app, t.mailer, A.owner, 'DISPATCHER');
    const deact = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${gone.userId}`, headers: A.owner.auth });
    expect(deact.statusCode, deact.body).toBe(200);
    bad['deactivated user token'] = gone.auth;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('every route of the app has an entry in the table, and every entry is a route', () => {
    const catalog = t.app.routeCatalog.map((r) => `${r.method} ${r.url}`);
    expect(catalog.length).toBeGreaterThan(0);
    const covered = new Set(ALL_CASES.map((c) => c.key));
    const missing = catalog.filter((k) => !covered.has(k));
    expect(missing, `routes without an entry in SAMPLES (add one): ${missing.join(', ')}`).toEqual([]);
    const stale = [...covered].filter((k) => !catalog.includes(k));
    expect(stale, `SAMPLES entries that are not routes: ${stale.join(', ')}`).toEqual([]);
    // Fastify's router must not know a route the catalog missed (e.g. one registered before the auth plugin).
    const router = routerRoutes(t.app.printRoutes({ commonPrefix: false }));
    const unknown = router.filter((k) => !covered.has(k) && !DOCS_ROUTES.includes(k));
    expect(unknown, `routes the router serves but the catalog/table does not list: ${unknown.join(', ')}`).toEqual([]);
    expect(new Set(router)).toEqual(new Set([...catalog, ...DOCS_ROUTES]));
  });

  it('each route carries the access declaration pinned in the table; public routes are exactly the listed ones', () => {
    for (const r of t.app.routeCatalog) {
      const key = `${r.method} ${r.url}`;
      const c = ALL_CASES.find((x) => x.key === key);
      expect(r.access, key).toEqual(c?.sample.access);
    }
    const publicRoutes = t.app.routeCatalog.filter((r) => r.access.auth === 'public').map((r) => `${r.method} ${r.url}`).sort();
    expect(publicRoutes).toEqual(ALL_CASES.filter((c) => c.sample.access.auth === 'public').map((c) => c.key).sort());
  });

  it('documentation routes answer without credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
  });

  describe.each(PROTECTED)('$key', (c) => {
    it('(a) without credentials → 401 with the error body', async () => {
      const res = await send(c, A, {});
      expectErrorBody(res, 401, 'no credentials', c.method);
    });

    it('(b) invalid, expired, forged or revoked credentials → 401', async () => {
      for (const [label, headers] of Object.entries(bad)) {
        const res = await send(c, A, headers);
        expectErrorBody(res, 401, label, c.method);
      }
    });

    it('(c) each role and API key: 403 exactly when the policy denies it', async () => {
      const access = c.sample.access;
      const creds: Array<{ label: string; role: TenantRole; apiKey: boolean; headers: Record<string, string> }> = [
        ...TENANT_ROLES.map((role) => ({ label: `${role} token`, role, apiKey: false, headers: A.roles[role]! })),
        { label: 'OWNER API key (X-API-Key)', role: 'OWNER', apiKey: true, headers: { 'x-api-key': A.ownerKey } },
        { label: 'ADMIN API key (Bearer)', role: 'ADMIN', apiKey: true, headers: { authorization: `Bearer ${A.adminKey!}` } },
      ];
      for (const cred of creds) {
        const denied =
          access.auth === 'platform' ||
          (access.auth === 'tenant' && ((cred.apiKey && access.apiKey === false) || !can(cred.role, access.permission)));
        const res = await send(c, A, cred.headers);
        if (denied) {
          expectErrorBody(res, 403, cred.label, c.method);
        } else {
          expect([401, 403], `${cred.label}: ${res.statusCode} ${res.body.slice(0, 300)}`).not.toContain(res.statusCode);
          expect(res.statusCode, `${cred.label}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
        }
      }
    });

    it('(e) platform admin token on tenant routes → 403; tenant credentials on admin routes → 403', async () => {
      if (c.sample.access.auth === 'platform') {
        for (const [label, headers] of [['OWNER token', A.owner.auth], ['OWNER API key', { 'x-api-key': A.ownerKey }]] as const) {
          const body = expectErrorBody(await send(c, A, headers), 403, label, c.method);
          if (c.method !== 'HEAD') expect(body.message).toMatch(/platform administrators/);
        }
        const res = await send(c, A, admin);
        expect([401, 403], `admin: ${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
        expect(res.statusCode).toBeLessThan(500);
      } else {
        const body = expectErrorBody(await send(c, A, admin), 403, 'platform admin token', c.method);
        if (c.method !== 'HEAD') expect(body.message).toMatch(/admin endpoints/);
      }
    });

    it('(f) SUSPENDED tenant → 403 naming the tenant; PENDING_APPROVAL tenant → only /auth/me and /tenant', async () => {
      const platformOnly = c.sample.access.auth === 'platform';
      for (const [label, headers] of [['suspended OWNER token', S.owner.auth], ['suspended OWNER API key', { 'x-api-key': S.ownerKey }]] as const) {
        const body = expectErrorBody(await send(c, S, headers), 403, label, c.method);
        if (c.method !== 'HEAD' && !platformOnly) {
          expect(body.message).toContain(`"${S.name}"`);
          expect(body.message).toMatch(/contact support/i);
        }
      }
      const pendingWorld: World = { ...A, ids: { ...A.ids, tenant: P.fixture.tenantId } };
      const res = await send(c, pendingWorld, P.fixture.auth);
      if (PENDING_ALLOWED.has(c.key)) {
        expect(res.statusCode, res.body).toBe(200);
      } else {
        const body = expectErrorBody(res, 403, 'pending OWNER token', c.method);
        if (c.method !== 'HEAD' && !platformOnly) {
          expect(body.message).toContain(`"${P.name}"`);
          expect(body.message).toMatch(/pending approval/i);
        }
      }
    });
  });

  describe.each(WITH_ID)('$key with an id from another tenant', (c) => {
    it('(d) → 404 for tenant routes (admin routes stay platform-only: 403)', async () => {
      const status = c.sample.access.auth === 'platform' ? 403 : 404;
      // A route only DRIVER users may call (a driver's own answer to a correction, a certification) is tried with a DRIVER's token.
      const driverOnly = c.sample.access.auth === 'tenant' && !can('OWNER', c.sample.access.permission);
      const creds: ReadonlyArray<readonly [string, Record<string, string>]> = driverOnly
        ? [['DRIVER token', A.roles.DRIVER!]]
        : [['OWNER token', A.owner.auth], ['OWNER API key', { 'x-api-key': A.ownerKey }]];
      for (const [label, headers] of creds) {
        const res = await send(c, B, headers);
        expectErrorBody(res, status, `${label} with ${B.ids[c.sample.param!]}`, c.method);
      }
    });
  });

  it("(d) after every cross-tenant attempt, the other tenant's resources are untouched", async () => {
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: B.owner.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Record<string, unknown>>();
    };
    expect((await get(`/api/v1/drivers/${B.ids.driver}`)).status).toBe('ACTIVE');
    expect(await get(`/api/v1/users/${B.ids.user}`)).toMatchObject({ status: 'ACTIVE', firstName: 'Test' });
    const keys = (await get('/api/v1/api-keys?pageSize=100')).data as Array<{ id: string; revokedAt: string | null }>;
    expect(keys.find((k) => k.id === B.ids.apiKey)?.revokedAt).toBeNull();
    const invitations = (await get('/api/v1/user-invitations?pageSize=100')).data as Array<{ id: string; status: string }>;
    expect(invitations.find((i) => i.id === B.ids.invitation)?.status).toBe('PENDING');
    expect((await get(`/api/v1/vehicles/${B.ids.vehicle}`)).status).toBe('ACTIVE');
    expect((await get(`/api/v1/loads/${B.ids.load}`)).status).toBe('PENDING');
    expect((await get(`/api/v1/locations/${B.ids.location}`)).name).toBe('Victim Yard');
    expect(await get(`/api/v1/routes/${B.ids.route}`)).toMatchObject({ status: 'PLANNED', activatedAt: null, cancelledAt: null });
    expect((await get(`/api/v1/routes/${B.ids.route}/positions`)).data).toEqual([]);
    expect((await get(`/api/v1/drivers/${B.ids.driver}/duty-status`)).data).toEqual([]);
    expect(await get(`/api/v1/drivers/${B.ids.driver}/hos`)).toMatchObject({ currentDutyStatus: 'OFF_DUTY', lastStatusChange: null });
    expect(await get(`/api/v1/alerts/${B.ids.alert}`)).toMatchObject({ status: 'ACTIVE', acknowledgedAt: null, snoozedUntil: null, resolvedAt: null, notes: [] });
  });

  // Last, because it moves the shared clock past every access token's lifetime.
  it('(b) tokens that were valid (and already used) answer 401 once expired; API keys do not expire', async () => {
    t.clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000 + 1_000);
    for (const c of PROTECTED) {
      for (const [label, headers] of [['OWNER token', A.owner.auth], ['VIEWER token', A.roles.VIEWER!], ['platform admin token', admin]] as const) {
        const body = expectErrorBody(await send(c, A, headers), 401, `${c.key} with an expired ${label}`, c.method);
        if (c.method !== 'HEAD') expect(body.message).toMatch(/expired/i);
      }
    }
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-api-key': A.ownerKey } });
    expect(me.statusCode, me.body).toBe(200);
  });
});
