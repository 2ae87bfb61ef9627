/**
 * An npm script of this repository run as a person runs it from a shell (`npm start`, `npm run demo`): a
 * fresh data directory, no test settings in its environment, the Node.js that runs the tests first on the
 * PATH (so npm and the script use it). The service it starts is reached on a free loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something accepts connections on the port (a listen attempt that fails with EADDRINUSE). */
export async function portTaken(port: number): Promise<boolean> {
  const server = net.createServer();
  const taken = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => resolve(false));
  });
  if (!taken) await new Promise<void>((resolve) => server.close(() => resolve()));
  return taken;
}

/** Resolves once `check` holds, polling every 100 ms (a real process, not a fake clock); rejects at the deadline. */
export async function until(check: () => Promise<boolean> | boolean, what: string, deadlineMs = 120_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The direct children of a process (Linux /proc). */
export function childPids(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Whether a process is still there (and not a zombie waiting to be reaped). */
export function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

export interface NpmScript {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  dataDir: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once /api/v1/health answers 200. */
  healthy(deadlineMs?: number): Promise<void>;
  /** Resolves with npm's exit once it has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Resolves once every process that holds npm's stdout and stderr (npm, and the service it runs, which
   * inherits them) has closed them: from then on output() holds all they printed. npm's own exit comes
   * earlier, and the port is freed before the service logs its last line, so neither is enough.
   */
  outputClosed: Promise<void>;
  /** SIGKILLs whatever is left (npm and the processes under it) and removes the data directory. */
  cleanUp(): Promise<void>;
}

/** Variables of the test run that a person's shell would not have. */
const TEST_ONLY = /^(NODE_ENV|VITEST.*|TEST_.*|DATABASE_URL|DATABASE_SCHEMA|REDIS_URL|PLATFORM_ADMIN_.*|FLEET_TEST_.*|PORT|HOST|DATA_DIR|LOG_LEVEL|JWT_SECRET|ENCRYPTION_KEY|AUTH_MOCK_LOGIN|npm_.*)$/;

export async function startNpmScript(script: 'start' | 'demo', env: Record<string, string> = {}): Promise<NpmScript> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fleet-npm-${script}-`));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !TEST_ONLY.test(k)));
  const child = spawn('npm', script === 'start' ? ['start'] : ['run', script], {
    cwd: ROOT,
    env: { ...inherited, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const outputClosed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let ended = false;
  void exited.then(() => (ended = true));
  /** npm and every process under it, as last seen (what cleanUp kills, even after npm is gone). */
  const seen = new Set<number>([child.pid!]);
  const look = () => {
    for (const pid of seen) for (const c of childPids(pid)) seen.add(c);
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    child,
    port,
    baseUrl,
    dataDir,
    output: () => out,
    exited,
    outputClosed,
    async healthy(deadlineMs = 180_000) {
      await until(
        async () => {
          if (ended) throw new Error(`npm ${script} exited before it served:\n${out}`);
          look();
          return fetch(`${baseUrl}/api/v1/health`).then(
            (r) => r.ok,
            () => false,
          );
        },
        `npm ${script} to answer on ${baseUrl}`,
        deadlineMs,
      );
    },
    async cleanUp() {
      look();
      for (const pid of seen) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
