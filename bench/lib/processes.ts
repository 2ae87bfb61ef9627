/**
 * The benchmark's servers as child processes: compiled once, started with plain node on a free
 * loopback port, observed through /proc (CPU time, resident memory), and always stopped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NODE_FLAGS } from '../../src/runtime.js';

export const HOST = '127.0.0.1';
const STARTUP_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

/** Every child still running, killed on any way out (see killAll). */
const running = new Set<ChildProcess>();

export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * Compiles src/main.ts and bench/servers/*.ts (bench/tsconfig.servers.json) into `outDir`, which must
 * lie inside the repository so that node finds node_modules from there. Returns how long it took.
 */
export function compileServers(root: string, outDir: string): number {
  const t0 = Date.now();
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'bench', 'tsconfig.servers.json'), '--outDir', outDir], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`compiling the servers failed (${r.status ?? r.signal ?? r.error?.message}):\n${r.stdout}${r.stderr}`);
  // The app reads its version from package.json beside its sources (src/lib/version.ts: ../../package.json).
  fs.copyFileSync(path.join(root, 'package.json'), path.join(outDir, 'package.json'));
  return (Date.now() - t0) / 1000;
}

/** utime + stime of a process from /proc (Linux), in seconds; clock ticks are 100 per second on every mainstream kernel. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export interface Memory {
  /** VmRSS: resident memory now, MiB. */
  rssMiB: number;
  /** VmHWM: the highest resident memory since the process started, MiB. */
  hwmMiB: number;
}

function memoryOf(pid: number | undefined): Memory | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const m = { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 };
    return Number.isFinite(m.rssMiB) ? m : undefined;
  } catch {
    return undefined;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Server {
  name: string;
  url: string;
  pid: number;
  /** CPU seconds used so far by the process (all its threads), when /proc tells. */
  cpuSeconds(): number | undefined;
  memory(): Memory | undefined;
  /** The last lines the process wrote (for error messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node [NODE_FLAGS] [nodeArgs] script` and waits until it answers HTTP on `readyPath` (any status).
 * Only an explicit environment is passed, so that a developer's DATABASE_URL and the like cannot
 * leak into a server.
 */
export async function startServer(name: string, root: string, script: string, env: Record<string, string>, readyPath: string, nodeArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  // Every server runs with the service's V8 settings (what `npm start` and the container give it).
  const child = spawn(process.execPath, [...NODE_FLAGS, ...nodeArgs, script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));

  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited during start-up (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    try {
      await fetch(url + readyPath, { signal: AbortSignal.timeout(2_000) });
      break; // any HTTP answer: it is listening
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} did not start within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return {
    name,
    url,
    pid: child.pid!,
    cpuSeconds: () => cpuSecondsOf(child.pid),
    memory: () => memoryOf(child.pid),
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
