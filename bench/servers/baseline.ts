/**
 * Benchmark baseline 2: "the least code that does the same work" as GET /api/v1/drivers. One route,
 * no auth, no rate limit, no schemas, no service layers; but the same database work as the app:
 * a transaction that switches to the application role and sets the tenant (so row-level security
 * applies exactly as in src/db/client.ts), the same page query (same columns, order and window count)
 * and a JSON body of the same shape. The app's throughput divided by this one is the cost of
 * everything the app adds around that work.
 *
 * Env: PORT (required), HOST, BENCH_TENANT_ID (required); DATABASE_URL (postgres://…) plus optional
 * DATABASE_SCHEMA, or BENCH_PGLITE_DIR: the on-disk PGlite cluster the app wrote.
 */
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import pg from 'pg';
import { listenAndServe } from './serve.js';

const tenantId = process.env.BENCH_TENANT_ID ?? '';
// Interpolated into the preamble below, as client.ts does, so it must be a well-formed tenant id.
if (!/^tnt_[0-9A-Za-z]{22}$/.test(tenantId)) throw new Error('BENCH_TENANT_ID must be a tenant id');
const PREAMBLE = `SET LOCAL ROLE fleet_app; SELECT set_config('app.tenant_id', '${tenantId}', true)`;

// The repository's statement for page 1 of 20, with the columns aliased to the API's names so no
// mapping code is needed.
const PAGE_SQL = `SELECT id, first_name AS "firstName", last_name AS "lastName", license_number AS "licenseNumber",
       license_state AS "licenseState", truck_number AS "truckNumber", status,
       current_hours_driven AS "currentHoursDriven", current_on_duty_time AS "currentOnDutyTime",
       count(*) OVER () AS total
  FROM drivers WHERE tenant_id = $1
 ORDER BY last_name, first_name, id
 LIMIT 20 OFFSET 0`;

type Row = Record<string, unknown> & { total: unknown };
let queryPage: () => Promise<Row[]>;
let closeDb: () => Promise<void>;

const url = process.env.DATABASE_URL;
if (url && /^postgres(ql)?:\/\//.test(url)) {
  const schema = process.env.DATABASE_SCHEMA;
  // Same pool size and search_path mechanism as the app's default.
  const pool = new pg.Pool({ connectionString: url, max: 10, options: schema ? `-c search_path=${schema}` : undefined });
  queryPage = async () => {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN; ${PREAMBLE}`);
      const { rows } = await client.query<Row>(PAGE_SQL, [tenantId]);
      await client.query('COMMIT');
      return rows;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };
  closeDb = () => pool.end();
} else {
  const dataDir = process.env.BENCH_PGLITE_DIR;
  if (!dataDir) throw new Error('set DATABASE_URL (PostgreSQL) or BENCH_PGLITE_DIR (PGlite)');
  const db = new PGlite(dataDir);
  await db.waitReady;
  queryPage = () =>
    db.transaction(async (tx) => {
      await tx.exec(PREAMBLE);
      return (await tx.query<Row>(PAGE_SQL, [tenantId])).rows;
    });
  closeDb = () => db.close();
}

const app = Fastify({ logger: false });
app.get('/api/v1/drivers', async () => {
  const rows = await queryPage();
  const total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  return { data: rows.map(({ total: _, ...driver }) => driver), total, page: 1, pageSize: 20 };
});

await listenAndServe(app, closeDb);
