import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/types.js';
import { MemoryMailer } from '../../src/infra/mailer.js';
import type { RateLimitStore } from '../../src/infra/rate-limit-store.js';
import type { MonitoringSources } from '../../src/modules/monitoring/monitoring.sources.js';
import type { HostResolver } from '../../src/infra/webhook-http.js';
import { FakeClock } from './clock.js';
import type { IntegrationAdapter } from '../../src/adapters/integrations/port.js';
import { FakeIntegrationAdapter } from './fake-integration-adapter.js';
import { openTestDatabase, type DbKind } from './db.js';
import { recordConformance } from './openapi-conformance.js';

export const ADMIN_EMAIL = 'platform-admin@example.test';
export const ADMIN_PASSWORD = 'platform-admin-password';

export interface TestApp {
  app: App;
  db: Database;
  mailer: MemoryMailer;
  clock: FakeClock;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: FakeClock;
  rateLimits?: RateLimitStore;
  /** Use the system clock instead of a fake one (token expiry then follows real time). */
  realClock?: boolean;
  /**
   * A database another test app already uses (two instances of the service on one database); the
   * caller keeps closing it. Default: a fresh database of `kind`, closed with the app.
   */
  db?: Database;
  /** Fake integration data for monitoring. */
  monitoringSources?: MonitoringSources;
  /** DNS for webhook targets; default: none (a lookup fails the test's request: no network in tests). */
  webhookResolver?: HostResolver;
  /**
   * Integration vendor adapters; default: one fake ELD adapter (vendor `fake_eld`) that passes its test
   * and syncs nothing. 'built-in': the app's own adapters, configured from `env` as in production.
   */
  integrationAdapters?: IntegrationAdapter[] | 'built-in';
  /** Captures the app's logs (set env LOG_LEVEL to see more than the default silence). */
  logStream?: NodeJS.WritableStream;
}

/** The whole app on a fresh database of the given kind, with mail captured in memory. */
export async function buildTestApp(kind: DbKind = 'pglite', opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'memory://',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: 'test-jwt-secret-that-is-long-enough-000000',
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    AUTH_MOCK_LOGIN: 'true',
    PLATFORM_ADMIN_EMAIL: ADMIN_EMAIL,
    PLATFORM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    RATE_LIMIT_USER_PER_HOUR: '1000000',
    RATE_LIMIT_STAGING_PER_HOUR: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_HOUR: '1000000',
    // No dashboard unless a test asks for one (the browser tests point this at web/dist): the same routes
    // answer alike whether or not web/dist was built on this machine.
    WEB_DIST_DIR: path.join(dataDir, 'no-dashboard-build'),
    ...opts.env,
  });
  const db = opts.db ?? (await openTestDatabase(kind));
  const mailer = new MemoryMailer();
  const clock = opts.clock ?? new FakeClock(new Date());
  const app = await buildApp({ config, db, mailer, clock: opts.realClock ? undefined : clock, rateLimits: opts.rateLimits, monitoringSources: opts.monitoringSources, webhookResolver: opts.webhookResolver ?? noDns,
    integrationAdapters: opts.integrationAdapters === 'built-in' ? undefined : (opts.integrationAdapters ?? [new FakeIntegrationAdapter()]),
    logStream: opts.logStream,
  });
  // Every exchange is held to the app's own OpenAPI document (openapi-conformance.ts).
  const conformance = recordConformance(app);
  await app.ready();
  return {
    app,
    db,
    mailer,
    clock,
    async close() {
      const violations = await conformance.violations().catch((err: unknown) => [`the OpenAPI validator failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`]);
      await app.close();
      if (!opts.db) await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (violations.length > 0) throw new Error(`${violations.length} exchange(s) break the OpenAPI document:\n${violations.slice(0, Number(process.env.OPENAPI_VIOLATIONS_SHOWN ?? 20)).join('\n')}`);
    },
  };
}

/** Tests resolve no names unless they bring a fake resolver. */
const noDns: HostResolver = async (hostname) => {
  throw Object.assign(new Error(`test attempted a DNS lookup of ${hostname}`), { code: 'ENOTFOUND' });
};
