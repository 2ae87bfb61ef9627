import v8 from 'node:v8';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { freshCluster } from './db/client.js';
import { offlineGeocoder } from './infra/geocoding/index.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) console.error(`config error: ${line}`);
      process.exit(1);
    }
    throw err;
  }

  // The embedded PGlite is PostgreSQL compiled to WebAssembly. V8 compiles each WASM function on first
  // call with its baseline compiler (Liftoff), then recompiles the hot ones with its optimizing compiler
  // (TurboFan) on background threads; each of those threads keeps its own malloc arena, and the compiler
  // memory freed there stays resident: about 100 MB for PostgreSQL's code. Compiling with TurboFan
  // straight away, on the calling thread, avoids that; it costs about a second more at start-up (the
  // functions the migrations use are compiled then) and the code runs at optimized speed from its
  // first call. Set before the module is compiled (openDatabase); PostgreSQL servers need no WASM.
  if (!config.databaseUrl?.startsWith('postgres')) v8.setFlagsFromString('--no-liftoff');
  // Under load V8 lets the old generation grow to up to four times what a full GC left alive before it
  // collects again (its growing factor adapts to the allocation rate): about 120 MB more resident
  // during a sustained load on this service, returned only ~30 s after the load stops. A factor of 2
  // (what V8 itself uses when memory is constrained) keeps that under ~40 MB, for no measurable CPU
  // per request (bench/memory.ts, 3 runs each). Read at every full GC, so setting it here is enough.
  v8.setFlagsFromString('--heap-growing-percent=100');

  // An in-memory database starts from a cluster made by a child process (db/client.ts, ~2 s): start
  // it first, so that it works while this process loads the offline gazetteer (~0.5 s), which is
  // loaded now rather than in the first planning request.
  if (config.databaseUrl === 'memory://') freshCluster().catch(() => undefined);
  offlineGeocoder().geocode('Dallas, TX');
  const app = await buildApp({ config });
  // Workers (monitoring, webhook delivery, integration sync) join PROCESS_ROLES as they are built.
  if (config.processRoles.includes('api')) {
    await app.listen({ port: config.port, host: config.host });
  }
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
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('fatal: could not start the service:', err instanceof Error ? err.message : err);
  process.exit(1);
});
