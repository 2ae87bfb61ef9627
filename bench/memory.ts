/**
 * `npx tsx bench/memory.ts`: the server's resident memory (VmRSS of its process, from /proc) at
 * start, after seeding, during and after a load run, on each database.
 *
 * For each database it starts the built service (`node dist/main.js`: run `npm run build` first) as a
 * child process, reads /proc/PID/status when the server first answers (no request served yet but the
 * health probe), seeds one tenant through the API (admin approval, owner login, an API key, drivers),
 * then drives MEM_DURATION seconds of autocannon load with MEM_CONNECTIONS connections, each cycling
 * through three `GET /api/v1/drivers?page=1&pageSize=20` with the X-API-Key and one
 * `POST /api/v1/routes/plan` (five stops, fuel stops on), sampling RSS every second, and reads RSS
 * again 2 s after the run and once more after MEM_IDLE seconds of idleness (default 40: V8 returns the
 * heap it grew under load when its memory reducer runs, about 30 s into idleness). Growth = RSS 2 s
 * after the load − RSS after seeding. The server's CPU time per request (user + system, /proc) is
 * printed beside, to see what a memory setting costs in speed.
 *
 * Env: MEM_DATABASES (comma list of memory, disk, postgres; default memory,disk and postgres when
 * MEM_DATABASE_URL or TEST_DATABASE_URL is set), MEM_DURATION (default 60), MEM_CONNECTIONS (default
 * 10), MEM_DRIVERS (default 200), MEM_IDLE (default 40), MEM_MAIN (the server's entry point, default
 * dist/main.js here: point it at another build to compare), MEM_NODE_ARGS (extra node flags for the server, space-separated).
 * PostgreSQL runs in a throw-away schema mem_<random>, dropped at the end; the on-disk PGlite in a
 * temporary DATA_DIR, removed at the end: its first start creates the cluster, so the server is then
 * started once more on the same directory (row "disk reopen", start-up only), as after a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

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

const DURATION = intEnv('MEM_DURATION', 60, 1, 3600);
const CONNECTIONS = intEnv('MEM_CONNECTIONS', 10, 1, 1000);
const DRIVERS = intEnv('MEM_DRIVERS', 200, 1, 10_000);
const PG_URL = process.env.MEM_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const DATABASES = (process.env.MEM_DATABASES ?? (PG_URL ? 'memory,disk,postgres' : 'memory,disk')).split(',').map((s) => s.trim());
const NODE_ARGS = (process.env.MEM_NODE_ARGS ?? '').split(' ').filter(Boolean);
const IDLE_SECONDS = intEnv('MEM_IDLE', 40, 0, 600);
/** The server's entry point: the build here, or another build's (to compare two versions). */
const MAIN = path.resolve(process.env.MEM_MAIN ?? path.join(ROOT, 'dist', 'main.js'));

const ADMIN = { email: 'mem-admin@example.test', password: 'mem-admin-password' };
const OWNER = { email: 'mem-owner@example.test', password: 'mem-owner-password' };
const APP_ENV = {
  NODE_ENV: 'production',
  HOST,
  PROCESS_ROLES: 'api',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'mem-jwt-secret-0123456789abcdefghijklmnopq',
  ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
  PLATFORM_ADMIN_EMAIL: ADMIN.email,
  PLATFORM_ADMIN_PASSWORD: ADMIN.password,
  RATE_LIMIT_USER_PER_HOUR: '1000000000',
  RATE_LIMIT_STAGING_PER_HOUR: '1000000000',
  RATE_LIMIT_PRODUCTION_PER_HOUR: '1000000000',
  RATE_LIMIT_ANONYMOUS_PER_HOUR: '1000000000',
};

interface Mem {
  rss: number;
  hwm: number;
}

/** VmRSS and VmHWM of a process, MiB. */
function memOf(pid: number): Mem {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** CPU seconds the process has used (user + system, all threads), from /proc/PID/stat. */
function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Bytes of the files under a directory (the on-disk PGlite's data: what memory:// keeps in memory). */
function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += dirBytes(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

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

interface Server {
  url: string;
  pid: number;
  startMs: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...NODE_ARGS, MAIN], {
    cwd: path.dirname(path.dirname(MAIN)),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...APP_ENV, ...env, PORT: String(port) },
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
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited during start-up (${child.exitCode ?? child.signalCode}):\n${output}`);
    try {
      await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`server did not start within 120 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    pid: child.pid!,
    startMs: performance.now() - started,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function call<T>(base: string, method: string, urlPath: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(base + urlPath, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json()) as T;
  if (res.status >= 300) throw new Error(`${method} ${urlPath}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const login = async (base: string, who: { email: string; password: string }) =>
  (await call<{ accessToken: string }>(base, 'POST', '/api/v1/auth/login', who)).accessToken;

/** One approved tenant with DRIVERS drivers and an API key. */
async function seed(base: string): Promise<{ apiKey: string; driverId: string }> {
  const reg = await call<{ tenant: { id: string } }>(base, 'POST', '/api/v1/tenants/register', {
    organization: {
      name: 'Memory Freight',
      address: '100 Commerce St, Dallas, TX 75201',
      phone: '+1 214 555 0100',
      contactEmail: 'ops@mem.example.test',
      dotNumber: '1234567',
      mcNumber: 'MC-765432',
    },
    adminUser: { firstName: 'Olivia', lastName: 'Owner', ...OWNER },
  });
  await call(base, 'POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`, undefined, await login(base, ADMIN));
  const token = await login(base, OWNER);
  const { key } = await call<{ key: string }>(base, 'POST', '/api/v1/api-keys', { name: 'memory bench' }, token);
  let driverId = '';
  for (let i = 0; i < DRIVERS; i += 10) {
    const created = await Promise.all(
      Array.from({ length: Math.min(10, DRIVERS - i) }, (_, k) =>
        call<{ id: string }>(base, 'POST', '/api/v1/drivers', {
          firstName: 'Driver',
          lastName: `Number${i + k}`,
          licenseNumber: `MEM${String(i + k).padStart(6, '0')}`,
          licenseState: 'TX',
        }, token),
      ),
    );
    driverId ||= created[0]!.id;
  }
  return { apiKey: key, driverId };
}

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

interface StartRow {
  database: string;
  startMs: number;
  start: Mem;
}

interface Row extends StartRow {
  seeded: Mem;
  /** On disk: MiB of database files after seeding and after the load. */
  dataSeeded?: number;
  dataAfter?: number;
  loadMin: number;
  loadMax: number;
  after: Mem;
  idle: number;
  requests: number;
  cpuUsPerRequest: number;
  non2xx: number;
  errors: number;
}

async function measure(database: string, env: Record<string, string>, dataDir?: string): Promise<Row> {
  const server = await startServer(env);
  // Tables and indexes (pgdata/base), the WAL left out: its size depends on the checkpoint settings.
  const dataMiB = () => (dataDir === undefined ? undefined : dirBytes(path.join(dataDir, 'pgdata', 'base')) / 1048576);
  try {
    const start = memOf(server.pid);
    const { apiKey, driverId } = await seed(server.url);
    const seeded = memOf(server.pid);
    const dataSeeded = dataMiB();
    if (new URL(server.url).hostname !== HOST) throw new Error('refusing to load a non-loopback address');
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(memOf(server.pid).rss), 1000);
    const page = { method: 'GET' as const, path: '/api/v1/drivers?page=1&pageSize=20' };
    const cpuBefore = cpuSecondsOf(server.pid);
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 10,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      requests: [page, page, page, { method: 'POST', path: '/api/v1/routes/plan', body: planBody(driverId) }],
    });
    clearInterval(sampler);
    const cpu = cpuSecondsOf(server.pid) - cpuBefore;
    const dataAfter = dataMiB();
    await new Promise((r) => setTimeout(r, 2000));
    const after = memOf(server.pid);
    // V8 keeps the heap it grew under load until its memory reducer runs, some 30 s into idleness.
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = memOf(server.pid).rss;
    return {
      database,
      startMs: server.startMs,
      start,
      seeded,
      dataSeeded,
      dataAfter,
      loadMin: Math.min(...samples),
      loadMax: Math.max(...samples),
      after,
      idle,
      requests: result.requests.total,
      cpuUsPerRequest: (cpu / result.requests.total) * 1e6,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    };
  } finally {
    await server.stop();
  }
}

async function measureStart(database: string, env: Record<string, string>): Promise<StartRow> {
  const server = await startServer(env);
  try {
    return { database, startMs: server.startMs, start: memOf(server.pid) };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error('dist/main.js is missing: run `npm run build` first');
  const rows: Array<Row | StartRow> = [];
  for (const database of DATABASES) {
    process.stdout.write(`${database}: start, seed ${DRIVERS} drivers, ${DURATION} s of load … `);
    if (database === 'memory') rows.push(await measure(database, { DATABASE_URL: 'memory://' }));
    else if (database === 'disk') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-mem-'));
      try {
        rows.push(await measure('disk new', { DATA_DIR: dir }, dir));
        rows.push(await measureStart('disk reopen', { DATA_DIR: dir }));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } else if (database === 'postgres') {
      if (!PG_URL) throw new Error('postgres: set MEM_DATABASE_URL or TEST_DATABASE_URL');
      const schema = `mem_${randomBytes(6).toString('hex')}`;
      try {
        rows.push(await measure(database, { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema }));
      } finally {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    } else throw new Error(`MEM_DATABASES: unknown database "${database}"`);
    console.log('done');
  }
  const f = (n: number) => n.toFixed(0).padStart(5);
  console.log(`\nRSS of the server process, MiB (VmRSS; peak = VmHWM). Load: ${DURATION} s, ${CONNECTIONS} connections, 3 × GET drivers page : 1 × POST routes/plan.`);
  console.log(`"after" is read 2 s after the load, "idle" ${IDLE_SECONDS} s later; growth = after − seeded.`);
  for (const r of rows) {
    if ('dataAfter' in r && r.dataAfter !== undefined && r.dataSeeded !== undefined) {
      console.log(`${r.database}: tables and indexes (pgdata/base) ${r.dataSeeded.toFixed(0)} MiB after seeding, ${r.dataAfter.toFixed(0)} MiB after the load (in memory:// these files are the process's memory).`);
    }
  }
  console.log('database   start-up  RSS start  peak start  RSS seeded  load min..max  RSS after  peak after  growth  RSS idle  requests  CPU µs/req  non-2xx');
  for (const r of rows) {
    if (!('seeded' in r)) {
      console.log(`${r.database.padEnd(11)} ${(r.startMs / 1000).toFixed(1).padStart(5)} s  ${f(r.start.rss)}      ${f(r.start.hwm)}`);
      continue;
    }
    console.log(
      `${r.database.padEnd(11)} ${(r.startMs / 1000).toFixed(1).padStart(5)} s  ${f(r.start.rss)}      ${f(r.start.hwm)}       ${f(r.seeded.rss)}       ${f(r.loadMin)}..${f(r.loadMax)}   ${f(r.after.rss)}      ${f(r.after.hwm)}    ${f(r.after.rss - r.seeded.rss)}     ${f(r.idle)}  ${String(r.requests).padStart(8)}  ${f(r.cpuUsPerRequest).padStart(10)}  ${r.non2xx + r.errors}`,
    );
  }
}

main().catch((err: unknown) => {
  for (const child of running) child.kill('SIGKILL');
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
