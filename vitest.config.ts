import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two tiers. `npm test` runs the `quick` project: every unit, integration and API suite on the embedded
 * database (and on PostgreSQL and Redis too when TEST_DATABASE_URL / TEST_REDIS_URL are set), a couple of
 * minutes on a 2-core machine. `npm run test:all` (and CI) runs both projects: `full` adds what takes long
 * or needs more than Node — listed here, each with why (CONTRIBUTING.md, "Test tiers").
 */
export const FULL_ONLY = [
  // The dashboard in Chromium (playwright-core): ~200 s of the run.
  'test/browser/**/*.test.ts',
  // Real processes: npm scripts, api and worker processes, restarts behind HAProxy, migrations, Redis outages.
  '**/*.e2e.test.ts',
  // A webhook worker process killed mid-delivery (PostgreSQL).
  'test/e2e/webhooks-kill.test.ts',
  // Generated garbage to every route (~20 s per database kind).
  'test/e2e/fuzz.test.ts',
  // Every vendor against its sandbox with a canary credential, retries spent with their real back-off (~12 s per kind).
  'src/modules/integrations/integrations.canary.int.test.ts',
  // PGlite clusters made in child processes and on disk (~16 s).
  'src/db/client.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // One worker per core (vitest's default leaves one core to itself: on 2 cores that is one worker, and
    // `npm test` took 4 min 7 s here instead of 3 min 0 s). Most files wait on a database or a socket part
    // of the time, so the second worker pays for itself. CI sets its own (--maxWorkers in .ci/run).
    maxWorkers: availableParallelism(),
    // Test files share their worker processes (modules are loaded once per worker, not once per file: a
    // run takes half the time). Every file closes what it opens (apps, databases, servers, timers).
    isolate: false,
    projects: [
      { extends: true, test: { name: 'quick', include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'], exclude: [...configDefaults.exclude, ...FULL_ONLY] } },
      { extends: true, test: { name: 'full', include: FULL_ONLY } },
    ],
  },
});
