import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import { buildApp, type App } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { freshCluster, openDatabase } from './db/client.js';
import { migrate, migrationStatus } from './db/migrate.js';
import type { Database } from './db/types.js';
import { preloadGazetteer } from './infra/geocoding/index.js';
import type { Mailer } from './infra/mailer.js';

/** The configuration from the environment, or the process ends with one line per bad variable. */
export function configFromEnvironment(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) console.error(`config error: ${line}`);
      process.exit(1);
    }
    throw err;
  }
}

/** The schema is behind this version and the process may not migrate it (production): it refuses to serve. */
export class SchemaBehindError extends Error {
  constructor(readonly pending: string[]) {
    super(
      `the database schema is behind this version of the service (pending migrations: ${pending.join(', ')}). ` +
        'Run the migrations first — `npm run migrate`, or this image with PROCESS_ROLES=migrate — then start this process again ' +
        '(or set MIGRATION_WAIT_SECONDS to have it wait for them).',
    );
    this.name = 'SchemaBehindError';
  }
}

/** How often a process waiting for migrations looks again. */
const MIGRATION_POLL_MS = 2_000;

/**
 * Starts the service in this process with its roles, and shuts it down gracefully on SIGTERM / SIGINT.
 *
 * - migrate: applies the migrations (under an advisory lock on PostgreSQL: concurrent runs are safe);
 *   alone, it then exits (resolves undefined). Outside production every process migrates at start.
 * - api: listens. worker: runs the background work.
 * - In production an api or worker process does not migrate: against a schema that is behind it refuses
 *   to start (SchemaBehindError), or first waits up to MIGRATION_WAIT_SECONDS, answering the health
 *   checks meanwhile (readiness 503).
 *
 * `mailer` replaces the configured one (the demo reads its own invitations).
 */
export async function startService(config: Config, opts: { onShutdown?: () => Promise<void>; mailer?: Mailer } = {}): Promise<App | undefined> {
  const log = pino({ level: config.logLevel });
  const roles = config.processRoles;
  const serving = roles.includes('api') || roles.includes('worker');
  // An in-memory database starts from a cluster made by a child process (db/client.ts, ~2 s), and an
  // api process has the offline gazetteer built by another (~0.5 s; infra/geocoding/gazetteer.ts)
  // rather than in the first planning request: both start first and work while the database opens.
  if (config.databaseUrl === 'memory://') freshCluster().catch(() => undefined);
  const gazetteer = roles.includes('api') ? preloadGazetteer() : undefined;
  const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata'), schema: config.databaseSchema });
  try {
    if (roles.includes('migrate') || !config.isProduction) {
      const applied = await migrate(db);
      log.info({ applied, database: db.kind }, applied.length ? `migrations applied: ${applied.join(', ')}` : 'migrations: nothing to apply, the schema is up to date');
    } else {
      await schemaUpToDate(db, config, log);
    }
    if (!serving) {
      await db.close();
      return undefined;
    }
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }

  await gazetteer;
  const app = await buildApp({ config, db, mailer: opts.mailer, migrations: 'verify' });
  // A worker listens too, for its health checks and metrics only (app.ts).
  await app.listen({ port: config.port, host: config.host });
  // Background work (event dispatch, webhook delivery, monitoring): any number of worker processes
  // share it through the database.
  if (roles.includes('worker')) await app.workers.start();
  app.log.info({ roles, database: db.kind, redis: Boolean(config.redisUrl) }, 'service started');

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const timer = setTimeout(() => {
      app.log.error(`shutdown did not finish within ${config.shutdownTimeoutMs / 1000} s; exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    // Not ready from now on (load balancers stop sending new work); the background work winds down at
    // once and gives back what it holds, while the HTTP side keeps serving through the delay.
    app.deps.lifecycle.drain();
    const delayMs = roles.includes('api') && signal === 'SIGTERM' ? config.shutdownDelayMs : 0;
    app.log.info({ signal, delayMs }, 'shutting down: reporting not-ready, then draining');
    const workersStopped = app.workers.stop({ graceMs: Math.max(1_000, config.shutdownTimeoutMs - delayMs - 5_000) });
    try {
      if (delayMs > 0) await sleep(delayMs);
      await opts.onShutdown?.();
      await workersStopped;
      // Stops accepting connections, tells SSE and Socket.IO clients to reconnect elsewhere, lets the
      // requests in flight finish, then closes Redis; the database last.
      await app.close();
      await db.close();
      app.log.info('shut down');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return app;
}

/**
 * Production api and worker processes serve only a schema that is up to date. One that is behind is
 * refused at once, or waited for (MIGRATION_WAIT_SECONDS) while a stand-in server answers the health
 * checks on the api port: alive, not ready, and 503 for everything else.
 */
async function schemaUpToDate(db: Database, config: Config, log: Logger): Promise<void> {
  let status = await migrationStatus(db);
  if (status.unknown.length > 0) {
    log.info({ unknown: status.unknown }, 'the database has migrations this version does not know (a newer version migrated it); serving');
  }
  if (status.pending.length === 0) return;
  if (config.migrationWaitSeconds === 0) throw new SchemaBehindError(status.pending);
  log.warn({ pending: status.pending, waitSeconds: config.migrationWaitSeconds }, 'the database schema is behind this version: waiting for the migrations to be applied');
  const standIn = config.processRoles.includes('api') ? await startingServer(config, () => status.pending) : undefined;
  try {
    const deadline = Date.now() + config.migrationWaitSeconds * 1000;
    while (status.pending.length > 0) {
      if (Date.now() >= deadline) throw new SchemaBehindError(status.pending);
      await sleep(MIGRATION_POLL_MS);
      status = await migrationStatus(db).catch(() => status);
    }
    log.info('the migrations were applied: starting');
  } finally {
    await new Promise<void>((resolve) => (standIn ? standIn.close(() => resolve()).closeAllConnections() : resolve()));
  }
}

/** A minimal server for the wait: liveness 200, readiness 503 naming the pending migrations, anything else 503. */
async function startingServer(config: Config, pending: () => string[]): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    const timestamp = new Date().toISOString();
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(status === 503 ? { 'retry-after': '5' } : {}) });
      res.end(JSON.stringify(body));
    };
    if (url === '/api/v1/health') return send(200, { status: 'starting', timestamp, message: 'Waiting for the database migrations' });
    if (url === '/api/v1/health/ready') {
      return send(503, { status: 'not_ready', draining: false, timestamp, checks: { migrations: { status: 'pending', pending: pending() } } });
    }
    send(503, { statusCode: 503, error: 'Service Unavailable', message: `Starting: waiting for the database migrations (${pending().join(', ')})` });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(config.port, config.host, () => resolve()));
  return server;
}
