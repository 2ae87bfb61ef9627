import { configFromEnvironment, startService } from './server.js';

// `node dist/main.js migrate` (what `npm run migrate` runs): apply the migrations and exit, like PROCESS_ROLES=migrate.
if (process.argv[2] === 'migrate') process.env.PROCESS_ROLES = 'migrate';
else if (process.argv[2] !== undefined) {
  console.error(`fatal: unknown command "${process.argv[2]}" (expected none, or migrate)`);
  process.exit(2);
}

// A promise nobody awaited failed (a library's fire-and-forget command while Redis is away, say): logged,
// and the process goes on serving rather than dropping every connection it holds.
process.on('unhandledRejection', (reason: unknown) => {
  console.error(JSON.stringify({ level: 50, time: Date.now(), msg: 'unhandled promise rejection', err: reason instanceof Error ? { type: reason.name, message: reason.message, stack: reason.stack } : String(reason) }));
});

startService(configFromEnvironment()).then(
  (app) => {
    // The migrate role alone: done.
    if (app === undefined) process.exit(0);
  },
  (err: unknown) => {
    console.error('fatal: could not start the service:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
