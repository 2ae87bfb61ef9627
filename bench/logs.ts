/**
 * Daily-log benchmark (issue 27): what an integrator waits for, and what the servers spend, to read
 *  (a) one driver's daily logs over 184 days: GET /api/v1/drivers/{id}/logs?from=&to= (the API's longest range);
 *  (b) one day of the logs of each of 1,000 drivers: 1,000 requests of one day each, one per driver;
 *  (c) the same fleet's day through the fleet-wide report: GET /api/v1/compliance/hos?from=&to= (one day),
 *      every page of 100 drivers;
 * on PGlite in memory and on PostgreSQL, the app (bench/servers/logs-app.ts: src/main.ts's startService, plus
 * the seeding of the log) beside two baselines (bench/servers/logs-baseline.ts: the shortest path, and the
 * app's own statements without the app) in interleaved rounds, with a production API key and a bearer token
 * under the app's real rate limits; CPU per request includes PostgreSQL's backends. bench/README.md (Daily
 * logs) describes the data, the baselines and the method.
 *
 *   npx tsx bench/logs.ts              (PGlite; and PostgreSQL with BENCH_DATABASE_URL or TEST_DATABASE_URL)
 *
 * Also run by `npm run bench` (section `logs`).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { addDays, logDateOf } from '../src/domain/logs/daily-log.js';
import type { SeedDriver, SeedTenant } from './servers/seed-file.js';
import type { LogsSeed } from './servers/logs-seed.js';
import { intEnv } from './lib/env.js';
import { generateLogs, ZONE } from './lib/logs-data.js';
import { median } from './lib/load.js';
import { compileServers, cpuSecondsOf, killAll, startServer, type Server } from './lib/processes.js';
import { fmt, table } from './lib/report.js';
import { ADMIN, APP_ENV, apiKey, bearer, call, expectStatus, secondsLeft } from './lib/seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const ROUNDS = intEnv('BENCH_ROUNDS', 3, 1, 20);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 10, 1, 1000);
/** Requests of the 184-day row per measured run (one at a time). */
const LONG_SAMPLES = intEnv('BENCH_LOGS_SAMPLES', 10, 1, 1000);
const FLEET = intEnv('BENCH_LOGS_DRIVERS', 1000, 10, 5000);
const DAYS = intEnv('BENCH_LOGS_DAYS', 184, 1, 184);
const COMPLIANCE_PAGE = 100;
/** Which rows to run: long (a), fleet (b), compliance (c); all by default (a subset is for profiling). */
const KINDS = new Set((process.env.BENCH_LOGS_ROWS ?? 'long,fleet,compliance').split(',').map((x) => x.trim()));
const wanted = (k: string) => KINDS.has(k.split('-')[0]!);
/**
 * A directory: V8 CPU profiles go there — the app's of the measured runs only (through its control socket),
 * the baselines' of their whole life (--cpu-prof). BENCH_LOGS_ROWS narrows the runs to one kind of request.
 */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
const profile = (name: string) => (CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(CPU_PROF_DIR, name)}`] : []);

/**
 * The app's real limits (src/config.ts defaults; the bench does not raise them): a production API key
 * 10,000 requests an hour, a signed-in user 10,000. The bench keeps each credential's requests under them.
 */
const LIMITS = { productionKeyPerHour: 10_000, userPerHour: 10_000 };

const OWNER = { email: 'logs-owner@example.test', password: 'logs-owner-password' };

// ---------------------------------------------------------------------------------------------
// HTTP: a keep-alive client, one request in flight per connection

interface Answer {
  status: number;
  ms: number;
  bytes: number;
  body?: string;
  remaining?: number;
  limit?: number;
}

function get(agent: http.Agent, base: URL, urlPath: string, headers: Record<string, string>, keepBody: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get({ host: base.hostname, port: base.port, path: urlPath, headers, agent, timeout: 120_000 }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (keepBody || res.statusCode !== 200) chunks.push(c);
      });
      res.on('end', () => {
        const remaining = res.headers['x-ratelimit-remaining'];
        const limit = res.headers['x-ratelimit-limit'];
        resolve({
          status: res.statusCode ?? 0,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          bytes,
          body: chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined,
          remaining: typeof remaining === 'string' ? Number(remaining) : undefined,
          limit: typeof limit === 'string' ? Number(limit) : undefined,
        });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${urlPath}: no answer in 120 s`)));
    req.on('error', reject);
  });
}

async function getJson<T>(server: Server, urlPath: string, headers: Record<string, string>): Promise<{ status: number; json: T }> {
  const agent = new http.Agent({ keepAlive: false });
  try {
    const a = await get(agent, new URL(server.url), urlPath, headers, true);
    return { status: a.status, json: JSON.parse(a.body ?? 'null') as T };
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// CPU: the server process, and on PostgreSQL its backends (found by application_name)

const cpuOfPid = (pid: number): number | undefined => cpuSecondsOf(pid);

/** CPU seconds of each live PostgreSQL backend of one application (PGAPPNAME of the server's environment). */
class Backends {
  constructor(
    private readonly client: pg.Client,
    readonly appName: string,
  ) {}
  async read(): Promise<Map<number, number>> {
    const { rows } = await this.client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [this.appName]);
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      const s = cpuOfPid(pid);
      if (s !== undefined) out.set(pid, s);
    }
    return out;
  }
}

interface Pass {
  requests: number;
  failures: number;
  firstFailure?: string;
  wallS: number;
  latencies: number[];
  bytes: number;
  /** CPU seconds of the server process, and of its PostgreSQL backends (undefined on PGlite). */
  cpuS: number | undefined;
  dbCpuS: number | undefined;
  /** Backends that ended during the pass (their CPU is lost). */
  lostBackends: number;
  minRemaining?: number;
  limit?: number;
}

interface Target {
  server: Server;
  backends?: Backends;
}

async function pass(t: Target, paths: string[], headers: Record<string, string>, connections: number): Promise<Pass> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const base = new URL(t.server.url);
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let bytes = 0;
  let minRemaining: number | undefined;
  let limit: number | undefined;
  const dbBefore = t.backends ? await t.backends.read() : undefined;
  const cpuBefore = t.server.cpuSeconds();
  const started = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const p = paths[next++]!;
      try {
        const a = await get(agent, base, p, headers, false);
        latencies.push(a.ms);
        bytes += a.bytes;
        if (a.remaining !== undefined) minRemaining = Math.min(minRemaining ?? Infinity, a.remaining);
        if (a.limit !== undefined) limit = a.limit;
        if (a.status !== 200) {
          failures++;
          firstFailure ??= `GET ${p} → ${a.status} ${(a.body ?? '').slice(0, 300)}`;
        }
      } catch (err) {
        failures++;
        firstFailure ??= `GET ${p}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(connections, paths.length) }, worker));
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuAfter = t.server.cpuSeconds();
  const dbAfter = t.backends ? await t.backends.read() : undefined;
  agent.destroy();
  let dbCpuS: number | undefined;
  let lostBackends = 0;
  if (dbBefore && dbAfter) {
    dbCpuS = 0;
    for (const [pid, s] of dbAfter) dbCpuS += s - (dbBefore.get(pid) ?? 0);
    for (const pid of dbBefore.keys()) if (!dbAfter.has(pid)) lostBackends++;
  }
  return {
    requests: paths.length,
    failures,
    firstFailure,
    wallS,
    latencies,
    bytes,
    cpuS: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
    dbCpuS,
    lostBackends,
    minRemaining,
    limit,
  };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

/** Where two JSON values first differ: the path and both values there. */
function firstDifference(a: unknown, b: unknown, at = '$'): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    for (const k of new Set([...ka, ...kb])) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d) return d;
    }
  }
  return `${at}: app ${JSON.stringify(a)?.slice(0, 300)}, baseline ${JSON.stringify(b)?.slice(0, 300)}`;
}

// ---------------------------------------------------------------------------------------------
// Seeding: the tenant, its API key and drivers through the app's API; the log through its process

async function registerTenant(base: string) {
  const login = async (who: { email: string; password: string }) =>
    (await expectStatus<{ accessToken: string }>('login', 200, call(base, 'POST', '/api/v1/auth/login', { body: who }))).accessToken;
  const adminToken = await login(ADMIN);
  const reg = await expectStatus<{ tenant: { id: string }; user?: { id: string } }>(
    'register',
    201,
    call(base, 'POST', '/api/v1/tenants/register', {
      body: {
        organization: {
          name: 'Log Bench Freight',
          address: '101 Commerce St, Dallas, TX 75201',
          phone: '+1 214 555 0127',
          contactEmail: 'ops@logbench.example.test',
          dotNumber: '2712345',
          mcNumber: 'MC-271234',
        },
        adminUser: { firstName: 'Olivia', lastName: 'Owner', ...OWNER },
      },
    }),
  );
  await expectStatus('approve', 200, call(base, 'POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`, { headers: bearer(adminToken) }));
  const token = await login(OWNER);
  const me = await expectStatus<{ userId: string }>('me', 200, call(base, 'GET', '/api/v1/auth/me', { headers: bearer(token) }));
  const key = await expectStatus<{ key: string; environment: string }>('create API key', 201, call(base, 'POST', '/api/v1/api-keys', { body: { name: 'log bench' }, headers: bearer(token) }));
  if (key.environment !== 'production') throw new Error(`expected a production API key (API_KEY_ENVIRONMENT=production), got ${key.environment}`);
  const profile = await expectStatus<SeedTenant>('read tenant', 200, call(base, 'GET', '/api/v1/tenant', { headers: bearer(token) }));
  const tenant: SeedTenant = {
    id: profile.id,
    name: profile.name,
    address: profile.address,
    phone: profile.phone,
    contactEmail: profile.contactEmail,
    dotNumber: profile.dotNumber,
    mcNumber: profile.mcNumber,
    status: profile.status,
    createdAt: profile.createdAt,
    updatedAt: profile.updatedAt,
  };
  return { tenantId: reg.tenant.id, token, apiKey: key.key, officeUserId: me.userId, tenant, login: () => login(OWNER) };
}

const FIRST = ['Ana', 'Ben', 'Carla', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivan', 'Jo', 'Kai', 'Lena', 'Mo', 'Nia', 'Omar', 'Pia'];
const LAST = ['Adams', 'Baker', 'Chen', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jones', 'Khan', 'Lopez', 'Meyer', 'Novak', 'Ortiz'];

async function createDrivers(base: string, token: string, tenantId: string, n: number): Promise<SeedDriver[]> {
  const out: SeedDriver[] = [];
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, (_, k) => {
        const j = i + k;
        return expectStatus<Omit<SeedDriver, 'tenantId'>>(
          'create driver',
          201,
          call(base, 'POST', '/api/v1/drivers', {
            body: { firstName: FIRST[j % FIRST.length], lastName: LAST[(j * 7) % LAST.length], licenseNumber: `LOG${String(j).padStart(6, '0')}`, licenseState: 'TX', truckNumber: `T-${j}` },
            headers: bearer(token),
          }),
        );
      }),
    );
    out.push(...batch.map((d) => ({ tenantId, ...d })));
  }
  return out;
}

/** A request to the app's control socket (bench/servers/logs-app.ts): /seed, /profile/start, /profile/stop. */
function control<T>(socketPath: string, what: string, body = ''): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'POST', path: what, timeout: 600_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text) as T) : reject(new Error(`the app's ${what}: ${res.statusCode} ${text}`))));
    });
    req.on('timeout', () => req.destroy(new Error(`the app's ${what}: no answer in 600 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// One database

type Who = 'app' | 'baseline' | 'sameSql';
type RowKey = 'long-key' | 'long-bearer' | 'fleet-key' | 'fleet-bearer' | 'compliance-key';

const ROWS: { key: RowKey; label: string; auth: 'API key' | 'bearer' }[] = [
  { key: 'long-key', label: `(a) one driver, ${DAYS} days`, auth: 'API key' },
  { key: 'long-bearer', label: `(a) one driver, ${DAYS} days`, auth: 'bearer' },
  { key: 'fleet-key', label: `(b) ${fmt(FLEET)} drivers × 1 day`, auth: 'API key' },
  { key: 'fleet-bearer', label: `(b) ${fmt(FLEET)} drivers × 1 day`, auth: 'bearer' },
  { key: 'compliance-key', label: `(c) compliance, ${fmt(FLEET + 1)} drivers × 1 day`, auth: 'API key' },
];

export interface LogsFigures {
  database: string;
  connections: number;
  data: { records: number; inactive: number; edits: number; certifications: number; routes: number; positions: number; longEvents: number; longBytes: number; longViolations: Record<string, number>; seedSeconds: number };
  rows: ({ key: RowKey; label: string; auth: string } & Record<Who, Pass[]>)[];
  rateLimit: { keyLimit?: number; keyRemaining?: number; userRemaining?: number };
}

export async function benchLogs(buildDir: string, runDir: string, kind: 'pglite' | 'postgres', pgUrl?: string): Promise<LogsFigures> {
  const tag = randomBytes(4).toString('hex');
  const schema = `bench_logs_${tag}`;
  const dbEnv: Record<string, string> =
    kind === 'pglite' ? { DATABASE_URL: 'memory://', DATA_DIR: path.join(runDir, `logs-data-${tag}`) } : { DATABASE_URL: pgUrl!, DATABASE_SCHEMA: schema, DATA_DIR: path.join(runDir, `logs-data-${tag}`) };
  const appName = `bench_logs_app_${tag}`;
  const baseName = `bench_logs_base_${tag}`;
  const sqlName = `bench_logs_sql_${tag}`;
  const socketPath = path.join(os.tmpdir(), `bench-logs-${process.pid}-${tag}.sock`);
  const seedFile = path.join(runDir, `logs-seed-${tag}.json`);
  const label = kind === 'pglite' ? 'PGlite (in memory)' : `PostgreSQL (${new URL(pgUrl!).host}, schema ${schema})`;
  console.log(`\n== Daily logs: ${label}`);
  const servers: Server[] = [];
  let pgClient: pg.Client | undefined;
  try {
    // The app's environment: the other benches' (bench/lib/seed.ts), but with the real rate limits and production API keys.
    const { RATE_LIMIT_USER_PER_HOUR: _u, RATE_LIMIT_ANONYMOUS_PER_HOUR: _a, ...appEnv } = APP_ENV;
    const app = await startServer('app', ROOT, path.join(buildDir, 'bench', 'servers', 'logs-app.js'), {
      ...appEnv,
      ...dbEnv,
      API_KEY_ENVIRONMENT: 'production',
      BENCH_CONTROL_SOCKET: socketPath,
      PGAPPNAME: appName,
    }, '/api/v1/health');
    servers.push(app);

    const t0 = Date.now();
    const reg = await registerTenant(app.url);
    let token = reg.token;
    const drivers = await createDrivers(app.url, token, reg.tenantId, FLEET + 1);
    const today = logDateOf(Date.now(), ZONE);
    const to = addDays(today, -2);
    const longDriver = drivers[0]!;
    const fleet = drivers.slice(1);
    const data = generateLogs({ tenantId: reg.tenantId, officeUserId: reg.officeUserId, longDriverId: longDriver.id, fleetDriverIds: fleet.map((d) => d.id), days: DAYS, to });
    const seed: LogsSeed = { apiKeys: [{ key: reg.apiKey, tenantId: reg.tenantId }], tenants: [reg.tenant], drivers, rows: data.rows };
    fs.writeFileSync(seedFile, JSON.stringify(seed), { mode: 0o600 });
    const seeded = await control<{ counts: Record<string, number>; seconds: number }>(socketPath, '/seed', seedFile);
    const r = data.rows;
    const figures: LogsFigures['data'] = {
      records: r.duty_status_events.length,
      inactive: r.duty_status_events.filter((x) => x.record_status !== 'ACTIVE').length,
      edits: r.log_edits.length,
      certifications: r.log_certifications.length,
      routes: r.route_plans.length,
      positions: r.route_positions.length,
      longEvents: 0,
      longBytes: 0,
      longViolations: {},
      seedSeconds: (Date.now() - t0) / 1000,
    };
    console.log(
      `   seeded in ${fmt(figures.seedSeconds, 1)} s (${fmt(seeded.seconds, 1)} s of it inserting): 1 tenant, a production API key, ${fmt(drivers.length)} drivers through the API; ` +
        `${fmt(figures.records)} duty-status records (${fmt(figures.inactive)} inactive), ${fmt(figures.edits)} corrections and requests, ${fmt(figures.certifications)} certifications, ` +
        `${fmt(figures.routes)} routes with ${fmt(figures.positions)} positions by SQL in the app's process`,
    );

    // Two baselines: the shortest path (one read of the log, JSON per kind), and the app's own statements.
    const startBaseline = async (name: string, reads: 'json' | 'rows', pgAppName: string) => {
      const s = await startServer(name, ROOT, path.join(buildDir, 'bench', 'servers', 'logs-baseline.js'), {
        ...(kind === 'postgres' ? { DATABASE_URL: pgUrl!, DATABASE_SCHEMA: schema } : {}),
        BENCH_SEED: seedFile,
        BENCH_BASELINE_READS: reads,
        JWT_SECRET: APP_ENV.JWT_SECRET,
        PGAPPNAME: pgAppName,
      }, '/api/v1/health', profile(`logs-${kind}-${reads === 'json' ? 'baseline' : 'baseline-app-sql'}`));
      servers.push(s);
      return s;
    };
    const baseline = await startBaseline('baseline', 'json', baseName);
    const sameSql = await startBaseline('baseline, app SQL', 'rows', sqlName);

    if (kind === 'postgres') {
      pgClient = new pg.Client({ connectionString: pgUrl, application_name: `bench_logs_harness_${tag}`, connectionTimeoutMillis: 10_000 });
      await pgClient.connect();
    }
    const targets: Record<Who, Target> = {
      app: { server: app, backends: pgClient ? new Backends(pgClient, appName) : undefined },
      baseline: { server: baseline, backends: pgClient ? new Backends(pgClient, baseName) : undefined },
      sameSql: { server: sameSql, backends: pgClient ? new Backends(pgClient, sqlName) : undefined },
    };

    const longPath = `/api/v1/drivers/${longDriver.id}/logs?from=${data.long.from}&to=${data.long.to}`;
    const dayPath = (id: string) => `/api/v1/drivers/${id}/logs?from=${data.day}&to=${data.day}`;
    const pages = Math.ceil(drivers.length / COMPLIANCE_PAGE);
    const compliancePaths = Array.from({ length: pages }, (_, i) => `/api/v1/compliance/hos?from=${data.day}&to=${data.day}&page=${i + 1}&pageSize=${COMPLIANCE_PAGE}`);
    const key = apiKey(reg.apiKey);

    // The requests each credential will send to the app, against its hourly allowance.
    const warmFleet = Math.min(100, fleet.length);
    const keyRequests = 2 + 20 + pages + 3 + warmFleet + pages + ROUNDS * (LONG_SAMPLES + fleet.length + pages);
    const userRequests = drivers.length + 5 + 1 + 20 + 3 + warmFleet + ROUNDS * (LONG_SAMPLES + fleet.length);
    if (keyRequests > LIMITS.productionKeyPerHour || userRequests > LIMITS.userPerHour) {
      throw new Error(`the run would send ${keyRequests} requests with the API key and ${userRequests} with the token within the hour, over the app's limits (${LIMITS.productionKeyPerHour}, ${LIMITS.userPerHour}): lower BENCH_ROUNDS or BENCH_LOGS_DRIVERS`);
    }
    console.log(`   requests to the app this run: ${fmt(keyRequests)} with the API key, ${fmt(userRequests)} with the owner's token (limits ${fmt(LIMITS.productionKeyPerHour)} and ${fmt(LIMITS.userPerHour)} an hour: not raised)`);

    // Checked before measuring: the same bodies from all three servers.
    const fresh = async () => {
      if (secondsLeft(token) < 240) token = await reg.login();
      return bearer(token);
    };
    const same = async (what: string, p: string, headers: Record<string, string>) => {
      const a = await getJson<unknown>(app, p, headers);
      if (a.status !== 200) throw new Error(`${what}: app ${a.status}: ${JSON.stringify(a.json).slice(0, 400)}`);
      for (const s of [baseline, sameSql]) {
        const b = await getJson<unknown>(s, p, headers);
        if (b.status !== 200) throw new Error(`${what}: ${s.name} ${b.status}: ${JSON.stringify(b.json).slice(0, 400)}`);
        if (!isDeepStrictEqual(a.json, b.json)) throw new Error(`${what} (${p}): the answer of ${s.name} differs from the app's at ${firstDifference(a.json, b.json)}`);
      }
      return a.json;
    };
    const long = (await same(`${DAYS} days, API key`, longPath, key)) as { data: { events: unknown[]; violations: { type: string }[] }[]; timeZone: string };
    await same(`${DAYS} days, bearer`, longPath, await fresh());
    if (long.data.length !== DAYS || long.timeZone !== ZONE) throw new Error(`${DAYS} days: ${long.data.length} days in ${long.timeZone}`);
    figures.longEvents = long.data.reduce((n, d) => n + d.events.length, 0);
    figures.longBytes = JSON.stringify(long).length;
    figures.longViolations = long.data.flatMap((d) => d.violations.map((v) => v.type)).reduce<Record<string, number>>((m, t) => ({ ...m, [t]: (m[t] ?? 0) + 1 }), {});
    for (const d of fleet.filter((_, i) => i % Math.ceil(fleet.length / 20) === 0)) await same('one day', dayPath(d.id), key);
    let listed = 0;
    for (const p of compliancePaths) listed += ((await same('compliance', p, key)) as { data: unknown[] }).data.length;
    if (listed !== drivers.length) throw new Error(`compliance: ${listed} drivers listed, expected ${drivers.length}`);
    const unknownKey = apiKey(`sk_live_${'0'.repeat(32)}`);
    for (const s of [app, baseline, sameSql]) if ((await getJson(s, longPath, unknownKey)).status !== 401) throw new Error(`${s.name}: an unknown API key is not 401`);
    console.log(`   checked: the same ${DAYS}-day log (${fmt(figures.longEvents)} events, ${fmt(figures.longBytes / 1024)} KiB of JSON), ${Math.min(20, fleet.length)} one-day logs and ${pages} compliance pages from the app and both baselines; unknown key 401 on all`);

    // Warm-up (not counted): each server, each kind of request.
    for (const t of Object.values(targets)) {
      if (wanted('long')) await pass(t, [longPath, longPath], key, 1);
      if (wanted('long')) await pass(t, [longPath], await fresh(), 1);
      if (wanted('fleet')) await pass(t, fleet.slice(0, warmFleet).map((d) => dayPath(d.id)), key, CONNECTIONS);
      if (wanted('fleet')) await pass(t, fleet.slice(0, warmFleet).map((d) => dayPath(d.id)), await fresh(), CONNECTIONS);
      if (wanted('compliance')) await pass(t, compliancePaths, key, 1);
    }

    const results: LogsFigures['rows'] = ROWS.filter((row) => wanted(row.key)).map((row) => ({ ...row, app: [], baseline: [], sameSql: [] }));
    const into = (k: RowKey) => results.find((x) => x.key === k)!;
    const fleetPaths = fleet.map((d) => dayPath(d.id));
    // The app's profile covers the measured runs only (the baselines' --cpu-prof their whole life).
    if (CPU_PROF_DIR) await control(socketPath, '/profile/start');
    for (let round = 1; round <= ROUNDS; round++) {
      // The order turns every round, so that no server always runs right after another.
      const order = (['baseline', 'sameSql', 'app'] as const).map((_, i, all) => all[(i + round - 1) % all.length]!);
      // A different order of the drivers each round (a fixed shuffle), the same for both servers.
      const shuffled = fleetPaths.map((p, i) => [((i + 1) * 2654435761 * round) % 4294967296, p] as const).sort((a, b) => a[0] - b[0]).map(([, p]) => p);
      const runs: [RowKey, string[], () => Promise<Record<string, string>>, number][] = [
        ['long-key', Array(LONG_SAMPLES).fill(longPath), async () => key, 1],
        ['long-bearer', Array(LONG_SAMPLES).fill(longPath), fresh, 1],
        ['fleet-key', shuffled, async () => key, CONNECTIONS],
        ['fleet-bearer', shuffled, fresh, CONNECTIONS],
        ['compliance-key', compliancePaths, async () => key, 1],
      ];
      for (const [k, paths, headers, conns] of runs.filter(([k]) => wanted(k))) {
        for (const who of order) {
          const p = await pass(targets[who], paths, await headers(), conns);
          into(k)[who].push(p);
          const row = ROWS.find((x) => x.key === k)!;
          console.log(`   [${round}/${ROUNDS}] ${`${row.label}, ${row.auth}, ${targets[who].server.name}`.padEnd(62)} ${summary(p)}`);
          if (p.failures > 0) console.log(`      first failure: ${p.firstFailure}`);
        }
      }
    }
    if (CPU_PROF_DIR) {
      fs.mkdirSync(CPU_PROF_DIR, { recursive: true });
      const file = path.join(CPU_PROF_DIR, `logs-${kind}-app-${[...KINDS].join('-')}.cpuprofile`);
      await control(socketPath, '/profile/stop', file);
      console.log(`   the app's CPU profile of the measured runs: ${file}`);
    }
    const keyPasses = results.filter((x) => x.auth === 'API key').flatMap((x) => x.app);
    const userPasses = results.filter((x) => x.auth === 'bearer').flatMap((x) => x.app);
    const minOf = (ps: Pass[]) => Math.min(...ps.map((p) => p.minRemaining ?? Infinity));
    return {
      database: label,
      connections: CONNECTIONS,
      data: figures,
      rows: results,
      rateLimit: { keyLimit: keyPasses.find((p) => p.limit !== undefined)?.limit, keyRemaining: minOf(keyPasses), userRemaining: minOf(userPasses) },
    };
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    await pgClient?.end().catch(() => undefined);
    fs.rmSync(seedFile, { force: true });
    fs.rmSync(socketPath, { force: true });
    fs.rmSync(dbEnv.DATA_DIR!, { recursive: true, force: true });
    if (kind === 'postgres') {
      const c = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 10_000 });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await c.end();
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Report

interface Figure {
  rps: number;
  p50: number;
  p95: number;
  max: number;
  /** ms of CPU per request: the server process, its PostgreSQL backends, both. */
  cpuMs: number | undefined;
  dbCpuMs: number | undefined;
  totalCpuMs: number | undefined;
  requests: number;
  failures: number;
  lost: number;
}

function summary(p: Pass): string {
  const f = figureOf([p]);
  return `${fmt(f.rps, f.rps < 10 ? 2 : 0)} req/s, p50 ${fmt(f.p50, 1)} ms, p95 ${fmt(f.p95, 1)} ms, CPU ${fmt(f.cpuMs, 2)} ms/req${f.dbCpuMs !== undefined ? ` + PostgreSQL ${fmt(f.dbCpuMs, 2)}` : ''}${p.failures > 0 ? `, ${p.failures} FAILED` : ''}`;
}

/** Medians over the rounds of each run's figures; counts summed. */
function figureOf(passes: Pass[]): Figure {
  const per = (f: (p: Pass) => number | undefined) => {
    const v = passes.map(f);
    return v.every((x): x is number => x !== undefined && Number.isFinite(x)) ? median(v) : undefined;
  };
  return {
    rps: per((p) => p.requests / p.wallS)!,
    p50: per((p) => quantile(p.latencies, 0.5))!,
    p95: per((p) => quantile(p.latencies, 0.95))!,
    max: Math.max(...passes.map((p) => Math.max(...p.latencies))),
    cpuMs: per((p) => (p.cpuS === undefined ? undefined : (p.cpuS * 1000) / p.requests)),
    dbCpuMs: per((p) => (p.dbCpuS === undefined ? undefined : (p.dbCpuS * 1000) / p.requests)),
    totalCpuMs: per((p) => (p.cpuS === undefined ? undefined : ((p.cpuS + (p.dbCpuS ?? 0)) * 1000) / p.requests)),
    requests: passes.reduce((n, p) => n + p.requests, 0),
    failures: passes.reduce((n, p) => n + p.failures, 0),
    lost: passes.reduce((n, p) => n + p.lostBackends, 0),
  };
}

export function printLogs(f: LogsFigures): boolean {
  const pgRun = f.rows[0]?.app[0]?.dbCpuS !== undefined;
  console.log(`\n== Daily logs (${f.database}; node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}): medians of ${ROUNDS} round(s)`);
  console.log(
    `   data: ${fmt(f.data.records)} duty-status records (${fmt(f.data.inactive)} inactive), ${fmt(f.data.edits)} corrections and requests, ${fmt(f.data.certifications)} certifications, ` +
      `${fmt(f.data.routes)} routes, ${fmt(f.data.positions)} positions; the ${DAYS}-day answer: ${fmt(f.data.longEvents)} events, ${fmt(f.data.longBytes / 1024)} KiB, violations ${JSON.stringify(f.data.longViolations)}`,
  );
  const header = ['row', 'auth', 'server', 'requests', 'conn.', 'req/s', 'p50 ms', 'p95 ms', 'max ms', 'CPU ms/req', ...(pgRun ? ['PG ms/req', 'total ms/req'] : []), 'errors', 'app ÷ it, req/s', 'it ÷ app, CPU'];
  const rows: string[][] = [];
  let failures = 0;
  const names: Record<Who, string> = { baseline: 'baseline', sameSql: "baseline, app's SQL", app: 'app' };
  for (const r of f.rows) {
    const a = figureOf(r.app);
    const conns = r.key.startsWith('fleet') ? String(f.connections) : '1';
    (['baseline', 'sameSql', 'app'] as const).forEach((who, i) => {
      const x = figureOf(r[who]);
      failures += x.failures;
      rows.push([
        i === 0 ? r.label : '',
        i === 0 ? r.auth : '',
        names[who],
        fmt(x.requests),
        conns,
        fmt(x.rps, x.rps < 10 ? 2 : 0),
        fmt(x.p50, 1),
        fmt(x.p95, 1),
        fmt(x.max, 1),
        fmt(x.cpuMs, 2),
        ...(pgRun ? [fmt(x.dbCpuMs, 2), fmt(x.totalCpuMs, 2)] : []),
        String(x.failures),
        who === 'app' ? '' : fmt(a.rps / x.rps, 2),
        who === 'app' ? '' : a.totalCpuMs !== undefined && x.totalCpuMs !== undefined ? fmt(x.totalCpuMs / a.totalCpuMs, 2) : 'n/a',
      ]);
    });
  }
  console.log(table(header, rows, 3));
  console.log(
    `   (latencies: each request from sending to the last byte of the answer; CPU: user + system of the server process${pgRun ? ' and of its PostgreSQL backends (by application_name, /proc)' : ', the in-memory database included'} per request; "it ÷ app, CPU" from the total: the app's CPU per request is 1 ÷ that times the baseline's.)`,
  );
  const lost = f.rows.flatMap((r) => [...r.app, ...r.baseline, ...r.sameSql]).reduce((n, p) => n + p.lostBackends, 0);
  if (lost > 0) console.log(`   note: ${lost} PostgreSQL backend(s) ended during a measured run: their CPU is missing from it.`);
  console.log(`   rate limits (real, not raised): the API key's limit ${fmt(f.rateLimit.keyLimit)} an hour, least remaining ${fmt(f.rateLimit.keyRemaining)}; the token's least remaining ${fmt(f.rateLimit.userRemaining)}`);
  if (failures > 0) console.log(`   !!! ${failures} request(s) failed: the figures are not comparable`);
  return failures === 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
  const wanted = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',').map((s) => s.trim());
  const runDir = path.join(ROOT, '.bench', `logs-${process.pid}`);
  const buildDir = path.join(runDir, 'build');
  fs.mkdirSync(runDir, { recursive: true });
  let ok = true;
  const cleanup = () => {
    killAll();
    fs.rmSync(runDir, { recursive: true, force: true });
    try {
      fs.rmdirSync(path.dirname(runDir));
    } catch {
      // not empty, or gone
    }
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => (cleanup(), process.exit(130)));
  try {
    console.log(`machine: ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB; node ${process.version}; load average ${os.loadavg().map((v) => fmt(v, 2)).join(' / ')}`);
    console.log(`compiling the app and the benchmark servers … ${fmt(compileServers(ROOT, buildDir), 1)} s`);
    if (wanted.includes('pglite')) ok = printLogs(await benchLogs(buildDir, runDir, 'pglite')) && ok;
    if (wanted.includes('postgres')) {
      if (pgUrl) ok = printLogs(await benchLogs(buildDir, runDir, 'postgres', pgUrl)) && ok;
      else console.log('\nDaily logs on PostgreSQL: not run (set TEST_DATABASE_URL or BENCH_DATABASE_URL)');
    }
    console.log(`\nload average at the end: ${os.loadavg().map((v) => fmt(v, 2)).join(' / ')}`);
  } catch (err) {
    console.error('\nbench/logs.ts failed:', err instanceof Error ? err.message : err);
    ok = false;
  } finally {
    cleanup();
  }
  process.exit(ok ? 0 : 1);
}

