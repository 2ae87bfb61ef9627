/**
 * The pieces of a deployment as processes on this machine, each of which the soak (and the operations
 * tests) can stop, kill and restart: a Redis server, a PostgreSQL cluster, HAProxy with the repository's
 * configuration (deploy/haproxy/haproxy.cfg), and the service's own processes.
 *
 * Redis and PostgreSQL are private instances on free ports, never the machine's shared ones: restarting
 * them must not disturb anything else running here.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NODE_FLAGS } from '../../src/runtime.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Everything started here dies with this process, however it ends: children are killed, private
 * PostgreSQL clusters stopped and removed (a soak that fails half-way must not leave a fleet running).
 */
const cleanups = new Set<() => void>();
process.once('exit', () => {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // best effort
    }
  }
});

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

/** Waits until something accepts TCP connections on the port (bounded). */
export async function listening(port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

function which(cmd: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** A child process with its recent output and its exit. */
export class Child {
  private out = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    const keep = (c: Buffer) => (this.out = (this.out + c.toString('utf8')).slice(-50_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const kill = () => child.kill('SIGKILL');
    cleanups.add(kill);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        cleanups.delete(kill);
        resolve({ code, signal });
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
  output(): string {
    return this.out;
  }
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
  /** CPU seconds used so far (user + system, all threads) from /proc, or undefined once gone. */
  cpuSeconds(): number | undefined {
    try {
      const fields = fs.readFileSync(`/proc/${this.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in clock ticks (100 a second).
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return undefined;
    }
  }

  /** Resident memory (MiB) from /proc, or undefined once gone. */
  rssMiB(): number | undefined {
    try {
      const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
      return Number.isFinite(kb) ? kb / 1024 : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A private redis-server that keeps nothing on disk (as the machine's): a restart loses every key. */
export class RedisServer {
  private proc: Child | undefined;
  private constructor(readonly port: number) {}

  static available(): boolean {
    return which('redis-server') !== null;
  }

  static async start(): Promise<RedisServer> {
    const r = new RedisServer(await freePort());
    await r.start();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = new Child('redis', child);
    await listening(this.port);
  }

  async stop(): Promise<void> {
    await this.proc?.stop('SIGKILL');
  }

  async restart(downMs = 0): Promise<void> {
    await this.stop();
    if (downMs > 0) await sleep(downMs);
    await this.start();
  }
}

/**
 * A private PostgreSQL cluster (initdb in a temporary directory, trust authentication on 127.0.0.1),
 * with the machine's PostgreSQL binaries; run as the `postgres` user when this process is root.
 */
export class PostgresCluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  static binDir(): string | null {
    const base = '/usr/lib/postgresql';
    if (!fs.existsSync(base)) return which('pg_ctl') ? path.dirname(which('pg_ctl')!) : null;
    const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
    return versions[0] ? path.join(base, versions[0], 'bin') : null;
  }

  static async create(): Promise<PostgresCluster> {
    const bin = PostgresCluster.binDir();
    if (!bin) throw new Error('no PostgreSQL binaries (pg_ctl) on this machine');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-soak-pg-'));
    const cluster = new PostgresCluster(dir, await freePort(), bin);
    cleanups.add(cluster.removeNow);
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
    cluster.run('initdb', ['-D', path.join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await cluster.start();
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private run(tool: string, args: string[]): void {
    const cmd = path.join(this.bin, tool);
    const asRoot = process.getuid?.() === 0;
    execFileSync(asRoot ? 'runuser' : cmd, asRoot ? ['-u', 'postgres', '--', cmd, ...args] : args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: this.dir });
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir} -c max_connections=200 -c fsync=off`;
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-o', options, '-l', path.join(this.dir, 'log'), '-w', '-t', '60', 'start']);
    await listening(this.port);
  }

  /** Stops the server: fast (the clients' connections are cut, as a restart or a failover does). */
  async stop(): Promise<void> {
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }

  async restart(downMs = 0): Promise<void> {
    await this.stop();
    if (downMs > 0) await sleep(downMs);
    await this.start();
  }

  async destroy(): Promise<void> {
    cleanups.delete(this.removeNow);
    this.removeNow();
  }

  /** Stops the server at once and removes its directory (synchronous: also run when this process exits). */
  private readonly removeNow = (): void => {
    try {
      this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    } catch {
      // not running
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  };
}

/** HAProxy with deploy/haproxy/haproxy.cfg, in front of two api processes at fixed addresses. */
export class Haproxy {
  private constructor(
    readonly port: number,
    private readonly proc: Child,
  ) {}

  static available(): boolean {
    return which('haproxy') !== null;
  }

  static async start(servers: [string, string]): Promise<Haproxy> {
    const port = await freePort();
    const child = spawn('haproxy', ['-db', '-f', path.join(ROOT, 'deploy/haproxy/haproxy.cfg')], {
      env: { PATH: process.env.PATH ?? '', HTTP_PORT: String(port), API_SERVER_1: servers[0], API_SERVER_2: servers[1] },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const h = new Haproxy(port, new Child('haproxy', child));
    await listening(port);
    return h;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  output(): string {
    return this.proc.output();
  }
  async stop(): Promise<void> {
    await this.proc.stop('SIGKILL');
  }
}

export interface ServiceOptions {
  /** Run the compiled build (dist/main.js, as `npm start` and the image do) instead of the sources through tsx. */
  compiled?: boolean;
  /** Arguments after the script (`migrate`). */
  args?: string[];
}

/** One of the service's processes, restartable with the same environment (same port). */
export class ServiceProcess {
  private proc: Child | undefined;
  readonly restarts: number[] = [];

  constructor(
    readonly name: string,
    readonly env: Record<string, string>,
    private readonly opts: ServiceOptions = {},
  ) {}

  get port(): number {
    return Number(this.env.PORT);
  }
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  get child(): Child {
    if (!this.proc) throw new Error(`${this.name} was never started`);
    return this.proc;
  }

  start(): Child {
    const args = [
      ...(this.opts.compiled ? [...NODE_FLAGS, path.join(ROOT, 'dist/main.js')] : ['--import', 'tsx', path.join(ROOT, 'src/main.ts')]),
      ...(this.opts.args ?? []),
    ];
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = new Child(this.name, child);
    return this.proc;
  }

  /** Starts it and waits until it is ready (GET /api/v1/health/ready answers 200). */
  async startReady(timeoutMs = 60_000): Promise<void> {
    this.start();
    await this.ready(timeoutMs);
  }

  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.child.running) throw new Error(`${this.name} exited while starting:\n${this.child.output().slice(-3000)}`);
      try {
        const res = await fetch(`${this.url}/api/v1/health/ready`, { signal: AbortSignal.timeout(2_000) });
        if (res.status === 200) return;
      } catch {
        // not yet
      }
      if (Date.now() > deadline) throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.child.output().slice(-3000)}`);
      await sleep(100);
    }
  }
}
