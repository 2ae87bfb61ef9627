/**
 * Runs the project44 sandbox on its own: `npx tsx src/adapters/integrations/project44/sandbox-cli.ts [port]`.
 * Point the service at it with PROJECT44_BASE_URL and use the printed client id and secret as the
 * integration's clientId / clientSecret (environment: sandbox).
 */
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, startProject44Sandbox } from './sandbox.js';

const port = Number(process.argv[2] ?? 0);
const sandbox = await startProject44Sandbox({ port: Number.isInteger(port) ? port : 0, pageSize: 100 });
process.stdout.write(`project44 sandbox on ${sandbox.url}\nPROJECT44_BASE_URL=${sandbox.url}\nclientId=${SANDBOX_CLIENT_ID}\nclientSecret=${SANDBOX_CLIENT_SECRET}\n`);
const stop = (): void => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
