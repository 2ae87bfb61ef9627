/**
 * What PostgreSQL does for one `POST /api/v1/routes/plan` (or, with ROW=drivers, one driver-list page): the bench's plan request through `app.inject`
 * (no HTTP), 4 in flight, N plans after 300 to warm up, then per plan the service's CPU, the CPU of the
 * test database's PostgreSQL backends (/proc: PostgreSQL runs on this machine) and, statement by
 * statement, what `pg_stat_statements` counted (calls per plan, execution ms, planning ms, shared blocks
 * hit/dirtied/written, WAL bytes). Needs `shared_preload_libraries = 'pg_stat_statements'` on the server
 * (bench/README.md says how); without it the statement table is left out.
 *
 *   N=2000 FROM_LOG=1 node --max-semi-space-size=8 --heap-growing-percent=50 --import tsx bench/plan-statements.ts
 */
import pg from 'pg';
import { buildTestApp } from '../test/helpers/app.js';
import { createDriver, createTenant } from '../test/helpers/factories.js';
import { planBody } from './lib/seed.js';
import { cpuSecondsOf } from './lib/processes.js';

const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('TEST_DATABASE_URL is needed (PostgreSQL)');
const N = Number(process.env.N ?? 2000);
const fromLog = process.env.FROM_LOG === '1';

const t = await buildTestApp('postgres', { realClock: true });
const tenant = await createTenant(t.app);
const driver = await createDriver(t.app, tenant.auth);
// ROW=drivers: the driver list's page 1 of 20 of 200 drivers (the bench's read row) instead of a plan.
const drivers = process.env.ROW === 'drivers';
if (drivers || process.env.DRIVERS_200 === '1') for (let i = 1; i < 200; i++) await createDriver(t.app, tenant.auth);
const payload = planBody(driver.id, { fromLog });
const one = async () => {
  const r = drivers
    ? await t.app.inject({ method: 'GET', url: '/api/v1/drivers?page=1&pageSize=20', headers: tenant.auth })
    : await t.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: { ...tenant.auth, 'content-type': 'application/json' }, payload });
  if (r.statusCode !== (drivers ? 200 : 201)) throw new Error(r.body);
};
for (let i = 0; i < 300; i++) await one();

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const { rows: ext } = await admin.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'`);
const statements = ext.length > 0 && (await admin.query(`SHOW shared_preload_libraries`)).rows[0].shared_preload_libraries.includes('pg_stat_statements');
const backends = async () => {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return new Map(rows.map((r) => [r.pid, cpuSecondsOf(r.pid) ?? 0]));
};

if (statements) await admin.query('SELECT pg_stat_statements_reset()');
const b0 = await backends();
const c0 = process.cpuUsage();
let next = 0;
await Promise.all([0, 1, 2, 3].map(async () => { while (next++ < N) await one(); }));
const c = process.cpuUsage(c0);
const b1 = await backends();
let db = 0;
for (const [pid, s] of b1) db += s - (b0.get(pid) ?? 0);
console.log(JSON.stringify({ row: drivers ? 'drivers' : 'plan', fromLog, requests: N, serviceUsPerPlan: Math.round((c.user + c.system) / N), postgresUsPerPlan: Math.round((db * 1e6) / N) }));

if (statements) {
  const { rows } = await admin.query<Record<string, string | number>>(
    `SELECT calls, total_exec_time, total_plan_time, shared_blks_hit, shared_blks_dirtied, shared_blks_written, wal_bytes, query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time + total_plan_time DESC LIMIT 15`,
  );
  const per = (v: string | number | undefined) => Number(v) / N;
  for (const r of rows) {
    console.log(
      [
        `calls/plan ${per(r.calls).toFixed(2)}`,
        `exec µs/plan ${(per(r.total_exec_time) * 1000).toFixed(0)}`,
        `plan µs/plan ${(per(r.total_plan_time) * 1000).toFixed(0)}`,
        `hit ${per(r.shared_blks_hit).toFixed(1)}`,
        `dirtied ${per(r.shared_blks_dirtied).toFixed(2)}`,
        `WAL B ${per(r.wal_bytes).toFixed(0)}`,
        String(r.query).replace(/\s+/g, ' ').slice(0, 140),
      ].join(' | '),
    );
  }
}
// EXPLAIN=1: the plan of every statement one more plan request runs, with its buffers (the statements
// captured as the service sends them, then explained in a transaction of the same tenant).
if (process.env.EXPLAIN === '1') {
  const captured: { sql: string; params?: unknown[] }[] = [];
  const tenantFn = t.db.tenant.bind(t.db);
  t.db.tenant = (tenantId, fn) => tenantFn(tenantId, (tx) => fn(new Proxy(tx, { get: (target, key) => key === 'query' ? (sql: string, params?: unknown[]) => { captured.push({ sql, params }); return target.query(sql, params); } : Reflect.get(target, key) })));
  await one();
  t.db.tenant = tenantFn;
  const literal = (v: unknown): string =>
    v === null || v === undefined ? 'NULL' : typeof v === 'boolean' || typeof v === 'number' ? String(v) : v instanceof Date ? `'${v.toISOString()}'` : Array.isArray(v) ? `'{${v.join(',')}}'` : `'${String(v).replace(/'/g, "''")}'`;
  for (const c of captured) {
    if (/^\s*WITH/i.test(c.sql)) {
      // A write: explained (triggers, WAL) in a transaction rolled back, so it leaves nothing.
      const text = await tenantFn(tenant.tenantId, async (tx) => {
        const out = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, WAL) ${c.sql}`, c.params);
        throw Object.assign(new Error('rollback'), { out });
      }).catch((e: { out?: { rows: { 'QUERY PLAN': string }[] } }) => e.out?.rows.map((r) => r['QUERY PLAN']).join('\n') ?? String(e));
      console.log(`\n${c.sql.replace(/\s+/g, ' ').slice(0, 100)}…\n${text}`);
      continue;
    }
    if (!/^\s*SELECT/i.test(c.sql)) continue;
    // As a named statement runs after its first executions with plan_cache_mode auto or force_generic_plan (GENERIC=1).
    const { rows } = await tenantFn(tenant.tenantId, async (tx) => {
      if (process.env.GENERIC === '1') await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.query(`PREPARE explained AS ${c.sql}`);
      const out = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE explained (${(c.params ?? []).map(literal).join(', ')})`);
      await tx.query('DEALLOCATE explained');
      return out;
    });
    console.log(`\n${c.sql.replace(/\s+/g, ' ').slice(0, 100)}…\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
}
await admin.end();
await t.close();
process.exit(0);
