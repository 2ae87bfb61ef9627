/**
 * Runs the HERE Fuel Prices sandbox on its own: `npx tsx src/adapters/integrations/here/sandbox-cli.ts [port]`.
 * Point the service at it with HERE_BASE_URL and use the printed key as the integration's apiKey.
 */
import { HERE_SANDBOX_API_KEY, startHereSandbox } from './sandbox.js';

const port = Number(process.argv[2] ?? 0);
const sandbox = await startHereSandbox({ port: Number.isInteger(port) ? port : 0, pageSize: 50 });
process.stdout.write(`HERE Fuel Prices sandbox on ${sandbox.url} (${sandbox.state.stations.length} stations, Dallas → Oklahoma City → St. Louis → Chicago)\nHERE_BASE_URL=${sandbox.url}\napiKey=${HERE_SANDBOX_API_KEY}\n`);
const stop = (): void => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
