/** Load runs with autocannon (in the harness's process), and the figures taken from them. */
import autocannon from 'autocannon';
import { HOST, type Server } from './processes.js';

export interface Load {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A new body for each request (a unique licence number, say) instead of `body`. */
  bodyFor?: () => string;
  /** Headers for each request on top of `headers` (the next API key of a KeyRing, say). */
  headersFor?: () => Record<string, string>;
}

export interface Measurement {
  rps: number;
  /** Latency percentiles, ms (autocannon's histogram counts whole milliseconds: 0 means under 1 ms). */
  p50: number;
  p99: number;
  requests: number;
  /** Non-2xx answers and socket errors or time-outs, in the measured run and its warm-up. */
  failures: number;
  /** The server process's own CPU time (all threads, user + system) per request, µs. */
  cpuUs: number | undefined;
  /** Its PostgreSQL backends' CPU time per request, µs (PostgreSQL only: PGlite's is inside the server). */
  dbCpuUs?: number;
}

/** The CPU seconds so far of each PostgreSQL backend serving one server (by pid). */
export type DbCpu = () => Promise<Map<number, number>>;

/** CPU seconds the backends used between two samples: a backend that appeared in between counts whole. */
export function dbCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

export interface RunOptions {
  warmup: number;
  duration: number;
  connections: number;
  /** Called about every `sampleMs` while the measured run lasts (memory sampling). */
  onSample?: () => void;
  sampleMs?: number;
}

function run(server: Server, load: Load, seconds: number, connections: number): Promise<autocannon.Result> {
  if (new URL(server.url).hostname !== HOST) throw new Error(`refusing to load a non-loopback address: ${server.url}`);
  const { bodyFor, headersFor } = load;
  const perRequest = bodyFor || headersFor;
  return autocannon({
    url: server.url,
    connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: load.method,
        path: load.path,
        headers: { ...(load.method === 'POST' ? { 'content-type': 'application/json' } : {}), ...load.headers },
        body: bodyFor ? bodyFor() : load.body,
        ...(perRequest
          ? {
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                ...(bodyFor ? { body: bodyFor() } : {}),
                ...(headersFor ? { headers: { ...req.headers, ...headersFor() } } : {}),
              }),
            }
          : {}),
      },
    ],
  });
}

const failuresOf = (r: autocannon.Result) => r.non2xx + r.errors;

/** A warm-up run (not counted), then the measured run with the server's CPU time read around it. */
export async function measure(server: Server, load: Load, o: RunOptions, db?: DbCpu): Promise<Measurement> {
  const warm = o.warmup > 0 ? failuresOf(await run(server, load, o.warmup, o.connections)) : 0;
  const dbBefore = db ? await db() : undefined;
  const cpuBefore = server.cpuSeconds();
  const timer = o.onSample ? setInterval(o.onSample, o.sampleMs ?? 1000) : undefined;
  let r: autocannon.Result;
  try {
    r = await run(server, load, o.duration, o.connections);
  } finally {
    if (timer) clearInterval(timer);
  }
  const cpuAfter = server.cpuSeconds();
  const dbAfter = db ? await db() : undefined;
  return {
    // Completed requests over the measured time (autocannon's per-second samples can number one more
    // than the duration when the stop lands just after a tick).
    rps: r.duration > 0 ? r.requests.total / r.duration : 0,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    failures: warm + failuresOf(r),
    cpuUs: cpuBefore !== undefined && cpuAfter !== undefined && r.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1e6) / r.requests.total : undefined,
    ...(dbBefore && dbAfter && r.requests.total > 0 ? { dbCpuUs: (dbCpuDelta(dbBefore, dbAfter) * 1e6) / r.requests.total } : {}),
  };
}

export function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

/** One figure from a server's rounds: medians of the rates, latencies and CPU, sums of the counts. */
export function combine(rounds: Measurement[]): Measurement {
  const cpu = rounds.map((m) => m.cpuUs).filter((v): v is number => v !== undefined);
  const db = rounds.map((m) => m.dbCpuUs).filter((v): v is number => v !== undefined);
  return {
    rps: median(rounds.map((m) => m.rps)),
    p50: median(rounds.map((m) => m.p50)),
    p99: median(rounds.map((m) => m.p99)),
    requests: rounds.reduce((n, m) => n + m.requests, 0),
    failures: rounds.reduce((n, m) => n + m.failures, 0),
    cpuUs: cpu.length === rounds.length && cpu.length > 0 ? median(cpu) : undefined,
    ...(db.length === rounds.length && db.length > 0 ? { dbCpuUs: median(db) } : {}),
  };
}
