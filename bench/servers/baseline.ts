/**
 * The benchmark's baseline: the least code that does the same work as the app for the benchmark's
 * requests, so that app ÷ baseline is the cost of everything the app adds around that work
 * (validation, schemas, rate limiting, logging hooks, service layers, …).
 *
 * Fastify with no plugins, and per request:
 *   1. the credential → tenant:
 *      - X-API-Key: sha256(key) looked up in an in-memory Map (what any cache would hold: a hash,
 *        never the raw key), preloaded with the keys the harness created through the app;
 *      - Authorization: Bearer <jwt>: a Map of tokens already verified (token text → tenant, exp),
 *        exp checked on every hit; a token not seen before is verified with jose (HS256, the app's
 *        JWT_SECRET, issuer and audience, as src/modules/auth/auth.tokens.ts) and then remembered;
 *      - anything else: 401;
 *   2. one transaction on that tenant, opened as src/db/client.ts opens it (SET LOCAL ROLE fleet_app
 *      and app.tenant_id, in the same round trip as BEGIN on PostgreSQL), so row-level security applies;
 *   3. the statement(s) of the request:
 *      - GET  /api/v1/drivers: the page query with its window count, as src/db/sql.ts selectPage and
 *        listDrivers build it for page=1&pageSize=20, columns aliased to the API's names, and in the same
 *        statement what each driver's live hours are computed from (the app's currentHoursOf reads), then
 *        the hours computed by the same pure code (hosNow);
 *      - POST /api/v1/drivers: the app's INSERT (a new drv_ id, status ACTIVE, created_at = updated_at
 *        = now) RETURNING the full record under the API's names, answered with 201;
 *      - POST /api/v1/routes/plan (API key; a solo plan computed in process): the app's planning steps
 *        (src/modules/routes/routes.planning.ts) called straight, in one transaction — see the route below;
 *   4. the same JSON body as the app (the harness checks it before measuring).
 *
 * Database: DATABASE_URL=postgres://… (with DATABASE_SCHEMA): the app's schema and rows, a pool of
 * 10 like the app's; otherwise an in-memory PGlite of its own, opened with the app's settings
 * (src/db/client.ts openPglite) and the app's V8 settings (src/runtime.ts), set up (not measured) with
 * the app's migrations (schema, RLS policies, the fleet_app role) and the rows listed in the seed file.
 *
 * Env: PORT (required), HOST, BENCH_SEED (the harness's seed file, see seed-file.ts), JWT_SECRET,
 * DATABASE_URL, DATABASE_SCHEMA.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';
import { openPglite, runPreparedPglite } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import type { Database, QueryOptions, Tx } from '../../src/db/types.js';
import type { Config } from '../../src/config.js';
import { livePlanningPorts } from '../../src/modules/routes/planning-ports.live.js';
import { fuelOptions, orderedStops, planBookingWarnings, planInputOf, planOrExplain, readPlanningContext, roadLegs, saveRoute, type PlanRequest } from '../../src/modules/routes/routes.planning.js';
import type { TenantContext } from '../../src/plugins/context.js';
import { hosNow } from '../../src/domain/hos/current.js';
import { timelineFromLog } from '../../src/domain/hos/snapshot.js';
import type { DutyStatus } from '../../src/domain/hos/types.js';
import { newId } from '../../src/lib/ids.js';
import { ELD_CLOCKS_MAX_AGE_MS } from '../../src/domain/hos/eld-clocks.js';
import { toEldClocks } from '../../src/modules/hos/eld-clocks.repository.js';
import { ruleSetOf, type StoredHosSettings } from '../../src/modules/hos/hos.repository.js';
import { clockSourceOf, disagreementOf, eldReport, HISTORY_DAYS } from '../../src/modules/hos/hos.service.js';
import type { BenchSeed } from './seed-file.js';
import { listenAndServe } from './serve.js';

const seed = JSON.parse(fs.readFileSync(process.env.BENCH_SEED ?? '', 'utf8')) as BenchSeed;
const jwtSecret = new TextEncoder().encode((process.env.JWT_SECRET ?? '').trim());
if (jwtSecret.length < 32) throw new Error('JWT_SECRET must be set (the app\'s)');

// Tenant ids are interpolated into the transaction preamble (as src/db/client.ts does); they are
// checked once, when they enter a Map below, rather than on every request.
const TENANT_ID = /^tnt_[0-9A-Za-z]{22}$/;
const checkedTenant = (id: unknown): string => {
  if (typeof id !== 'string' || !TENANT_ID.test(id)) throw new Error(`not a tenant id: ${String(id)}`);
  return id;
};

// ---------------------------------------------------------------------------------------------
// Credentials

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const apiKeys = new Map<string, string>(seed.apiKeys.map((k) => [sha256(k.key), checkedTenant(k.tenantId)]));
/** The user each key acts for (a route records who planned it): by key hash, like the tenant. */
const keyUsers = new Map<string, string>(seed.apiKeys.map((k) => [sha256(k.key), k.userId]));
const verifiedTokens = new Map<string, { tenantId: string; exp: number }>();

async function tenantOf(request: FastifyRequest): Promise<string | undefined> {
  const key = request.headers['x-api-key'];
  if (typeof key === 'string') return apiKeys.get(sha256(key));
  const m = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
  if (!m) return undefined;
  const token = m[1]!;
  let known = verifiedTokens.get(token);
  if (!known) {
    try {
      const { payload } = await jwtVerify(token, jwtSecret, { issuer: 'fleet-hos', audience: 'fleet-hos-api', algorithms: ['HS256'] });
      if (payload.typ !== 'access' || typeof payload.exp !== 'number') return undefined;
      known = { tenantId: checkedTenant(payload.tid), exp: payload.exp };
      verifiedTokens.set(token, known);
    } catch {
      return undefined;
    }
  }
  return known.exp > Math.floor(Date.now() / 1000) ? known.tenantId : undefined;
}

const unauthorized = (reply: FastifyReply) => reply.code(401).send({ error: 'Unauthorized' });

// ---------------------------------------------------------------------------------------------
// One tenant transaction

// The transaction is the app's Tx (src/db/types.ts), so that the app's planning steps run in it as they are;
// `{ prepare: name }` runs a statement prepared once per connection and planned generically, as the app does.
const preamble = (tenantId: string) => `SET LOCAL ROLE fleet_app; SELECT set_config('app.tenant_id', '${tenantId}', true)`;

let inTenant: <T>(tenantId: string, fn: (tx: Tx) => Promise<T>) => Promise<T>;
let closeDb: () => Promise<void>;

const url = process.env.DATABASE_URL;
// The same V8 settings as the app's server come from the command line (bench/lib/processes.ts: NODE_FLAGS).
if (url && /^postgres(ql)?:\/\//.test(url)) {
  const schema = process.env.DATABASE_SCHEMA;
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c statement_timeout=15s -c plan_cache_mode=force_generic_plan${schema ? ` -c search_path=${schema}` : ''}` });
  pool.on('error', () => undefined);
  inTenant = async (tenantId, fn) => {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN; ${preamble(tenantId)}`);
      const result = await fn({
        async query<R>(sql: string, params: unknown[] = [], options?: QueryOptions) {
          const res = options?.prepare ? await client.query({ name: options.prepare, text: sql, values: params }) : await client.query(sql, params);
          return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
        },
      });
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };
  closeDb = () => pool.end();
} else {
  const db = await openPglite(); // in memory with the app's settings, like the app's DATABASE_URL=memory://
  await db.waitReady;
  await setUpPglite(db, seed);
  inTenant = (tenantId, fn) =>
    db.transaction(async (tx) => {
      await tx.exec(preamble(tenantId));
      return fn({
        async query<R>(sql: string, params: unknown[] = [], options?: QueryOptions) {
          const res = options?.prepare ? await runPreparedPglite(db, options.prepare, sql, params) : await tx.query(sql, params);
          return { rows: res.rows as R[], rowCount: res.affectedRows ?? res.rows.length };
        },
      });
    });
  closeDb = () => db.close();
}

// ---------------------------------------------------------------------------------------------
// The routes

// The page of drivers and, per driver on it, what their live hours are computed from (as the app's
// currentHoursOf reads it: the ACTIVE log since HISTORY_DAYS ago with the record in force then, the ELD's
// recent clocks, whether they drive an ACTIVE team route, the tenant's rule set) — in one statement.
const PAGE_SQL = `WITH page AS (
  SELECT id, first_name AS "firstName", last_name AS "lastName", license_number AS "licenseNumber",
         license_state AS "licenseState", truck_number AS "truckNumber", status, count(*) OVER () AS total
    FROM drivers WHERE tenant_id = $1
   ORDER BY last_name, first_name, id
   LIMIT 20 OFFSET 0)
SELECT p.*,
       (SELECT hos FROM tenant_settings WHERE tenant_id = $1) AS hos,
       (SELECT json_agg(json_build_array(e.status, e.started_at) ORDER BY e.started_at, e.created_at) FROM duty_status_events e
         WHERE e.tenant_id = $1 AND e.driver_id = p.id AND e.record_status = 'ACTIVE'
           AND (e.started_at >= $2 OR e.started_at = (SELECT max(x.started_at) FROM duty_status_events x WHERE x.tenant_id = $1 AND x.driver_id = p.id AND x.record_status = 'ACTIVE' AND x.started_at < $2))) AS events,
       (SELECT row_to_json(c) FROM driver_eld_clocks c WHERE c.tenant_id = $1 AND c.driver_id = p.id AND c.synced_at > $3) AS eld,
       EXISTS (SELECT 1 FROM route_plans r WHERE r.tenant_id = $1 AND r.status = 'ACTIVE' AND r.co_driver_id IS NOT NULL AND (r.driver_id = p.id OR r.co_driver_id = p.id)) AS team
  FROM page p ORDER BY p."lastName", p."firstName", p.id`;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A page row → the app's list item: the driver, and the live hours the same pure code computes. */
function listItem(r: Record<string, unknown>, now: number) {
  const { total: _total, hos, events, eld, team, ...driver } = r;
  const since = now - HISTORY_DAYS * 24 * 3_600_000;
  const log = ((events ?? []) as Array<[DutyStatus, string]>).map(([status, at]) => ({ status, at: Date.parse(at) }));
  const rules = ruleSetOf(hos as StoredHosSettings | null);
  const h = hosNow(timelineFromLog(log, since, now), team ? { ...rules, options: { ...rules.options, teamDriving: true } } : rules, now, eld ? eldReport(toEldClocks(eld as Record<string, unknown>)) : null);
  const c = h.clocks;
  return {
    ...driver,
    currentHoursDriven: round2(c.hoursDriven),
    currentOnDutyTime: round2(c.onDutyHours),
    driveTimeRemaining: round2(c.driveRemaining),
    dutyTimeRemaining: round2(c.windowRemaining),
    currentDutyStatus: c.dutyStatus,
    clockSource: clockSourceOf(h),
    disagreement: disagreementOf(h),
  };
}

const INSERT_SQL = `INSERT INTO drivers (tenant_id, id, first_name, last_name, license_number, license_state, truck_number, phone_number, email, external_id, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'ACTIVE', $11, $11)
  RETURNING id, first_name AS "firstName", last_name AS "lastName", license_number AS "licenseNumber",
       license_state AS "licenseState", truck_number AS "truckNumber", phone_number AS "phoneNumber", email,
       external_id AS "externalId", status,
       user_id AS "userId", current_hours_driven AS "currentHoursDriven", current_on_duty_time AS "currentOnDutyTime",
       current_cycle_used AS "currentCycleUsed", last_restart_date AS "lastRestartDate", created_at AS "createdAt",
       updated_at AS "updatedAt", deactivated_at AS "deactivatedAt", reactivated_at AS "reactivatedAt", home_terminal AS "homeTerminal"`;

interface NewDriver {
  firstName: string;
  lastName: string;
  licenseNumber: string;
  licenseState: string;
  truckNumber?: string;
  phoneNumber?: string;
  email?: string;
  externalId?: string;
}

const app = Fastify({ logger: false });

app.get('/api/v1/drivers', async (request, reply) => {
  const tenantId = await tenantOf(request);
  if (tenantId === undefined) return unauthorized(reply);
  const now = Date.now();
  const { rows } = await inTenant(tenantId, (tx) => tx.query<Record<string, unknown>>(PAGE_SQL, [tenantId, new Date(now - HISTORY_DAYS * 24 * 3_600_000), new Date(now - ELD_CLOCKS_MAX_AGE_MS)], { prepare: 'page' }));
  const total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  return { data: rows.map((r) => listItem(r, now)), total, page: 1, pageSize: 20 };
});

app.post('/api/v1/drivers', async (request, reply) => {
  const tenantId = await tenantOf(request);
  if (tenantId === undefined) return unauthorized(reply);
  const d = request.body as NewDriver;
  const params = [tenantId, newId('driver'), d.firstName, d.lastName, d.licenseNumber, d.licenseState, d.truckNumber ?? null, d.phoneNumber ?? null, d.email ?? null, d.externalId ?? null, new Date()];
  const { rows } = await inTenant(tenantId, (tx) => tx.query<Record<string, unknown>>(INSERT_SQL, params));
  // A new driver has no known location yet (as the app answers).
  return reply.code(201).send({ ...rows[0], lastKnownLocation: null });
});

// POST /api/v1/routes/plan: the same work as the app's routesService.plan for a plan computed in process
// (haversine or haversine_road, no fuel vendor: the bench's and most plans) — one transaction: the planning context's one
// statement (the app's, prepared by name as the app prepares it), the stops, legs, fuel and planner (the same
// pure code), the booking warnings, and the route with its route.planned event in one statement (saveRoute) —
// answered with the JSON saveRoute builds, as the app sends it. No schema validation, no rate limiting, no
// request logging, no service layers: what the app adds around that work is what app ÷ baseline shows.
const ports = livePlanningPorts({ osrmUrl: undefined } as unknown as Config);
const quiet = { log: { warn: () => undefined } } as never;
/** The plans' default distance method, as the app's config reads it (DISTANCE_METHOD, default haversine). */
const defaultDistanceMethod = (process.env.DISTANCE_METHOD ?? 'haversine') as 'haversine' | 'haversine_road';

app.post('/api/v1/routes/plan', async (request, reply) => {
  const key = request.headers['x-api-key'];
  const hash = typeof key === 'string' ? sha256(key) : '';
  const tenantId = apiKeys.get(hash);
  if (tenantId === undefined) return unauthorized(reply);
  const ctx = { tenantId, userId: keyUsers.get(hash)! } as TenantContext;
  const body = request.body as PlanRequest;
  const now = new Date();
  const departure = body.departureTime ? Date.parse(body.departureTime) : now.getTime();
  const opts = body.options ?? {};
  const saved = await inTenant(tenantId, async (tx) => {
    const context = await readPlanningContext(tx, tenantId, body, departure);
    const stops = orderedStops(body.stops, context.load, opts, ports, departure);
    const road = await roadLegs(quiet, ports, stops, opts.distanceMethod ?? defaultDistanceMethod);
    const fuel = await fuelOptions(ports, tenantId, opts, context.vehicle, road.legs, context.fuelIntegrations);
    const plan = planOrExplain(planInputOf(body, context, stops, road.legs, fuel.options, departure, ports));
    plan.warnings.unshift(...road.warnings, ...fuel.warnings);
    plan.warnings.push(...planBookingWarnings(context, plan, stops[0]!, ports));
    return saveRoute(tx, ctx, { driverId: context.driver.id, coDriverId: null, vehicleId: context.vehicle?.id ?? null, loadId: null, distanceMethod: road.distanceMethod, request: body as unknown as Record<string, unknown>, plan }, now);
  });
  return reply.code(201).type('application/json; charset=utf-8').send(saved.json);
});

await listenAndServe(app, closeDb);

// ---------------------------------------------------------------------------------------------
// Set-up of an in-memory PGlite (not measured): the app's migrations, then the app's rows.

async function setUpPglite(db: PGlite, s: BenchSeed): Promise<void> {
  // migrate() takes the app's Database interface; only system() (a transaction as the owner) is used.
  const asOwner = <T>(fn: (tx: Tx) => Promise<T>) =>
    db.transaction((tx) =>
      fn({
        async query<R>(sql: string, params?: unknown[]) {
          const res = await tx.query<R>(sql, params);
          return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
        },
      }),
    );
  const setup: Database = {
    kind: 'pglite',
    system: asOwner,
    tenant: () => Promise.reject(new Error('not used in set-up')),
    systemStatement: () => Promise.reject(new Error('not used in set-up')),
    listen: () => Promise.reject(new Error('not used in set-up')),
    exec: async (sql) => void (await db.exec(sql)),
    ping: async () => void (await db.query('SELECT 1')),
    close: () => db.close(),
  };
  await migrate(setup);
  await asOwner(async (tx) => {
    for (const t of s.tenants) {
      await tx.query(
        `INSERT INTO tenants (id, name, address, phone, contact_email, dot_number, mc_number, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [t.id, t.name, t.address, t.phone, t.contactEmail, t.dotNumber, t.mcNumber, t.status, t.createdAt, t.updatedAt],
      );
    }
    for (const d of s.drivers) {
      await tx.query(
        `INSERT INTO drivers (tenant_id, id, user_id, first_name, last_name, license_number, license_state, truck_number, phone_number, email,
                              status, current_hours_driven, current_on_duty_time, current_cycle_used, last_restart_date,
                              deactivated_at, reactivated_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
        [d.tenantId, d.id, d.userId, d.firstName, d.lastName, d.licenseNumber, d.licenseState, d.truckNumber, d.phoneNumber, d.email,
          d.status, d.currentHoursDriven, d.currentOnDutyTime, d.currentCycleUsed, d.lastRestartDate, d.deactivatedAt, d.reactivatedAt, d.createdAt, d.updatedAt],
      );
    }
  });
}
