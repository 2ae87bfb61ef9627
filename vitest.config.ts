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
  },
});
