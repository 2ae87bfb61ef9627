import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Test files share their worker processes (modules are loaded once per worker, not once per file: a
    // run takes half the time). Every file closes what it opens (apps, databases, servers, timers).
    isolate: false,
  },
});
