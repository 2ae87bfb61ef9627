/**
 * Before the suites: makes the migrated database cluster every PGlite test database starts from, and
 * builds the dashboard (web/dist) when the browser tests will run and the build is missing or older than
 * its sources, so `npm test` on a fresh clone needs no separate step.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WEB = path.resolve(import.meta.dirname, '../web');

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

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
  await buildDashboard();
  return teardown;
}

async function buildDashboard(): Promise<void> {
  if (process.env.SKIP_BROWSER_TESTS === '1') return;
  const index = path.join(WEB, 'dist', 'index.html');
  const sources = Math.max(newestMtime(path.join(WEB, 'src')), newestMtime(path.join(WEB, 'index.html')), newestMtime(path.join(WEB, 'vite.config.ts')));
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= sources) return;
  const { build } = await import('vite');
  // Vitest runs with NODE_ENV=test, which would give React's development build: build what npm start serves.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: WEB, configFile: path.join(WEB, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
