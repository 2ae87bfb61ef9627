/**
 * Before the suites: makes the migrated database cluster every PGlite test database starts from, and
 * builds the dashboard (web/dist) when the browser tests will run and the build is missing or older than
 * its sources, so `npm test` on a fresh clone needs no separate step.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDashboard, dashboardUpToDate } from '../scripts/build.js';

/**
 * One migrated in-memory cluster for the whole run (test/helpers/db.ts opens every PGlite test database
 * from it), written to a temporary file that the test workers find through FLEET_TEST_PGLITE_CLUSTER.
 */
async function migratedCluster(): Promise<() => void> {
  const { openDatabase, snapshotPglite } = await import('../src/db/client.js');
  const { migrate } = await import('../src/db/migrate.js');
  const db = await openDatabase({ url: 'memory://' });
  await migrate(db);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-cluster-'));
  const file = path.join(dir, 'migrated.tar.gz');
  fs.writeFileSync(file, await snapshotPglite(db));
  await db.close();
  process.env.FLEET_TEST_PGLITE_CLUSTER = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

export default async function setup(): Promise<() => void> {
  const teardown = await migratedCluster();
  await buildDashboardIfChanged();
  return teardown;
}

async function buildDashboardIfChanged(): Promise<void> {
  if (process.env.SKIP_BROWSER_TESTS === '1' || dashboardUpToDate()) return;
  await buildDashboard();
}
