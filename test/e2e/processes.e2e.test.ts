/**
 * The deployment DESIGN §5 describes, for real: an `api` process and a separate `worker` process
 * (PROCESS_ROLES) on one PostgreSQL schema and one Redis, each a `node src/main.ts` of its own. Through
 * the public API only, an off-route position posted to the api process is checked by the worker
 * process, and the alert reaches an SSE client and a Socket.IO client of the api process (through
 * Redis) and a webhook receiver (delivered by the worker); resolving it reaches all three again.
 *
 * Runs only with TEST_DATABASE_URL and TEST_REDIS_URL (several processes cannot share an in-memory
 * database). Real time: the tenant's check interval is the shortest allowed (5 s).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, json, nextOn, socketClient, SseClient } from '../helpers/realtime.js';
import { signedBy, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { freePort } from '../../soak/lib/infra.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'process-admin@example.test', password: 'process-admin-password' };
/** Generous: two cold `tsx` start-ups on a shared 2-core machine, then a 5-s check interval. */
const WAIT_MS = 60_000;

interface Proc {
  child: ChildProcess;
  output: () => string;
}

function startProcess(roles: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, PROCESS_ROLES: roles },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (c: Buffer) => (out = (out + c.toString('utf8')).slice(-6000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, output: () => out };
}

/** Waits until the process answers its health endpoint (a bounded poll of a server starting up). */
async function healthy(base: string, proc: Proc): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`api process exited: ${proc.output()}`);
    try {
      const res = await fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`api process did not start: ${proc.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!PG_URL || !REDIS_URL)('separate api and worker processes on PostgreSQL and Redis', () => {
  const schema = `test_proc_${randomBytes(5).toString('hex')}`;
  let api: Proc | undefined;
  let worker: Proc | undefined;
  let base: string;
  let hook: Receiver;
  let socket: Socket | undefined;
  let sse: SseClient | undefined;

  beforeAll(async () => {
    hook = await startReceiver();

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: PG_URL!,
      DATABASE_SCHEMA: schema,
      REDIS_URL: REDIS_URL!,
      JWT_SECRET: 'process-test-jwt-secret-0123456789abcdef',
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      PLATFORM_ADMIN_EMAIL: ADMIN.email,
      PLATFORM_ADMIN_PASSWORD: ADMIN.password,
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      MONITORING_INTERVAL_SECONDS: '5',
      PORT: String(port),
      HOST: '127.0.0.1',
    };
    // The api process migrates the schema first; the worker then finds it ready.
    api = startProcess('api', env);
    await healthy(base, api);
    worker = startProcess('worker', { ...env, PORT: String(await freePort()) });
  }, 2 * WAIT_MS);

  afterAll(async () => {
    socket?.close();
    sse?.close();
    for (const p of [api, worker]) {
      if (p && p.child.exitCode === null) {
        const exited = new Promise((r) => p.child.once('exit', r));
        p.child.kill('SIGTERM');
        await exited;
      }
    }
    await hook?.close();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }, WAIT_MS);

  it('an alert found by the worker process reaches SSE and Socket.IO clients of the api process and a webhook receiver; its resolution too', async () => {
    const call = async <T = Record<string, any>>(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<T> => {
      const res = await fetch(base + url, { method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      expect(res.status, `${method} ${url}: ${text}`).toBeLessThan(300);
      return (text ? JSON.parse(text) : {}) as T;
    };
    const login = async (email: string, password: string) => (await call<{ accessToken: string }>('POST', '/api/v1/auth/login', {}, { email, password })).accessToken;

    const owner = { email: 'owner@process.example.test', password: 'process-owner-password' };
    const reg = await call<{ tenant: { id: string } }>('POST', '/api/v1/tenants/register', {}, {
      organization: { name: 'Process Freight', address: '1 Main St, Dallas, TX 75201', phone: '+1 214 555 0199', contactEmail: 'ops@process.example.test', dotNumber: '7654321', mcNumber: 'MC-111222' },
      adminUser: { firstName: 'Pat', lastName: 'Owner', ...owner },
    });
    await call('POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`, { authorization: `Bearer ${await login(ADMIN.email, ADMIN.password)}` });
    const token = await login(owner.email, owner.password);
    const key = (await call<{ key: string }>('POST', '/api/v1/api-keys', { authorization: `Bearer ${token}` }, { name: 'process test' })).key;
    const auth = { 'x-api-key': key };
    await call('PUT', '/api/v1/tenant/settings/monitoring', auth, { monitoringIntervalSeconds: 5 });
    const webhook = await call('POST', '/api/v1/webhooks', auth, { url: hook.url, events: ['alert.created', 'alert.resolved'] });

    sse = await SseClient.open(base, `/api/v1/sse/alerts?apiKey=${key}`);
    expect(sse.status).toBe(200);
    socket = await connected(socketClient(base, token));
    const socketNew = nextOn<Record<string, unknown>>(socket, 'alert:new', WAIT_MS);

    const driver = await call('POST', '/api/v1/drivers', auth, { firstName: 'Ida', lastName: 'Process', licenseNumber: 'PROC-0001', licenseState: 'TX' });
    const plan = await call('POST', '/api/v1/routes/plan', auth, {
      driverId: driver.id,
      departureTime: new Date().toISOString(),
      stops: [
        { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
        { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 },
      ],
      driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
    });
    await call('POST', `/api/v1/routes/${plan.id}/activate`, auth);
    // 30 miles east of the I-35 line out of Dallas.
    await call('POST', `/api/v1/routes/${plan.id}/positions`, auth, { latitude: 32.95, longitude: -96.3, speedMph: 55 });

    const frame = await sse.nextNamed('alert', WAIT_MS);
    const alert = json(frame);
    expect(alert).toMatchObject({ type: 'ROUTE_DEVIATION', routePlanId: plan.id, status: 'ACTIVE' });
    expect(await socketNew).toMatchObject({ id: alert.id, type: 'ROUTE_DEVIATION' });
    const created = await hook.next('alert.created', WAIT_MS);
    expect(signedBy(webhook.secret as string, created)).toBe(true);
    expect(JSON.parse(created.body)).toMatchObject({ event: 'alert.created', data: { id: alert.id } });
    expect((await call<{ total: number }>('GET', '/api/v1/alerts?status=ACTIVE', auth)).total).toBe(1);

    const socketResolved = nextOn<Record<string, unknown>>(socket, 'alert:resolved', WAIT_MS);
    await call('POST', `/api/v1/alerts/${alert.id as string}/resolve`, auth, { resolution: 'driver called: detour around a closed ramp' });
    expect(json(await sse.nextNamed('alert_resolved', WAIT_MS))).toMatchObject({ id: alert.id, status: 'RESOLVED', resolution: 'driver called: detour around a closed ramp' });
    expect(await socketResolved).toMatchObject({ id: alert.id, status: 'RESOLVED' });
    expect(JSON.parse((await hook.next('alert.resolved', WAIT_MS)).body)).toMatchObject({ event: 'alert.resolved', data: { id: alert.id, status: 'RESOLVED' } });
  }, 3 * WAIT_MS);
});
