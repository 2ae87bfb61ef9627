/**
 * Webhook deliveries per second to a local receiver: `npx tsx bench/webhooks.ts` (PGlite in memory;
 * PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set). Target: ≥ 500/s.
 *
 * In one process: the app (no HTTP listener), a node:http receiver on 127.0.0.1 answering 200, and the
 * app's own delivery worker run pass after pass (as its loop does under a backlog) over
 * BENCH_WEBHOOK_EVENTS events fanned out to one webhook. The receiver shares the process, so the
 * figure is a floor. Fan-out (outbox dispatch creating the deliveries) is timed separately.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { emitEvent } from '../src/db/outbox.js';
import { randomBase62 } from '../src/lib/ids.js';
import { intEnv } from './lib/env.js';
import { webhookDeliveryWorker } from '../src/modules/webhooks/webhooks.delivery.js';
import { DEFAULT_DELIVERY_OPTIONS } from '../src/modules/webhooks/webhooks.worker.js';

const EVENTS = intEnv('BENCH_WEBHOOK_EVENTS', 5000, 100, 1_000_000);
const PG_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
const ADMIN = { email: 'bench-admin@example.test', password: 'bench-admin-password' };

async function run(kind: 'pglite' | 'postgres'): Promise<{ kind: string; fanoutPerSecond: number; deliveriesPerSecond: number; perCpuSecond: number; p99AttemptMs: number }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const schema = `bench_wh_${randomBase62(8).toLowerCase()}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  const db = kind === 'pglite' ? await openDatabase({ url: 'memory://' }) : await openDatabase({ url: PG_URL!, schema, poolSize: 8 });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'memory://',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdefghijklmnop',
    ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
    PLATFORM_ADMIN_EMAIL: ADMIN.email,
    PLATFORM_ADMIN_PASSWORD: ADMIN.password,
    WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    RATE_LIMIT_USER_PER_HOUR: '1000000000',
  });
  const app = await buildApp({ config, db });
  try {
    const json = async (method: 'GET' | 'POST', url: string, payload?: object, token?: string) => {
      const res = await app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json<Record<string, any>>();
    };
    const owner = { email: `owner-${randomBase62(6)}@example.test`, password: 'correct-horse-battery' };
    const reg = await json('POST', '/api/v1/tenants/register', {
      organization: { name: 'Bench Hooks', address: '1 Main St, Dallas, TX', phone: '+1 214 555 0100', contactEmail: 'ops@example.test' },
      adminUser: { firstName: 'B', lastName: 'H', ...owner },
    });
    const admin = (await json('POST', '/api/v1/auth/login', ADMIN)).accessToken as string;
    await json('POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`, undefined, admin);
    const token = (await json('POST', '/api/v1/auth/login', owner)).accessToken as string;
    const tenantId = reg.tenant.id as string;
    await json('POST', '/api/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['*'] }, token);

    for (let i = 0; i < EVENTS; i += 500) {
      await db.tenant(tenantId, async (tx) => {
        for (let j = i; j < Math.min(EVENTS, i + 500); j++) await emitEvent(tx, tenantId, 'load.status_changed', { loadId: `ld_${j}`, oldStatus: 'PENDING', newStatus: 'ASSIGNED' }, new Date());
      });
    }
    const outbox = app.workers.get('outbox').worker;
    let t0 = performance.now();
    while ((await outbox.runOnce(new Date())) > 0);
    const fanoutPerSecond = EVENTS / ((performance.now() - t0) / 1000);

    const worker = webhookDeliveryWorker(app.deps, {
      batch: intEnv('BENCH_WEBHOOK_BATCH', DEFAULT_DELIVERY_OPTIONS.batch, 1, 1000),
      lanes: intEnv('BENCH_WEBHOOK_LANES', DEFAULT_DELIVERY_OPTIONS.lanes, 1, 64),
    });
    t0 = performance.now();
    const cpu0 = process.cpuUsage();
    while ((await worker.runOnce(new Date())) > 0);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const { rows } = await db.system((tx) => tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'DELIVERED'`));
    if (rows[0]!.n !== EVENTS || received < EVENTS) throw new Error(`delivered ${rows[0]!.n}, received ${received}, expected ${EVENTS}`);
    const hist = (await app.deps.metrics.getSingleMetric('webhook_delivery_attempt_duration_seconds')!.get()).values.filter((v) => (v as { metricName?: string }).metricName?.endsWith('_bucket'));
    const total = hist.find((v) => v.labels.le === '+Inf')?.value ?? 0;
    const p99 = hist.find((v) => v.labels.le !== '+Inf' && v.value >= total * 0.99)?.labels.le;
    return { kind, fanoutPerSecond, deliveriesPerSecond: EVENTS / seconds, perCpuSecond: EVENTS / cpuSeconds, p99AttemptMs: Number(p99 ?? NaN) * 1000 };
  } finally {
    await app.close();
    await db.close();
    server.closeAllConnections();
    server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }
}

const results = [await run('pglite')];
if (PG_URL) results.push(await run('postgres'));
console.log(`webhook deliveries, ${EVENTS} events to one local receiver (target ≥ 500/s)`);
for (const r of results) {
  console.log(
    `  ${r.kind.padEnd(9)} fan-out ${r.fanoutPerSecond.toFixed(0).padStart(6)} events/s   delivery ${r.deliveriesPerSecond.toFixed(0).padStart(6)} /s (${r.perCpuSecond.toFixed(0)} per CPU-second of this process, receiver included)   attempt p99 ≤ ${r.p99AttemptMs} ms   ${r.deliveriesPerSecond >= 500 ? 'met' : 'NOT met  <<<'}`,
  );
}
