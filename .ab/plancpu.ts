// In-process A/B: CPU per POST /routes/plan through app.inject on PostgreSQL (or PGlite).
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
