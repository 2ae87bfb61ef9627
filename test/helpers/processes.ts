/**
 * The service as separate processes (`node --import tsx src/main.ts`), for the tests of what only a real
 * process shows: roles, start-up against a database, signals, exit codes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Generous: a cold `tsx` start-up on a shared 2-core machine. */
export const START_MS = 60_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  /** The last lines it wrote (stdout and stderr). */
  output(): string;
  /** Its exit code (null: killed by a signal). */
  exited: Promise<number | null>;
}

/** Starts `src/main.ts [args]` with exactly this environment (nothing of the test runner's leaks in). */
export function startService(env: Record<string, string>, args: string[] = []): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (c: Buffer) => (out = (out + c.toString('utf8')).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The JSON log lines a process wrote, parsed (other lines skipped). */
export function logLines(p: ServiceProcess): Array<Record<string, unknown>> {
  return p
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        const v = JSON.parse(line) as unknown;
        return typeof v === 'object' && v !== null ? [v as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

/** Polls `url` until it answers `status` (a bounded wait for a process starting up or changing state). */
export async function until(url: string, status: number, p: ServiceProcess, timeoutMs = START_MS): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (p.child.exitCode !== null) throw new Error(`the process exited (${p.child.exitCode}): ${p.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.status === status) return res;
    } catch {
      // not listening (yet, or any more)
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms: ${p.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sends a signal and waits for the exit. */
export async function stop(p: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  return p.exited;
}
