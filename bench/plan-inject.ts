/**
 * CPU per `POST /api/v1/routes/plan` in process, through `app.inject` (no HTTP, no other server on the
 * cores): the bench's plan request, 4 in flight, 3 rounds of N plans after 300 to warm up, on PostgreSQL
 * (TEST_DATABASE_URL) or PGlite (KIND=pglite). For comparing two versions of the code quickly: run it in
 * each checkout, alternating, with the service's V8 flags:
 *
 *   N=1500 node --max-semi-space-size=8 --heap-growing-percent=50 --import tsx bench/plan-inject.ts
 */
import { buildTestApp } from '../test/helpers/app.js';
import { createDriver, createTenant } from '../test/helpers/factories.js';
import { planBody } from '../bench/lib/seed.js';
const kind = (process.env.KIND ?? 'postgres') as 'postgres' | 'pglite';
const t = await buildTestApp(kind, { realClock: true });
const tenant = await createTenant(t.app);
const driver = await createDriver(t.app, tenant.auth);
const payload = planBody(driver.id);
const one = async () => { const r = await t.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: { ...tenant.auth, 'content-type': 'application/json' }, payload }); if (r.statusCode !== 201) throw new Error(r.body); };
for (let i = 0; i < 300; i++) await one();
const N = Number(process.env.N ?? 1500);
const out: number[] = [];
for (let round = 0; round < 3; round++) {
  const c0 = process.cpuUsage();
  // 4 in flight, like the bench
  let next = 0;
  await Promise.all([0, 1, 2, 3].map(async () => { while (next++ < N) await one(); }));
  const c = process.cpuUsage(c0);
  out.push((c.user + c.system) / N);
}
console.log(JSON.stringify({ kind, usPerPlan: out.map((x) => Math.round(x)) }));
await t.close();
process.exit(0);
