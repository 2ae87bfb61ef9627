/**
 * Dispatch benchmark (issue 19): how long a dispatcher waits for
 *  - the candidates for one load across a fleet of `BENCH_DISPATCH_DRIVERS` drivers (default 100; target
 *    under 1 s): POST /api/v1/dispatch/candidates, every driver's trip planned by the HOS planner;
 *  - a re-plan of an ACTIVE route end to end: POST /api/v1/routes/{id}/replan, as a preview and applied
 *    (the old plan stored as a revision, the event, monitoring rescheduled).
 *
 * The app runs in this process (the same Fastify app, PGlite in memory or PostgreSQL), requests go through
 * `app.inject` (no socket: the figure is the server's time to answer), with an API key and with a bearer
 * token. The fleet is seeded through the public API: each driver drove a route and reported a position
 * (their start), logged duty status (their clocks); one driver in five is on an ACTIVE route (they start
 * where it ends). The load: Dallas, TX → Memphis, TN with a delivery window.
 *
 *   npx tsx bench/dispatch.ts            (PGlite; and PostgreSQL with BENCH_DATABASE_URL or TEST_DATABASE_URL)
 *
 * Also run by `npm run bench` (section `dispatch`).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InjectOptions } from 'fastify';
import { buildTestApp, type TestApp } from '../test/helpers/app.js';
import { FakeClock } from '../test/helpers/clock.js';
import { createApiKey, createTenant, login } from '../test/helpers/factories.js';

const intEnv = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  return Number.isInteger(v) && v > 0 ? v : dflt;
};
const DRIVERS = intEnv('BENCH_DISPATCH_DRIVERS', 100);
const SAMPLES = intEnv('BENCH_DISPATCH_SAMPLES', 15);
export const CANDIDATES_TARGET_MS = 1000;

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 4, 4, 13, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
/** Where the drivers are: spread over the south and middle of the country. */
const PLACES = [
  { name: 'Fort Worth, TX', latitude: 32.7555, longitude: -97.3308 },
  { name: 'Houston, TX', latitude: 29.7604, longitude: -95.3698 },
  { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164 },
  { name: 'Little Rock, AR', latitude: 34.7465, longitude: -92.2896 },
  { name: 'Shreveport, LA', latitude: 32.5252, longitude: -93.7502 },
  { name: 'Austin, TX', latitude: 30.2672, longitude: -97.7431 },
  { name: 'Tulsa, OK', latitude: 36.154, longitude: -95.9928 },
  { name: 'Jackson, MS', latitude: 32.2988, longitude: -90.1848 },
];
const DALLAS = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 };
const MEMPHIS = { name: 'Memphis, TN', latitude: 35.1495, longitude: -90.049 };

export interface DispatchFigures {
  database: string;
  drivers: number;
  feasible: number;
  candidates: { auth: string; medianMs: number; p95Ms: number; maxMs: number }[];
  replan: { what: string; medianMs: number; p95Ms: number }[];
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

async function timed(t: TestApp, opts: InjectOptions, expectStatus: number): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await t.app.inject(opts);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.statusCode !== expectStatus) throw new Error(`${String(opts.url)} → ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return ms;
}

export async function benchDispatch(kind: 'pglite' | 'postgres', url?: string): Promise<DispatchFigures> {
  const previous = process.env.TEST_DATABASE_URL;
  if (url) process.env.TEST_DATABASE_URL = url;
  const clock = new FakeClock(new Date(NOW - 30 * HOUR));
  const t = await buildTestApp(kind, { clock });
  try {
    const tenant = await createTenant(t.app, { name: 'Dispatch Bench Freight' });
    const key = { 'x-api-key': (await createApiKey(t.app, tenant)).key };
    const call = async (method: 'GET' | 'POST', u: string, payload?: object) => {
      const res = await t.app.inject({ method, url: u, headers: key, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${u} → ${res.statusCode}: ${res.body.slice(0, 300)}`);
      return res.json<Record<string, any>>();
    };
    // The fleet: each driver drove a route to their place 30 h ago and reported a position there.
    const drivers: string[] = [];
    const routes: string[] = [];
    for (let i = 0; i < DRIVERS; i++) {
      const place = PLACES[i % PLACES.length]!;
      const driver = await call('POST', '/api/v1/drivers', { firstName: 'Bench', lastName: `Driver ${i + 1}`, licenseNumber: `DSP${String(i).padStart(6, '0')}`, licenseState: 'TX' });
      drivers.push(driver.id);
      const plan = await call('POST', '/api/v1/routes/plan', {
        driverId: driver.id,
        stops: [
          { ...DALLAS, type: 'ORIGIN' },
          { ...place, latitude: place.latitude + (i % 7) * 0.01, type: 'DELIVERY', dockDurationHours: 1 },
        ],
        driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 20 },
      });
      await call('POST', `/api/v1/routes/${plan.id}/activate`);
      routes.push(plan.id);
    }
    clock.set(new Date(NOW - 20 * HOUR));
    for (const [i, routeId] of routes.entries()) {
      const place = PLACES[i % PLACES.length]!;
      await call('POST', `/api/v1/routes/${routeId}/positions`, { latitude: place.latitude + (i % 7) * 0.01, longitude: place.longitude, fuelLevelPercent: 60 });
      // One in five stays on the road (ACTIVE: they start where it ends); the others completed theirs.
      if (i % 5 !== 0) await call('POST', `/api/v1/routes/${routeId}/complete`);
    }
    // Duty-status logs: rested, then from 0 to 10 h of driving before now.
    clock.set(new Date(NOW - 12 * HOUR));
    for (const id of drivers) await call('POST', `/api/v1/drivers/${id}/duty-status`, { status: 'OFF_DUTY', at: iso(NOW - 12 * HOUR) });
    clock.set(new Date(NOW));
    for (const [i, id] of drivers.entries()) {
      const driven = i % 11;
      if (driven > 0) {
        await call('POST', `/api/v1/drivers/${id}/duty-status`, { status: 'ON_DUTY_DRIVING', at: iso(NOW - (driven + 0.1) * HOUR) });
        await call('POST', `/api/v1/drivers/${id}/duty-status`, { status: 'ON_DUTY_NOT_DRIVING', at: iso(NOW - 0.1 * HOUR) });
      }
    }
    const token = await login(t.app, tenant.email, tenant.password);
    const body = {
      stops: [
        { ...DALLAS, type: 'PICKUP', appointment: { earliest: iso(NOW + 2 * HOUR), latest: iso(NOW + 8 * HOUR) }, dockDurationHours: 1 },
        { ...MEMPHIS, type: 'DELIVERY', appointment: { latest: iso(NOW + 16 * HOUR) }, dockDurationHours: 1 },
      ],
    };
    const first = await call('POST', '/api/v1/dispatch/candidates', body);
    if (first.data.length !== DRIVERS) throw new Error(`expected ${DRIVERS} candidates, got ${first.data.length}`);
    const feasible = (first.data as { feasible: boolean }[]).filter((c) => c.feasible).length;
    const candidates: DispatchFigures['candidates'] = [];
    for (const [auth, headers] of [
      ['API key', key],
      ['bearer', { authorization: `Bearer ${token}` }],
    ] as const) {
      await timed(t, { method: 'POST', url: '/api/v1/dispatch/candidates', headers, payload: body }, 200);
      const samples: number[] = [];
      for (let s = 0; s < SAMPLES; s++) samples.push(await timed(t, { method: 'POST', url: '/api/v1/dispatch/candidates', headers, payload: body }, 200));
      candidates.push({ auth, medianMs: quantile(samples, 0.5), p95Ms: quantile(samples, 0.95), maxMs: Math.max(...samples) });
    }
    // Re-plan: an ACTIVE route (Dallas → Memphis), its truck 120 miles along and 2 h behind plan.
    const active = routes.find((_, i) => i % 5 === 0)!;
    await call('POST', `/api/v1/routes/${active}/complete`);
    const replanDriver = drivers[0]!;
    const plan = await call('POST', '/api/v1/routes/plan', {
      driverId: replanDriver,
      departureTime: iso(NOW - 4 * HOUR),
      stops: [
        { ...DALLAS, type: 'ORIGIN' },
        { name: 'Texarkana, TX', latitude: 33.4251, longitude: -94.0477, type: 'PICKUP', dockDurationHours: 1 },
        { ...MEMPHIS, type: 'DELIVERY', appointment: { latest: iso(NOW + 10 * HOUR) }, dockDurationHours: 1 },
      ],
    });
    await call('POST', `/api/v1/routes/${plan.id}/activate`);
    await call('POST', `/api/v1/routes/${plan.id}/positions`, { latitude: 33.1, longitude: -95.6, fuelLevelPercent: 70 });
    const replan: DispatchFigures['replan'] = [];
    for (const [what, u] of [
      ['preview (?preview=true)', `/api/v1/routes/${plan.id}/replan?preview=true`],
      ['applied (revision stored, event, monitoring)', `/api/v1/routes/${plan.id}/replan`],
    ] as const) {
      await timed(t, { method: 'POST', url: u, headers: key, payload: {} }, 200);
      const samples: number[] = [];
      for (let s = 0; s < SAMPLES; s++) samples.push(await timed(t, { method: 'POST', url: u, headers: key, payload: {} }, 200));
      replan.push({ what, medianMs: quantile(samples, 0.5), p95Ms: quantile(samples, 0.95) });
    }
    return { database: kind === 'pglite' ? 'PGlite (in memory)' : `PostgreSQL (${new URL(url!).host})`, drivers: DRIVERS, feasible, candidates, replan };
  } finally {
    await t.close();
    if (url) {
      if (previous === undefined) delete process.env.TEST_DATABASE_URL;
      else process.env.TEST_DATABASE_URL = previous;
    }
  }
}

export function printDispatch(f: DispatchFigures): boolean {
  const fmt = (n: number) => n.toFixed(1);
  console.log(`\n== Dispatch (${f.database}, node ${process.version}, ${os.cpus().length} cores; app.inject, ${SAMPLES} samples after a warm-up)`);
  for (const c of f.candidates) {
    console.log(`  POST /dispatch/candidates, one load × ${f.drivers} drivers (${f.feasible} feasible), ${c.auth}: median ${fmt(c.medianMs)} ms, p95 ${fmt(c.p95Ms)} ms, max ${fmt(c.maxMs)} ms`);
  }
  for (const r of f.replan) console.log(`  POST /routes/{id}/replan, ${r.what}: median ${fmt(r.medianMs)} ms, p95 ${fmt(r.p95Ms)} ms`);
  const met = f.candidates.every((c) => c.p95Ms < CANDIDATES_TARGET_MS);
  console.log(`  target: candidates for ${f.drivers} drivers under ${CANDIDATES_TARGET_MS} ms (judged on p95): ${met ? 'met' : 'NOT met  <<<'}`);
  return met;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  let ok = printDispatch(await benchDispatch('pglite'));
  if (url) ok = printDispatch(await benchDispatch('postgres', url)) && ok;
  process.exit(ok ? 0 : 1);
}
