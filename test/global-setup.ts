/**
 * Before the suites: makes the migrated database cluster every PGlite test database starts from (kept
 * between runs), and builds the dashboard (web/dist) when the browser tests will run and the build is
 * missing or older than its sources, so `npm run test:all` on a fresh clone needs no separate step.
 */
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { buildDashboard, dashboardUpToDate } from '../scripts/build.js';

const CACHE_DIR = path.resolve(import.meta.dirname, '../node_modules/.cache/fleet-test');

/**
 * One migrated in-memory cluster for the whole run (test/helpers/db.ts opens every PGlite test database
 * from it), found by the test workers through FLEET_TEST_PGLITE_CLUSTER. It is kept between runs in
 * node_modules/.cache/fleet-test, named by a hash of the migrations and the PGlite version, so that a run
 * (one small file, say) migrates nothing unless a migration or PGlite changed.
 */
async function migratedCluster(): Promise<void> {
  const { MIGRATIONS } = await import('../src/db/migrate.js');
  const pglite = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
  const key = createHash('sha256').update(JSON.stringify({ pglite, migrations: MIGRATIONS })).digest('hex').slice(0, 16);
  const file = path.join(CACHE_DIR, `pglite-cluster-${key}.tar.gz`);
  if (!fs.existsSync(file)) {
    const { openDatabase, snapshotPglite } = await import('../src/db/client.js');
    const { migrate } = await import('../src/db/migrate.js');
    const db = await openDatabase({ url: 'memory://' });
    await migrate(db);
    const snapshot = await snapshotPglite(db);
    await db.close();
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed: a run beside this one never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, snapshot);
    fs.renameSync(partial, file);
    for (const old of fs.readdirSync(CACHE_DIR)) {
      if (old.startsWith('pglite-cluster-') && old !== path.basename(file) && !old.endsWith('.partial')) fs.rmSync(path.join(CACHE_DIR, old), { force: true });
    }
  }
  process.env.FLEET_TEST_PGLITE_CLUSTER = file;
}

/** Called once per test project (vitest.config.ts): the dashboard is built only for the one with the browser suites. */
export default async function setup(project?: { name?: string }): Promise<void> {
  await migratedCluster();
  if (project?.name !== 'quick') await buildDashboardIfChanged();
}

async function buildDashboardIfChanged(): Promise<void> {
  if (process.env.SKIP_BROWSER_TESTS === '1' || dashboardUpToDate()) return;
  await buildDashboard();
}
