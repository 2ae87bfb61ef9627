/**
 * `npm run soak`: the compose topology as processes on this machine — PostgreSQL, Redis, a migrate run,
 * two api processes behind HAProxy (deploy/haproxy/haproxy.cfg), two workers — under a fleet's traffic,
 * through the public API only, while faults happen:
 *
 *   tenants with active routes whose trucks wander off their paths and back (alerts raised and resolved),
 *   duty statuses, SSE and Socket.IO clients on both api instances and through the proxy, and a webhook
 *   receiver for every event that answers 500 now and then and sometimes slowly;
 *   a worker SIGKILLed and started again, an api instance SIGTERMed and started again, Redis restarted,
 *   PostgreSQL restarted.
 *
 * Then it settles and checks, from the database's own record (the outbox and the alerts), that every event
 * reached the receiver under one delivery id (lost = 0), that no alert was raised twice for one route and
 * type, that every realtime client saw every alert event of its tenant after it connected (gaps = 0), that
 * nothing answered 5xx outside the fault windows, that monitoring caught up within a minute of each fault,
 * and how each process's memory went. It prints the figures (and writes them to SOAK_REPORT, if set) and
 * exits 1 when a check fails.
 *
 * SOAK_SECONDS (default 300) sets the length; the faults are spread over it. SOAK_TENANTS (3) and
 * SOAK_ROUTES (4 per tenant). It runs the compiled build (`npm run soak` builds first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { SseWatcher, SocketWatcher } from './lib/clients.js';
import { ADMIN, adminApi, provisionTenant, reportPosition, type RouteHandle, type TenantHandle } from './lib/fleet.js';
import { freePort, Haproxy, PostgresCluster, RedisServer, ROOT, ServiceProcess } from './lib/infra.js';
import { startSoakReceiver } from './receiver.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const TENANTS = Number(process.env.SOAK_TENANTS ?? 3);
const ROUTES = Number(process.env.SOAK_ROUTES ?? 4);
const INTERVAL_S = 5;
const METRICS_TOKEN = 'soak-metrics-token-0123456789';
/** After the faults and the traffic: how long everything has to settle (retries, auto-resolution, catch-up). */
const SETTLE_MS = Number(process.env.SOAK_SETTLE_SECONDS ?? 150) * 1000;

/** A pseudo-random sequence with a fixed seed: the same run each time. */
function seeded(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Fault {
  name: string;
  at: number;
  recoveredAt?: number;
  /** Seconds from the fault until monitoring's lag was back under two intervals. */
  lagRecoveredAfter?: number;
}

const log = (msg: string) => console.log(`[soak ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}`);
let started = Date.now();

async function main(): Promise<number> {
  if (!Haproxy.available() || !RedisServer.available() || !PostgresCluster.binDir()) {
    console.error('soak: needs haproxy, redis-server and the PostgreSQL server binaries on this machine');
    return 2;
  }
  if (!fs.existsSync(path.join(ROOT, 'dist/main.js'))) {
    console.error('soak: run `npm run build` first (npm run soak does)');
    return 2;
  }
  started = Date.now();
  const random = seeded(20261127);
  log(`starting: ${SECONDS} s of traffic, ${TENANTS} tenants × ${ROUTES} routes`);
  const postgres = await PostgresCluster.create();
  const redis = await RedisServer.start();
  const receiver = await startSoakReceiver({ failureRate: 0.05, slowRate: 0.05, slowMs: 1_500, random });
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    JWT_SECRET: 'soak-jwt-secret-0123456789abcdef0123456789',
    ENCRYPTION_KEY: Buffer.alloc(32, 11).toString('base64'),
    PLATFORM_ADMIN_EMAIL: ADMIN.email,
    PLATFORM_ADMIN_PASSWORD: ADMIN.password,
    METRICS_TOKEN,
    MONITORING_INTERVAL_SECONDS: String(INTERVAL_S),
    WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '2,4,8,15,30',
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_LEASE_SECONDS: '20',
    SHUTDOWN_DELAY_SECONDS: '2',
    MIGRATION_WAIT_SECONDS: '60',
    TRUST_PROXY: 'true',
    RATE_LIMIT_STAGING_PER_HOUR: '1000000',
    RATE_LIMIT_USER_PER_HOUR: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_HOUR: '1000000',
    HOST: '127.0.0.1',
  };
  const service = (name: string, roles: string, port: number) => new ServiceProcess(name, { ...env, PROCESS_ROLES: roles, PORT: String(port) }, { compiled: true });
  const migrate = service('migrate', 'migrate', 0).start();
  if ((await migrate.exited).code !== 0) throw new Error(`migrate failed:\n${migrate.output()}`);
  const apiA = service('api-a', 'api', await freePort());
  const apiB = service('api-b', 'api', await freePort());
  const workers = [service('worker-1', 'worker', await freePort()), service('worker-2', 'worker', await freePort())];
  const processes = [apiA, apiB, ...workers];
  await Promise.all(processes.map((p) => p.startReady()));
  const proxy = await Haproxy.start([`127.0.0.1:${apiA.port}`, `127.0.0.1:${apiB.port}`]);
  log(`topology up: PostgreSQL :${postgres.port}, Redis :${redis.port}, api :${apiA.port} :${apiB.port}, workers, HAProxy :${proxy.port}`);

  const admin = await adminApi(proxy.url);
  const tenants: TenantHandle[] = [];
  for (let i = 0; i < TENANTS; i++) tenants.push(await provisionTenant(proxy.url, admin, { name: `Soak Freight ${i + 1}`, routes: ROUTES, webhookUrl: receiver.url }));
  for (const t of tenants) receiver.secrets.set(t.webhook!.id, t.webhook!.secret);
  for (const t of tenants) for (const r of t.routes) await t.api.call('POST', `/api/v1/drivers/${r.driverId}/duty-status`, { status: 'ON_DUTY_DRIVING' });

  // Realtime clients: per tenant an SSE stream and a socket on each api instance and through the proxy.
  const clients: Array<{ tenant: TenantHandle; client: SseWatcher | SocketWatcher }> = [];
  for (const t of tenants) {
    for (const [where, base] of [['a', apiA.url], ['b', apiB.url], ['proxy', proxy.url]] as const) {
      clients.push({ tenant: t, client: new SseWatcher(`${t.name} sse@${where}`, base, t.key) });
      clients.push({ tenant: t, client: new SocketWatcher(`${t.name} socket@${where}`, base, t.key) });
    }
  }
  await Promise.all(clients.map(({ client }) => client.until(() => client.start !== undefined, 30_000, 'connected')));
  log(`${clients.length} realtime clients connected`);

  // Traffic: every truck reports every 2 s; each wanders ~30 miles off its path for a while, staggered.
  const trucks = tenants.flatMap((t) => t.routes.map((r, i) => ({ tenant: t, route: r, index: tenants.indexOf(t) * ROUTES + i })));
  const wander = (index: number, elapsed: number) => {
    const period = SECONDS * 1000;
    const offAt = ((index + 0.5) / trucks.length) * period * 0.6;
    return elapsed >= offAt && elapsed < offAt + Math.min(40_000, period * 0.15);
  };
  const answers: Array<{ at: number; status: number; error?: string }> = [];
  const trafficStart = Date.now();
  const cpuAtStart = new Map(processes.map((p) => [p.name, { pid: p.child.pid, cpu: p.child.cpuSeconds() ?? 0 }]));
  let traffic = true;
  let settling = false;
  const drive = async (truck: (typeof trucks)[number]) => {
    let step = 0;
    while (traffic) {
      const elapsed = Date.now() - trafficStart;
      const fraction = Math.min(0.95, 0.05 + (elapsed / (SECONDS * 1000)) * 0.8);
      const off = !settling && wander(truck.index, elapsed);
      const at = Date.now();
      try {
        await reportPosition(truck.tenant, truck.route, fraction, off);
        answers.push({ at, status: 201 });
      } catch (err) {
        const status = Number(/HTTP (\d+)/.exec(String(err))?.[1] ?? 0);
        answers.push({ at, status, error: String(err).slice(0, 200) });
      }
      if (++step % 30 === 0) {
        // Attributed to the moment it was sent, as the positions are: a request sent during a fault may fail after it.
        const sentAt = Date.now();
        await truck.tenant.api.call('POST', `/api/v1/drivers/${truck.route.driverId}/duty-status`, { status: step % 60 === 0 ? 'ON_DUTY_DRIVING' : 'ON_DUTY_NOT_DRIVING' }).then(
          () => answers.push({ at: sentAt, status: 201 }),
          (err: unknown) => answers.push({ at: sentAt, status: Number(/HTTP (\d+)/.exec(String(err))?.[1] ?? 0), error: String(err).slice(0, 200) }),
        );
      }
      await sleep(2_000);
    }
  };
  const driving = Promise.all(trucks.map((t) => drive(t)));

  // Monitoring lag, and every process's memory, sampled all along.
  const lag: Array<{ at: number; seconds: number }> = [];
  // Per process: its samples since it last started (a restarted process starts a new series).
  const memory = new Map<string, Array<{ pid: number; rss: number }>>(processes.map((p) => [p.name, []]));
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const text = await fetch(`${workers[1]!.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(2_000) }).then((r) => r.text(), () => '');
      const m = /^monitoring_lag_seconds (\S+)/m.exec(text);
      if (m) lag.push({ at: Date.now(), seconds: Number(m[1]) });
      for (const p of processes) {
        const rss = p.child.running ? p.child.rssMiB() : undefined;
        if (rss !== undefined) memory.get(p.name)!.push({ pid: p.child.pid, rss });
      }
      await sleep(2_000);
    }
  })();

  // The faults, spread over the run.
  const faults: Fault[] = [];
  const at = (fraction: number) => sleep(Math.max(0, trafficStart + fraction * SECONDS * 1000 - Date.now()));
  await at(0.2);
  {
    const f: Fault = { name: 'worker SIGKILL, restarted 2 s later', at: Date.now() };
    faults.push(f);
    log(f.name);
    await workers[0]!.child.stop('SIGKILL');
    await sleep(2_000);
    await workers[0]!.startReady();
    f.recoveredAt = Date.now();
  }
  await at(0.35);
  {
    const f: Fault = { name: 'api A SIGTERM, restarted after it exits', at: Date.now() };
    faults.push(f);
    log(f.name);
    const exit = await apiA.child.stop('SIGTERM');
    log(`api A exited (${exit.code ?? exit.signal}) after ${((Date.now() - f.at) / 1000).toFixed(1)} s`);
    if (exit.code !== 0) throw new Error(`api A did not exit cleanly: ${JSON.stringify(exit)}\n${apiA.child.output().slice(-3000)}`);
    await apiA.startReady();
    f.recoveredAt = Date.now();
  }
  await at(0.5);
  {
    const f: Fault = { name: 'Redis restarted (down 3 s, its keys lost)', at: Date.now() };
    faults.push(f);
    log(f.name);
    await redis.restart(3_000);
    f.recoveredAt = Date.now();
  }
  await at(0.65);
  {
    const f: Fault = { name: 'PostgreSQL restarted (down 3 s)', at: Date.now() };
    faults.push(f);
    log(f.name);
    await postgres.restart(3_000);
    f.recoveredAt = Date.now();
  }
  await at(1);
  // Every fault restarts what it stops: a service process not running now died by itself.
  const died = processes.filter((p) => !p.child.running).map((p) => p.name);
  // CPU over the traffic (a process restarted meanwhile counts from its restart).
  const cpu = processes.map((p) => {
    const start = cpuAtStart.get(p.name)!;
    const used = (p.child.cpuSeconds() ?? 0) - (start.pid === p.child.pid ? start.cpu : 0);
    return { name: p.name, percentOfCore: (100 * used) / ((Date.now() - trafficStart) / 1000) };
  });
  settling = true;
  log('faults over: every truck back on its path; settling (retries, auto-resolution, catch-up)');

  // Settle: trucks on their paths (still reporting), until the outbox is dispatched, no delivery is
  // pending, no deviation is open, and every client has every alert event of its tenant.
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  const tenantIds = tenants.map((t) => t.id);
  const alertEvents = async () =>
    (await db.query<{ tenant_id: string; stream_seq: string; event_type: string; alert_id: string }>(
      `SELECT tenant_id, stream_seq, event_type, payload->>'id' AS alert_id FROM outbox_events
        WHERE tenant_id = ANY($1) AND event_type LIKE 'alert.%' AND stream_seq IS NOT NULL`,
      [tenantIds],
    )).rows;
  const gapsOf = async () => {
    const events = await alertEvents();
    return clients.map(({ tenant, client }) => {
      const mine = events.filter((e) => e.tenant_id === tenant.id && Number(e.stream_seq) > (client.start ?? Infinity));
      const seen = client.positions();
      return { client, expected: mine.length, missing: mine.filter((e) => !seen.has(Number(e.stream_seq))) };
    });
  };
  const settleDeadline = Date.now() + SETTLE_MS;
  for (;;) {
    const pending = (await db.query<{ outbox: number; deliveries: number; open: number }>(
      `SELECT (SELECT count(*)::int FROM outbox_events WHERE published_at IS NULL) AS outbox,
              (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'PENDING') AS deliveries,
              (SELECT count(*)::int FROM alerts WHERE type = 'ROUTE_DEVIATION' AND status <> 'RESOLVED') AS open`,
    )).rows[0]!;
    const gaps = (await gapsOf()).reduce((n, g) => n + g.missing.length, 0);
    if ((pending.outbox === 0 && pending.deliveries === 0 && pending.open === 0 && gaps === 0) || Date.now() > settleDeadline) {
      log(`settled: outbox ${pending.outbox}, pending deliveries ${pending.deliveries}, open deviations ${pending.open}, client gaps ${gaps}`);
      break;
    }
    await sleep(2_000);
  }
  sampling = false;
  await sampler;
  traffic = false;
  await driving;

  // ---- The checks ----
  // What the receiver is owed: every event written after the tenant's webhook (subscribed to *) existed.
  const outbox = (await db.query<{ id: string; tenant_id: string; event_type: string }>(
    `SELECT o.id, o.tenant_id, o.event_type FROM outbox_events o JOIN webhooks w ON w.tenant_id = o.tenant_id
      WHERE o.tenant_id = ANY($1) AND o.created_at >= w.created_at`,
    [tenantIds],
  )).rows;
  const byEvent = new Map<string, Set<string>>();
  for (const d of receiver.deliveries) byEvent.set(d.eventId, (byEvent.get(d.eventId) ?? new Set()).add(d.deliveryId));
  const delivered = receiver.deliveries.filter((d) => d.status < 300);
  const deliveredEvents = new Set(delivered.map((d) => d.eventId));
  const lost = outbox.filter((e) => !deliveredEvents.has(e.id));
  const unstable = [...byEvent.values()].filter((ids) => ids.size > 1).length;
  const unsigned = receiver.deliveries.filter((d) => !receiver.verify(d)).length;
  const repeats = delivered.length - deliveredEvents.size;

  const alerts = (await db.query<{ id: string; route_id: string; type: string; created_at: Date; resolved_at: Date | null }>(
    'SELECT id, route_id, type, created_at, resolved_at FROM alerts WHERE tenant_id = ANY($1) AND route_id IS NOT NULL ORDER BY created_at',
    [tenantIds],
  )).rows;
  let raisedTwice = 0;
  for (let i = 0; i < alerts.length; i++) {
    for (let j = i + 1; j < alerts.length; j++) {
      const x = alerts[i]!;
      const y = alerts[j]!;
      if (x.route_id === y.route_id && x.type === y.type && (x.resolved_at === null || y.created_at < x.resolved_at)) raisedTwice++;
    }
  }
  const createdPerAlert = new Map<string, number>();
  for (const e of await alertEvents()) if (e.event_type === 'alert.created') createdPerAlert.set(e.alert_id, (createdPerAlert.get(e.alert_id) ?? 0) + 1);
  const allAlertIds = (await db.query<{ id: string }>('SELECT id FROM alerts WHERE tenant_id = ANY($1)', [tenantIds])).rows.map((r) => r.id);
  const notOnce = allAlertIds.filter((id) => createdPerAlert.get(id) !== 1).length;
  const gaps = await gapsOf();
  const clientGaps = gaps.reduce((n, g) => n + g.missing.length, 0);

  // A fault's window: from the fault to 10 s after its recovery, or to the next fault (each failure is
  // counted once, against the latest fault before it).
  const windows = faults.map((f, i) => ({ from: f.at, to: Math.min((f.recoveredAt ?? f.at) + 10_000, faults[i + 1]?.at ?? Infinity) }));
  const inWindow = (t: number) => windows.some((w) => t >= w.from && t <= w.to);
  const fivexx = answers.filter((a) => a.status >= 500 || a.status === 0);
  const fivexxOutside = fivexx.filter((a) => !inWindow(a.at));
  for (const a of fivexxOutside) log(`a request sent ${((a.at - trafficStart) / 1000).toFixed(1)} s into the traffic, outside every fault window, failed: ${a.error ?? a.status}`);
  for (const f of faults) {
    const back = lag.find((l) => l.at > (f.recoveredAt ?? f.at) && l.seconds < 2 * INTERVAL_S);
    f.lagRecoveredAfter = back ? (back.at - f.at) / 1000 : undefined;
  }
  const memoryRows = [...memory.entries()].map(([name, all]) => {
    const lastPid = all.at(-1)?.pid;
    const samples = all.filter((x) => x.pid === lastPid).map((x) => x.rss);
    const restarted = all.some((x) => x.pid !== lastPid);
    // After a warm-up (the first samples of a process include its start-up): ~10 s for a process started
    // before the traffic; ~30 s for one restarted during it, which takes over its predecessor's work only as
    // that work's leases run out (15 s for routes) and grows to its working size meanwhile. Growth is judged
    // from there, so that a leak shows and a restart's ramp does not (a restarted worker's first sample was
    // ~130 MiB at 10 s and its working size ~185, the size its never-restarted peer kept all along).
    const warm = samples.slice(Math.min(restarted ? 15 : 5, Math.max(0, samples.length - 1)));
    return { name: `${name}${restarted ? ' (since its restart)' : ''}`, first: warm[0] ?? 0, last: samples.at(-1) ?? 0, max: Math.max(...samples, 0) };
  });

  const checks = [
    { name: 'webhook events lost (of outbox events)', value: `${lost.length} of ${outbox.length}`, ok: lost.length === 0 },
    { name: 'events whose delivery id changed between attempts', value: String(unstable), ok: unstable === 0 },
    { name: 'deliveries with a bad signature', value: String(unsigned), ok: unsigned === 0 },
    { name: 'alerts raised twice for one route and type (overlapping)', value: `${raisedTwice} (of ${alerts.length} alerts)`, ok: raisedTwice === 0 },
    { name: 'alerts without exactly one alert.created event', value: `${notOnce} of ${allAlertIds.length}`, ok: notOnce === 0 },
    { name: 'realtime clients: alert events missed', value: `${clientGaps} (${clients.length} clients, ${gaps.reduce((n, g) => n + g.expected, 0)} expected)`, ok: clientGaps === 0 },
    { name: 'HTTP 5xx or refused outside the fault windows', value: `${fivexxOutside.length} of ${answers.length} requests (${fivexx.length} inside)`, ok: fivexxOutside.length === 0 },
    ...faults.map((f, i) => {
      const w = windows[i]!;
      const failed = fivexx.filter((a) => a.at >= w.from && a.at <= w.to);
      return { name: `requests answered 5xx or refused during: ${f.name}`, value: `${failed.length} (${[...new Set(failed.map((a) => a.status))].join(', ') || '-'})`, ok: true };
    }),
    ...faults.map((f) => ({ name: `monitoring lag < ${2 * INTERVAL_S} s after: ${f.name}`, value: f.lagRecoveredAfter === undefined ? 'never' : `${f.lagRecoveredAfter.toFixed(1)} s`, ok: f.lagRecoveredAfter !== undefined && f.lagRecoveredAfter <= 60 })),
    ...memoryRows.map((m) => ({ name: `memory of ${m.name} (MiB): after warm-up → end, max`, value: `${m.first.toFixed(0)} → ${m.last.toFixed(0)}, ${m.max.toFixed(0)}`, ok: m.last - m.first < 60 })),
    ...cpu.map((c) => ({ name: `CPU of ${c.name} during the traffic (% of one core)`, value: c.percentOfCore.toFixed(1), ok: true })),
    { name: 'service processes that exited on their own', value: died.length === 0 ? '0' : died.join(', '), ok: died.length === 0 },
  ];
  // What a process that died printed last, to say why.
  for (const p of processes.filter((x) => !x.child.running)) console.error(`\n--- the last output of ${p.name} (exited on its own) ---\n${p.child.output().slice(-4_000)}`);
  const counts = {
    seconds: SECONDS,
    tenants: TENANTS,
    routes: trucks.length,
    requests: answers.length,
    outboxEvents: outbox.length,
    alerts: alerts.length,
    webhookRequests: receiver.deliveries.length,
    webhookAnswers500: receiver.deliveries.filter((d) => d.status === 500).length,
    repeatedDeliveries: repeats,
    realtimeClients: clients.length,
    reconnections: clients.reduce((n, { client }) => n + Math.max(0, client.opens - 1), 0),
    kills: 1,
    terms: 1,
    restarts: { worker: 1, api: 1, redis: 1, postgres: 1 },
  };
  console.log('\nSoak figures');
  console.log(JSON.stringify(counts));
  console.log('\n| check | result | |\n|---|---|---|');
  for (const c of checks) console.log(`| ${c.name} | ${c.value} | ${c.ok ? 'ok' : 'FAILED'} |`);
  for (const g of gaps.filter((x) => x.missing.length > 0)) console.log(`  ${g.client.label} missed ${g.missing.map((m) => `${m.event_type}#${m.stream_seq}`).join(', ')}`);
  for (const l of lost.slice(0, 10)) console.log(`  lost: ${l.event_type} ${l.id}`);
  const lagLine = lag.filter((_, i) => i % 3 === 0).map((l) => `${((l.at - trafficStart) / 1000).toFixed(0)}s:${l.seconds.toFixed(0)}`).join(' ');
  console.log(`\nmonitoring lag (s into the run: seconds) ${lagLine}`);
  if (process.env.SOAK_REPORT) fs.writeFileSync(process.env.SOAK_REPORT, JSON.stringify({ counts, checks, faults, lag }, null, 2));

  for (const { client } of clients) client.close();
  await db.end();
  await proxy.stop();
  await Promise.all(processes.map((p) => p.child.stop('SIGTERM')));
  await receiver.close();
  await redis.stop();
  await postgres.destroy();
  return checks.every((c) => c.ok) ? 0 : 1;
}

// Interrupted: exit, so that everything it started is stopped (soak/lib/infra.ts).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('soak failed:', err);
    process.exit(1);
  },
);

export type { RouteHandle };
