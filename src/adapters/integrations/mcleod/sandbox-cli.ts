/**
 * Runs the McLeod sandbox on its own: `npx tsx src/adapters/integrations/mcleod/sandbox-cli.ts [port]`.
 * Create a `mcleod` integration with the printed apiUrl, apiKey and companyId (no env var: the
 * instance URL is part of the integration's config).
 */
import { SANDBOX_API_KEY, SANDBOX_COMPANY_ID, startMcLeodSandbox } from './sandbox.js';

const port = Number(process.argv[2] ?? 0);
const sandbox = await startMcLeodSandbox({ port: Number.isInteger(port) ? port : 0 });
process.stdout.write(`McLeod sandbox on ${sandbox.url}\napiUrl=${sandbox.apiUrl}\napiKey=${SANDBOX_API_KEY}\ncompanyId=${SANDBOX_COMPANY_ID}\n`);
const stop = (): void => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
