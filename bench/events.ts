/**
 * Event benchmarks (DESIGN §6), against the compiled app run as `npm start` runs it:
 *
 * Fan-out: 100 tenants × 10 SSE streams (the per-tenant cap) on one app process (api and worker
 * roles). Each tenant has an ACTIVE route whose truck is 30 miles off its path; each check (the
 * tenants' interval is 5 s) raises ROUTE_DEVIATION, the harness resolves the 100 alerts through the API
 * as soon as every stream has heard of them, and the next check raises them again. Measured per
 * stream and event: alert `createdAt` (the start of the check that found it) → `alert` frame received,
 * and `resolvedAt` (the resolve request's transaction) → `alert_resolved` frame received; p50 / p99 / max over `BENCH_FANOUT_ROUNDS` rounds
 * (5: 5,000 samples each). The app's RSS before and with the 1,000 streams open.
 *
 * Webhooks (PostgreSQL only: two processes share the queue): an api process takes `BENCH_WEBHOOK_EVENTS`
 * (4,000) driver status changes (each a driver.status_changed event) for a tenant with one webhook, with
 * no worker running; then a worker process starts and dispatches and delivers them all to a local
 * receiver. Deliveries per second = events ÷ (last arrival − first arrival); every delivery id unique,
 * signatures checked. Baseline: bench/servers/webhook-sender.ts sends the same number of signed POSTs
 * to the same receiver at the worker's concurrency, with no database.
 *
 *   npm run build && npx tsx bench/events.ts     (TEST_DATABASE_URL for the webhook half; BENCH_CPU_PROF=dir
 *   profiles the fan-out's app process and the webhook worker)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { compileServers, HOST, startServer, type Server } from './lib/processes.js';
import { fmt } from './lib/report.js';
import { ADMIN, APP_ENV, bearer, call, expectStatus } from './lib/seed.js';
import { NODE_FLAGS } from '../src/runtime.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const intEnv = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  return Number.isInteger(v) && v > 0 ? v : dflt;
};
const TENANTS = intEnv('BENCH_FANOUT_TENANTS', 100);
const STREAMS = 10;
const ROUNDS = intEnv('BENCH_FANOUT_ROUNDS', 5);
const WEBHOOK_EVENTS = intEnv('BENCH_WEBHOOK_EVENTS', 4000);
const WAIT_MS = 120_000;
/** BENCH_CPU_PROF=dir: the fan-out's app process and the webhook worker process write V8 CPU profiles there when they stop. */
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** Issue 28's targets (they were 50 ms and 500/s). */
export const FANOUT_TARGET_P99_MS = 25;
export const WEBHOOK_TARGET_PER_SECOND = 2000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Latency {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}
const summarize = (xs: number[]): Latency => {
  const s = [...xs].sort((a, b) => a - b);
  return { samples: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
};

export interface FanoutFigures {
  database: string;
  tenants: number;
  streams: number;
  /** The measured rounds (after the first, a warm-up). */
  created: Latency;
  resolved: Latency;
  /** The first round alone: the process's first alerts, its code not yet compiled by V8's optimizing tiers (not counted in the above). */
  coldCreated: Latency;
  rssBeforeMiB?: number;
  rssWithStreamsMiB?: number;
  /** The monitoring passes that checked routes during the rounds: how many, and their mean wall time (the app's /metrics). */
  passes?: { count: number; meanMs: number };
}

export interface WebhookFigures {
  events: number;
  appPerSecond: number;
  baselinePerSecond: number;
  uniqueDeliveries: number;
  signaturesChecked: number;
}

/** Counts until `n` things happened, or fails after WAIT_MS. */
class Countdown {
  private left: number;
  private done!: () => void;
  readonly promise: Promise<void>;
  constructor(n: number, what: string) {
    this.left = n;
    let timer: NodeJS.Timeout;
    this.promise = new Promise<void>((resolve, reject) => {
      this.done = () => (clearTimeout(timer), resolve());
      timer = setTimeout(() => reject(new Error(`${what}: ${this.left} of ${n} still missing after ${WAIT_MS / 1000} s`)), WAIT_MS);
    });
    if (n === 0) this.done();
  }
  tick(): void {
    if (--this.left === 0) this.done();
  }
  get finished(): boolean {
    return this.left <= 0;
  }
}

/** One SSE stream: calls `onEvent(name, data)` for each frame. */
function openStream(base: string, apiKey: string, onEvent: (name: string, data: Record<string, unknown>) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/v1/sse/alerts?apiKey=${apiKey}`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE: HTTP ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          let name = '';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data += line.slice(5).trim();
          }
          if (name && data) onEvent(name, JSON.parse(data) as Record<string, unknown>);
        }
      });
      resolve(req);
    });
    req.on('error', reject);
  });
}

const TRIP = [
  { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
  { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 },
];

/** Registers, approves and signs in tenant n, and gives it an API key. */
async function tenant(base: string, adminToken: string, tag: string, n: number): Promise<{ key: string }> {
  const owner = { email: `owner${n}@${tag}.bench.test`, password: 'bench-owner-password' };
  const reg = await expectStatus<{ tenant: { id: string } }>('register', 201, call(base, 'POST', '/api/v1/tenants/register', {
    body: {
      organization: { name: `Fan-out Freight ${n}`, address: '1 Main St, Dallas, TX 75201', phone: '+1 214 555 0100', contactEmail: `ops${n}@${tag}.bench.test`, dotNumber: '1234567', mcNumber: 'MC-765432' },
      adminUser: { firstName: 'Olivia', lastName: `Owner${n}`, ...owner },
    },
  }));
  await expectStatus('approve', 200, call(base, 'POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`, { headers: bearer(adminToken) }));
  const token = (await expectStatus<{ accessToken: string }>('login', 200, call(base, 'POST', '/api/v1/auth/login', { body: owner }))).accessToken;
  const { key } = await expectStatus<{ key: string }>('api key', 201, call(base, 'POST', '/api/v1/api-keys', { body: { name: 'bench' }, headers: bearer(token) }));
  return { key };
}

async function inBatches<T>(n: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, k) => fn(i + k)))));
  return out;
}

export async function benchFanout(buildDir: string, dbEnv: Record<string, string>, database: string): Promise<FanoutFigures> {
  const app = await startServer('app (fan-out)', ROOT, path.join(buildDir, 'src', 'main.js'), {
    ...APP_ENV,
    ...dbEnv,
    PROCESS_ROLES: 'migrate,api,worker',
    MONITORING_INTERVAL_SECONDS: '5',
  }, '/api/v1/health', CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []);
  const streams: http.ClientRequest[] = [];
  try {
    const base = app.url;
    const adminToken = (await expectStatus<{ accessToken: string }>('admin login', 200, call(base, 'POST', '/api/v1/auth/login', { body: ADMIN }))).accessToken;
    const tag = randomBytes(3).toString('hex');
    const fleets = await inBatches(TENANTS, 10, async (n) => {
      const { key } = await tenant(base, adminToken, tag, n);
      const h = { 'x-api-key': key };
      await expectStatus('settings', 200, call(base, 'PUT', '/api/v1/tenant/settings/monitoring', { headers: h, body: { monitoringIntervalSeconds: 5 } }));
      const driver = await expectStatus<{ id: string }>('driver', 201, call(base, 'POST', '/api/v1/drivers', { headers: h, body: { firstName: 'Fan', lastName: `Out${n}`, licenseNumber: `FAN${tag}${n}`, licenseState: 'TX' } }));
      const plan = await expectStatus<{ id: string }>('plan', 201, call(base, 'POST', '/api/v1/routes/plan', {
        headers: h,
        body: { driverId: driver.id, departureTime: new Date().toISOString(), stops: TRIP, driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 } },
      }));
      await expectStatus('activate', 200, call(base, 'POST', `/api/v1/routes/${plan.id}/activate`, { headers: h }));
      return { key, routeId: plan.id };
    });
    await sleep(1000);
    const rssBeforeMiB = app.memory()?.rssMiB;

    const created: number[] = [];
    const resolved: number[] = [];
    // Round 0 is a warm-up, like every HTTP row's: the process's first alert raised, serialized and streamed
    // runs cold code (one pass's rules took 24 ms instead of 1–2). It is printed apart, not counted.
    const coldCreated: number[] = [];
    let measuring = false;
    let current = 0;
    let heard: Countdown | undefined;
    let heardResolved: Countdown | undefined;
    const alertsOfRound: { key: string; id: string }[] = [];
    let earlyFrames = 0;
    const earlyAlerts: { key: string; id: string }[] = [];
    for (const fleet of fleets) {
      for (let s = 0; s < STREAMS; s++) {
        streams.push(
          await openStream(base, fleet.key, (name, data) => {
            const now = Date.now();
            if (name === 'alert') {
              // A route is checked on its own schedule: once its alert is resolved it may raise the next one
              // while the harness still resolves the others. Such an alert belongs to the next round.
              const early = heard === undefined || heard.finished;
              const round = early ? current + 1 : current;
              (round >= 1 ? created : coldCreated).push(now - Date.parse(data.createdAt as string));
              if (early) {
                earlyFrames++;
                if (s === 0) earlyAlerts.push({ key: fleet.key, id: data.id as string });
              } else {
                if (s === 0) alertsOfRound.push({ key: fleet.key, id: data.id as string });
                heard!.tick();
              }
            } else if (name === 'alert_resolved') {
              if (measuring) resolved.push(now - Date.parse(data.resolvedAt as string));
              heardResolved?.tick();
            }
          }),
        );
      }
    }
    await sleep(2000);
    const rssWithStreamsMiB = app.memory()?.rssMiB;

    let passesAfterWarmup: { count: number; sumMs: number } | undefined;
    for (let round = 0; round <= ROUNDS; round++) {
      // The alerts already heard for this round (raised while the last round's were being resolved) count.
      current = round;
      heard = new Countdown(TENANTS * STREAMS - earlyFrames, `round ${round + 1}: alert frames`);
      alertsOfRound.length = 0;
      alertsOfRound.push(...earlyAlerts.splice(0));
      earlyFrames = 0;
      if (round === 1) {
        measuring = true;
        passesAfterWarmup = await monitoringPasses(base);
      }
      if (round === 0) {
        // Every truck wanders 30 miles east of its path; each check from now on finds it off route.
        await inBatches(fleets.length, 20, (i) =>
          expectStatus('position', 201, call(base, 'POST', `/api/v1/routes/${fleets[i]!.routeId}/positions`, { headers: { 'x-api-key': fleets[i]!.key }, body: { latitude: 32.95, longitude: -96.3, speedMph: 55 } })),
        );
      }
      await heard.promise;
      heardResolved = new Countdown(TENANTS * STREAMS, `round ${round + 1}: alert_resolved frames`);
      await inBatches(alertsOfRound.length, 20, async (i) => {
        const a = alertsOfRound[i]!;
        await expectStatus('resolve', 200, call(base, 'POST', `/api/v1/alerts/${a.id}/resolve`, { headers: { 'x-api-key': a.key }, body: { resolution: 'bench' } }));
      });
      await heardResolved.promise;
    }
    const all = await monitoringPasses(base);
    const measured = all && passesAfterWarmup ? { count: all.count - passesAfterWarmup.count, sumMs: all.sumMs - passesAfterWarmup.sumMs } : undefined;
    const passes = measured && measured.count > 0 ? { count: measured.count, meanMs: measured.sumMs / measured.count } : undefined;
    return {
      database,
      tenants: TENANTS,
      streams: TENANTS * STREAMS,
      created: summarize(created),
      resolved: summarize(resolved),
      coldCreated: summarize(coldCreated),
      rssBeforeMiB,
      rssWithStreamsMiB,
      passes,
    };
  } catch (err) {
    // What the app said before it failed us (its warnings and errors; LOG_LEVEL=warn).
    console.error(`the app's last output:\n${app.output()}`);
    throw err;
  } finally {
    for (const s of streams) s.destroy();
    await app.stop();
  }
}

/** The app's monitoring passes that checked routes so far (count, total wall time), from its /metrics. */
async function monitoringPasses(base: string): Promise<{ count: number; sumMs: number } | undefined> {
  try {
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${APP_ENV.METRICS_TOKEN}` } })).text();
    const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1]);
    const count = value('monitoring_pass_duration_seconds_count');
    const sum = value('monitoring_pass_duration_seconds_sum');
    return Number.isFinite(count) && Number.isFinite(sum) ? { count, sumMs: sum * 1000 } : undefined;
  } catch {
    return undefined;
  }
}

/** A receiver that records each delivery's arrival time, delivery id and event. */
async function receiver(): Promise<{ url: string; arrivals: { at: number; delivery: string; body: string; headers: http.IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const arrivals: { at: number; delivery: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({ at: performance.now(), delivery: String(req.headers['x-service-delivery']), body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return { url: `http://${HOST}:${(server.address() as AddressInfo).port}/hooks`, arrivals, close: () => new Promise((r) => server.close(() => r())) };
}

export async function benchWebhooks(buildDir: string, pgUrl: string): Promise<WebhookFigures> {
  const schema = `bench_hooks_${randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hooks-'));
  const env = { ...APP_ENV, DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema, DATA_DIR: dataDir, WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' };
  const rx = await receiver();
  let app: Server | undefined;
  let worker: ChildProcess | undefined;
  try {
    app = await startServer('app (api only)', ROOT, path.join(buildDir, 'src', 'main.js'), { ...env, PROCESS_ROLES: 'migrate,api' }, '/api/v1/health');
    const base = app.url;
    const adminToken = (await expectStatus<{ accessToken: string }>('admin login', 200, call(base, 'POST', '/api/v1/auth/login', { body: ADMIN }))).accessToken;
    const { key } = await tenant(base, adminToken, randomBytes(3).toString('hex'), 1);
    const h = { 'x-api-key': key };
    const hook = await expectStatus<{ secret: string }>('webhook', 201, call(base, 'POST', '/api/v1/webhooks', { headers: h, body: { url: rx.url, events: ['driver.status_changed'] } }));
    const drivers = await inBatches(100, 10, (i) =>
      expectStatus<{ id: string }>('driver', 201, call(base, 'POST', '/api/v1/drivers', { headers: h, body: { firstName: 'Hook', lastName: `Driver${i}`, licenseNumber: `HOOK${i}`, licenseState: 'TX' } })),
    );
    // Status changes, each a driver.status_changed event, with no worker running: they wait in the outbox.
    const perDriver = Math.ceil(WEBHOOK_EVENTS / drivers.length);
    await inBatches(drivers.length, 20, async (i) => {
      for (let k = 0; k < perDriver && i * perDriver + k < WEBHOOK_EVENTS; k++) {
        await expectStatus('status change', 200, call(base, 'POST', `/api/v1/drivers/${drivers[i]!.id}/${k % 2 === 0 ? 'deactivate' : 'reactivate'}`, { headers: h }));
      }
    });
    const expected = Math.min(WEBHOOK_EVENTS, drivers.length * perDriver);
    // The worker process: dispatch, fan-out and delivery of all of them.
    worker = spawn(process.execPath, [...NODE_FLAGS, ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []), path.join(buildDir, 'src', 'main.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env, PROCESS_ROLES: 'worker', PORT: '0' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + WAIT_MS;
    while (rx.arrivals.length < expected) {
      if (Date.now() > deadline) throw new Error(`webhooks: ${rx.arrivals.length} of ${expected} delivered after ${WAIT_MS / 1000} s`);
      if (worker.exitCode !== null) throw new Error(`the worker process exited (${worker.exitCode})`);
      await sleep(50);
    }
    const appArrivals = rx.arrivals.splice(0);
    if (CPU_PROF) {
      // Stopped as a service is (SIGTERM), so that V8 writes its profile.
      const ended = new Promise((r) => worker!.once('exit', r));
      worker.kill('SIGTERM');
      await ended;
    }
    const appSeconds = (appArrivals[appArrivals.length - 1]!.at - appArrivals[0]!.at) / 1000;
    let signaturesChecked = 0;
    for (const a of appArrivals.filter((_, i) => i % 50 === 0)) {
      const ts = Number(a.headers['x-service-timestamp']);
      if (a.headers['x-service-signature'] !== createHmac('sha256', hook.secret).update(`${ts}.${a.body}`).digest('hex')) throw new Error('webhooks: a bad signature');
      signaturesChecked++;
    }
    const uniqueDeliveries = new Set(appArrivals.map((a) => a.delivery)).size;

    // The baseline: the same number of signed POSTs to the same receiver, no database.
    const sender = spawn(process.execPath, [path.join(buildDir, 'bench', 'servers', 'webhook-sender.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BENCH_TARGET: rx.url, BENCH_COUNT: String(expected), BENCH_CONCURRENCY: '32' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    sender.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    await new Promise((r) => sender.once('exit', r));
    const baselineArrivals = rx.arrivals.splice(0);
    if (baselineArrivals.length !== expected) throw new Error(`baseline: ${baselineArrivals.length} of ${expected} arrived (${out})`);
    const baselineSeconds = (baselineArrivals[baselineArrivals.length - 1]!.at - baselineArrivals[0]!.at) / 1000;
    return { events: expected, appPerSecond: (expected - 1) / appSeconds, baselinePerSecond: (expected - 1) / baselineSeconds, uniqueDeliveries, signaturesChecked };
  } finally {
    worker?.kill('SIGKILL');
    await app?.stop();
    await rx.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

/** Prints the figures; a missed target is printed loudly but is not a failure of the run. */
export function printFanout(f: FanoutFigures): void {
  const met = f.created.p99 < FANOUT_TARGET_P99_MS;
  console.log(`\n== Fan-out (${f.database}): ${f.tenants} tenants × ${STREAMS} SSE streams = ${f.streams} streams, one app process`);
  console.log(`  alert createdAt → SSE 'alert' received:        p50 ${fmt(f.created.p50)} ms, p99 ${fmt(f.created.p99)} ms, max ${fmt(f.created.max)} ms (${f.created.samples} samples, ${ROUNDS} rounds after a warm-up round)`);
  console.log(`  the warm-up round (the process's first alerts, not counted): p50 ${fmt(f.coldCreated.p50)} ms, p99 ${fmt(f.coldCreated.p99)} ms`);
  console.log(`  alert resolvedAt → 'alert_resolved' received:   p50 ${fmt(f.resolved.p50)} ms, p99 ${fmt(f.resolved.p99)} ms, max ${fmt(f.resolved.max)} ms (${f.resolved.samples} samples)`);
  if (f.passes) console.log(`  monitoring passes that checked routes in the measured rounds: ${f.passes.count}, mean ${fmt(f.passes.meanMs, 1)} ms each (part of createdAt → received: an alert's createdAt is its pass's start)`);
  console.log(`  app RSS: ${fmt(f.rssBeforeMiB)} MiB before the streams, ${fmt(f.rssWithStreamsMiB)} MiB with ${f.streams} open`);
  console.log(`  target: p99 alert → SSE under ${FANOUT_TARGET_P99_MS} ms: ${met ? 'met' : 'NOT met  <<<'}`);
}

/** Prints the figures; false when a delivery id repeated (a failure, unlike a missed target). */
export function printWebhooks(w: WebhookFigures): boolean {
  const met = w.appPerSecond >= WEBHOOK_TARGET_PER_SECOND;
  console.log(`\n== Webhooks (PostgreSQL): ${w.events} events dispatched and delivered by one worker process to a local receiver`);
  console.log(`  app: ${fmt(w.appPerSecond)} deliveries/s; baseline (signed POSTs, no database): ${fmt(w.baselinePerSecond)}/s; ratio ${fmt(w.appPerSecond / w.baselinePerSecond, 2)}`);
  console.log(`  ${w.uniqueDeliveries} distinct delivery ids for ${w.events} events; ${w.signaturesChecked} signatures checked`);
  console.log(`  target: ≥ ${WEBHOOK_TARGET_PER_SECOND} deliveries/s: ${met ? 'met' : 'NOT met  <<<'}`);
  return w.uniqueDeliveries === w.events;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  const runDir = path.join(ROOT, '.bench', `events-${process.pid}`);
  const buildDir = path.join(runDir, 'build');
  fs.mkdirSync(runDir, { recursive: true });
  let ok = true;
  try {
    console.log(`compiling … ${fmt(compileServers(ROOT, buildDir), 1)} s`);
    const dbs: [string, Record<string, string>][] = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',').flatMap((d): [string, Record<string, string>][] => {
      if (d === 'pglite') return [['PGlite (in memory)', { DATABASE_URL: 'memory://', DATA_DIR: path.join(runDir, 'data') }]];
      if (d === 'postgres' && pgUrl) return [['PostgreSQL', { DATABASE_URL: pgUrl, DATABASE_SCHEMA: `bench_fan_${randomBytes(4).toString('hex')}`, DATA_DIR: path.join(runDir, 'data') }]];
      return [];
    });
    for (const [name, env] of dbs) {
      printFanout(await benchFanout(buildDir, env, name));
      if (env.DATABASE_SCHEMA) {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${env.DATABASE_SCHEMA}" CASCADE`);
        await client.end();
      }
    }
    if (pgUrl) ok = printWebhooks(await benchWebhooks(buildDir, pgUrl)) && ok;
    else console.log('\nWebhooks: not run (needs PostgreSQL)');
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
  process.exit(ok ? 0 : 1);
}
