/**
 * Runs the Motive sandbox on its own: `npx tsx src/adapters/integrations/motive/sandbox-cli.ts [port]`.
 * Point the service at it with MOTIVE_BASE_URL and use the printed key as the integration's apiKey.
 */
import { MOTIVE_SANDBOX_API_KEY, startMotiveSandbox } from './sandbox.js';

const port = Number(process.argv[2] ?? 0);
const sandbox = await startMotiveSandbox({ port: Number.isInteger(port) ? port : 0, pageSize: 100 });
process.stdout.write(`Motive sandbox on ${sandbox.url}\nMOTIVE_BASE_URL=${sandbox.url}\napiKey=${MOTIVE_SANDBOX_API_KEY}\n`);
const stop = (): void => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
