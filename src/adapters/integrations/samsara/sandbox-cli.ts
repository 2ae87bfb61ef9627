/**
 * Runs the Samsara sandbox on its own: `npx tsx src/adapters/integrations/samsara/sandbox-cli.ts [port]`.
 * Point the service at it with SAMSARA_BASE_URL and use the printed token as the integration's apiToken.
 */
import { SANDBOX_TOKEN, startSamsaraSandbox } from './sandbox.js';

const port = Number(process.argv[2] ?? 0);
const sandbox = await startSamsaraSandbox({ port: Number.isInteger(port) ? port : 0, pageSize: 512 });
process.stdout.write(`Samsara sandbox on ${sandbox.url}\nSAMSARA_BASE_URL=${sandbox.url}\napiToken=${SANDBOX_TOKEN}\n`);
const stop = (): void => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
