/**
 * Builds the server (tsc into dist/) and the dashboard (Vite into web/dist/): `npm run build`.
 *
 * `--if-changed` (what `npm start`, `npm run demo` and `npm run migrate` run): the server build is
 * incremental anyway (dist/.tsbuildinfo), and the dashboard is built only when web/dist is missing or
 * older than its sources, so a second `npm start` starts in seconds and never rewrites files a running
 * dashboard serves. The test suite's global setup uses the same check (test/global-setup.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB = path.join(ROOT, 'web');
const WEB_INDEX = path.join(WEB, 'dist', 'index.html');

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

/** Whether web/dist was built after the last change to the dashboard's sources and its dependencies. */
export function dashboardUpToDate(): boolean {
  if (!fs.existsSync(WEB_INDEX)) return false;
  const sources = Math.max(...['src', 'index.html', 'vite.config.ts', 'package.json'].map((p) => newestMtime(path.join(WEB, p))), newestMtime(path.join(ROOT, 'package-lock.json')));
  return fs.statSync(WEB_INDEX).mtimeMs >= sources;
}

/** The dashboard's production build (also under Vitest, whose NODE_ENV=test would give React's development build). */
export async function buildDashboard(): Promise<void> {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: WEB, configFile: path.join(WEB, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * One build at a time in this checkout (two `npm start`s, or a test starting one beside another): the
 * second waits rather than writing the same files at once. A lock whose process is gone is taken over.
 */
async function withBuildLock(fn: () => Promise<void>): Promise<void> {
  const lock = path.join(ROOT, 'dist', '.build-lock');
  const owner = path.join(lock, 'pid');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(owner, String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(fs.existsSync(owner) ? fs.readFileSync(owner, 'utf8') : '', 10);
      const stale = Number.isInteger(pid) ? !alive(pid) : Date.now() - fs.statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 10_000;
      if (stale) fs.rmSync(lock, { recursive: true, force: true });
      else {
        if (waited === 0) console.error('waiting for another build of this checkout to finish');
        await sleep(200);
      }
    }
  }
  try {
    await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const ifChanged = process.argv.includes('--if-changed');
  await withBuildLock(async () => {
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
    if (tsc.status !== 0) throw new Error(`the server's TypeScript build failed (tsc exit ${tsc.status ?? 'signal'})`);
    if (ifChanged && dashboardUpToDate()) return;
    console.error(ifChanged ? 'building the dashboard (web/dist is older than its sources)' : 'building the dashboard');
    await buildDashboard();
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error('build failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
