/**
 * The must-show claim: a delivery worker process killed with SIGKILL in the middle of deliveries loses
 * nothing. Real processes on real PostgreSQL (PGlite cannot be shared between processes), so this runs
 * only when TEST_DATABASE_URL is set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { emitEvent } from '../../src/db/outbox.js';
import type { Database } from '../../src/db/types.js';
import { randomBase62 } from '../../src/lib/ids.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTenant, type TenantFixture } from '../helpers/factories.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const N = 200;
/** Requests answered before the receiver starts holding them (so the worker is killed with some in flight). */
const ANSWERED_FIRST = 40;
const ROOT = path.resolve(import.meta.dirname, '../..');

interface Hit {
  deliveryId: string;
  eventId: string;
}

/** Resolves once `check` holds, polling every 50 ms; rejects at the deadline with `what`. */
async function until(check: () => Promise<boolean> | boolean, what: string, deadlineMs = 60_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!DATABASE_URL)('webhook delivery worker killed with SIGKILL (postgres, separate processes)', () => {
  const schema = `test_kill_${randomBase62(10).toLowerCase()}`;
  let db: Database;
  let t: TestApp;
  let acme: TenantFixture;
  const hits: Hit[] = [];
  const held: http.ServerResponse[] = [];
  let holding = true;
  let server: http.Server;
  let port = 0;
  const children: ChildProcess[] = [];
  let onHeld: (() => void) | undefined;

  /** A worker-only service process on the test schema (the same encryption key as the test app). */
  function startWorker(name: string): ChildProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PROCESS_ROLES: 'worker',
        DATABASE_URL,
        DATABASE_SCHEMA: schema,
        JWT_SECRET: 'test-jwt-secret-that-is-long-enough-000000',
        ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        WEBHOOK_TIMEOUT_MS: '3000',
        WEBHOOK_LEASE_SECONDS: '4',
        WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM' && code !== 0) console.error(`${name} exited with ${code ?? signal}`);
    });
    children.push(child);
    return child;
  }

  beforeAll(async () => {
    db = await openDatabase({ url: DATABASE_URL!, schema, poolSize: 4 });
    t = await buildTestApp('postgres', { db, realClock: true, env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    acme = await createTenant(t.app, { name: 'Crash Test Logistics' });
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hits.push({ deliveryId: String(req.headers['x-service-delivery']), eventId: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id });
        if (holding && hits.length > ANSWERED_FIRST) {
          held.push(res);
          if (held.length >= 10) onHeld?.();
          return;
        }
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const res of held) res.destroy();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
    await db?.close();
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it(`delivers every one of ${N} events after the worker is killed mid-delivery, each event under one delivery id`, async () => {
    const hook = await t.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: acme.auth, payload: { url: `http://127.0.0.1:${port}/hooks`, events: ['*'] } });
    expect(hook.statusCode).toBe(201);
    const webhookId = hook.json<{ id: string }>().id;

    const eventIds = await t.db.tenant(acme.tenantId, async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < N; i++) ids.push(await emitEvent(tx, acme.tenantId, 'load.status_changed', { loadId: `ld_${i}`, oldStatus: 'PENDING', newStatus: 'ASSIGNED' }, new Date()));
      return ids;
    });
    // The fan-out (run here): one delivery per event, committed before any worker starts.
    while ((await t.app.workers.get('outbox').worker.runOnce(new Date())) > 0);
    const queued = await db.system((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]));
    expect(queued.rows[0]!.n).toBe(N);

    // Worker 1 delivers until it has requests in flight, and is killed then.
    const first = startWorker('worker 1');
    const exited = new Promise<NodeJS.Signals | null>((resolve) => first.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve) => {
      onHeld = () => {
        onHeld = undefined;
        first.kill('SIGKILL');
        resolve();
      };
    });
    expect(await exited).toBe('SIGKILL');
    const beforeKill = hits.length;
    expect(beforeKill).toBeGreaterThan(0);
    expect(new Set(hits.map((h) => h.eventId)).size).toBeLessThan(N);

    // Worker 2 takes over once worker 1's lease has run out.
    holding = false;
    for (const res of held.splice(0)) res.destroy();
    const second = startWorker('worker 2');
    await until(async () => {
      const { rows } = await db.system((tx) => tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'DELIVERED'`, [webhookId]));
      return rows[0]!.n === N;
    }, `all ${N} deliveries DELIVERED`);
    second.kill('SIGTERM');

    // Every event arrived at least once …
    const byEvent = new Map<string, Set<string>>();
    for (const h of hits) byEvent.set(h.eventId, (byEvent.get(h.eventId) ?? new Set()).add(h.deliveryId));
    expect([...byEvent.keys()].sort()).toEqual([...eventIds].sort());
    // … every repeat carried the same X-Service-Delivery id, the one stored for that event …
    const stored = await db.system((tx) => tx.query<{ id: string; event_id: string }>('SELECT id, event_id FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]));
    for (const row of stored.rows) expect([...byEvent.get(row.event_id)!]).toEqual([row.id]);
    // … and the requests in flight at the kill were indeed sent again (the takeover happened).
    const repeated = [...byEvent.entries()].filter(([eventId]) => hits.filter((h) => h.eventId === eventId).length > 1);
    expect(repeated.length).toBeGreaterThan(0);
    expect(hits.length).toBeGreaterThan(N);
  });
});
