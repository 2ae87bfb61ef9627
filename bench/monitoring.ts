/**
 * Monitoring benchmark (DESIGN §6): wall time of one check pass over 10,000 ACTIVE routes on PostgreSQL,
 * with one worker and with two worker processes sharing the work (FOR UPDATE SKIP LOCKED).
 *
 * The fleet: `BENCH_MONITOR_TENANTS` tenants (default 10), each with a few routes planned and activated
 * through the public API (the real plan, activation and position paths), then cloned in SQL to
 * `BENCH_MONITOR_ROUTES` routes in all (default 10,000): each clone has its own driver, plan, duty-status
 * log (on duty, driving), 12 positions along its plan, and one in ten a last position ~35 miles off the
 * path, so the first pass raises ~1,000 ROUTE_DEVIATION alerts with their outbox events (the cold pass)
 * and the next pass finds them open (the steady pass). Every route is due at the same instant.
 *
 *   npx tsx bench/monitoring.ts              (needs BENCH_DATABASE_URL or TEST_DATABASE_URL)
 *
 * Also run by `npm run bench` after the HTTP rows.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/db/types.js';
import { evaluateAlerts, reconcile } from '../src/domain/alerts/index.js';
import { dbMonitoringSources } from '../src/modules/monitoring/monitoring.sources.db.js';
import { DEFAULT_MONITORING_OPTIONS, MonitoringWorker } from '../src/modules/monitoring/monitoring.worker.js';
import { buildTestApp } from '../test/helpers/app.js';
import { FakeClock } from '../test/helpers/clock.js';
import { createActiveRoute, createApiKey, createTenant } from '../test/helpers/factories.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const intEnv = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  return Number.isInteger(v) && v > 0 ? v : dflt;
};

export const MONITOR_TARGET_SECONDS = 5;
const ROUTES = intEnv('BENCH_MONITOR_ROUTES', 10_000);
const TENANTS = intEnv('BENCH_MONITOR_TENANTS', 10);
const SEED_ROUTES_PER_TENANT = 4;
const OPTIONS = { ...DEFAULT_MONITORING_OPTIONS, defaultIntervalSeconds: 60 };

export interface MonitoringFigures {
  routes: number;
  tenants: number;
  alertsRaised: number;
  coldSeconds: number;
  steadySeconds: number;
  twoWorkersSeconds: number;
  twoWorkersSplit: [number, number];
  checkedTwice: number;
  postgres: string;
}

const SEED_TRIPS = [
  [
    { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
    { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 },
  ],
  [
    { name: 'Chicago, IL', latitude: 41.8781, longitude: -87.6298, type: 'ORIGIN' },
    { name: 'Indianapolis, IN', latitude: 39.7684, longitude: -86.1581, type: 'PICKUP', dockDurationHours: 1 },
    { name: 'Columbus, OH', latitude: 39.9612, longitude: -82.9988, type: 'DELIVERY', dockDurationHours: 1 },
  ],
  [
    { name: 'Atlanta, GA', latitude: 33.749, longitude: -84.388, type: 'ORIGIN' },
    { name: 'Nashville, TN', latitude: 36.1627, longitude: -86.7816, type: 'DELIVERY', dockDurationHours: 1 },
  ],
  [
    { name: 'Denver, CO', latitude: 39.7392, longitude: -104.9903, type: 'ORIGIN' },
    { name: 'Salt Lake City, UT', latitude: 40.7608, longitude: -111.891, type: 'DELIVERY', dockDurationHours: 1 },
  ],
];

/** Clones every ACTIVE seed route (and its driver, duty log and positions) until the fleet has `total` routes. */
async function cloneFleet(db: Database, total: number, now: Date): Promise<void> {
  await db.system(async (tx) => {
    const { rows } = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM route_plans WHERE status = 'ACTIVE'");
    const seeds = rows[0]!.n;
    const copies = Math.ceil(total / seeds) - 1;
    // The clones: copy c of seed route r gets driver id <driver>_c and route id <route>_c.
    await tx.query(`CREATE TEMP TABLE clone_map ON COMMIT DROP AS
      SELECT r.tenant_id, r.id AS route_id, r.driver_id, g AS copy, row_number() OVER () AS n
        FROM route_plans r CROSS JOIN generate_series(1, $1::int) g WHERE r.status = 'ACTIVE'`, [copies]);
    await tx.query(`DELETE FROM clone_map WHERE n > $1::int - $2::int`, [total, seeds]);
    await tx.query(`INSERT INTO drivers SELECT (jsonb_populate_record(NULL::drivers, to_jsonb(d) || jsonb_build_object(
        'id', d.id || '_' || m.copy, 'license_number', d.license_number || 'C' || m.copy, 'user_id', NULL))).*
      FROM clone_map m JOIN drivers d ON d.tenant_id = m.tenant_id AND d.id = m.driver_id`);
    await tx.query(`INSERT INTO route_plans SELECT (jsonb_populate_record(NULL::route_plans, to_jsonb(r) || jsonb_build_object(
        'id', r.id || '_' || m.copy, 'driver_id', r.driver_id || '_' || m.copy, 'vehicle_id', NULL, 'load_id', NULL))).*
      FROM clone_map m JOIN route_plans r ON r.tenant_id = m.tenant_id AND r.id = m.route_id`);
    await tx.query(`INSERT INTO duty_status_events SELECT (jsonb_populate_record(NULL::duty_status_events, to_jsonb(e) || jsonb_build_object(
        'id', e.id || '_' || m.copy, 'driver_id', e.driver_id || '_' || m.copy))).*
      FROM clone_map m JOIN duty_status_events e ON e.tenant_id = m.tenant_id AND e.driver_id = m.driver_id`);
    await tx.query(`INSERT INTO route_positions SELECT (jsonb_populate_record(NULL::route_positions, to_jsonb(p) || jsonb_build_object(
        'id', p.id || '_' || m.copy, 'route_id', p.route_id || '_' || m.copy))).*
      FROM clone_map m JOIN route_positions p ON p.tenant_id = m.tenant_id AND p.route_id = m.route_id`);
    // One clone in ten has wandered ~35 miles north of its path in its last report.
    await tx.query(`INSERT INTO route_positions (tenant_id, id, route_id, recorded_at, latitude, longitude, speed_mph)
      SELECT p.tenant_id, p.id || '_off', p.route_id, $1::timestamptz - interval '1 minute', p.latitude + 0.5, p.longitude, 55
        FROM (SELECT DISTINCT ON (p.tenant_id, p.route_id) p.* FROM route_positions p ORDER BY p.tenant_id, p.route_id, p.recorded_at DESC) p
        JOIN clone_map m ON p.route_id = m.route_id || '_' || m.copy WHERE m.n % 10 = 0`, [now]);
    await tx.query(`INSERT INTO route_monitoring (tenant_id, route_id, next_check_at)
      SELECT m.tenant_id, m.route_id || '_' || m.copy, $1 FROM clone_map m`, [now]);
  });
  await db.system((tx) => tx.query('ANALYZE'));
}

/** Runs passes until nothing is due: one check of every route. */
async function drain(worker: MonitoringWorker, now: Date): Promise<{ checked: number; raised: number }> {
  let checked = 0;
  let raised = 0;
  for (;;) {
    const n = await worker.runOnce(now);
    if (n === 0) return { checked, raised };
    checked += worker.lastPass.checked;
    raised += worker.lastPass.raised;
  }
}

function child(url: string, schema: string): ChildProcess {
  return fork(path.join(HERE, 'monitoring-child.ts'), [url, schema], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function once<T>(proc: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    proc.once('message', (m) => resolve(m as T));
    proc.once('exit', (code) => reject(new Error(`monitoring child exited with ${code}`)));
  });
}

export async function benchMonitoring(url: string): Promise<MonitoringFigures> {
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const start = new Date(Date.UTC(2026, 2, 2, 12, 0, 0));
  const clock = new FakeClock(start);
  const t = await buildTestApp('postgres', { clock });
  const procs: ChildProcess[] = [];
  try {
    // The seed routes, through the public API: planned and activated 2 hours ago (the clock only moves
    // forward: the rate limiter keeps time), on the road since, 12 positions each.
    const departure = new Date(start.getTime() - 2 * 3_600_000);
    clock.set(departure);
    const seeded: { auth: Record<string, string>; routeId: string; drive: { from: { latitude: number; longitude: number }; to: { latitude: number; longitude: number } } }[] = [];
    for (let i = 0; i < TENANTS; i++) {
      const tenant = await createTenant(t.app, { name: `Monitored Fleet ${i + 1}` });
      const byKey = { 'x-api-key': (await createApiKey(t.app, tenant)).key };
      for (let j = 0; j < SEED_ROUTES_PER_TENANT; j++) {
        const { routeId, driverId, plan } = await createActiveRoute(t.app, tenant.auth, { departureTime: departure.toISOString(), stops: SEED_TRIPS[j % SEED_TRIPS.length] });
        await t.app.inject({ method: 'POST', url: `/api/v1/drivers/${driverId}/duty-status`, headers: tenant.auth, payload: { status: 'ON_DUTY_DRIVING', at: departure.toISOString() } });
        const drive = plan.segments.find((s) => s.type === 'drive') as unknown as (typeof seeded)[number]['drive'];
        seeded.push({ auth: byKey, routeId, drive });
      }
    }
    clock.set(start);
    for (const { auth, routeId, drive } of seeded) {
      for (let k = 0; k < 12; k++) {
        const f = (k + 1) / 40;
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/routes/${routeId}/positions`,
          headers: auth,
          payload: {
            latitude: drive.from.latitude + (drive.to.latitude - drive.from.latitude) * f,
            longitude: drive.from.longitude + (drive.to.longitude - drive.from.longitude) * f,
            speedMph: 58,
            recordedAt: new Date(departure.getTime() + (k + 1) * 9 * 60_000).toISOString(),
          },
        });
        if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`position: ${res.statusCode} ${res.body}`);
      }
    }
    await cloneFleet(t.db, ROUTES, start);
    const { rows } = await t.db.system((tx) => tx.query<{ n: number; s: string; v: string }>('SELECT count(*)::int AS n, current_schema() AS s, version() AS v FROM route_monitoring'));
    const routes = rows[0]!.n;
    const schema = rows[0]!.s;
    await t.db.system((tx) => tx.query('UPDATE route_monitoring SET next_check_at = $1, locked_by = NULL, locked_until = NULL', [start]));

    const worker = new MonitoringWorker(t.db, { evaluate: evaluateAlerts, reconcile }, dbMonitoringSources(t.db), OPTIONS);
    let t0 = performance.now();
    const cold = await drain(worker, start);
    const coldSeconds = (performance.now() - t0) / 1000;
    if (cold.checked !== routes) throw new Error(`cold pass checked ${cold.checked} of ${routes} routes`);

    const second = new Date(start.getTime() + 60_000);
    t0 = performance.now();
    const steady = await drain(worker, second);
    const steadySeconds = (performance.now() - t0) / 1000;
    if (steady.checked !== routes) throw new Error(`steady pass checked ${steady.checked} of ${routes} routes`);

    // Two worker processes, each with its own pool, share the third interval's pass.
    const third = new Date(start.getTime() + 120_000);
    procs.push(child(url, schema), child(url, schema));
    await Promise.all(procs.map((p) => once<{ ready: true }>(p)));
    t0 = performance.now();
    const results = procs.map((p) => once<{ checked: number }>(p));
    for (const p of procs) p.send({ now: third.toISOString() });
    const split = (await Promise.all(results)).map((r) => r.checked) as [number, number];
    const twoWorkersSeconds = (performance.now() - t0) / 1000;
    const { rows: counted } = await t.db.system((tx) =>
      tx.query<{ twice: number; total: number }>('SELECT count(*) FILTER (WHERE checks <> 3)::int AS twice, count(*)::int AS total FROM route_monitoring'),
    );
    return {
      routes,
      tenants: TENANTS,
      alertsRaised: cold.raised,
      coldSeconds,
      steadySeconds,
      twoWorkersSeconds,
      twoWorkersSplit: split,
      checkedTwice: counted[0]!.twice,
      postgres: rows[0]!.v.split(' ').slice(0, 2).join(' '),
    };
  } finally {
    for (const p of procs) p.kill();
    await t.close();
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  }
}

/** Prints the figures; false when a route was checked other than once per interval (a failure, unlike a missed target). */
export function printMonitoring(f: MonitoringFigures): boolean {
  const met = f.coldSeconds < MONITOR_TARGET_SECONDS && f.steadySeconds < MONITOR_TARGET_SECONDS;
  console.log(`\n== Monitoring (${f.postgres}, ${os.cpus().length} cores): one check pass over ${f.routes.toLocaleString('en-US')} ACTIVE routes of ${f.tenants} tenants`);
  console.log(`  one worker, first pass (raises ${f.alertsRaised} ROUTE_DEVIATION alerts + outbox events): ${f.coldSeconds.toFixed(2)} s`);
  console.log(`  one worker, next pass (alerts already open):                     ${f.steadySeconds.toFixed(2)} s`);
  console.log(`  two worker processes side by side:                                ${f.twoWorkersSeconds.toFixed(2)} s (split ${f.twoWorkersSplit.join(' / ')}; routes checked other than once per interval: ${f.checkedTwice})`);
  console.log(`  target: a pass under ${MONITOR_TARGET_SECONDS} s with one worker on PostgreSQL: ${met ? 'met' : 'NOT met  <<<'}`);
  return f.checkedTwice === 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL database');
  const ok = printMonitoring(await benchMonitoring(url));
  process.exit(ok ? 0 : 1);
}

