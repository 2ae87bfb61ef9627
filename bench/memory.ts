/**
 * `npx tsx bench/memory.ts`: the server's resident memory (VmRSS of its process, from /proc) at
 * start, after seeding, during and after a load run, on each database.
 *
 * For each database it starts the built service (`node dist/main.js`: run `npm run build` first) as a
 * child process, reads /proc/PID/status when the server first answers (no request served yet but the
 * health probe), seeds it through the API as `npm run bench` does (bench/lib/seed.ts: two approved tenants, API keys, drivers),
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
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { intEnv } from './lib/env.js';
import { HOST, killAll, startServer, type Server } from './lib/processes.js';
import { APP_ENV, planBody, seed } from './lib/seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');


const DURATION = intEnv('MEM_DURATION', 60, 1, 3600);
const CONNECTIONS = intEnv('MEM_CONNECTIONS', 10, 1, 1000);
const DRIVERS = intEnv('MEM_DRIVERS', 200, 20, 10_000);
const PG_URL = process.env.MEM_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const DATABASES = (process.env.MEM_DATABASES ?? (PG_URL ? 'memory,disk,postgres' : 'memory,disk')).split(',').map((s) => s.trim());
const NODE_ARGS = (process.env.MEM_NODE_ARGS ?? '').split(' ').filter(Boolean);
const IDLE_SECONDS = intEnv('MEM_IDLE', 40, 0, 600);
/** The server's entry point: the build here, or another build's (to compare two versions). */
const MAIN = path.resolve(process.env.MEM_MAIN ?? path.join(ROOT, 'dist', 'main.js'));

interface Mem {
  rss: number;
  hwm: number;
}

/** VmRSS and VmHWM of the server, MiB. */
function memOf(server: Server): Mem {
  const m = server.memory();
  if (!m) throw new Error(`cannot read the memory of ${server.name} (pid ${server.pid})`);
  return { rss: m.rssMiB, hwm: m.hwmMiB };
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

/** The server on `env`, and how long it took to answer HTTP. */
async function start(env: Record<string, string>): Promise<{ server: Server; startMs: number }> {
  const started = performance.now();
  // One API key for the whole load: its hourly limit raised (this measures memory, not the limiter; bench/run.ts keeps it real).
  const server = await startServer('server', path.dirname(path.dirname(MAIN)), MAIN, { ...APP_ENV, RATE_LIMIT_PRODUCTION_PER_HOUR: '1000000000', ...env }, '/api/v1/health', NODE_ARGS);
  return { server, startMs: performance.now() - started };
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
  const { server, startMs } = await start(env);
  // Tables and indexes (pgdata/base), the WAL left out: its size depends on the checkpoint settings.
  const dataMiB = () => (dataDir === undefined ? undefined : dirBytes(path.join(dataDir, 'pgdata', 'base')) / 1048576);
  try {
    const startMem = memOf(server);
    const { apiKey, driverId } = (await seed(server.url, DRIVERS)).read;
    const seeded = memOf(server);
    const dataSeeded = dataMiB();
    if (new URL(server.url).hostname !== HOST) throw new Error('refusing to load a non-loopback address');
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(memOf(server).rss), 1000);
    const page = { method: 'GET' as const, path: '/api/v1/drivers?page=1&pageSize=20' };
    const cpuBefore = server.cpuSeconds() ?? NaN;
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 10,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      requests: [page, page, page, { method: 'POST', path: '/api/v1/routes/plan', body: planBody(driverId) }],
    });
    clearInterval(sampler);
    const cpu = (server.cpuSeconds() ?? NaN) - cpuBefore;
    const dataAfter = dataMiB();
    await new Promise((r) => setTimeout(r, 2000));
    const after = memOf(server);
    // V8 keeps the heap it grew under load until its memory reducer runs, some 30 s into idleness.
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = memOf(server).rss;
    return {
      database,
      startMs,
      start: startMem,
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
  const { server, startMs } = await start(env);
  try {
    return { database, startMs, start: memOf(server) };
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
  killAll();
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
