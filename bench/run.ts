/**
 * `npm run bench`: what the service costs beside the least code that does the same work. See
 * bench/README.md for what each row measures, the baselines, the method and the targets.
 *
 *   planner in process: plans/s for the bench's 2,500-mile, 5-stop trip on one core (first, alone);
 *   then for each database (PGlite in memory; PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set):
 *     hello world                         the ceiling of the HTTP stack on this machine
 *     GET  /api/v1/drivers (API key)      app vs baseline (bench/servers/baseline.ts)
 *     GET  /api/v1/drivers (bearer token) app vs baseline
 *     POST /api/v1/drivers (API key)      app vs baseline
 *     POST /api/v1/routes/plan (API key)  the app's own figures, beside the in-process planner
 *     memory: the app's RSS after start, after seeding, and over a load run (BENCH_MEMORY_SECONDS).
 *
 * The app and the benchmark's servers are compiled (bench/tsconfig.servers.json) and run with plain
 * node as child processes, all of a database's servers at once for the whole series (an in-memory
 * PGlite lives inside its process), while autocannon runs here. Rounds interleave the servers.
 */
import { benchFanout, benchWebhooks, printFanout, printWebhooks } from './events.js';
import { benchDispatch, printDispatch } from './dispatch.js';
import { benchLogs, printLogs } from './logs.js';
import { benchMonitoring, printMonitoring } from './monitoring.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { intEnv } from './lib/env.js';
import { combine, measure, type DbCpu, type Load, type Measurement } from './lib/load.js';
import { KeyRing } from './lib/keys.js';
import { compileServers, cpuSecondsOf, killAll, startServer, type Memory, type Server } from './lib/processes.js';
import { fmt, ms, table } from './lib/report.js';
import { APP_ENV, apiKey, bearer, call, expectStatus, newDriverBody, ownerLogin, planBody, secondsLeft, seed, type Seeded } from './lib/seed.js';
import { measurePlanner, type PlannerFigures } from './planner.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');


const DURATION = intEnv('BENCH_DURATION', 10, 1, 600);
const WARMUP = intEnv('BENCH_WARMUP', 3, 0, 120);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 10, 1, 1000);
/** The plan row's concurrency: a plan is CPU work, measured at 4 connections (issue 18's targets). */
const PLAN_CONNECTIONS = intEnv('BENCH_PLAN_CONNECTIONS', 4, 1, 1000);
const DRIVERS = intEnv('BENCH_DRIVERS', 200, 20, 10_000);
const ROUNDS = intEnv('BENCH_ROUNDS', 3, 1, 20);
const MEMORY_SECONDS = intEnv('BENCH_MEMORY_SECONDS', 60, 0, 3600);
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',').map((s) => s.trim()).filter(Boolean);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
/** What to run besides the HTTP rows (all by default): BENCH_SECTIONS=monitoring,… */
const SECTIONS = (process.env.BENCH_SECTIONS ?? 'monitoring,events,dispatch,logs').split(',').map((x) => x.trim());
const PG_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
/** API keys per tenant, each used up to REQUESTS_PER_KEY (below the production limit of 10,000 an hour: warm-ups and checks count too). */
const KEYS_PER_TENANT = Number(process.env.BENCH_KEYS ?? 60);
const REQUESTS_PER_KEY = 9_000;

const PAGE_PATH = '/api/v1/drivers?page=1&pageSize=20';
/** The plan row with the request integrators send (no driverState): the row the plan targets are judged on. */
const PLAN_FROM_LOG_LABEL = 'POST /routes/plan, clocks from log';
/**
 * The targets (issues 18 and 28): the driver list at 0.9 of its baseline with p99 < 10 ms on PostgreSQL; the plan
 * endpoint with the request integrators send (clocks from the log) ≥ 700 plans/s on PostgreSQL, ≥ 300 on PGlite, its
 * service CPU per plan ≤ 1 ms and, on PostgreSQL, its backends' CPU per plan ≤ 1 ms (issue 28 withdrew "≤ 4 × the
 * planner's"); the planner ≥ 12,000 plans/s; idle memory ≤ 150 MiB on PostgreSQL, ≤ 300 MiB on PGlite in memory;
 * growth ≤ 50 MiB over the load.
 */
const TARGET = {
  ratio: 0.9,
  p99Ms: 10,
  plansPerSecond: 12_000,
  planServiceCpuUs: 1_000,
  planDatabaseCpuUs: 1_000,
  planRps: { postgres: 700, pglite: 300 },
  /** The plan endpoint beside the least code that does the same work (issue 28, item 6). */
  planRatio: 0.8,
  rssPgliteMiB: 300,
  rssPostgresMiB: 150,
  growthMiB: 50,
};


// ---------------------------------------------------------------------------------------------
// Databases

interface DbTarget {
  key: 'pglite' | 'postgres';
  label: string;
  appEnv: Record<string, string>;
  baselineEnv: Record<string, string>;
  /** PostgreSQL: the CPU of a server's backends (PGlite's work is inside the server's own CPU). */
  dbCpu?: (server: 'app' | 'baseline') => DbCpu;
  cleanup(): Promise<void>;
}

const withAppName = (url: string, name: string) => `${url}${url.includes('?') ? '&' : '?'}application_name=${encodeURIComponent(name)}`;

/** The CPU seconds of each PostgreSQL backend whose connection carries `name` (pg_stat_activity, then /proc: the same machine). */
function backendsCpu(url: string, name: string): DbCpu {
  return async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name]);
      return new Map(rows.flatMap((r) => {
        const seconds = cpuSecondsOf(r.pid);
        return seconds === undefined ? [] : [[r.pid, seconds] as const];
      }));
    } finally {
      await client.end();
    }
  };
}

/** The database CPU sampler of each server measured (PostgreSQL runs only). */
const dbCpuOf = new Map<Server, DbCpu>();

function pgliteTarget(runDir: string): DbTarget {
  return {
    key: 'pglite',
    label: 'PGlite (in memory)',
    // DATA_DIR still holds the mail outbox (registration mails).
    appEnv: { DATABASE_URL: 'memory://', DATA_DIR: path.join(runDir, 'data-pglite') },
    baselineEnv: {}, // its own in-memory PGlite
    cleanup: async () => undefined,
  };
}

function postgresTarget(url: string, runDir: string): DbTarget {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const where = new URL(url);
  let dropped = false;
  return {
    key: 'postgres',
    label: `PostgreSQL (${where.host}${where.pathname}, schema ${schema})`,
    // Each server's connections carry its name, so that its PostgreSQL backends (and their CPU) can be found.
    appEnv: { DATABASE_URL: withAppName(url, `bench_app_${schema}`), DATABASE_SCHEMA: schema, DATA_DIR: path.join(runDir, 'data-postgres') },
    baselineEnv: { DATABASE_URL: withAppName(url, `bench_baseline_${schema}`), DATABASE_SCHEMA: schema },
    dbCpu: (server: 'app' | 'baseline') => backendsCpu(url, `bench_${server}_${schema}`),
    async cleanup() {
      if (dropped) return;
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        dropped = true;
      } finally {
        await client.end();
      }
    },
  };
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`cannot reach PostgreSQL at ${new URL(url).host}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?';
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// One database's series

type Auth = 'API key' | 'bearer';

interface Row {
  label: string;
  auth: Auth;
  app: Measurement;
  /** Absent for a row measured without a baseline. */
  baseline?: Measurement;
}

/** The app's V8 heap (used and total) and external memory, MiB, from its own /metrics (prom-client's default metrics). */
interface Heap {
  usedMiB: number;
  totalMiB: number;
  externalMiB: number;
}

interface MemoryFigures {
  /** Right after start (answering HTTP, 1 s later), before any request but the readiness probe. */
  idle: Memory | undefined;
  idleHeap: Heap | undefined;
  afterSeeding: Memory | undefined;
  afterSeedingHeap: Heap | undefined;
  /** The load run: RSS just before, the highest sampled during it (every second), just after. */
  load?: { seconds: number; before: number; peak: number; after: number; beforeHeap: Heap | undefined; afterHeap: Heap | undefined; measurement: Measurement };
  /** Every server once the series is over. */
  end: { name: string; memory: Memory | undefined }[];
}

/** Read after RSS (the scrape itself allocates a little); undefined when /metrics does not answer. */
async function heapOf(server: Server): Promise<Heap | undefined> {
  try {
    const res = await fetch(server.url + '/metrics', { headers: { authorization: `Bearer ${APP_ENV.METRICS_TOKEN}` }, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) return undefined;
    const text = await res.text();
    const mib = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
    const heap = { usedMiB: mib('nodejs_heap_size_used_bytes'), totalMiB: mib('nodejs_heap_size_total_bytes'), externalMiB: mib('nodejs_external_memory_bytes') };
    return Object.values(heap).every(Number.isFinite) ? heap : undefined;
  } catch {
    return undefined;
  }
}

const heapText = (h: Heap | undefined) => (h ? ` (V8 heap ${fmt(h.usedMiB)} used of ${fmt(h.totalMiB)}, external ${fmt(h.externalMiB)})` : '');

interface DbResult {
  db: DbTarget;
  hello: Measurement;
  rows: Row[];
  memory: MemoryFigures;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function line(m: Measurement): string {
  return `${fmt(m.rps)} req/s, p50 ${ms(m.p50)} ms, p99 ${ms(m.p99)} ms, ${fmt(m.cpuUs)} µs CPU/req${m.dbCpuUs !== undefined ? ` + ${fmt(m.dbCpuUs)} µs PostgreSQL` : ''}${m.failures > 0 ? `, ${m.failures} FAILED` : ''}`;
}

const runOptions = { warmup: WARMUP, duration: DURATION, connections: CONNECTIONS };

async function measured(label: string, server: Server, load: Load, connections = CONNECTIONS): Promise<Measurement> {
  process.stdout.write(`   ${label.padEnd(58)} `);
  const m = await measure(server, load, { ...runOptions, connections }, dbCpuOf.get(server));
  console.log(line(m));
  return m;
}

/** The shape of a JSON value: keys (sorted) and types, null told apart from objects. */
function shape(v: unknown): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.map(shape);
  if (typeof v === 'object') return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, shape((v as Record<string, unknown>)[k])]));
  return typeof v;
}

async function benchDatabase(db: DbTarget, buildDir: string, runDir: string): Promise<DbResult> {
  console.log(`\n== ${db.label}`);
  const started = Date.now();
  const servers: Server[] = [];
  const appScript = path.join(buildDir, 'src', 'main.js');
  const profile = (name: string) => (CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(CPU_PROF_DIR, `${db.key}-${name}`)}`] : []);
  try {
    // The app first and alone, for its memory after start.
    const app = await startServer('app', ROOT, appScript, { ...APP_ENV, ...db.appEnv }, '/api/v1/health', profile('app'));
    servers.push(app);
    if (db.dbCpu) dbCpuOf.set(app, db.dbCpu('app'));
    await sleep(1000);
    const idle = app.memory();
    const idleHeap = await heapOf(app);
    console.log(`   app started (pid ${app.pid}): RSS ${fmt(idle?.rssMiB)} MiB, VmHWM ${fmt(idle?.hwmMiB)} MiB${heapText(idleHeap)}`);

    console.log(`   seeding through the app's API: 2 tenants, API keys, ${DRIVERS} drivers …`);
    const seeded: Seeded = await seed(app.url, DRIVERS, KEYS_PER_TENANT);
    await sleep(1000);
    const afterSeeding = app.memory();
    const afterSeedingHeap = await heapOf(app);
    console.log(`   app after seeding: RSS ${fmt(afterSeeding?.rssMiB)} MiB${heapText(afterSeedingHeap)}`);

    const seedFile = path.join(runDir, `seed-${db.key}.json`);
    fs.writeFileSync(seedFile, JSON.stringify(seeded.baseline), { mode: 0o600 });
    const baseline = await startServer(
      'baseline',
      ROOT,
      path.join(buildDir, 'bench', 'servers', 'baseline.js'),
      { ...db.baselineEnv, BENCH_SEED: seedFile, JWT_SECRET: APP_ENV.JWT_SECRET },
      '/api/v1/drivers',
      profile('baseline'),
    );
    servers.push(baseline);
    if (db.dbCpu) dbCpuOf.set(baseline, db.dbCpu('baseline'));
    const hello = await startServer('hello', ROOT, path.join(buildDir, 'bench', 'servers', 'hello.js'), {}, '/');
    servers.push(hello);

    let token = seeded.read.token;
    await checkSameWork(app, baseline, seeded, token);
    // Real hourly limits on the API keys: each server rotates through the tenant's keys as a client would.
    const rings = {
      read: { app: new KeyRing(seeded.read.apiKeys, REQUESTS_PER_KEY, 'the read tenant\'s keys (app)'), baseline: new KeyRing(seeded.read.apiKeys, REQUESTS_PER_KEY, 'the read tenant\'s keys (baseline)') },
      write: { app: new KeyRing(seeded.write.apiKeys, REQUESTS_PER_KEY, 'the write tenant\'s keys (app)'), baseline: new KeyRing(seeded.write.apiKeys, REQUESTS_PER_KEY, 'the write tenant\'s keys (baseline)') },
    };
    const byKeyOf = (ring: KeyRing): Load => ({ method: 'GET', path: PAGE_PATH, headers: {}, headersFor: () => ring.headers() });

    const memory: MemoryFigures = { idle, idleHeap, afterSeeding, afterSeedingHeap, end: [] };
    if (MEMORY_SECONDS > 0) memory.load = await memoryRun(app, byKeyOf(rings.read.app));

    // Each server's licence numbers: its own prefix, one counter over all its runs (warm-ups too).
    const licences = (prefix: string) => {
      let n = 0;
      return () => newDriverBody(`${prefix}${String(++n).padStart(8, '0')}`);
    };
    const newLicence = { app: licences('APP'), baseline: licences('BASE') };
    // Plans for the read tenant's first driver, each server with its own ring of that tenant's keys.
    const planLoad = (ring: KeyRing, fromLog: boolean): Load => ({ method: 'POST', path: '/api/v1/routes/plan', headers: {}, headersFor: () => ring.headers(), body: planBody(seeded.read.driverId, { fromLog }) });
    const plan = { app: planLoad(rings.read.app, false), baseline: planLoad(rings.read.baseline, false) };
    // What integrators send: no driverState, the clocks from the driver's log (issue 28).
    const planFromLog = { app: planLoad(rings.read.app, true), baseline: planLoad(rings.read.baseline, true) };

    const runs = {
      hello: [] as Measurement[],
      key: { app: [] as Measurement[], baseline: [] as Measurement[] },
      bearer: { app: [] as Measurement[], baseline: [] as Measurement[] },
      write: { app: [] as Measurement[], baseline: [] as Measurement[] },
      plan: { app: [] as Measurement[], baseline: [] as Measurement[] },
      planFromLog: { app: [] as Measurement[], baseline: [] as Measurement[] },
    };
    const tag = (round: number) => (ROUNDS > 1 ? `[${round}/${ROUNDS}] ` : '');
    // Baseline first in odd rounds, app first in even ones: neither always runs after the other.
    const pair = async (round: number, label: string, loads: { app: Load; baseline: Load }, into: { app: Measurement[]; baseline: Measurement[] }, connections = CONNECTIONS) => {
      const order = round % 2 === 1 ? (['baseline', 'app'] as const) : (['app', 'baseline'] as const);
      for (const who of order) into[who].push(await measured(`${tag(round)}${label} ${who}`, who === 'app' ? app : baseline, loads[who], connections));
    };

    // Reads first, every round, then writes: rows written can never change what a read row reads.
    console.log(`   reads: ${ROUNDS} round(s) of hello → GET with API key → GET with bearer token, ${WARMUP} s warm-up + ${DURATION} s each`);
    for (let round = 1; round <= ROUNDS; round++) {
      runs.hello.push(await measured(`${tag(round)}hello world`, hello, { method: 'GET', path: '/', headers: {} }));
      await pair(round, 'GET /api/v1/drivers API key', { app: byKeyOf(rings.read.app), baseline: byKeyOf(rings.read.baseline) }, runs.key);
      // Access tokens live 15 minutes: sign in again before one could expire within the pair. The
      // baseline verifies a new token on first sight, as the app does.
      if (secondsLeft(token) < 2 * (WARMUP + DURATION) + 60) token = await ownerLogin(app.url);
      const byToken: Load = { method: 'GET', path: PAGE_PATH, headers: bearer(token) };
      await pair(round, 'GET /api/v1/drivers bearer', { app: byToken, baseline: byToken }, runs.bearer);
    }
    console.log(`   writes: ${ROUNDS} round(s) of POST /api/v1/drivers → POST /api/v1/routes/plan`);
    for (let round = 1; round <= ROUNDS; round++) {
      const writer = (ring: KeyRing) => () => ring.headers();
      await pair(
        round,
        'POST /api/v1/drivers API key',
        {
          app: { method: 'POST', path: '/api/v1/drivers', headers: {}, headersFor: writer(rings.write.app), bodyFor: newLicence.app },
          baseline: { method: 'POST', path: '/api/v1/drivers', headers: {}, headersFor: writer(rings.write.baseline), bodyFor: newLicence.baseline },
        },
        runs.write,
      );
      await pair(round, `POST /api/v1/routes/plan API key (${PLAN_CONNECTIONS} conn.)`, plan, runs.plan, PLAN_CONNECTIONS);
      await pair(round, `POST /api/v1/routes/plan, clocks from log (${PLAN_CONNECTIONS} conn.)`, planFromLog, runs.planFromLog, PLAN_CONNECTIONS);
    }

    memory.end = servers.map((s) => ({ name: s.name, memory: s.memory() }));
    const used = (r: KeyRing) => r.state();
    console.log(
      `   API keys (real limit, ${fmt(REQUESTS_PER_KEY)} requests each before the next, as a client would): the app used ${used(rings.read.app).keysUsed} of ${KEYS_PER_TENANT} read keys and ${used(rings.write.app).keysUsed} of ${KEYS_PER_TENANT} write keys`,
    );
    console.log(`   series done in ${fmt((Date.now() - started) / 60_000, 1)} min`);
    return {
      db,
      hello: combine(runs.hello),
      rows: [
        { label: 'GET /api/v1/drivers', auth: 'API key', app: combine(runs.key.app), baseline: combine(runs.key.baseline) },
        { label: 'GET /api/v1/drivers', auth: 'bearer', app: combine(runs.bearer.app), baseline: combine(runs.bearer.baseline) },
        { label: 'POST /api/v1/drivers', auth: 'API key', app: combine(runs.write.app), baseline: combine(runs.write.baseline) },
        { label: 'POST /api/v1/routes/plan', auth: 'API key', app: combine(runs.plan.app), baseline: combine(runs.plan.baseline) },
        { label: PLAN_FROM_LOG_LABEL, auth: 'API key', app: combine(runs.planFromLog.app), baseline: combine(runs.planFromLog.baseline) },
      ],
      memory,
    };
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
  }
}

/**
 * A plan answer without what differs between any two plans written (its id, times of writing) and without
 * the double-booking warnings: the routes those count are each server's own earlier plans on PGlite (each has
 * its own database), and on PostgreSQL the other server's plan made at the same moment may or may not be one of
 * them. Those warnings, and only those, begin with the driver's name (domain/dispatch/booking.ts); everything
 * else must be equal.
 */
function comparablePlan(p: Record<string, unknown>, driverName: string): unknown {
  const out: Record<string, unknown> = { ...p, id: typeof p.id, createdAt: typeof p.createdAt, updatedAt: typeof p.updatedAt };
  if (Array.isArray(p.warnings)) out.warnings = (p.warnings as unknown[]).filter((w) => !(typeof w === 'string' && w.startsWith(`${driverName} `)));
  return out;
}

/**
 * Before anything is measured: the same page from both servers with both credentials (deep-equal
 * bodies), an unknown key refused by both, and POST /api/v1/drivers answering 201 with the same
 * record (keys, types, and values but the new id, licence and timestamps).
 */
async function checkSameWork(app: Server, baseline: Server, seeded: Seeded, token: string): Promise<void> {
  const page = (s: Server, headers: Record<string, string>, what: string) => expectStatus<unknown>(`${s.name} GET ${PAGE_PATH} (${what})`, 200, call(s.url, 'GET', PAGE_PATH, { headers }));
  const expected = await page(app, apiKey(seeded.read.apiKey), 'API key');
  const total = (expected as { total?: unknown }).total;
  if (total !== DRIVERS) throw new Error(`the app's page says total ${String(total)}, expected ${DRIVERS}`);
  for (const [s, headers, what] of [
    [app, bearer(token), 'bearer'],
    [baseline, apiKey(seeded.read.apiKey), 'API key'],
    [baseline, bearer(token), 'bearer'],
  ] as const) {
    const body = await page(s, headers, what);
    if (!isDeepStrictEqual(body, expected)) throw new Error(`${s.name} (${what}) does not return the app's page:\n${JSON.stringify(body).slice(0, 600)}\nexpected:\n${JSON.stringify(expected).slice(0, 600)}`);
  }
  const unknownKey = apiKey(`sk_staging_${'0'.repeat(32)}`);
  for (const s of [app, baseline]) await expectStatus(`${s.name} with an unknown API key`, 401, call(s.url, 'GET', PAGE_PATH, { headers: unknownKey }));

  const created = await Promise.all(
    ([
      [app, 'CHECK-APP'],
      [baseline, 'CHECK-BASE'],
    ] as const).map(([s, licence]) =>
      expectStatus<Record<string, unknown>>(`${s.name} POST /api/v1/drivers`, 201, call(s.url, 'POST', '/api/v1/drivers', { body: JSON.parse(newDriverBody(licence)), headers: apiKey(seeded.write.apiKey) })),
    ),
  );
  const [fromApp, fromBaseline] = created as [Record<string, unknown>, Record<string, unknown>];
  const comparable = (d: Record<string, unknown>) => ({ ...d, id: typeof d.id, licenseNumber: typeof d.licenseNumber, createdAt: typeof d.createdAt, updatedAt: typeof d.updatedAt });
  if (!isDeepStrictEqual(shape(fromApp), shape(fromBaseline)) || !isDeepStrictEqual(comparable(fromApp), comparable(fromBaseline))) {
    throw new Error(`POST /api/v1/drivers: the baseline's record differs from the app's:\napp:      ${JSON.stringify(fromApp)}\nbaseline: ${JSON.stringify(fromBaseline)}`);
  }
  // The same plan from both (both requests; ids and times of writing aside), and an unknown key refused by both.
  for (const fromLog of [false, true]) {
    const plans = await Promise.all(
      [app, baseline].map((s) =>
        expectStatus<Record<string, unknown>>(`${s.name} POST /api/v1/routes/plan${fromLog ? ' (clocks from the log)' : ''}`, 201, call(s.url, 'POST', '/api/v1/routes/plan', { body: JSON.parse(planBody(seeded.read.driverId, { fromLog })), headers: apiKey(seeded.read.apiKey) })),
      ),
    );
    const driver = seeded.baseline.drivers.find((d) => d.id === seeded.read.driverId)!;
    const [fromAppPlan, fromBaselinePlan] = plans.map((p) => comparablePlan(p, `${driver.firstName} ${driver.lastName}`)) as [unknown, unknown];
    if (!isDeepStrictEqual(fromAppPlan, fromBaselinePlan)) {
      throw new Error(`POST /api/v1/routes/plan: the baseline's plan differs from the app's:\napp:      ${JSON.stringify(fromAppPlan).slice(0, 1500)}\nbaseline: ${JSON.stringify(fromBaselinePlan).slice(0, 1500)}`);
    }
  }
  for (const s of [app, baseline]) await expectStatus(`${s.name} plan with an unknown API key`, 401, call(s.url, 'POST', '/api/v1/routes/plan', { body: JSON.parse(planBody(seeded.read.driverId)), headers: unknownKey }));
  console.log('   checked: same page from app and baseline with API key and bearer token; unknown key 401 on both; same driver record from both POSTs; the same plan from both (with driverState and from the log)');
}

/** The app under GET load for MEMORY_SECONDS, its RSS read every second. */
async function memoryRun(app: Server, load: Load): Promise<NonNullable<MemoryFigures['load']>> {
  process.stdout.write(`   memory: GET /api/v1/drivers API key for ${MEMORY_SECONDS} s, ${CONNECTIONS} connections, RSS sampled every second … `);
  const before = app.memory()?.rssMiB ?? NaN;
  const beforeHeap = await heapOf(app);
  let peak = before;
  const m = await measure(app, load, {
    warmup: 0,
    duration: MEMORY_SECONDS,
    connections: CONNECTIONS,
    sampleMs: 1000,
    onSample: () => {
      peak = Math.max(peak, app.memory()?.rssMiB ?? NaN);
    },
  });
  const after = app.memory()?.rssMiB ?? NaN;
  const afterHeap = await heapOf(app);
  peak = Math.max(peak, after);
  console.log(`RSS ${fmt(before)} → ${fmt(after)} MiB (peak ${fmt(peak)} MiB), ${fmt(m.rps)} req/s${m.failures > 0 ? `, ${m.failures} FAILED` : ''}`);
  if (beforeHeap || afterHeap) console.log(`   memory: before${heapText(beforeHeap)}, after${heapText(afterHeap)} MiB`);
  return { seconds: MEMORY_SECONDS, before, peak, after, beforeHeap, afterHeap, measurement: m };
}

// ---------------------------------------------------------------------------------------------
// Report

function printDatabase(r: DbResult): void {
  const hello = r.hello;
  console.log(`\n${r.db.label}: medians of ${ROUNDS} round(s), ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured per run`);
  const pgRun = r.db.key === 'postgres';
  const header = ['row', 'auth', 'server', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'CPU µs/req', ...(pgRun ? ['PG µs/req'] : []), 'vs hello', 'app/baseline', 'CPU base/app'];
  const cells = (row: string, auth: string, server: string, m: Measurement, extra: [string, string] = ['', '']) => [
    row,
    auth,
    server,
    fmt(m.rps),
    ms(m.p50),
    ms(m.p99),
    fmt(m.requests),
    String(m.failures),
    fmt(m.cpuUs),
    ...(pgRun ? [m.dbCpuUs === undefined ? '' : fmt(m.dbCpuUs)] : []),
    fmt(m.rps / hello.rps, 3),
    ...extra,
  ];
  const rows: string[][] = [cells('hello world (ceiling)', '', 'hello', hello)];
  for (const row of r.rows) {
    if (row.baseline) {
      rows.push(cells(row.label, row.auth, 'baseline', row.baseline));
      // With PostgreSQL's backends counted: the whole work of each request.
      const total = (m: Measurement) => (m.cpuUs === undefined ? undefined : m.cpuUs + (m.dbCpuUs ?? 0));
      const appCpu = total(row.app);
      const baseCpu = total(row.baseline);
      const cpu = appCpu !== undefined && baseCpu !== undefined ? fmt(baseCpu / appCpu, 2) : 'n/a';
      rows.push(cells('', '', 'app', row.app, [fmt(row.app.rps / row.baseline.rps, 2), cpu]));
    } else {
      rows.push(cells(row.label, row.auth, 'app', row.app, ['(no baseline)', '']));
    }
  }
  console.log(table(header, rows, 3));
  console.log(
    '(CPU µs/req: the server process\'s own user + system time per request, all threads' +
      (r.db.key === 'pglite' ? ', the in-memory database included' : '; PG µs/req: the CPU of its PostgreSQL backends per request (/proc)') +
      '. CPU base/app: the ratio if CPU were the only limit (PostgreSQL\'s included).)',
  );
  const m = r.memory;
  console.log(`app memory, MiB: RSS after start ${fmt(m.idle?.rssMiB)}${heapText(m.idleHeap)}, VmHWM at that point ${fmt(m.idle?.hwmMiB)}`);
  console.log(`                 RSS after seeding ${fmt(m.afterSeeding?.rssMiB)}${heapText(m.afterSeedingHeap)}`);
  if (m.load) {
    console.log(
      `                 ${m.load.seconds}-s GET load run (${fmt(m.load.measurement.rps)} req/s): RSS ${fmt(m.load.before)} → ${fmt(m.load.after)}, ` +
        `peak ${fmt(m.load.peak)}, growth ${fmt(m.load.after - m.load.before, 1)}; heap after${heapText(m.load.afterHeap)}`,
    );
  } else {
    console.log('                 load run skipped (BENCH_MEMORY_SECONDS=0)');
  }
  console.log(`RSS at the end of the series: ${m.end.map((e) => `${e.name} ${fmt(e.memory?.rssMiB)} MiB (VmHWM ${fmt(e.memory?.hwmMiB)})`).join(', ')}`);
}

interface Verdict {
  what: string;
  figure: string;
  met: boolean | undefined;
}

function verdicts(results: DbResult[], planner: PlannerFigures): Verdict[] {
  const out: Verdict[] = [];
  for (const r of results) {
    const name = r.db.key === 'pglite' ? 'PGlite' : 'PostgreSQL';
    for (const row of r.rows.filter((x) => x.label === 'GET /api/v1/drivers')) {
      const ratio = row.app.rps / row.baseline!.rps;
      out.push({ what: `driver list ≥ ${TARGET.ratio} × baseline, ${name}, ${row.auth}`, figure: fmt(ratio, 2), met: ratio >= TARGET.ratio });
    }
    if (r.db.key === 'postgres') {
      for (const row of r.rows.filter((x) => x.label === 'GET /api/v1/drivers')) {
        out.push({
          what: `driver list p99 < ${TARGET.p99Ms} ms at ${CONNECTIONS} connections${CONNECTIONS === 10 ? '' : ' (target is at 10)'}, PostgreSQL, ${row.auth}`,
          figure: `${ms(row.app.p99)} ms`,
          met: row.app.p99 < TARGET.p99Ms,
        });
      }
    }
    const limit = r.db.key === 'pglite' ? TARGET.rssPgliteMiB : TARGET.rssPostgresMiB;
    const rss = r.memory.idle?.rssMiB;
    out.push({ what: `app RSS after start ≤ ${limit} MiB, ${name}`, figure: `${fmt(rss)} MiB`, met: rss === undefined ? undefined : rss <= limit });
    const load = r.memory.load;
    const growth = load ? load.after - load.before : undefined;
    out.push({
      what: `app RSS growth over a ${load?.seconds ?? 60}-s load run ≤ ${TARGET.growthMiB} MiB, ${name}${load && load.seconds !== 60 ? ' (target is over 60 s)' : ''}`,
      figure: growth === undefined ? 'skipped' : `${fmt(growth, 1)} MiB (peak ${fmt(load!.peak)} MiB)`,
      met: growth === undefined || !Number.isFinite(growth) ? undefined : growth <= TARGET.growthMiB,
    });
  }
  for (const r of results) {
    const name = r.db.key === 'pglite' ? 'PGlite' : 'PostgreSQL';
    // Judged on the request integrators send: no driverState, the clocks from the driver's log.
    const plan = r.rows.find((x) => x.label === PLAN_FROM_LOG_LABEL)!.app;
    out.push({
      what: `POST /routes/plan (clocks from the log) service CPU per plan ≤ ${fmt(TARGET.planServiceCpuUs)} µs, ${name}`,
      figure: plan.cpuUs === undefined ? 'not measured' : `${fmt(plan.cpuUs)} µs`,
      met: plan.cpuUs === undefined ? undefined : plan.cpuUs <= TARGET.planServiceCpuUs,
    });
    if (r.db.key === 'postgres') {
      out.push({
        what: `POST /routes/plan (clocks from the log) PostgreSQL CPU per plan ≤ ${fmt(TARGET.planDatabaseCpuUs)} µs`,
        figure: plan.dbCpuUs === undefined ? 'not measured' : `${fmt(plan.dbCpuUs)} µs`,
        met: plan.dbCpuUs === undefined ? undefined : plan.dbCpuUs <= TARGET.planDatabaseCpuUs,
      });
    }
    const planRow = r.rows.find((x) => x.label === PLAN_FROM_LOG_LABEL)!;
    const planRatio = planRow.app.rps / planRow.baseline!.rps;
    out.push({ what: `POST /routes/plan (clocks from the log) ≥ ${TARGET.planRatio} × its same-work baseline, ${name}`, figure: fmt(planRatio, 2), met: planRatio >= TARGET.planRatio });
    const want = TARGET.planRps[r.db.key];
    out.push({ what: `POST /routes/plan (clocks from the log) ≥ ${fmt(want)} plans/s at ${PLAN_CONNECTIONS} connections${PLAN_CONNECTIONS === 4 ? '' : ' (target is at 4)'}, ${name}`, figure: `${fmt(plan.rps)} plans/s`, met: plan.rps >= want });
  }
  out.push({
    what: `planner ≥ ${fmt(TARGET.plansPerSecond)} plans/s on one core (in process; same input / every input different)`,
    figure: `${fmt(planner.plansPerSecond)} / ${fmt(planner.variedPlansPerSecond)} plans/s`,
    met: Math.min(planner.plansPerSecond, planner.variedPlansPerSecond) >= TARGET.plansPerSecond,
  });
  return out;
}

function printSummary(results: DbResult[], planner: PlannerFigures): boolean {
  console.log(`\n== Summary (medians of ${ROUNDS} round(s); ratio = app req/s ÷ baseline req/s)`);
  const rows: string[][] = [];
  for (const r of results) {
    const name = r.db.key === 'pglite' ? 'PGlite (memory)' : 'PostgreSQL';
    for (const row of r.rows) {
      const ratio = row.baseline ? row.app.rps / row.baseline.rps : undefined;
      const isList = row.label === 'GET /api/v1/drivers';
      const want = isList ? TARGET.ratio : row.label === PLAN_FROM_LOG_LABEL ? TARGET.planRatio : undefined;
      rows.push([
        name,
        row.label,
        row.auth,
        fmt(row.app.rps),
        row.baseline ? fmt(row.baseline.rps) : '—',
        ratio === undefined ? '—' : fmt(ratio, 2),
        ratio === undefined ? 'no baseline' : want === undefined ? 'no target' : `${ratio >= want ? 'met' : 'NOT met'} (≥ ${want})`,
        ms(row.app.p50),
        ms(row.app.p99),
        row.baseline ? ms(row.baseline.p99) : '—',
        String(row.app.failures + (row.baseline?.failures ?? 0)),
      ]);
    }
  }
  console.log(table(['database', 'row', 'auth', 'app req/s', 'baseline req/s', 'ratio', 'target', 'app p50 ms', 'app p99 ms', 'base p99 ms', 'errors'], rows, 3));
  for (const r of results) {
    const plan = r.rows.find((x) => x.label === 'POST /api/v1/routes/plan')!.app;
    console.log(
      `POST /api/v1/routes/plan, ${r.db.key === 'pglite' ? 'PGlite' : 'PostgreSQL'}: ${fmt(plan.rps)} plans/s end to end at ${PLAN_CONNECTIONS} connections, ` +
        `${fmt(plan.cpuUs)} µs app CPU per plan${plan.dbCpuUs !== undefined ? ` + ${fmt(plan.dbCpuUs)} µs of PostgreSQL's` : ''}; the planner alone: ${fmt(1e6 / planner.plansPerSecond)} µs per plan (${fmt(planner.plansPerSecond)} plans/s on one core).`,
    );
  }

  console.log('\nTargets:');
  const list = verdicts(results, planner);
  const width = Math.max(...list.map((v) => v.what.length));
  for (const v of list) console.log(`  ${v.what.padEnd(width)}  ${v.figure.padStart(26)}  ${v.met === undefined ? 'not measured' : v.met ? 'met' : 'NOT met  <<<'}`);
  const missed = list.filter((v) => v.met === false);
  if (missed.length > 0) {
    console.log(`\n!!! ${missed.length} target(s) NOT met:`);
    for (const v of missed) console.log(`!!!   ${v.what}: ${v.figure}`);
  } else {
    console.log('\nAll measured targets met.');
  }
  const failed = results.flatMap((r) => [
    ...r.rows.flatMap((row) => [row.app, ...(row.baseline ? [row.baseline] : [])]),
    r.hello,
    ...(r.memory.load ? [r.memory.load.measurement] : []),
  ]).reduce((n, m) => n + m.failures, 0);
  if (failed > 0) console.log(`\n!!! ${failed} request(s) failed (non-2xx, socket errors or time-outs): the figures are not comparable; exit code 1.`);
  return failed === 0;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const wantPg = DATABASES.includes('postgres');
  const unknown = DATABASES.filter((d) => d !== 'pglite' && d !== 'postgres');
  if (unknown.length > 0) throw new Error(`BENCH_DATABASES: expected pglite and/or postgres, got "${unknown.join(',')}"`);
  if (wantPg && !PG_URL && process.env.BENCH_DATABASES?.includes('postgres')) {
    throw new Error('BENCH_DATABASES asks for postgres, but neither BENCH_DATABASE_URL nor TEST_DATABASE_URL is set');
  }

  const runDir = path.join(ROOT, '.bench', `run-${process.pid}-${randomBytes(3).toString('hex')}`);
  fs.mkdirSync(runDir, { recursive: true });
  const dbs: DbTarget[] = [
    ...(DATABASES.includes('pglite') ? [pgliteTarget(runDir)] : []),
    ...(wantPg && PG_URL ? [postgresTarget(PG_URL, runDir)] : []),
  ];
  if (dbs.length === 0) throw new Error('no database to run on: check BENCH_DATABASES');

  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    killAll();
    await Promise.allSettled(dbs.map((d) => d.cleanup()));
    fs.rmSync(runDir, { recursive: true, force: true });
    try {
      fs.rmdirSync(path.dirname(runDir)); // .bench, when nothing else is in it
    } catch {
      // not empty, or already gone
    }
  };
  const abort = async (code: number, why: string) => {
    console.error(`\nbench: ${why}; stopping the servers and cleaning up.`);
    await cleanup().catch(() => undefined);
    process.exit(code);
  };
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => void abort(130, `interrupted (${sig})`));

  // The whole run is bounded: each phase has its own time-outs, and this is the backstop.
  const perRun = WARMUP + DURATION + 20;
  const budgetS = 420 + dbs.length * (400 + MEMORY_SECONDS + 30 + ROUNDS * 8 * perRun) + (SECTIONS.includes('monitoring') ? 300 : 0) + (SECTIONS.includes('events') ? 300 + dbs.length * 300 : 0) + (SECTIONS.includes('dispatch') ? dbs.length * 240 : 0) + (SECTIONS.includes('logs') ? dbs.length * (300 + ROUNDS * 300) : 0);
  const watchdog = setTimeout(() => void abort(3, `exceeded its time budget (${budgetS} s)`), budgetS * 1000);
  watchdog.unref();

  const cpus = os.cpus();
  const load = () => os.loadavg().map((v) => fmt(v, 2)).join(' / ');
  const loadAtStart = os.loadavg()[0]!;
  const startedAt = Date.now();
  let ok = false;
  try {
    console.log(`machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB; node ${process.version}; ${os.type()} ${os.release()}`);
    console.log(`load average (1/5/15 min) at start: ${load()}`);
    if (PG_URL && wantPg) console.log(`PostgreSQL ${await postgresVersion(PG_URL)} at ${new URL(PG_URL).host}`);
    else console.log('PostgreSQL: not run (set TEST_DATABASE_URL or BENCH_DATABASE_URL)');
    console.log(
      `settings: ${ROUNDS} round(s), ${WARMUP} s warm-up + ${DURATION} s measured per run, ${CONNECTIONS} connections, ${DRIVERS} drivers, ` +
        `memory run ${MEMORY_SECONDS} s; databases: ${dbs.map((d) => d.key).join(', ')}`,
    );

    // The planner alone, here, before any server starts: plans per second on one core.
    const planner = measurePlanner(Math.min(DURATION, 10));
    console.log(
      `\nplanner in process: ${fmt(planner.plansPerSecond)} plans/s for a ${fmt(planner.miles)}-mile, 5-stop trip with fuel ` +
        `(${planner.restStops} rests, ${planner.fuelStops} fuel stops), ${fmt(planner.variedPlansPerSecond)} plans/s with every plan's input different ` +
        `(target ≥ ${fmt(TARGET.plansPerSecond)}, judged on the lower)`,
    );
    process.stdout.write('compiling the app and the benchmark servers (bench/tsconfig.servers.json) … ');
    const buildDir = path.join(runDir, 'build');
    console.log(`${fmt(compileServers(ROOT, buildDir), 1)} s`);

    const results: DbResult[] = [];
    for (const db of dbs) {
      try {
        results.push(await benchDatabase(db, buildDir, runDir));
      } finally {
        await db.cleanup();
      }
    }
    for (const r of results) printDatabase(r);
    ok = printSummary(results, planner);
    // Background work (DESIGN §6): monitoring passes, on PostgreSQL.
    if (SECTIONS.includes('monitoring')) {
      if (PG_URL && wantPg) ok = printMonitoring(await benchMonitoring(PG_URL)) && ok;
      else console.log('\nMonitoring: not run (needs PostgreSQL: set TEST_DATABASE_URL or BENCH_DATABASE_URL)');
    }
    // Events: SSE fan-out latency with 100 tenants × 10 streams (each database), webhook deliveries per second (PostgreSQL).
    if (SECTIONS.includes('events')) {
      for (const db of dbs) {
        const target = db.key === 'pglite' ? pgliteTarget(runDir) : postgresTarget(PG_URL!, runDir);
        try {
          printFanout(await benchFanout(buildDir, target.appEnv, target.label));
        } finally {
          await target.cleanup();
        }
      }
      if (PG_URL && wantPg) ok = printWebhooks(await benchWebhooks(buildDir, PG_URL)) && ok;
      else console.log('\nWebhooks: not run (needs PostgreSQL: set TEST_DATABASE_URL or BENCH_DATABASE_URL)');
    }
    // Dispatch (issue 19): candidates for one load across 100 drivers, a re-plan end to end (each database).
    if (SECTIONS.includes('dispatch')) {
      for (const db of dbs) ok = printDispatch(db.key === 'pglite' ? await benchDispatch('pglite') : await benchDispatch('postgres', PG_URL!)) && ok;
    }
    // Daily logs (issue 27): 184 days of one driver, one day of 1,000 drivers, the compliance report (each database).
    if (SECTIONS.includes('logs')) for (const db of dbs) ok = printLogs(await benchLogs(buildDir, runDir, db.key, PG_URL)) && ok;
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
  console.log(`\nload average (1/5/15 min) at end: ${load()} on ${cpus.length} cores; the run took ${fmt((Date.now() - startedAt) / 60_000, 1)} min`);
  if (Math.max(loadAtStart, os.loadavg()[0]!) > cpus.length / 2) {
    console.log('Other work was running on this machine: req/s figures are skewed (CPU µs/req less so); rerun on a quiet machine for firm figures.');
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error('\nbench failed:', err instanceof Error ? err.message : err);
  killAll();
  process.exitCode = 1;
});
