/**
 * Before the suites: builds the dashboard (web/dist) when the browser tests will run and the build is
 * missing or older than its sources, so `npm test` on a fresh clone needs no separate step.
 */
import fs from 'node:fs';
import path from 'node:path';

const WEB = path.resolve(import.meta.dirname, '../web');

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

export default async function setup(): Promise<void> {
  if (process.env.SKIP_BROWSER_TESTS === '1') return;
  const index = path.join(WEB, 'dist', 'index.html');
  const sources = Math.max(newestMtime(path.join(WEB, 'src')), newestMtime(path.join(WEB, 'index.html')), newestMtime(path.join(WEB, 'vite.config.ts')));
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= sources) return;
  const { build } = await import('vite');
  // Vitest runs with NODE_ENV=test, which would give React's development build: build what npm start serves.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: WEB, configFile: path.join(WEB, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
