import { configFromEnvironment, startService } from './server.js';

startService(configFromEnvironment()).catch((err: unknown) => {
  console.error('fatal: could not start the service:', err instanceof Error ? err.message : err);
  process.exit(1);
});
