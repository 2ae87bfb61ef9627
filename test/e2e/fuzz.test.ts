/**
 * Property-based fuzzing of EVERY route (the app's own route catalog; FUZZ below must list each one):
 * malformed JSON, wrong types, missing and unknown fields, deep nesting, 100 kB strings, bodies over the
 * 1 MiB limit, garbage path parameters, query strings and cookies, odd content types, all sent with
 * valid credentials of an ACTIVE tenant's OWNER (the platform administrator's on /admin routes).
 *
 * Asserted for every request: never a 5xx; every 4xx carries the spec's error body; a refused request
 * (4xx) or a read changes nothing in the database (fingerprint of every table); after each route's run,
 * valid requests still work and the driver list is what it was unless a write was accepted.
 *
 * Deterministic: fixed seeds. Run counts are kept moderate so the file stays well under a minute.
 */
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../src/lib/ids.js';
import { can } from '../../src/plugins/policies.js';
import { seedAlerts } from '../helpers/alerts.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { adminToken, buildDriver, buildRegistration, createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../helpers/factories.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/**
 * `route` is a PLANNED route (the lifecycle actions may move it on), `activeRoute` an ACTIVE one (positions),
 * `planDriver` the ACTIVE driver new plans are made for (never deactivated by the driver entries' fuzzing).
 */
type Kind = 'driver' | 'user' | 'apiKey' | 'invitation' | 'tenant' | 'vehicle' | 'load' | 'location' | 'route' | 'activeRoute' | 'planDriver' | 'alert' | 'webhook' | 'delivery' | 'integration' | 'edit' | 'unassigned';

interface World {
  owner: TenantFixture;
  ids: Record<Kind, string>;
  idpToken: string;
}

interface FuzzEntry {
  /** The resource a real path parameter names. */
  param?: Kind;
  /** A valid query string, mutated by the fuzzer. */
  query?: string;
  /** A valid body, the template the fuzzer mutates. */
  body?: (w: World) => Json;
  /** The valid request may be repeated after the fuzzing and must succeed (2xx, or 3xx for GET /). */
  repeatable?: boolean;
  /** The body is CSV text (Content-Type text/csv), mutated cell by cell. */
  csv?: (w: World) => string;
}

const u = () => randomBase62(10).toLowerCase();
/** A minute of unassigned driving with its place and miles, each call's later than the last. */
let unassignedCount = 0;
const unassignedBody = () => {
  const start = Date.now() - 48 * 3_600_000 + unassignedCount++ * 120_000;
  return { start: new Date(start).toISOString(), end: new Date(start + 60_000).toISOString(), startLocation: { latitude: 32.78, longitude: -96.8 }, endLocation: { latitude: 32.79, longitude: -96.81 }, miles: 0.7, externalId: `tele-${u()}` };
};
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const DAY_BEFORE = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
let vinSequence = 0;
const vin = () => `1FUJGLDR${String(++vinSequence).padStart(9, '0')}`;
/** Percent-encodes any string; lone surrogates (which encodeURIComponent rejects) become U+FFFD as on the wire. */
const enc = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));

const PLAN_STOPS: Json[] = [{ name: 'Dallas yard', latitude: 32.78, longitude: -96.8 }, { address: 'Fort Worth, TX', type: 'DELIVERY', dockDurationHours: 1 }];

/** Every route of the app (HEAD mirrors of GET routes are derived). */
const FUZZ: Record<string, FuzzEntry> = {
  'GET /': { repeatable: true },
  // The dashboard's page paths (404 here: the test app serves no dashboard build).
  'GET /*': {},
  'GET /metrics': { repeatable: true },
  'GET /api/v1/openapi.json': { repeatable: true },
  'GET /api/v1/health': { repeatable: true },
  'GET /api/v1/health/ready': { repeatable: true },
  'POST /api/v1/tenants/register': { body: () => buildRegistration() as unknown as Json, repeatable: true },
  'POST /api/v1/auth/login': { body: (w) => ({ email: w.owner.email, password: w.owner.password }), repeatable: true },
  'POST /api/v1/auth/idp/exchange': { body: (w) => ({ idpToken: w.idpToken }), repeatable: true },
  'POST /api/v1/auth/refresh': {},
  'POST /api/v1/auth/logout': { repeatable: true },
  'POST /api/v1/user-invitations/accept': { body: () => ({ token: randomBase62(43), password: 'a-good-password', firstName: 'Fuzz', lastName: 'Invitee' }) },
  'POST /api/v1/user-invitations/lookup': { body: () => ({ token: randomBase62(43) }) },
  'GET /api/v1/tenant': { repeatable: true },
  'GET /api/v1/auth/me': { repeatable: true },
  'POST /api/v1/api-keys': { body: () => ({ name: `fuzz ${u()}` }), repeatable: true },
  'GET /api/v1/api-keys': { query: 'page=1&pageSize=5', repeatable: true },
  'DELETE /api/v1/api-keys/:id': { param: 'apiKey' },
  'GET /api/v1/users': { query: 'page=1&pageSize=5', repeatable: true },
  'GET /api/v1/users/:id': { param: 'user', repeatable: true },
  'PUT /api/v1/users/:id': { param: 'user', body: () => ({ firstName: 'Fuzzy', lastName: 'Target', role: 'VIEWER' }), repeatable: true },
  'DELETE /api/v1/users/:id': { param: 'user' },
  'POST /api/v1/user-invitations': { body: () => ({ email: `fuzz-${u()}@example.test`, role: 'DISPATCHER', firstName: 'Fuzz', lastName: 'Invitee' }), repeatable: true },
  'GET /api/v1/user-invitations': { query: 'page=1&pageSize=5', repeatable: true },
  'DELETE /api/v1/user-invitations/:id': { param: 'invitation' },
  'POST /api/v1/drivers': { body: () => ({ ...buildDriver(), phoneNumber: '+1 214 555 0100', email: 'dana@example.test' }), repeatable: true },
  'GET /api/v1/drivers': { query: 'status=ACTIVE&search=dana&page=1&pageSize=20', repeatable: true },
  'GET /api/v1/drivers/:driverId': { param: 'driver', repeatable: true },
  'PUT /api/v1/drivers/:driverId': { param: 'driver', body: () => ({ firstName: 'Dana', truckNumber: 'T-9', phoneNumber: null, email: 'd@example.test' }), repeatable: true },
  'POST /api/v1/drivers/:driverId/deactivate': { param: 'driver' },
  'DELETE /api/v1/drivers/:driverId': { param: 'driver' },
  'POST /api/v1/drivers/:driverId/reactivate': { param: 'driver' },
  'GET /api/v1/drivers/:driverId/hos': { param: 'driver', repeatable: true },
  'POST /api/v1/drivers/:driverId/duty-status': { param: 'driver', body: () => ({ status: 'ON_DUTY_NOT_DRIVING', latitude: 32.78, longitude: -96.8, note: 'fuzz' }) },
  'GET /api/v1/drivers/:driverId/duty-status': { param: 'driver', query: 'limit=10', repeatable: true },
  // Records of duty status: daily logs, corrections, certification (its second parameter, :date, is yesterday).
  'GET /api/v1/drivers/:driverId/logs': { param: 'driver', query: `from=${DAY_BEFORE}&to=${YESTERDAY}`, repeatable: true },
  'GET /api/v1/drivers/:driverId/logs.pdf': { param: 'driver', query: `from=${DAY_BEFORE}&to=${YESTERDAY}`, repeatable: true },
  'GET /api/v1/drivers/:driverId/logs.csv': { param: 'driver', query: `from=${DAY_BEFORE}&to=${YESTERDAY}`, repeatable: true },
  'POST /api/v1/drivers/:driverId/log-edits': {
    param: 'driver',
    body: () => {
      const from = hoursAgo(3);
      return { from, to: hoursAgo(2), entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: from, latitude: 32.78, longitude: -96.8, note: 'fuzz' }], annotation: 'Pre-trip inspection' };
    },
    repeatable: true,
  },
  'GET /api/v1/compliance/hos': { query: `from=${DAY_BEFORE}&to=${YESTERDAY}&page=1&pageSize=5`, repeatable: true },
  'GET /api/v1/log-edits': { query: 'status=PENDING&page=1&pageSize=5', repeatable: true },
  'GET /api/v1/log-edits/:editId': { param: 'edit', repeatable: true },
  'POST /api/v1/log-edits/:editId/accept': { param: 'edit', body: () => ({ annotation: 'Looks right' }) },
  'POST /api/v1/log-edits/:editId/reject': { param: 'edit', body: () => ({ annotation: 'Not what happened' }) },
  'POST /api/v1/log-edits/:editId/cancel': { param: 'edit' },
  'POST /api/v1/drivers/:driverId/logs/:date/certify': { param: 'driver' },
  'POST /api/v1/vehicles/:vehicleId/unassigned-driving': { param: 'vehicle', body: () => unassignedBody() },
  'GET /api/v1/unassigned-driving': { query: 'status=UNASSIGNED&page=1&pageSize=5', repeatable: true },
  'GET /api/v1/unassigned-driving/:unassignedId': { param: 'unassigned', repeatable: true },
  'POST /api/v1/unassigned-driving/:unassignedId/assign': { param: 'unassigned', body: (w) => ({ driverId: w.ids.driver, annotation: 'Moved the truck' }) },
  'POST /api/v1/unassigned-driving/:unassignedId/annotate': { param: 'unassigned', body: () => ({ annotation: 'Yard move' }) },
  'POST /api/v1/drivers/:driverId/location': { param: 'driver', body: () => ({ latitude: 32.78, longitude: -96.8 }), repeatable: true },
  'POST /api/v1/vehicles': { body: () => ({ unitNumber: `U-${u()}`, vin: vin(), make: 'Freightliner', model: 'Cascadia', year: 2021, licensePlate: 'TX-123', fuelTankGallons: 200, mpg: 7, status: 'ACTIVE', eldExternalId: 'eld-1' }), repeatable: true },
  'GET /api/v1/vehicles': { query: 'status=ACTIVE&search=u-&page=1&pageSize=5', repeatable: true },
  'GET /api/v1/vehicles/:vehicleId': { param: 'vehicle', repeatable: true },
  'PUT /api/v1/vehicles/:vehicleId': { param: 'vehicle', body: () => ({ make: 'Volvo', year: 2019, mpg: 6.8, vin: null }), repeatable: true },
  'DELETE /api/v1/vehicles/:vehicleId': { param: 'vehicle' },
  'POST /api/v1/loads': {
    body: () => ({ referenceNumber: `REF-${u()}`, customer: 'Acme', originAddress: 'Dallas, TX', destinationAddress: 'Austin, TX', scheduledPickup: '2026-03-03T08:00:00Z', scheduledDelivery: '2026-03-03T18:00:00Z', weight: 42_000, commodity: 'Steel', externalId: `ext-${u()}` }),
    repeatable: true,
  },
  'GET /api/v1/loads': { query: 'status=PENDING&search=ref&page=1&pageSize=5', repeatable: true },
  'GET /api/v1/loads/:loadId': { param: 'load', repeatable: true },
  'PUT /api/v1/loads/:loadId': { param: 'load', body: () => ({ commodity: 'Lumber', weight: 1000, scheduledPickup: null }), repeatable: true },
  'POST /api/v1/loads/:loadId/status': { param: 'load', body: () => ({ status: 'ASSIGNED', note: 'fuzz' }) },
  'DELETE /api/v1/loads/:loadId': { param: 'load' },
  'POST /api/v1/locations': {
    body: () => ({ name: `Stop ${u()}`, type: 'TRUCK_STOP', address: 'I-35 exit 12', latitude: 32.78, longitude: -96.8, amenities: { parking: true, showers: false, diesel: true }, fuelDiscountPerGallon: 0.1, externalId: `ext-${u()}` }),
    repeatable: true,
  },
  'GET /api/v1/locations': { query: 'type=TRUCK_STOP&search=stop&near=32.7,-96.8&radiusMiles=100&page=1&pageSize=5', repeatable: true },
  'GET /api/v1/locations/:locationId': { param: 'location', repeatable: true },
  'PUT /api/v1/locations/:locationId': { param: 'location', body: () => ({ name: 'Renamed Yard', amenities: { diesel: true }, fuelDiscountPerGallon: null }), repeatable: true },
  'DELETE /api/v1/locations/:locationId': { param: 'location' },
  'POST /api/v1/locations/import': {
    csv: () => `name,type,latitude,longitude,address,parking,showers,diesel,fuelDiscountPerGallon,externalId\nYard ${u()},YARD,33.01,-97.02,Main St,yes,no,1,0.05,ext-${u()}\n`,
    repeatable: true,
  },
  'POST /api/v1/routes/plan': {
    body: (w) => ({
      driverId: w.ids.planDriver,
      stops: PLAN_STOPS,
      driverState: { hoursDriven: 2, onDutyHours: 3, hoursSinceBreak: 2, cycleHoursUsed: 20 },
      options: { averageSpeedMph: 55, distanceMethod: 'haversine', includeFuelStops: false },
    }),
    repeatable: true,
  },
  'GET /api/v1/routes': { query: 'status=PLANNED&page=1&pageSize=5', repeatable: true },
  'GET /api/v1/routes/:planId': { param: 'route', repeatable: true },
  'POST /api/v1/routes/:planId/positions': { param: 'activeRoute', body: () => ({ latitude: 32.9, longitude: -97.0, speedMph: 55, headingDegrees: 270, fuelLevelPercent: 80 }), repeatable: true },
  'GET /api/v1/routes/:planId/positions': { param: 'activeRoute', query: 'limit=5', repeatable: true },
  'POST /api/v1/routes/:planId/activate': { param: 'route' },
  'POST /api/v1/routes/:planId/complete': { param: 'route' },
  'POST /api/v1/routes/:planId/cancel': { param: 'route', body: () => ({ reason: 'fuzz' }) },
  'POST /api/v1/routes/:planId/replan': { param: 'activeRoute', body: () => ({ preview: true, reason: 'fuzz', position: { latitude: 32.77, longitude: -97.0 }, options: { averageSpeedMph: 60 } }), repeatable: true },
  'GET /api/v1/routes/:planId/revisions': { param: 'route', repeatable: true },
  // Its second parameter (:revision) is 1 in the valid request, and fuzzed like the first otherwise.
  'GET /api/v1/routes/:planId/revisions/:revision': { param: 'route', repeatable: true },
  'POST /api/v1/dispatch/candidates': {
    body: (w): Json => ({
      stops: [
        { name: 'Dallas, TX', latitude: 32.78, longitude: -96.8, appointment: { earliest: '2026-03-03T08:00:00Z' }, dockDurationHours: 1 },
        { name: 'Austin, TX', latitude: 30.27, longitude: -97.74, appointment: { latest: '2026-03-04T08:00:00Z' }, dockDurationHours: 1 },
      ],
      driverIds: [w.ids.planDriver],
      sort: 'deadhead',
      options: { averageSpeedMph: 55, includeFuelStops: false },
    }),
    repeatable: true,
  },
  'POST /api/v1/rest/recommend': {
    body: () => ({
      current_location: { latitude: 35.22, longitude: -101.83, name: 'Amarillo truck stop' },
      driver_state: { hours_driven: 7, on_duty_hours: 7, hours_since_break: 1, cycle_hours_used: 30 },
      dock_duration_hours: 3,
      remaining_route_hours: 3.5,
      is_dedicated_rest_stop: true,
      next_segment_hours: 3,
    }),
    repeatable: true,
  },
  'GET /api/v1/alerts': { query: 'status=ACTIVE,ACKNOWLEDGED&type=HOS_APPROACHING_LIMIT&priority=HIGH&from=2026-01-01T00:00:00Z&page=1&pageSize=5', repeatable: true },
  'GET /api/v1/alerts/stats': { query: 'from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z', repeatable: true },
  'GET /api/v1/alerts/analytics/volume': { query: 'interval=hour', repeatable: true },
  'GET /api/v1/alerts/analytics/response-time': { query: 'interval=day', repeatable: true },
  'GET /api/v1/alerts/analytics/resolution': { query: 'interval=day', repeatable: true },
  'GET /api/v1/alerts/analytics/top-types': { query: 'limit=5', repeatable: true },
  'GET /api/v1/alerts/:alertId': { param: 'alert', repeatable: true },
  'GET /api/v1/alerts/:alertId/notes': { param: 'alert', query: 'page=1&pageSize=5', repeatable: true },
  // In this order: the alert is open for notes and snoozes, then acknowledged, then resolved.
  'POST /api/v1/alerts/:alertId/notes': { param: 'alert', body: () => ({ text: 'fuzz note' }), repeatable: true },
  'POST /api/v1/alerts/:alertId/snooze': { param: 'alert', body: () => ({ minutes: 15 }), repeatable: true },
  'POST /api/v1/alerts/:alertId/acknowledge': { param: 'alert', body: () => ({ note: 'fuzz' }) },
  'POST /api/v1/alerts/:alertId/resolve': { param: 'alert', body: () => ({ resolution: 'fuzz' }) },
  'GET /api/v1/tenant/settings': { repeatable: true },
  'GET /api/v1/sse/alerts': { query: 'lastEventId=0', repeatable: true },
  'PUT /api/v1/tenant/settings/alerts': { body: () => ({ hosApproachingThresholdHours: 1, enableWeatherAlerts: true, routeDeviationThresholdMiles: 2 }), repeatable: true },
  'PUT /api/v1/tenant/settings/monitoring': { body: () => ({ monitoringIntervalSeconds: 60, hosWarningThresholdMinutes: 30, telemetryStaleMinutes: 15 }), repeatable: true },
  'PUT /api/v1/tenant/settings/hos': { body: () => ({ ruleSet: 'US_PROPERTY_70_8', adverseDrivingConditions: false, shortHaul16Hour: false, shortHaul150AirMile: false, homeTerminalUtcOffsetMinutes: 0 }), repeatable: true },
  'POST /api/v1/webhooks': { body: () => ({ url: 'http://127.0.0.1:9/hook', events: ['alert.created', 'route.activated'], description: 'fuzz', secret: 'fuzz-signing-secret-0001' }), repeatable: true },
  'GET /api/v1/webhooks': { query: 'page=1&pageSize=5', repeatable: true },
  'GET /api/v1/webhooks/:webhookId': { param: 'webhook', repeatable: true },
  'PUT /api/v1/webhooks/:webhookId': { param: 'webhook', body: () => ({ url: 'http://127.0.0.1:9/other', events: ['*'], description: null, status: 'ACTIVE' }), repeatable: true },
  'DELETE /api/v1/webhooks/:webhookId': { param: 'webhook', repeatable: true },
  'POST /api/v1/webhooks/:webhookId/test': { param: 'webhook', repeatable: true },
  'POST /api/v1/webhooks/:webhookId/rotate-secret': { param: 'webhook', body: () => ({ secret: 'fuzz-rotated-secret-0002' }), repeatable: true },
  'GET /api/v1/webhooks/:webhookId/deliveries': { param: 'webhook', query: 'status=FAILED&page=1&pageSize=5', repeatable: true },
  'GET /api/v1/webhooks/deliveries/:deliveryId': { param: 'delivery', repeatable: true },
  'POST /api/v1/webhooks/deliveries/:deliveryId/retry': { param: 'delivery' },
  'GET /api/v1/integrations/vendors': { repeatable: true },
  'POST /api/v1/integrations': { body: () => ({ vendor: 'fake_eld', name: 'Fuzz ELD', config: { apiToken: 'fuzz-token-0001', orgId: 'org-1' }, syncIntervalMinutes: 20 }), repeatable: true },
  'GET /api/v1/integrations': { repeatable: true },
  'GET /api/v1/integrations/:integrationId': { param: 'integration', repeatable: true },
  'PUT /api/v1/integrations/:integrationId': { param: 'integration', body: () => ({ name: 'Fuzz ELD 2', syncIntervalMinutes: 30, config: { apiToken: 'fuzz-token-0002' } }), repeatable: true },
  'POST /api/v1/integrations/:integrationId/test': { param: 'integration', repeatable: true },
  'POST /api/v1/integrations/:integrationId/sync': { param: 'integration' },
  'POST /api/v1/integrations/:integrationId/disable': { param: 'integration', repeatable: true },
  'POST /api/v1/integrations/:integrationId/enable': { param: 'integration', repeatable: true },
  'DELETE /api/v1/integrations/:integrationId': { param: 'integration' },
  'GET /api/v1/admin/tenants': { query: 'status=PENDING_APPROVAL&page=1&pageSize=5', repeatable: true },
  'POST /api/v1/admin/tenants/:id/approve': { param: 'tenant' },
  'POST /api/v1/admin/tenants/:id/reject': { param: 'tenant', body: () => ({ reason: 'fuzz' }) },
  'POST /api/v1/admin/tenants/:id/suspend': { param: 'tenant', body: () => ({ reason: 'fuzz' }) },
  'POST /api/v1/admin/tenants/:id/reactivate': { param: 'tenant' },
};

const CASES = Object.entries(FUZZ).flatMap(([key, entry]) => {
  const [method, url] = key.split(' ') as [string, string];
  const out = [{ key, method, url, entry }];
  if (method === 'GET') out.push({ key: `HEAD ${url}`, method: 'HEAD', url, entry });
  return out;
});

const BODY_LIMIT = 1_048_576;
const WITH_BODY = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const ERROR_KEYS = new Set(['statusCode', 'message', 'error', 'details', 'requestId']);
const SEED = 20_260_302;
const NUM_RUNS = 30;

// ---------------------------------------------------------------------------------------------------
// Generators. Large payloads are described (length, depth) and built at send time, so a failing
// counterexample prints readably.

const nasty = fc.constantFrom(
  '', ' ', '\u0000', 'a\u0000b', '\uD800', '\uDFFF', '\u202E', '\uFEFF', '%00', '%', '../../etc/passwd', "' OR 1=1 --", '"; DROP TABLE drivers; --',
  '<script>alert(1)</script>', '${jndi:ldap://x}', '{{7*7}}', 'NaN', 'Infinity', '-1', '1e309', 'null', 'true', '__proto__', 'constructor',
  'OWNER', 'SUPER_ADMIN', 'drv_', 'usr_x', 'tnt_' + 'A'.repeat(80), '😀'.repeat(30), 'é'.repeat(101), '\r\nX-Injected: 1',
);
const weirdString = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), nasty);
const weirdValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: weirdString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: fc.constantFrom<Json>(0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 4.9e-324, true, false, null, [], {}, [null], { '': '' }) },
);

type Mutation =
  | { op: 'drop'; at: number }
  | { op: 'replace'; at: number; value: Json }
  | { op: 'add'; at: number; key: string; value: Json }
  | { op: 'huge'; at: number; length: number }
  | { op: 'nest'; at: number; depth: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: weirdValue }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: fc.oneof(weirdString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'tenantId', 'role', 'status')), value: weirdValue }),
  fc.record({ op: fc.constant('huge' as const), at: fc.nat(), length: fc.constantFrom(257, 5_000, 100_000) }),
  fc.record({ op: fc.constant('nest' as const), at: fc.nat(), depth: fc.integer({ min: 2, max: 1_000 }) }),
);

type BodySpec =
  | { kind: 'none' }
  | { kind: 'valid' }
  | { kind: 'mutated'; mutations: Mutation[] }
  | { kind: 'json'; value: Json }
  | { kind: 'malformed'; text: string }
  | { kind: 'truncated'; at: number }
  | { kind: 'deep'; depth: number; shape: 'object' | 'array' }
  | { kind: 'huge-string'; length: number }
  | { kind: 'oversize'; extra: number }
  | { kind: 'content-type'; contentType: string; payload: 'valid' | 'text' | 'binary'; text: string };

const malformed = fc.oneof(
  fc.constantFrom('{', '}', '{"a":', '[1,2', '{"a":1,}', "{'a':1}", 'undefined', 'NaN', '{"a":NaN}', '01', '{"a":01}', '"\\x00"', '"\\ud800"', '\u0000', '{}{}', '{"a":1}}', '{"a" 1}', '\uFEFF{}', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}', '{"a":"\\u0000"}', '[]]', 'tru', '-', '1e99999'),
  fc.string({ maxLength: 60 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return s.trim() !== '';
    }
  }),
);

const body: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'none' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'valid' } as const) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('mutated' as const), mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('malformed' as const), text: malformed }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncated' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 100, max: 20_000 }), shape: fc.constantFrom('object' as const, 'array' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('huge-string' as const), length: fc.constantFrom(100_000, 600_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('oversize' as const), extra: fc.integer({ min: 1, max: 200_000 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('content-type' as const),
      contentType: fc.constantFrom(
        'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=----x', 'application/octet-stream',
        'application/json; charset=utf-16', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/json;;', 'application/jsonx',
        'application/merge-patch+json', 'text/json', 'image/png', '*/*', 'application/json, text/plain', 'application/json; boundary=x',
      ),
      payload: fc.constantFrom('valid' as const, 'text' as const, 'binary' as const),
      text: fc.string({ maxLength: 80 }),
    }),
  },
);

type ParamSpec = { kind: 'real' } | { kind: 'encoded'; value: string } | { kind: 'raw'; value: string };
const param: fc.Arbitrary<ParamSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'real' } as const) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('encoded' as const), value: fc.oneof(weirdString, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 250 })) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      value: fc.constantFrom('%', '%E0%A4%A', '%zz', '%00', 'drv_%00', '%2e%2e', '..', '.', '*', ':driverId', 'drv_' + 'a'.repeat(300), 'x'.repeat(199), 'usr_0', 'key_0', 'inv_0', 'tnt_0', 'drv_0', 'a%2Fb', '%C0%AF', '%FF'),
    }),
  },
);

type QuerySpec = { kind: 'none' } | { kind: 'valid' } | { kind: 'pairs'; pairs: Array<[string, string]> } | { kind: 'raw'; value: string };
const query: fc.Arbitrary<QuerySpec> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'none' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'valid' } as const) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('pairs' as const),
      pairs: fc.array(fc.tuple(fc.oneof(fc.constantFrom('page', 'pageSize', 'status', 'search', '__proto__', 'constructor', 'page[]', 'status[0]'), weirdString), fc.oneof(weirdString, fc.constantFrom('0', '-1', '101', '1e309', '1.5', '9'.repeat(40), 'ACTIVE', 'PENDING_APPROVAL', 'x'.repeat(2_000)))), { maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      value: fc.constantFrom('%', '&&&', '=', '==&=', 'page=1&page=2', 'a[b][c]=1', 'search=%00', 'search=%E0%A4%A', 'status=ACTIVE&status=INACTIVE', '__proto__[x]=1', 'pageSize=%20', ';page=1', '#frag', 'page=1;pageSize=2'),
    }),
  },
);

const cookie = fc.option(fc.oneof(weirdString.map((s) => `refresh_token=${enc(s)}`), fc.constantFrom('refresh_token=; refresh_token=a', '=;;=', 'refresh_token="quoted"', `refresh_token=${'a'.repeat(5_000)}`)), { nil: undefined });

const attack = fc.record({ body, param, query, cookie });
type Attack = typeof attack extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------------

function objectPaths(v: Json, prefix: string[] = []): string[][] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
  return Object.entries(v).flatMap(([k, child]) => [[...prefix, k], ...objectPaths(child, [...prefix, k])]);
}

function nested(depth: number): Json {
  let v: Json = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? { n: v } : [v];
  return v;
}

function mutate(template: Json, mutations: Mutation[]): Json {
  let root = structuredClone(template);
  for (const m of mutations) {
    const paths = objectPaths(root);
    if (paths.length === 0) {
      root = m.op === 'replace' || m.op === 'add' ? m.value : m.op === 'huge' ? 'x'.repeat(m.length) : m.op === 'nest' ? nested(m.depth) : null;
      continue;
    }
    const path = paths[m.at % paths.length]!;
    const parent = path.slice(0, -1).reduce<Json>((o, k) => (o as Record<string, Json>)[k]!, root) as Record<string, Json>;
    const key = path[path.length - 1]!;
    if (m.op === 'drop') delete parent[key];
    else if (m.op === 'replace') parent[key] = m.value;
    else if (m.op === 'add') Object.defineProperty(parent, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    else if (m.op === 'huge') parent[key] = 'é'.repeat(m.length);
    else parent[key] = nested(m.depth);
  }
  return root;
}

const csvCell = (v: Json) => {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The CSV counterpart of mutate(): drop a column, replace or enlarge a cell, add a column, repeat rows. */
function mutateCsv(template: string, mutations: Mutation[]): string {
  const rows = template.trim().split('\n').map((r) => r.split(','));
  for (const m of mutations) {
    const width = rows[0]?.length ?? 0;
    if (width === 0 || rows.length < 2) break;
    const col = m.at % width;
    const row = 1 + (m.at % (rows.length - 1));
    if (m.op === 'drop') for (const r of rows) r.splice(col, 1);
    else if (m.op === 'replace') rows[row]![col] = csvCell(m.value);
    else if (m.op === 'add') rows.forEach((r, i) => r.push(csvCell(i === 0 ? m.key : m.value)));
    else if (m.op === 'huge') rows[row]![col] = 'x'.repeat(m.length);
    else for (let i = 0; i < m.depth % 50; i++) rows.push([...rows[1]!]);
  }
  return rows.map((r) => r.join(',')).join('\n');
}

/**
 * FUZZ_DB_KINDS (comma-separated) narrows the database kinds: CI fuzzes PostgreSQL on Node 24 and PGlite on
 * Node 22 (each half once, not PGlite twice).
 */
const FUZZ_KINDS = process.env.FUZZ_DB_KINDS ? DB_KINDS.filter((k) => process.env.FUZZ_DB_KINDS!.split(',').includes(k)) : DB_KINDS;

describe.each(FUZZ_KINDS)('fuzzing every route (%s)', (kind) => {
  let t: TestApp;
  let jwks: Server;
  let world: World;
  let ownerAuth: Record<string, string>;
  let driverAuth: Record<string, string>;
  let adminAuth: Record<string, string>;
  let fingerprintSql: string;

  async function fingerprint(): Promise<Record<string, string>> {
    const rows = await t.db.system(async (tx) => (await tx.query<{ t: string; h: string }>(fingerprintSql)).rows);
    return Object.fromEntries(rows.map((r) => [r.t, r.h]));
  }

  async function allDrivers(): Promise<unknown[]> {
    const out: unknown[] = [];
    for (let page = 1; ; page++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/drivers?page=${page}&pageSize=100`, headers: ownerAuth });
      expect(res.statusCode, res.body).toBe(200);
      const { data, total } = res.json<{ data: unknown[]; total: number }>();
      out.push(...data);
      if (out.length >= total || data.length === 0) return out;
    }
  }

  function credentials(c: (typeof CASES)[number]): Record<string, string> {
    const access = t.app.routeCatalog.find((r) => r.url === c.url && r.method === c.method)?.access;
    if (access?.auth === 'platform') return adminAuth;
    return access?.auth === 'tenant' && !can('OWNER', access.permission) ? driverAuth : ownerAuth;
  }

  function buildRequest(c: (typeof CASES)[number], a: Attack) {
    const e = c.entry;
    let url = c.url.replace(/:\w+/g, (name, offset: number) => {
      if (a.param.kind === 'real') return offset === c.url.indexOf(':') ? world.ids[e.param!] : name === ':revision' ? '1' : name === ':date' ? YESTERDAY : world.ids[e.param!];
      return a.param.kind === 'encoded' ? enc(a.param.value) : a.param.value;
    });
    let qs = '';
    if (a.query.kind === 'valid') qs = e.query ?? '';
    else if (a.query.kind === 'raw') qs = a.query.value;
    else if (a.query.kind === 'pairs') qs = a.query.pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
    if (qs) url += `?${qs}`;

    const headers: Record<string, string> = { ...credentials(c) };
    if (a.cookie) headers.cookie = a.cookie;
    const csv = e.csv?.(world);
    const template: Json = e.body ? e.body(world) : (csv ?? {});
    let payload: string | Buffer | undefined;
    let contentType: string | undefined = 'application/json';
    let oversize = false;
    const b = a.body;
    switch (b.kind) {
      case 'none':
        contentType = undefined;
        break;
      case 'valid':
        payload = csv ?? (e.body ? JSON.stringify(template) : undefined);
        contentType = payload === undefined ? undefined : csv !== undefined ? 'text/csv' : contentType;
        break;
      case 'mutated':
        payload = csv !== undefined ? mutateCsv(csv, b.mutations) : JSON.stringify(mutate(template, b.mutations));
        if (csv !== undefined) contentType = 'text/csv';
        break;
      case 'json':
        payload = JSON.stringify(b.value);
        break;
      case 'malformed':
        payload = b.text;
        break;
      case 'truncated': {
        const text = JSON.stringify(template);
        payload = text.slice(0, b.at % Math.max(1, text.length - 1));
        break;
      }
      case 'deep':
        payload = b.shape === 'array' ? '['.repeat(b.depth) + ']'.repeat(b.depth) : '{"a":'.repeat(b.depth) + '1' + '}'.repeat(b.depth);
        break;
      case 'huge-string':
        payload = JSON.stringify({ ...(template as object), name: 'x'.repeat(b.length), firstName: 'ü'.repeat(b.length / 8) });
        break;
      case 'oversize':
        payload = `{"a":"${'x'.repeat(BODY_LIMIT + b.extra)}"}`;
        oversize = true;
        break;
      case 'content-type':
        contentType = b.contentType;
        payload = b.payload === 'valid' ? JSON.stringify(template) : b.payload === 'text' ? b.text || 'x' : Buffer.from([0, 0xff, 0xfe, 0x7b, 0x22]);
        break;
    }
    if (contentType !== undefined) headers['content-type'] = contentType;
    return { request: { method: c.method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) }, oversize: oversize && WITH_BODY.has(c.method) };
  }

  function checkResponse(c: (typeof CASES)[number], res: LightMyRequestResponse, oversize: boolean, describeReq: () => string): void {
    const where = () => `${c.key} → ${res.statusCode} ${res.body.slice(0, 300)}\n${describeReq()}`;
    expect(res.statusCode, where()).toBeLessThan(500);
    // The router refuses a bad URL (bad percent-encoding, an over-long path parameter) before any body is read.
    const urlRefused = res.statusCode >= 400 && /^\{"statusCode":\d+,"error":"[^"]+","message":"(The URL is not valid|A path parameter is too long)/.test(res.body);
    if (oversize && !urlRefused) expect(res.statusCode, where()).toBe(413);
    if (res.statusCode >= 400 && c.method !== 'HEAD') {
      expect(String(res.headers['content-type']), where()).toMatch(/^application\/json/);
      const errorBody = res.json<Record<string, unknown>>();
      expect(errorBody, where()).toMatchObject({ statusCode: res.statusCode, error: STATUS_CODES[res.statusCode], message: expect.any(String) });
      expect((errorBody.message as string).length, where()).toBeGreaterThan(0);
      expect((errorBody.message as string).length, where()).toBeLessThanOrEqual(2_000);
      expect(Object.keys(errorBody).filter((k) => !ERROR_KEYS.has(k)), where()).toEqual([]);
    }
  }

  beforeAll(async () => {
    // A local identity provider, so the exchange endpoint is configured and answers like the others.
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'fuzz', alg: 'RS256', use: 'sig' };
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
    // Webhook targets on this machine (port 9 refuses at once): the test ping never leaves it.
    t = await buildTestApp(kind, { env: { OIDC_ISSUER: issuer, OIDC_AUDIENCE: 'fleet-fuzz', OIDC_JWKS_URL: `${issuer}/jwks`, WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });

    const owner = await createTenant(t.app);
    ownerAuth = owner.auth;
    adminAuth = { authorization: `Bearer ${await adminToken(t.app)}` };
    const driver = await createDriver(t.app, owner.auth);
    const victim = await createUser(t.app, t.mailer, owner, 'DISPATCHER');
    const key = await createApiKey(t.app, owner, 'fuzz victim');
    const inv = await t.app.inject({ method: 'POST', url: '/api/v1/user-invitations', headers: owner.auth, payload: { email: `fuzz-pending-${u()}@example.test`, role: 'VIEWER' } });
    expect(inv.statusCode, inv.body).toBe(201);
    const target = await createTenant(t.app, { approve: false });
    const create = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url, headers: owner.auth, payload });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
      return res.json<{ id: string }>().id;
    };
    // Routes of their own drivers: one PLANNED (for the lifecycle actions), one ACTIVE (for positions).
    const stops = [{ latitude: 32.78, longitude: -96.8 }, { latitude: 32.75, longitude: -97.33 }];
    const planDriver = (await createDriver(t.app, owner.auth)).id;
    const route = await create('/api/v1/routes/plan', { driverId: planDriver, stops });
    const activeRoute = await create('/api/v1/routes/plan', { driverId: (await createDriver(t.app, owner.auth)).id, stops });
    const activated = await t.app.inject({ method: 'POST', url: `/api/v1/routes/${activeRoute}/activate`, headers: owner.auth });
    expect(activated.statusCode, activated.body).toBe(200);
    const webhook = await create('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    const pinged = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${webhook}/test`, headers: owner.auth });
    expect(pinged.statusCode, pinged.body).toBe(200);
    const delivery = pinged.json<{ id: string }>().id;
    const idpToken = await new SignJWT({ email: owner.email, email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: 'fuzz' })
      .setIssuer(issuer)
      .setAudience('fleet-fuzz')
      .setSubject('idp-owner')
      .setIssuedAt(Math.floor(t.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 3600 * 24 * 365)
      .sign(privateKey);
    const editFrom = hoursAgo(5);
    // The driver's own user: the routes only a driver may call (answering a correction, certifying) are fuzzed with it.
    driverAuth = (await createUser(t.app, t.mailer, owner, 'DRIVER', { driverId: driver.id })).auth;
    const vehicle = await create('/api/v1/vehicles', { unitNumber: `V-${u()}` });
    world = {
      owner,
      ids: {
        driver: driver.id,
        user: victim.userId,
        apiKey: key.id,
        invitation: inv.json<{ id: string }>().id,
        tenant: target.tenantId,
        vehicle,
        load: await create('/api/v1/loads', { referenceNumber: `L-${u()}` }),
        location: await create('/api/v1/locations', { name: 'Fuzz Yard', type: 'YARD', latitude: 32.9, longitude: -97.1 }),
        route,
        activeRoute,
        planDriver,
        alert: (await seedAlerts(t.db, owner.tenantId, [{ type: 'ROUTE_DEVIATION', at: t.clock.now().toISOString(), driverId: driver.id }]))[0]!,
        webhook,
        delivery,
        integration: await create('/api/v1/integrations', { vendor: 'fake_eld', name: 'Fuzz ELD', config: { apiToken: 'fuzz-token-0000' } }),
        edit: await create(`/api/v1/drivers/${driver.id}/log-edits`, { from: editFrom, to: hoursAgo(4), entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: editFrom }], annotation: 'Pre-trip inspection' }),
        unassigned: await create(`/api/v1/vehicles/${vehicle}/unassigned-driving`, unassignedBody()),
      },
      idpToken,
    };

    const tables = await t.db.system(async (tx) =>
      (await tx.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1")).rows.map((r) => r.table_name),
    );
    expect(tables).toEqual(expect.arrayContaining(['tenants', 'users', 'drivers', 'api_keys', 'user_invitations', 'tenant_settings', 'refresh_tokens', 'vehicles', 'loads', 'locations']));
    fingerprintSql = tables
      .map((name) => `SELECT '${name}' AS t, md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS h FROM "${name}" x`)
      .join(' UNION ALL ');
  });

  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  it('every route of the app has a fuzz entry, and every entry is a route', () => {
    const catalog = t.app.routeCatalog.map((r) => `${r.method} ${r.url}`);
    const covered = CASES.map((c) => c.key);
    expect(catalog.filter((k) => !covered.includes(k)), 'routes without an entry in FUZZ (add one)').toEqual([]);
    expect(covered.filter((k) => !catalog.includes(k)), 'FUZZ entries that are not routes').toEqual([]);
  });

  it.each(CASES.filter((c) => WITH_BODY.has(c.method)).map((c) => [c.key, c] as const))('%s: a body over the 1 MiB limit → 413', async (_key, c) => {
    const { request } = buildRequest(c, { body: { kind: 'oversize', extra: 1 }, param: { kind: 'real' }, query: { kind: 'none' }, cookie: undefined });
    const res = await t.app.inject(request);
    checkResponse(c, res, true, () => 'oversize body');
  });

  it.each(CASES.map((c, i) => [c.key, c, i] as const))('%s: garbage never causes a 5xx, a malformed error body or a change of data', async (_key, c, index) => {
    const driversBefore = await allDrivers();
    let baseline = await fingerprint();
    let acceptedWrites = 0;

    // Known-hostile cases first, so they are always covered: a NUL character (which PostgreSQL cannot
    // store) in each field of an otherwise valid body and in each parameter of a valid query.
    const base: Attack = { body: { kind: 'valid' }, param: { kind: 'real' }, query: { kind: 'valid' }, cookie: undefined };
    const examples: Array<[Attack]> = [];
    if (c.entry.body) {
      objectPaths(c.entry.body(world)).forEach((_path, at) => {
        examples.push([{ ...base, body: { kind: 'mutated', mutations: [{ op: 'replace', at, value: 'a\u0000b' }] } }]);
      });
    }
    if (c.entry.csv) {
      c.entry.csv(world).split('\n')[0]!.split(',').forEach((_col, at) => {
        examples.push([{ ...base, body: { kind: 'mutated', mutations: [{ op: 'replace', at, value: 'a\u0000b' }] } }]);
      });
    }
    const validPairs = [...new URLSearchParams(c.entry.query ?? '')];
    validPairs.forEach(([key], i) => {
      examples.push([{ ...base, query: { kind: 'pairs', pairs: validPairs.map(([k, v], j): [string, string] => [k, j === i ? '\u0000' : v]) } }]);
      examples.push([{ ...base, query: { kind: 'pairs', pairs: [[key, 'x'.repeat(5_000)]] } }]);
    });

    await fc.assert(
      fc.asyncProperty(attack, async (a) => {
        const { request, oversize } = buildRequest(c, a);
        const res = await t.app.inject(request);
        const describeReq = () => `${request.method} ${request.url.slice(0, 300)} content-type=${request.headers['content-type'] ?? '-'} body=${String(request.payload ?? '').slice(0, 200)}`;
        checkResponse(c, res, oversize, describeReq);
        const after = await fingerprint();
        if (res.statusCode >= 400 || c.method === 'GET' || c.method === 'HEAD') {
          expect(after, `refused request or read changed data: ${describeReq()} → ${res.statusCode}`).toEqual(baseline);
        } else {
          acceptedWrites += 1;
          baseline = after;
        }
      }),
      { numRuns: c.method === 'HEAD' ? 12 : NUM_RUNS, seed: SEED + index, endOnFailure: true, examples },
    );

    // Valid requests still work afterwards, and nothing was lost.
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: ownerAuth });
    expect(me.statusCode, me.body).toBe(200);
    if (acceptedWrites === 0) expect(await allDrivers()).toEqual(driversBefore);
    const fields = buildDriver();
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/drivers', headers: ownerAuth, payload: fields });
    expect(created.statusCode, created.body).toBe(201);
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${created.json<{ id: string }>().id}`, headers: ownerAuth });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ ...fields, licenseNumber: fields.licenseNumber.toUpperCase(), status: 'ACTIVE' });
    if (c.entry.repeatable) {
      const { request } = buildRequest(c, { body: { kind: 'valid' }, param: { kind: 'real' }, query: { kind: 'valid' }, cookie: undefined });
      const res = await t.app.inject(request);
      expect(res.statusCode, `${c.key} valid request after fuzzing: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      expect(res.statusCode, `${c.key} valid request after fuzzing: ${res.body.slice(0, 300)}`).toBeLessThan(c.url === '/' ? 400 : 300);
    }
  });
});
