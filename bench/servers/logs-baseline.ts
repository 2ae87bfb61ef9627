/**
 * The daily-log benchmark's baseline (bench/logs.ts): the least code that answers the benchmark's
 * requests with the same bodies as the app, so that app ÷ baseline is the cost of what the app adds
 * (Fastify's plugins and hooks, validation, rate limiting, schemas, the service's layers and round trips).
 *
 * Fastify with no plugins, and per request:
 *   1. the credential → tenant, exactly as bench/servers/baseline.ts: X-API-Key → sha256 → Map; a bearer
 *      token verified once with jose (HS256, the app's secret, issuer, audience, typ access) and then
 *      remembered, exp checked on every hit; anything else 401;
 *   2. one transaction on that tenant, opened as src/db/client.ts opens it (SET LOCAL ROLE fleet_app and
 *      app.tenant_id in BEGIN's round trip on PostgreSQL), so row-level security applies;
 *   3. the reads (BENCH_BASELINE_READS):
 *      - json (the default, the shortest path): two statements — the driver(s) with the tenant's HOS
 *        settings and address (the zone and the period's start bound the rest), then everything else the
 *        answer needs in one statement, one JSON array per kind (json_agg): the ACTIVE records from the one
 *        in force at the history's start, the certifications, the corrections and requests by date, the
 *        route positions;
 *      - rows: the app's own statements (for one driver their very text, see ROWS_ONE; for a page of
 *        drivers each once for the whole page), so that app ÷ this one is what the app adds around them;
 *   4. the same computation with the same pure functions as the service: the zone (the driver's home
 *      terminal, the settings, the address geocoded by the app's offline gazetteer, America/Chicago),
 *      `dailyLogs` (src/domain/logs/daily-log.ts: periods, events, totals, the HOS engine's violations,
 *      recap), `nameNear` for each event's place, `milesFromPositions`; answered with JSON.stringify.
 *
 * Routes: GET /api/v1/drivers/:driverId/logs?from&to and GET /api/v1/compliance/hos?from&to&page&pageSize
 * (the fleet report: the page's drivers, their days as above — without the place names, which that
 * answer does not carry — the violations by type, the days not certified, the requests waiting, the
 * driving not in the log, and the unassigned driving per vehicle; each read once for the whole page
 * rather than once per driver).
 * No validation: the harness sends what needs none (both dates, a range within the limits).
 *
 * Database: DATABASE_URL=postgres://… with DATABASE_SCHEMA (the app's rows, a pool of 10 like the app's),
 * otherwise an in-memory PGlite of its own with the app's settings (openPglite), set up with the app's
 * migrations and the seed file's rows (logs-seed.ts; not measured).
 *
 * Env: PORT (required), HOST, BENCH_SEED (the seed file), JWT_SECRET, DATABASE_URL, DATABASE_SCHEMA,
 * BENCH_BASELINE_READS (json or rows).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';
import { openPglite } from '../../src/db/client.js';
import { haversineMiles } from '../../src/domain/geo/index.js';
import { statusAt } from '../../src/domain/logs/corrections.js';
import { unassignedFlags } from '../../src/domain/logs/unassigned.js';
import { addDays, dailyLogs, daysBetween, historyStart, logDateOf, periodOf, type LogRecord, type RecordOrigin } from '../../src/domain/logs/daily-log.js';
import type { DutyStatus, RuleSet, RuleSetId, RuleSetOptions } from '../../src/domain/hos/types.js';
import { timeZoneAt } from '../../src/domain/planning/local-time.js';
import { offlineGeocoder, preloadGazetteer } from '../../src/infra/geocoding/index.js';
import { milesFromPositions } from '../../src/modules/logs/logs.repository.js';
import { listenAndServe } from './serve.js';
import { setUpLogsPglite, type LogsSeed } from './logs-seed.js';

const seed = JSON.parse(fs.readFileSync(process.env.BENCH_SEED ?? '', 'utf8')) as LogsSeed;
const jwtSecret = new TextEncoder().encode((process.env.JWT_SECRET ?? '').trim());
if (jwtSecret.length < 32) throw new Error("JWT_SECRET must be set (the app's)");

const TENANT_ID = /^tnt_[0-9A-Za-z]{22}$/;
const checkedTenant = (id: unknown): string => {
  if (typeof id !== 'string' || !TENANT_ID.test(id)) throw new Error(`not a tenant id: ${String(id)}`);
  return id;
};

// ---------------------------------------------------------------------------------------------
// Credentials (as bench/servers/baseline.ts)

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const apiKeys = new Map<string, string>(seed.apiKeys.map((k) => [sha256(k.key), checkedTenant(k.tenantId)]));
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
// One tenant transaction (as bench/servers/baseline.ts)

type Query = <R>(sql: string, params: unknown[]) => Promise<R[]>;
const preamble = (tenantId: string) => `SET LOCAL ROLE fleet_app; SELECT set_config('app.tenant_id', '${tenantId}', true)`;

let inTenant: <T>(tenantId: string, fn: (query: Query) => Promise<T>) => Promise<T>;
let closeDb: () => Promise<void>;

// The gazetteer is built in a child process, as the app's api process does (src/server.ts).
const gazetteer = preloadGazetteer();
const url = process.env.DATABASE_URL;
if (url && /^postgres(ql)?:\/\//.test(url)) {
  const schema = process.env.DATABASE_SCHEMA;
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000, options: `-c statement_timeout=15s${schema ? ` -c search_path=${schema}` : ''}` });
  pool.on('error', () => undefined);
  inTenant = async (tenantId, fn) => {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN; ${preamble(tenantId)}`);
      const result = await fn(async (sql, params) => (await client.query(sql, params)).rows);
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
  const db = await openPglite();
  await db.waitReady;
  await setUpLogsPglite(db, seed);
  inTenant = (tenantId, fn) =>
    db.transaction(async (tx) => {
      await tx.exec(preamble(tenantId));
      return fn(async (sql, params) => (await tx.query(sql, params)).rows as never);
    });
  closeDb = () => db.close();
}
await gazetteer;
const geocoder = offlineGeocoder();
/** As src/modules/routes/planning-ports.live.ts. */
const nameNear = (point: { latitude: number; longitude: number }) => {
  const place = geocoder.nearestPlace(point);
  return place ? `near ${place.name}` : `${point.latitude.toFixed(3)}, ${point.longitude.toFixed(3)}`;
};

// ---------------------------------------------------------------------------------------------
// The reads

type Hos = ({ ruleSet?: RuleSetId; homeTerminalTimeZone?: string | null; periodStartTime?: string } & RuleSetOptions) | null;

interface DriverRow {
  id: string;
  first_name: string;
  last_name: string;
  status: string;
  home_terminal: { timeZone?: string } | string | null;
  hos: Hos;
  address: string | null;
  total?: string | number;
}

const DRIVER_SQL = `SELECT d.id, d.first_name, d.last_name, d.status, d.home_terminal,
       (SELECT s.hos FROM tenant_settings s WHERE s.tenant_id = $1) AS hos, (SELECT t.address FROM tenants t WHERE t.id = $1) AS address
  FROM drivers d WHERE d.tenant_id = $1 AND d.id = $2`;

const PAGE_SQL = `SELECT d.id, d.first_name, d.last_name, d.status, d.home_terminal, count(*) OVER () AS total,
       (SELECT s.hos FROM tenant_settings s WHERE s.tenant_id = $1) AS hos, (SELECT t.address FROM tenants t WHERE t.id = $1) AS address
  FROM drivers d WHERE d.tenant_id = $1 ORDER BY d.last_name, d.first_name, d.id LIMIT $2 OFFSET $3`;

/** What one driver's days are computed from. */
interface DriverLog {
  records: LogRecord[];
  /** Per date: how many certifications, and the latest one's instant. */
  certs: Map<string, { n: number; latest: number }>;
  applied: Map<string, number[]>;
  pending: Map<string, number>;
  positions: { routeId: string; at: number; latitude: number; longitude: number }[];
}

const emptyLog = (): DriverLog => ({ records: [], certs: new Map(), applied: new Map(), pending: new Map(), positions: [] });

/** The bounds of a read: the records from the one in force at `since`, the dates [from, to], the positions in [start, end). */
interface Bounds {
  since: Date;
  from: string;
  to: string;
  start: Date;
  end: Date;
}

const ms = (v: unknown) => (v instanceof Date ? v.getTime() : Date.parse(String(v)));

class Logs {
  readonly byDriver: Map<string, DriverLog>;
  constructor(ids: readonly string[]) {
    this.byDriver = new Map(ids.map((id) => [id, emptyLog()]));
  }
  record(driverId: string, r: LogRecord) {
    this.byDriver.get(driverId)?.records.push(r);
  }
  cert(driverId: string, date: string, at: number) {
    const log = this.byDriver.get(driverId);
    if (!log) return;
    const c = log.certs.get(date);
    if (c) {
      c.n++;
      c.latest = Math.max(c.latest, at);
    } else log.certs.set(date, { n: 1, latest: at });
  }
  edit(driverId: string, status: string, at: number, date: string) {
    const log = this.byDriver.get(driverId);
    if (!log) return;
    if (status === 'PENDING') log.pending.set(date, (log.pending.get(date) ?? 0) + 1);
    else log.applied.set(date, [...(log.applied.get(date) ?? []), at]);
  }
  position(driverId: string | null, p: DriverLog['positions'][number]) {
    if (driverId !== null) this.byDriver.get(driverId)?.positions.push(p);
  }
}

/**
 * BENCH_BASELINE_READS=json (the default): the log's rows in one statement, one JSON array per kind
 * (json_agg: one value to send and parse instead of a row per record and per position).
 * The ACTIVE records from the one in force at $3 on, certifications and corrections by date in [$4, $5],
 * route positions in [$6, $7) of the routes the drivers $2 drove (either seat).
 */
const JSON_SQL = `SELECT
  (SELECT json_agg(json_build_array(e.driver_id, e.id, e.status, e.started_at, e.latitude, e.longitude, e.origin, e.note, e.annotation) ORDER BY e.driver_id, e.started_at)
     FROM duty_status_events e
    WHERE e.tenant_id = $1 AND e.driver_id = ANY($2::text[]) AND e.record_status = 'ACTIVE'
      AND (e.started_at >= $3 OR e.started_at = (SELECT max(x.started_at) FROM duty_status_events x
                                                  WHERE x.tenant_id = $1 AND x.driver_id = e.driver_id AND x.record_status = 'ACTIVE' AND x.started_at < $3))) AS records,
  (SELECT json_agg(json_build_array(c.driver_id, to_char(c.log_date, 'YYYY-MM-DD'), c.certified_at))
     FROM log_certifications c WHERE c.tenant_id = $1 AND c.driver_id = ANY($2::text[]) AND c.log_date BETWEEN $4::text::date AND $5::text::date) AS certs,
  (SELECT json_agg(json_build_array(l.driver_id, l.status, coalesce(l.decided_at, l.requested_at), d.date))
     FROM log_edits l CROSS JOIN LATERAL unnest(l.dates) AS d (date)
    WHERE l.tenant_id = $1 AND l.driver_id = ANY($2::text[]) AND l.status IN ('PENDING','ACCEPTED','APPLIED') AND d.date BETWEEN $4 AND $5) AS edits,
  (SELECT json_agg(json_build_array(x.driver_id, x.route_id, x.recorded_at, x.latitude, x.longitude) ORDER BY x.driver_id, x.route_id, x.recorded_at)
     FROM (SELECT r.driver_id, p.route_id, p.recorded_at, p.latitude, p.longitude
             FROM route_positions p JOIN route_plans r ON r.tenant_id = p.tenant_id AND r.id = p.route_id
            WHERE p.tenant_id = $1 AND r.driver_id = ANY($2::text[]) AND p.recorded_at >= $6 AND p.recorded_at < $7
           UNION ALL
           SELECT r.co_driver_id, p.route_id, p.recorded_at, p.latitude, p.longitude
             FROM route_positions p JOIN route_plans r ON r.tenant_id = p.tenant_id AND r.id = p.route_id
            WHERE p.tenant_id = $1 AND r.co_driver_id = ANY($2::text[]) AND p.recorded_at >= $6 AND p.recorded_at < $7) x) AS positions`;

type J = string | number | null;
const parsed = (v: unknown): J[][] => (v === null || v === undefined ? [] : typeof v === 'string' ? (JSON.parse(v) as J[][]) : (v as J[][]));

async function readJson(query: Query, tenantId: string, ids: readonly string[], b: Bounds): Promise<Map<string, DriverLog>> {
  const row = (await query<Record<string, unknown>>(JSON_SQL, [tenantId, ids, b.since, b.from, b.to, b.start, b.end]))[0]!;
  const logs = new Logs(ids);
  for (const [d, id, status, at, latitude, longitude, origin, note, annotation] of parsed(row.records)) {
    logs.record(d as string, { id: id as string, status: status as DutyStatus, at: Date.parse(at as string), latitude: latitude as number | null, longitude: longitude as number | null, origin: origin as RecordOrigin, note: note as string | null, annotation: annotation as string | null });
  }
  for (const [d, date, at] of parsed(row.certs)) logs.cert(d as string, date as string, Date.parse(at as string));
  for (const [d, status, at, date] of parsed(row.edits)) logs.edit(d as string, status as string, Date.parse(at as string), date as string);
  for (const [d, routeId, at, latitude, longitude] of parsed(row.positions)) logs.position(d as string, { routeId: routeId as string, at: Date.parse(at as string), latitude: latitude as number, longitude: longitude as number });
  return logs.byDriver;
}

/**
 * BENCH_BASELINE_READS=rows: the app's own statements — for one driver the very text of
 * src/modules/logs/logs.repository.ts (activeRecords, certificationsOf, editsByDate, positionsOf); for a
 * page of drivers the same four, each once for the whole page (ANY) — so that app ÷ this baseline is
 * what the app adds around the same reads.
 */
const ROWS_ONE = {
  records: `(SELECT * FROM duty_status_events WHERE tenant_id = $1 AND driver_id = $2 AND record_status = 'ACTIVE' AND started_at < $3 ORDER BY started_at DESC LIMIT 1)
     UNION ALL
     (SELECT * FROM duty_status_events WHERE tenant_id = $1 AND driver_id = $2 AND record_status = 'ACTIVE' AND started_at >= $3)
     ORDER BY started_at`,
  certs: `SELECT to_char(log_date, 'YYYY-MM-DD') AS log_date, certified_at, certified_by, statement FROM log_certifications
      WHERE tenant_id = $1 AND driver_id = $2 AND log_date BETWEEN $3::date AND $4::date ORDER BY log_date, certified_at DESC`,
  edits: `SELECT e.status, e.decided_at, e.requested_at, d.date FROM log_edits e CROSS JOIN LATERAL unnest(e.dates) AS d (date)
      WHERE e.tenant_id = $1 AND e.driver_id = $2 AND e.status IN ('PENDING','ACCEPTED','APPLIED') AND d.date BETWEEN $3 AND $4`,
  positions: `SELECT p.route_id, p.recorded_at, p.latitude, p.longitude FROM route_positions p
       JOIN route_plans r ON r.tenant_id = p.tenant_id AND r.id = p.route_id
      WHERE p.tenant_id = $1 AND (r.driver_id = $2 OR r.co_driver_id = $2) AND p.recorded_at >= $3 AND p.recorded_at < $4
      ORDER BY p.route_id, p.recorded_at`,
};
const ROWS_MANY = {
  records: `SELECT e.* FROM duty_status_events e
      WHERE e.tenant_id = $1 AND e.driver_id = ANY($2::text[]) AND e.record_status = 'ACTIVE'
        AND (e.started_at >= $3 OR e.started_at = (SELECT max(x.started_at) FROM duty_status_events x WHERE x.tenant_id = $1 AND x.driver_id = e.driver_id AND x.record_status = 'ACTIVE' AND x.started_at < $3))
      ORDER BY e.driver_id, e.started_at`,
  certs: `SELECT driver_id, to_char(log_date, 'YYYY-MM-DD') AS log_date, certified_at, certified_by, statement FROM log_certifications
      WHERE tenant_id = $1 AND driver_id = ANY($2::text[]) AND log_date BETWEEN $3::date AND $4::date ORDER BY driver_id, log_date, certified_at DESC`,
  edits: `SELECT e.driver_id, e.status, e.decided_at, e.requested_at, d.date FROM log_edits e CROSS JOIN LATERAL unnest(e.dates) AS d (date)
      WHERE e.tenant_id = $1 AND e.driver_id = ANY($2::text[]) AND e.status IN ('PENDING','ACCEPTED','APPLIED') AND d.date BETWEEN $3 AND $4`,
  positions: `SELECT r.driver_id, r.co_driver_id, p.route_id, p.recorded_at, p.latitude, p.longitude FROM route_positions p
       JOIN route_plans r ON r.tenant_id = p.tenant_id AND r.id = p.route_id
      WHERE p.tenant_id = $1 AND (r.driver_id = ANY($2::text[]) OR r.co_driver_id = ANY($2::text[])) AND p.recorded_at >= $3 AND p.recorded_at < $4
      ORDER BY p.route_id, p.recorded_at`,
};

async function readRows(query: Query, tenantId: string, ids: readonly string[], b: Bounds): Promise<Map<string, DriverLog>> {
  const one = ids.length === 1;
  const who: unknown = one ? ids[0] : ids;
  const sql = one ? ROWS_ONE : ROWS_MANY;
  const logs = new Logs(ids);
  const only = one ? ids[0]! : undefined;
  for (const r of await query<Record<string, unknown>>(sql.records, [tenantId, who, b.since])) {
    logs.record(only ?? (r.driver_id as string), {
      id: r.id as string,
      status: r.status as DutyStatus,
      at: ms(r.started_at),
      latitude: (r.latitude as number | null) ?? null,
      longitude: (r.longitude as number | null) ?? null,
      origin: r.origin as RecordOrigin,
      note: (r.note as string | null) ?? null,
      annotation: (r.annotation as string | null) ?? null,
    });
  }
  for (const r of await query<Record<string, unknown>>(sql.certs, [tenantId, who, b.from, b.to])) logs.cert(only ?? (r.driver_id as string), String(r.log_date), ms(r.certified_at));
  for (const r of await query<Record<string, unknown>>(sql.edits, [tenantId, who, b.from, b.to])) logs.edit(only ?? (r.driver_id as string), r.status as string, ms(r.decided_at ?? r.requested_at), r.date as string);
  for (const r of await query<Record<string, unknown>>(sql.positions, [tenantId, who, b.start, b.end])) {
    const p = { routeId: r.route_id as string, at: ms(r.recorded_at), latitude: Number(r.latitude), longitude: Number(r.longitude) };
    if (only) logs.position(only, p);
    else {
      logs.position(r.driver_id as string, p);
      logs.position((r.co_driver_id as string | null) ?? null, p);
    }
  }
  return logs.byDriver;
}

const READS = process.env.BENCH_BASELINE_READS === 'rows' ? 'rows' : 'json';
const readLogs = READS === 'rows' ? readRows : readJson;

/**
 * The compliance report's unassigned driving per vehicle: the segments overlapping [$2, $3), and the
 * unresolved ones that ended after $4 (now − 24 h) for the flag. json: one statement; rows: the app's two
 * (src/modules/logs/compliance.service.ts unassignedByVehicle, unassigned.service.ts unassignedFlags).
 */
const UNASSIGNED_ONE = `SELECT u.vehicle_id, v.unit_number, u.status, u.started_at, u.ended_at,
       (u.started_at < $3 AND u.ended_at > $2) AS in_range, (u.status IN ('UNASSIGNED','ASSIGNMENT_PENDING') AND u.ended_at > $4) AS open
  FROM unassigned_driving u JOIN vehicles v ON v.tenant_id = u.tenant_id AND v.id = u.vehicle_id
 WHERE u.tenant_id = $1 AND ((u.started_at < $3 AND u.ended_at > $2) OR (u.status IN ('UNASSIGNED','ASSIGNMENT_PENDING') AND u.ended_at > $4))
 ORDER BY v.unit_number, u.vehicle_id, u.started_at`;
const UNASSIGNED_RANGE = `SELECT u.vehicle_id, v.unit_number, u.status, u.started_at, u.ended_at FROM unassigned_driving u JOIN vehicles v ON v.tenant_id = u.tenant_id AND v.id = u.vehicle_id
      WHERE u.tenant_id = $1 AND u.started_at < $3 AND u.ended_at > $2 ORDER BY v.unit_number, u.vehicle_id, u.started_at`;
const UNASSIGNED_OPEN = `SELECT u.vehicle_id, v.unit_number, u.started_at, u.ended_at FROM unassigned_driving u JOIN vehicles v ON v.tenant_id = u.tenant_id AND v.id = u.vehicle_id
      WHERE u.tenant_id = $1 AND u.status IN ('UNASSIGNED','ASSIGNMENT_PENDING') AND u.ended_at > $2 AND ($3::text IS NULL OR u.vehicle_id = $3)
      ORDER BY v.unit_number, u.vehicle_id`;

interface UnassignedRow {
  vehicle_id: string;
  unit_number: string;
  status?: string;
  started_at: unknown;
  ended_at: unknown;
  in_range?: boolean;
  open?: boolean;
}

async function unassignedByVehicle(query: Query, tenantId: string, start: Date, end: Date, now: number) {
  let inRange: UnassignedRow[];
  let open: UnassignedRow[];
  if (READS === 'json') {
    const rows = await query<UnassignedRow>(UNASSIGNED_ONE, [tenantId, start, end, new Date(now - 24 * 3_600_000)]);
    inRange = rows.filter((r) => r.in_range);
    open = rows.filter((r) => r.open);
  } else {
    inRange = await query<UnassignedRow>(UNASSIGNED_RANGE, [tenantId, start, end]);
    open = await query<UnassignedRow>(UNASSIGNED_OPEN, [tenantId, new Date(now - 24 * 3_600_000), null]);
  }
  const flagged = new Set(unassignedFlags(open.map((r) => ({ vehicleId: r.vehicle_id, start: ms(r.started_at), end: ms(r.ended_at) })), now).filter((f) => f.flagged).map((f) => f.vehicleId));
  const by = new Map<string, { vehicleId: string; vehicleUnitNumber: string; segments: number; minutes: number; unresolvedSegments: number; unresolvedMinutes: number; flagged: boolean }>();
  for (const r of inRange) {
    const e = by.get(r.vehicle_id) ?? { vehicleId: r.vehicle_id, vehicleUnitNumber: r.unit_number, segments: 0, minutes: 0, unresolvedSegments: 0, unresolvedMinutes: 0, flagged: flagged.has(r.vehicle_id) };
    const minutes = Math.round((ms(r.ended_at) - ms(r.started_at)) / 60_000);
    e.segments += 1;
    e.minutes += minutes;
    if (r.status === 'UNASSIGNED' || r.status === 'ASSIGNMENT_PENDING') {
      e.unresolvedSegments += 1;
      e.unresolvedMinutes += minutes;
    }
    by.set(r.vehicle_id, e);
  }
  return [...by.values()];
}

/** The app's two reads before the log's (findDriver, logSettingsOf), for BENCH_BASELINE_READS=rows; one statement otherwise. */
async function readDriver(query: Query, tenantId: string, driverId: string): Promise<DriverRow | undefined> {
  if (READS === 'json') return (await query<DriverRow>(DRIVER_SQL, [tenantId, driverId]))[0];
  const driver = (await query<Record<string, unknown>>('SELECT * FROM drivers WHERE tenant_id = $1 AND id = $2', [tenantId, driverId]))[0];
  if (!driver) return undefined;
  const s = (await query<{ hos: Hos; address: string }>('SELECT s.hos, t.address FROM tenants t LEFT JOIN tenant_settings s ON s.tenant_id = t.id WHERE t.id = $1', [tenantId]))[0];
  return { ...(driver as unknown as DriverRow), hos: s?.hos ?? null, address: s?.address ?? null };
}

// ---------------------------------------------------------------------------------------------
// The computation

interface Settings {
  zone: string;
  periodStartTime: string;
  rules: RuleSet;
}

function settingsOf(row: DriverRow): Settings {
  const { ruleSet, homeTerminalTimeZone, periodStartTime = '00:00', ...options } = row.hos ?? {};
  const rules: RuleSet = { id: ruleSet ?? 'US_PROPERTY_70_8', options };
  const home = typeof row.home_terminal === 'string' ? (JSON.parse(row.home_terminal) as { timeZone?: string }) : row.home_terminal;
  if (home?.timeZone) return { zone: home.timeZone, periodStartTime, rules };
  if (homeTerminalTimeZone) return { zone: homeTerminalTimeZone, periodStartTime, rules };
  if (row.address) {
    const found = geocoder.lookup(row.address);
    if (found.kind === 'found') return { zone: timeZoneAt(found.result), periodStartTime, rules };
  }
  return { zone: 'America/Chicago', periodStartTime, rules };
}

/** The dates of [from, to], newest first. */
function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = to; daysBetween(from, d) >= 0; d = addDays(d, -1)) dates.push(d);
  return dates;
}

const isoOf = (ms: number) => new Date(ms).toISOString();

/** The driver's days as GET /drivers/{id}/logs answers them (`places`: with each event's place in words). */
function days(log: DriverLog, s: Settings, dates: readonly string[], now: number, places: boolean) {
  return dailyLogs({ records: log.records, dates, zone: s.zone, periodStartTime: s.periodStartTime, now, rules: s.rules }).map((day) => {
    const cert = log.certs.get(day.date);
    const recertify = cert !== undefined && (log.applied.get(day.date) ?? []).some((t) => t > cert.latest);
    return {
      date: day.date,
      periodStart: isoOf(day.periodStart),
      periodEnd: isoOf(day.periodEnd),
      timeZone: day.timeZone,
      events: day.events.map((e) => ({
        recordId: e.recordId,
        status: e.status,
        start: isoOf(e.start),
        end: isoOf(e.end),
        continued: e.continued,
        latitude: e.latitude,
        longitude: e.longitude,
        location: places && e.latitude !== null && e.longitude !== null ? nameNear({ latitude: e.latitude, longitude: e.longitude }) : null,
        origin: e.origin,
        note: e.note,
        annotation: e.annotation,
      })),
      totals: day.totals,
      milesDriven: milesFromPositions(log.positions, day.periodStart, day.periodEnd),
      violations: day.violations.map((v) => ({ type: v.kind, rule: v.rule, start: isoOf(v.start), end: isoOf(v.end), overHours: v.overHours, explanation: v.explanation })),
      certification: { certified: cert !== undefined, certifiedAt: cert ? isoOf(cert.latest) : null, recertificationRequired: recertify, certifications: cert?.n ?? 0 },
      pendingEditRequests: log.pending.get(day.date) ?? 0,
      recap: day.recap,
    };
  });
}

/** The bounds of the one read for drivers with these settings over [from, to]. */
function window(list: Settings[], from: string, to: string): Bounds {
  let since = Infinity;
  let start = Infinity;
  let end = -Infinity;
  for (const s of list) {
    since = Math.min(since, historyStart(from, s.zone, s.periodStartTime, s.rules));
    start = Math.min(start, periodOf(from, s.zone, s.periodStartTime).start);
    end = Math.max(end, periodOf(to, s.zone, s.periodStartTime).end);
  }
  return { since: new Date(since), from, to, start: new Date(start), end: new Date(end) };
}

/** A driver's share of a read made for several: the records from the one in force at `since`, the positions in [start, end). */
function narrowed(log: DriverLog, since: number, start: number, end: number): DriverLog {
  let first = -1;
  while (first + 1 < log.records.length && log.records[first + 1]!.at < since) first++;
  return { ...log, records: first <= 0 ? log.records : log.records.slice(first), positions: log.positions.filter((p) => p.at >= start && p.at < end) };
}

// ---------------------------------------------------------------------------------------------
// The routes

const app = Fastify({ logger: false });

app.get('/api/v1/drivers/:driverId/logs', async (request, reply) => {
  const tenantId = await tenantOf(request);
  if (tenantId === undefined) return unauthorized(reply);
  const { driverId } = request.params as { driverId: string };
  const { from, to } = request.query as { from: string; to: string };
  const now = Date.now();
  const answer = await inTenant(tenantId, async (query) => {
    const driver = await readDriver(query, tenantId, driverId);
    if (!driver) return undefined;
    const s = settingsOf(driver);
    const log = (await readLogs(query, tenantId, [driverId], window([s], from, to))).get(driverId)!;
    return { data: days(log, s, datesOf(from, to), now, true), timeZone: s.zone, periodStartTime: s.periodStartTime };
  });
  if (answer === undefined) return reply.code(404).send({ error: 'Driver not found' });
  return answer;
});

app.get('/api/v1/compliance/hos', async (request, reply) => {
  const tenantId = await tenantOf(request);
  if (tenantId === undefined) return unauthorized(reply);
  const q = request.query as { from: string; to: string; page?: string; pageSize?: string };
  const page = Number(q.page ?? 1);
  const pageSize = Number(q.pageSize ?? 20);
  const now = Date.now();
  return inTenant(tenantId, async (query) => {
    const drivers = await query<DriverRow>(PAGE_SQL, [tenantId, pageSize, (page - 1) * pageSize]);
    const settings = drivers.map(settingsOf);
    const ids = drivers.map((d) => d.id);
    const logs = ids.length === 0 ? new Map<string, DriverLog>() : await readLogs(query, tenantId, ids, window(settings, q.from, q.to));
    const dates = datesOf(q.from, q.to);
    const data = drivers.map((driver, i) => {
      const s = settings[i]!;
      const start = periodOf(q.from, s.zone, s.periodStartTime).start;
      const end = periodOf(q.to, s.zone, s.periodStartTime).end;
      const log = narrowed(logs.get(driver.id)!, historyStart(q.from, s.zone, s.periodStartTime, s.rules), start, end);
      const list = days(log, s, dates, now, false);
      const violations: Record<string, number> = {};
      for (const d of list) for (const v of d.violations) violations[v.type] = (violations[v.type] ?? 0) + 1;
      const notCertified = list
        .filter((d) => Date.parse(d.periodEnd) <= now && d.events.length > 0 && (!d.certification.certified || d.certification.recertificationRequired))
        .map((d) => d.date);
      const notInLog: { date: string; start: string; end: string; miles: number }[] = [];
      const positions = log.positions;
      for (let k = 1; k < positions.length; k++) {
        const a = positions[k - 1]!;
        const b = positions[k]!;
        if (a.routeId !== b.routeId) continue;
        const miles = haversineMiles(a, b);
        if (miles < 1 || statusAt(log.records, (a.at + b.at) / 2) === 'ON_DUTY_DRIVING') continue;
        const date = logDateOf(a.at, s.zone, s.periodStartTime);
        const last = notInLog[notInLog.length - 1];
        if (last && last.date === date && last.end === isoOf(a.at)) {
          last.end = isoOf(b.at);
          last.miles = Math.round((last.miles + miles) * 10) / 10;
        } else notInLog.push({ date, start: isoOf(a.at), end: isoOf(b.at), miles: Math.round(miles * 10) / 10 });
      }
      return {
        driverId: driver.id,
        driverName: `${driver.first_name} ${driver.last_name}`,
        status: driver.status,
        timeZone: s.zone,
        violations,
        violationCount: Object.values(violations).reduce((x, y) => x + y, 0),
        daysNotCertified: notCertified,
        pendingEditRequests: list.reduce((n, d) => n + d.pendingEditRequests, 0),
        drivingNotInLog: notInLog,
      };
    });
    // Unassigned driving per vehicle over the same days (the first driver's periods; without drivers, the last 8 days), as the app.
    const first = settings[0];
    const end = first ? periodOf(q.to, first.zone, first.periodStartTime).end : now;
    const start = first ? periodOf(q.from, first.zone, first.periodStartTime).start : end - 8 * 24 * 3_600_000;
    const unassignedDriving = await unassignedByVehicle(query, tenantId, new Date(start), new Date(Math.min(end, now)), now);
    return { data, total: drivers.length > 0 ? Number(drivers[0]!.total) : 0, page, pageSize, from: q.from, to: q.to, unassignedDriving };
  });
});

await listenAndServe(app, closeDb);
