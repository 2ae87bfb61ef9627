/**
 * `npm run bench`: the planner's speed in process (plans/s for a 2,500-mile, 5-stop trip), end-to-end
 * POST /api/v1/routes/plan throughput, and authenticated GET /api/v1/drivers (a page of 20 from a tenant with 200 drivers)
 * beside two baselines measured in the same run, on the same database:
 *   1. hello     – a bare Fastify hello-world: the ceiling of the HTTP stack on this machine;
 *   2. baseline  – the least code that does the same database work (bench/servers/baseline.ts);
 *   3. app       – the real service (src/main.ts), with auth, rate limiting, schemas, logging hooks.
 * The figure that matters is app / baseline (target >= 0.7): what the app's own code costs.
 *
 * Always runs on an on-disk PGlite; also on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * is set (in a throw-away schema bench_<random>, dropped at the end).
 *
 * Each server is a child process so that autocannon, which runs here, does not compete with it for
 * one event loop. Servers run one at a time: an on-disk PGlite admits a single process, and on
 * PostgreSQL it keeps the machine's cores for the server under test.
 *
 * Env: BENCH_DURATION (measured seconds per server, default 10), BENCH_WARMUP (default 3),
 * BENCH_CONNECTIONS (default 10), BENCH_DRIVERS (default 200), BENCH_ROUNDS (default 1; e.g. 3 on
 * a busy or shared machine: the servers take turns that many times and medians are reported),
 * BENCH_DATABASES (e.g. "postgres" to skip PGlite; default both when a URL is set), BENCH_CPU_PROF
 * (a directory: the baseline and the app write V8 .cpuprofile files there, the largest per server
 * being its main thread; open them in Chrome DevTools or speedscope).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { measurePlanner } from './planner.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';

function intEnv(name: string, def: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
    process.exit(2);
  }
  return n;
}

const DURATION = intEnv('BENCH_DURATION', 10, 1, 600);
const WARMUP = intEnv('BENCH_WARMUP', 3, 0, 120);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 10, 1, 1000);
const DRIVERS = intEnv('BENCH_DRIVERS', 200, 20, 10_000);
const ROUNDS = intEnv('BENCH_ROUNDS', 1, 1, 20);
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',').map((s) => s.trim());
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
const PAGE_PATH = '/api/v1/drivers?page=1&pageSize=20';
const TARGET_RATIO = 0.7;

const STARTUP_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 30_000;

// Fixed secrets: a token issued while seeding stays valid when the app restarts for the measurement.
const ADMIN = { email: 'bench-admin@example.test', password: 'bench-admin-password' };
const OWNER = { email: 'bench-owner@example.test', password: 'bench-owner-password' };
const APP_ENV = {
  NODE_ENV: 'production',
  HOST,
  PROCESS_ROLES: 'api',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdefghijklmnop',
  ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
  PLATFORM_ADMIN_EMAIL: ADMIN.email,
  PLATFORM_ADMIN_PASSWORD: ADMIN.password,
  // The benchmark sends tens of thousands of requests with one token; the spec's limits would stop it.
  RATE_LIMIT_USER_PER_HOUR: '1000000000',
  RATE_LIMIT_STAGING_PER_HOUR: '1000000000',
  RATE_LIMIT_PRODUCTION_PER_HOUR: '1000000000',
  RATE_LIMIT_ANONYMOUS_PER_HOUR: '1000000000',
};

// ---------------------------------------------------------------------------------------------
// Child processes

interface Server {
  url: string;
  /** CPU seconds the server process has used so far (all threads), when the platform tells. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

/**
 * utime + stime from /proc (Linux; clock ticks, 100 per second on every mainstream kernel).
 * CPU per request is a second view that other work on the machine disturbs less than requests per
 * second, where the server, the database and autocannon compete for the same cores. It is not free
 * of load effects either: a server that handles fewer requests per wake-up spends more per request.
 */
function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

const running = new Set<ChildProcess>();

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `script` with tsx in a child process and waits until it answers HTTP on `readyPath`.
 * Only a minimal, explicit environment is passed so that a developer's DATABASE_URL and the like
 * cannot leak into a server.
 */
async function startServer(name: string, script: string, env: Record<string, string>, readyPath: string, nodeArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(ROOT, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));

  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited during start-up (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    try {
      await fetch(url + readyPath, { signal: AbortSignal.timeout(2_000) });
      break; // any HTTP answer means it is listening
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} did not start within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return {
    url,
    cpuSeconds: () => cpuSecondsOf(child.pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
      // A clean exit matters: the next server opens the same PGlite data directory.
      if (child.exitCode !== 0) throw new Error(`${name} did not stop cleanly (${child.exitCode ?? child.signalCode}):\n${output}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Seeding, through the real API

async function call<T>(base: string, method: string, urlPath: string, body?: unknown, token?: string): Promise<{ status: number; json: T }> {
  const res = await fetch(base + urlPath, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function expectStatus<T>(what: string, expected: number, p: Promise<{ status: number; json: T }>): Promise<T> {
  const { status, json } = await p;
  if (status !== expected) throw new Error(`${what}: HTTP ${status} ${JSON.stringify(json)}`);
  return json;
}

async function login(base: string, who: { email: string; password: string }): Promise<string> {
  return (await expectStatus<{ accessToken: string }>('login', 200, call(base, 'POST', '/api/v1/auth/login', who))).accessToken;
}

function secondsLeft(jwt: string): number {
  const { exp } = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
  return exp - Date.now() / 1000;
}

const FIRST = ['Ana', 'Ben', 'Carla', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivan', 'Jo', 'Kai', 'Lena', 'Mo', 'Nia'];
const LAST = ['Adams', 'Baker', 'Chen', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jones', 'Khan', 'Lopez', 'Meyer'];

/** A tenant with DRIVERS drivers, approved; returns its id and the OWNER's access token. */
async function seed(base: string): Promise<{ tenantId: string; token: string; driverId: string }> {
  const reg = await expectStatus<{ tenant: { id: string } }>(
    'register',
    201,
    call(base, 'POST', '/api/v1/tenants/register', {
      organization: {
        name: 'Bench Freight',
        address: '100 Commerce St, Dallas, TX 75201',
        phone: '+1 214 555 0100',
        contactEmail: 'ops@bench.example.test',
        dotNumber: '1234567',
        mcNumber: 'MC-765432',
      },
      adminUser: { firstName: 'Olivia', lastName: 'Owner', ...OWNER },
    }),
  );
  const tenantId = reg.tenant.id;
  await expectStatus('approve', 200, call(base, 'POST', `/api/v1/admin/tenants/${tenantId}/approve`, undefined, await login(base, ADMIN)));
  const token = await login(base, OWNER);

  // Ten at a time: quick, and still through the real create path (validation, RLS, unique license).
  let driverId = '';
  for (let i = 0; i < DRIVERS; i += 10) {
    const created = await Promise.all(
      Array.from({ length: Math.min(10, DRIVERS - i) }, (_, k) => {
        const n = i + k;
        return expectStatus(
          'create driver',
          201,
          call(base, 'POST', '/api/v1/drivers', {
            firstName: FIRST[n % FIRST.length],
            lastName: LAST[(n * 7) % LAST.length],
            licenseNumber: `CDL${String(n).padStart(6, '0')}`,
            licenseState: 'TX',
            truckNumber: `T-${n}`,
          }, token),
        ) as Promise<{ id: string }>;
      }),
    );
    driverId ||= created[0]!.id;
  }
  return { tenantId, token, driverId };
}

/** The planning request of the end-to-end figure: five stops, ~2,200 great-circle miles, fuel stops on. */
function planBody(driverId: string): string {
  const stop = (name: string, latitude: number, longitude: number, type: string, dockDurationHours: number) => ({ name, latitude, longitude, type, dockDurationHours });
  return JSON.stringify({
    driverId,
    departureTime: '2026-03-02T12:00:00Z',
    stops: [
      stop('Seattle, WA', 47.6062, -122.3321, 'ORIGIN', 1),
      stop('Boise, ID', 43.615, -116.2023, 'PICKUP', 2),
      stop('Denver, CO', 39.7392, -104.9903, 'WAYPOINT', 0),
      stop('Kansas City, MO', 39.0997, -94.5786, 'PICKUP', 1.5),
      stop('Columbus, OH', 39.9612, -82.9988, 'DELIVERY', 2),
    ],
    driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
    options: { includeFuelStops: true, startingFuelGallons: 100 },
  });
}

// ---------------------------------------------------------------------------------------------
// Measurement

interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
  /** Server CPU time per request, microseconds. */
  cpuUs: number | undefined;
}

async function measure(
  name: string,
  server: Server,
  urlPath: string,
  headers: Record<string, string>,
  request: { method?: 'GET' | 'POST'; body?: string } = {},
): Promise<Measurement> {
  const url = server.url + urlPath;
  if (new URL(url).hostname !== HOST) throw new Error(`refusing to load a non-loopback address: ${url}`);
  const run = (duration: number) => autocannon({ url, connections: CONNECTIONS, duration, headers, timeout: 10, method: request.method ?? 'GET', body: request.body });
  if (WARMUP > 0) await run(WARMUP);
  const cpuBefore = server.cpuSeconds();
  const r = await run(DURATION);
  const cpuAfter = server.cpuSeconds();
  return {
    name,
    // Completed requests over the measured time (autocannon's per-second samples can number one more
    // than the duration when the stop lands just after a tick).
    rps: r.duration > 0 ? r.requests.total / r.duration : 0,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    failures: r.non2xx + r.errors,
    cpuUs: cpuBefore !== undefined && cpuAfter !== undefined && r.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1e6) / r.requests.total : undefined,
  };
}

/** The page both the app and the baseline must return: equal bodies make it "the same work". */
async function fetchPage(url: string, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const body: unknown = await res.json();
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The PGlite data directory (the one holding PG_VERSION): DATA_DIR itself or a folder within it. */
function findPgliteCluster(dataDir: string): string {
  const candidates = [dataDir, ...fs.readdirSync(dataDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(dataDir, e.name))];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'PG_VERSION')));
  if (!found) throw new Error(`no PGlite cluster found in ${dataDir} after seeding`);
  return found;
}

interface DbTarget {
  key: 'pglite' | 'postgres';
  label: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function benchDatabase(db: DbTarget): Promise<{ page: Measurement[]; plan: Measurement }> {
  console.log(`\n== ${db.label}: seeding a tenant with ${DRIVERS} drivers through the API …`);
  const seeder = await startServer('app (seeding)', 'src/main.ts', { ...APP_ENV, ...db.env }, '/api/v1/health');
  let seeded: { tenantId: string; token: string; driverId: string };
  let expected: unknown;
  try {
    seeded = await seed(seeder.url);
    expected = await fetchPage(seeder.url + PAGE_PATH, { authorization: `Bearer ${seeded.token}` });
  } finally {
    await seeder.stop();
  }
  // The baseline opens the very cluster the app wrote, wherever under DATA_DIR the app keeps it.
  const baselineEnv: Record<string, string> = { ...db.env, BENCH_TENANT_ID: seeded.tenantId };
  if (db.key === 'pglite') baselineEnv.BENCH_PGLITE_DIR = findPgliteCluster(db.env.DATA_DIR!);

  // One directory per server: tsx's loader thread writes a profile of its own next to the main one.
  const profile = (name: string) => (CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(CPU_PROF_DIR, `${db.key}-${name}`)}`] : []);
  const targets: { name: string; script: string; path: string; env: Record<string, string>; auth?: boolean; nodeArgs?: string[] }[] = [
    { name: 'hello world (ceiling)', script: 'bench/servers/hello.ts', path: '/', env: {} },
    { name: 'baseline: tx + RLS + 20 rows', script: 'bench/servers/baseline.ts', path: PAGE_PATH, env: baselineEnv, nodeArgs: profile('baseline') },
    { name: 'app: GET /api/v1/drivers', script: 'src/main.ts', path: PAGE_PATH, env: { ...APP_ENV, ...db.env }, auth: true, nodeArgs: profile('app') },
  ];
  let token = seeded.token;
  // Rounds interleave the servers (hello, baseline, app, hello, …) so that a slow spell of a shared
  // machine is spread over all three instead of landing on one; each figure is then a median.
  const runs: Measurement[][] = targets.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const tag = ROUNDS > 1 ? ` [${round}/${ROUNDS}]` : '';
      process.stdout.write(`   ${(t.name + tag).padEnd(36)} warm-up ${WARMUP} s + ${DURATION} s … `);
      const server = await startServer(t.name, t.script, t.env, t.path, t.nodeArgs);
      try {
        // Access tokens live 15 minutes: a long run signs in again rather than measuring 401s.
        if (t.auth && secondsLeft(token) < WARMUP + DURATION + 60) token = await login(server.url, OWNER);
        const headers: Record<string, string> = t.auth ? { authorization: `Bearer ${token}` } : {};
        if (t.path !== '/') {
          const body = await fetchPage(server.url + t.path, headers);
          if (!isDeepStrictEqual(body, expected)) throw new Error(`${t.name} does not return the same page as the app:\n${JSON.stringify(body).slice(0, 500)}`);
        }
        const m = await measure(t.name, server, t.path, headers);
        runs[i]!.push(m);
        console.log(`${fmt(m.rps, 0)} req/s, p99 ${m.p99} ms${m.cpuUs === undefined ? '' : `, ${fmt(m.cpuUs, 0)} µs CPU/req`}`);
      } finally {
        await server.stop();
      }
    }
  }
  // End to end planning: POST /api/v1/routes/plan (validation, HOS from the driver state, planning,
  // audit, and the plan written with its outbox event), beside the same hello-world ceiling.
  const planRuns: Measurement[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const tag = ROUNDS > 1 ? ` [${round}/${ROUNDS}]` : '';
    process.stdout.write(`   ${('app: POST /api/v1/routes/plan' + tag).padEnd(36)} warm-up ${WARMUP} s + ${DURATION} s … `);
    const server = await startServer('app (plan)', 'src/main.ts', { ...APP_ENV, ...db.env }, '/api/v1/health');
    try {
      if (secondsLeft(token) < WARMUP + DURATION + 60) token = await login(server.url, OWNER);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const probe = await fetch(server.url + '/api/v1/routes/plan', { method: 'POST', headers, body: planBody(seeded.driverId), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      if (probe.status !== 201) throw new Error(`POST /api/v1/routes/plan: HTTP ${probe.status} ${await probe.text()}`);
      const m = await measure('app: POST /api/v1/routes/plan', server, '/api/v1/routes/plan', headers, { method: 'POST', body: planBody(seeded.driverId) });
      planRuns.push(m);
      console.log(`${fmt(m.rps, 0)} req/s, p99 ${m.p99} ms${m.cpuUs === undefined ? '' : `, ${fmt(m.cpuUs, 0)} µs CPU/req`}`);
    } finally {
      await server.stop();
    }
  }
  return { page: runs.map(combine), plan: combine(planRuns) };
}

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

/** One figure per server from its rounds: medians of the rates and latencies, sums of the counts. */
function combine(rounds: Measurement[]): Measurement {
  const cpu = rounds.map((m) => m.cpuUs).filter((v): v is number => v !== undefined);
  return {
    name: rounds[0]!.name,
    rps: median(rounds.map((m) => m.rps)),
    p50: median(rounds.map((m) => m.p50)),
    p99: median(rounds.map((m) => m.p99)),
    requests: rounds.reduce((n, m) => n + m.requests, 0),
    failures: rounds.reduce((n, m) => n + m.failures, 0),
    cpuUs: cpu.length === rounds.length ? median(cpu) : undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

function fmt(n: number, digits: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function printTable(label: string, [hello, base, app]: Measurement[]): boolean {
  const rows = [hello!, base!, app!];
  // autocannon's latency histogram counts whole milliseconds (truncated): 0 means under 1 ms.
  const ms = (v: number) => (v < 1 ? '<1' : fmt(v, 0));
  const header = ['server', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'CPU µs/req', 'vs hello', 'vs baseline'];
  const cells = rows.map((m) => [
    m.name,
    fmt(m.rps, 0),
    ms(m.p50),
    ms(m.p99),
    fmt(m.requests, 0),
    String(m.failures),
    m.cpuUs === undefined ? 'n/a' : fmt(m.cpuUs, 0),
    fmt(m.rps / hello!.rps, 2),
    m === hello ? '' : fmt(m.rps / base!.rps, 2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(`\n${label}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
  const ratio = app!.rps / base!.rps;
  const ok = ratio >= TARGET_RATIO;
  console.log(
    `app / baseline = ${fmt(ratio, 2)} (target >= ${TARGET_RATIO}: ${ok ? 'met' : 'NOT met'});  app / hello = ${fmt(app!.rps / hello!.rps, 2)}` +
      `;  p99 app ${ms(app!.p99)} ms vs baseline ${ms(base!.p99)} ms`,
  );
  // The same ratio from CPU time: what throughput would be if the server's own CPU were the only limit.
  if (app!.cpuUs !== undefined && base!.cpuUs !== undefined) {
    console.log(`by server CPU per request: baseline / app = ${fmt(base!.cpuUs / app!.cpuUs, 2)} (${fmt(base!.cpuUs, 0)} vs ${fmt(app!.cpuUs, 0)} µs)`);
  }
  console.log('(CPU µs/req: the server process\'s own user+system time per request, without the database or autocannon.)');
  if (rows.some((m) => m.failures > 0)) console.log('WARNING: some requests failed (non-2xx or socket errors); the figures are not comparable.');
  return rows.every((m) => m.failures === 0);
}

// ---------------------------------------------------------------------------------------------

function pgliteTarget(): DbTarget {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-'));
  return {
    key: 'pglite',
    label: 'PGlite (embedded, on-disk data directory)',
    env: { DATA_DIR: dir },
    async cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresTarget(url: string): DbTarget {
  const schema = `bench_${Math.random().toString(36).slice(2, 10)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-'));
  const where = new URL(url);
  return {
    key: 'postgres',
    label: `PostgreSQL (${where.host}${where.pathname}, schema ${schema})`,
    env: { DATABASE_URL: url, DATABASE_SCHEMA: schema, DATA_DIR: dir },
    async cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

async function main(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  const dbs = [
    ...(DATABASES.includes('pglite') ? [pgliteTarget()] : []),
    ...(pgUrl && DATABASES.includes('postgres') ? [postgresTarget(pgUrl)] : []),
  ];
  if (dbs.length === 0) throw new Error('no database to run on: check BENCH_DATABASES and BENCH_DATABASE_URL');

  // The whole run is bounded: each phase has its own time-out, and this is the backstop.
  const budgetMs = 60_000 + dbs.length * (120_000 + 5 * STARTUP_TIMEOUT_MS + 4 * ROUNDS * (WARMUP + DURATION + 30) * 1000);
  const watchdog = setTimeout(() => {
    console.error(`\nbench: exceeded its time budget (${Math.round(budgetMs / 1000)} s); stopping.`);
    void abort(dbs, 3);
  }, budgetMs);
  watchdog.unref();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void abort(dbs, 130));

  console.log(
    `GET ${PAGE_PATH} (tenant with ${DRIVERS} drivers): ${CONNECTIONS} connections, warm-up ${WARMUP} s, measured ${DURATION} s per server` +
      `${ROUNDS > 1 ? `, ${ROUNDS} rounds (medians)` : ''}; ` +
      `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'})`,
  );
  // Other work on the machine skews req/s far more than CPU per request; say so when it is there.
  const loadAtStart = os.loadavg()[0]!;
  // The planner alone, in this process before any server starts: plans per second on one core.
  const planner = measurePlanner(Math.min(DURATION, 10));
  console.log(
    `planner in process: ${fmt(planner.plansPerSecond, 0)} plans/s for a ${fmt(planner.miles, 0)}-mile, 5-stop trip with fuel ` +
      `(${planner.restStops} rests, ${planner.fuelStops} fuel stops; target >= 2,000 plans/s: ${planner.plansPerSecond >= 2000 ? 'met' : 'NOT met'})`,
  );
  const tables: [string, { page: Measurement[]; plan: Measurement }][] = [];
  let clean = true;
  try {
    for (const db of dbs) {
      try {
        tables.push([db.label, await benchDatabase(db)]);
      } finally {
        await db.cleanup();
      }
    }
  } finally {
    clearTimeout(watchdog);
  }
  for (const [label, results] of tables) {
    clean = printTable(label, results.page) && clean;
    const plan = results.plan;
    const hello = results.page[0]!;
    console.log(
      `POST /api/v1/routes/plan: ${fmt(plan.rps, 0)} plans/s end to end, p50 ${fmt(plan.p50, 0)} ms, p99 ${fmt(plan.p99, 0)} ms` +
        `${plan.cpuUs === undefined ? '' : `, ${fmt(plan.cpuUs, 0)} µs CPU/req`}; vs hello ${fmt(plan.rps / hello.rps, 3)}` +
        `${plan.failures > 0 ? ` (${plan.failures} failed)` : ''}`,
    );
    clean = plan.failures === 0 && clean;
  }
  console.log(`planner in process: ${fmt(planner.plansPerSecond, 0)} plans/s (target >= 2,000)`);
  console.log(`\nload average (1 min) at start ${fmt(loadAtStart, 1)}, at end ${fmt(os.loadavg()[0]!, 1)}, on ${os.cpus().length} CPUs.`);
  if (loadAtStart > os.cpus().length / 2) {
    console.log(
      'Other work was running on this machine: requests per second may be skewed (CPU µs/req less so); ' +
        `for firmer figures rerun on a quiet machine${ROUNDS === 1 ? ' or with BENCH_ROUNDS=3' : ''}.`,
    );
  }
  process.exitCode = clean ? 0 : 1;
}

async function abort(dbs: DbTarget[], code: number): Promise<void> {
  for (const child of running) child.kill('SIGKILL');
  await Promise.allSettled(dbs.map((d) => d.cleanup()));
  process.exit(code);
}

main().catch((err: unknown) => {
  console.error('\nbench failed:', err instanceof Error ? err.message : err);
  for (const child of running) child.kill('SIGKILL');
  process.exit(1);
});
