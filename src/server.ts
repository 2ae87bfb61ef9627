import { buildApp, type App } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { freshCluster } from './db/client.js';
import { offlineGeocoder } from './infra/geocoding/index.js';
import type { Mailer } from './infra/mailer.js';
import { tuneRuntime } from './runtime.js';

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

/**
 * Starts the service in this process with its roles (api: listen; worker: background work), and
 * shuts it down gracefully on SIGTERM / SIGINT (in-flight requests drained, workers stopped). `mailer`
 * replaces the configured one (the demo reads its own invitations).
 */
export async function startService(config: Config, opts: { onShutdown?: () => Promise<void>; mailer?: Mailer } = {}): Promise<App> {
  tuneRuntime({ embeddedDatabase: !config.databaseUrl?.startsWith('postgres') });
  // An in-memory database starts from a cluster made by a child process (db/client.ts, ~2 s): start
  // it first, so that it works while this process loads the offline gazetteer (~0.5 s), which is
  // loaded now rather than in the first planning request.
  if (config.databaseUrl === 'memory://') freshCluster().catch(() => undefined);
  offlineGeocoder().geocode('Dallas, TX');
  const app = await buildApp({ config, mailer: opts.mailer });
  if (config.processRoles.includes('api')) await app.listen({ port: config.port, host: config.host });
  // Background work (event dispatch, webhook delivery, monitoring): any number of worker processes
  // share it through the database.
  if (config.processRoles.includes('worker')) await app.workers.start();
  app.log.info({ roles: config.processRoles, database: app.deps.db.kind, redis: Boolean(config.redisUrl) }, 'service started');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out after 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await opts.onShutdown?.();
      await app.close();
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
