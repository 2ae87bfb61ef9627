/**
 * A deploy, as production sees it: two api processes behind HAProxy (deploy/haproxy/haproxy.cfg), a worker
 * process, PostgreSQL and Redis; SSE clients (the `eventsource` package), Socket.IO clients
 * (`socket.io-client` with default options) and the dashboard in a browser, all through the proxy. One
 * api process gets SIGTERM while alerts are being raised and acknowledged:
 *   - its readiness answers 503 at once (the proxy stops sending it new work),
 *   - its clients reconnect, through the proxy, to the other instance and miss no alert event,
 *   - no request through the proxy fails meanwhile,
 *   - it exits by itself, well within SHUTDOWN_TIMEOUT_SECONDS.
 *
 * Runs with TEST_DATABASE_URL and TEST_REDIS_URL (several processes share them) and HAProxy installed.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseWatcher, SocketWatcher } from '../../soak/lib/clients.js';
import { ADMIN, adminApi, provisionTenant, reportPosition, type TenantHandle } from '../../soak/lib/fleet.js';
import { freePort, Haproxy, ROOT, ServiceProcess } from '../../soak/lib/infra.js';
import { chromiumPath, openBrowser, screenshot, type BrowserSession } from '../browser/harness.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const RUNS = Boolean(PG_URL && REDIS_URL && Haproxy.available());
const BROWSER = process.env.SKIP_BROWSER_TESTS !== '1' && chromiumPath() !== null;
const METRICS_TOKEN = 'graceful-restart-metrics-token';
const WAIT_MS = 60_000;

/** This process's realtime connections of each kind, from its /metrics. */
async function connections(p: ServiceProcess): Promise<{ sse: number; socketio: number }> {
  const text = await (await fetch(`${p.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const gauge = (kind: string) => Number(new RegExp(`^realtime_connections\\{kind="${kind}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { sse: gauge('sse'), socketio: gauge('socketio') };
}

describe.skipIf(!RUNS)('SIGTERM to an api instance behind the load balancer, with realtime clients connected', () => {
  const schema = `test_restart_${randomBytes(5).toString('hex')}`;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let worker: ServiceProcess;
  let proxy: Haproxy;
  let tenant: TenantHandle;
  const sse: SseWatcher[] = [];
  const sockets: SocketWatcher[] = [];
  let browser: BrowserSession | undefined;

  beforeAll(async () => {
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: PG_URL!,
      DATABASE_SCHEMA: schema,
      REDIS_URL: REDIS_URL!,
      JWT_SECRET: 'graceful-restart-jwt-secret-0123456789abcdef',
      ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
      PLATFORM_ADMIN_EMAIL: ADMIN.email,
      PLATFORM_ADMIN_PASSWORD: ADMIN.password,
      METRICS_TOKEN,
      MONITORING_INTERVAL_SECONDS: '5',
      SHUTDOWN_DELAY_SECONDS: '2',
      TRUST_PROXY: 'true',
      WEB_DIST_DIR: path.join(ROOT, 'web/dist'),
      HOST: '127.0.0.1',
    };
    const migrate = new ServiceProcess('migrate', { ...env, PROCESS_ROLES: 'migrate', PORT: '0' }).start();
    expect((await migrate.exited).code, migrate.output()).toBe(0);
    a = new ServiceProcess('api-a', { ...env, PROCESS_ROLES: 'api', PORT: String(await freePort()) });
    b = new ServiceProcess('api-b', { ...env, PROCESS_ROLES: 'api', PORT: String(await freePort()) });
    worker = new ServiceProcess('worker', { ...env, PROCESS_ROLES: 'worker', PORT: String(await freePort()) });
    await Promise.all([a.startReady(), b.startReady(), worker.startReady()]);
    proxy = await Haproxy.start([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]);
    tenant = await provisionTenant(proxy.url, await adminApi(proxy.url), { name: 'Restart Freight', routes: 5 });
  }, 3 * WAIT_MS);

  afterAll(async () => {
    for (const c of [...sse, ...sockets]) c.close();
    await browser?.close();
    await proxy?.stop();
    await Promise.all([a, b, worker].filter(Boolean).map((p) => p.child.stop('SIGKILL')));
    if (PG_URL) {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }, WAIT_MS);

  it('readiness 503 at once; every client reconnects to the other instance and misses no alert; no failed request; a clean exit within the bound', async () => {
    // Clients through the proxy (round robin), one at a time, until each instance holds at least one SSE
    // stream and one socket.
    const open = async <C extends SseWatcher | SocketWatcher>(list: C[], make: (i: number) => C, kind: 'sse' | 'socketio') => {
      for (let i = 0; i < 6; i++) {
        const c = make(i);
        list.push(c);
        await c.until(() => c.opens >= 1, WAIT_MS, 'connected');
        const [ca, cb] = await Promise.all([connections(a), connections(b)]);
        if (list.length >= 2 && ca[kind] > 0 && cb[kind] > 0) return;
      }
      throw new Error(`the proxy did not spread ${kind} connections over both instances`);
    };
    await open(sse, (i) => new SseWatcher(`sse-${i}`, proxy.url, tenant.key), 'sse');
    await open(sockets, (i) => new SocketWatcher(`socket-${i}`, proxy.url, tenant.key), 'socketio');
    if (BROWSER) {
      browser = await openBrowser(proxy.url);
      const { page } = browser;
      await page.goto('/login');
      await page.getByLabel('Email').fill(tenant.ownerEmail);
      await page.getByLabel('Password').fill(tenant.ownerPassword);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.goto('/alerts');
      await page.locator('.live-on').waitFor();
      // Set in this document: still set at the end means that nothing reloaded the page.
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    }
    const [ca, cb] = await Promise.all([connections(a), connections(b)]);
    // The instance to stop: one that holds clients of both kinds.
    const [target, survivor] = ca.sse > 0 && ca.socketio > 0 ? [a, b] : [b, a];
    const before = await connections(target);
    expect(before.sse).toBeGreaterThan(0);
    expect(before.socketio).toBeGreaterThan(0);
    const clients = [...sse, ...sockets];

    // Two trucks off their path: two alerts, seen by every client.
    const [r0, r1, r2, r3] = tenant.routes as [typeof tenant.routes[0], typeof tenant.routes[0], typeof tenant.routes[0], typeof tenant.routes[0]];
    await Promise.all([reportPosition(tenant, r0, 0.2, true), reportPosition(tenant, r1, 0.3, true)]);
    const alertIds = () => new Set(clients.flatMap((c) => c.seen.filter((s) => s.name === 'alert' || s.name === 'alert:new').map((s) => s.alertId)));
    await Promise.all(clients.map((c) => c.until(() => c.seen.filter((s) => s.name === 'alert' || s.name === 'alert:new').length >= 2, WAIT_MS, 'the first two alerts')));
    const [first] = [...alertIds()];

    // Traffic through the proxy all along: a fifth truck on its path reports every 250 ms, each answer's status counted.
    const statuses: number[] = [];
    let traffic = true;
    const load = (async () => {
      let n = 0;
      while (traffic) {
        const route = tenant.routes[4]!;
        n++;
        try {
          const res = await fetch(`${proxy.url}/api/v1/routes/${route.id}/positions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': tenant.key },
            body: JSON.stringify({ latitude: 33.5 + (n % 10) / 100, longitude: -96.97, speedMph: 55 }),
          });
          statuses.push(res.status);
          await res.arrayBuffer();
        } catch {
          statuses.push(0);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const signalled = Date.now();
    target.child.child.kill('SIGTERM');
    // Not ready at once.
    let readiness = 0;
    while (readiness === 0 && Date.now() - signalled < 2_000) {
      readiness = await fetch(`${target.url}/api/v1/health/ready`).then((r) => r.status, () => 0);
    }
    expect(readiness).toBe(503);
    expect(Date.now() - signalled).toBeLessThan(1_000);

    // Two more trucks off their path (raised within the next monitoring interval, by the worker) …
    await Promise.all([reportPosition(tenant, r2, 0.4, true), reportPosition(tenant, r3, 0.5, true)]);
    // … and, the moment the stopping instance lets its clients go (after its 2-s delay), the two alerts
    // are acknowledged: those events happen while its clients are reconnecting.
    const dropped = () => sse.some((c) => c.errors > 0) || sockets.some((c) => c.disconnects.length > 0);
    await Promise.race([...sse, ...sockets].map((c) => c.until(dropped, 10_000, 'a client let go')));
    const [second] = [...alertIds()].filter((id) => id !== first);
    await tenant.api.call('POST', `/api/v1/alerts/${first}/acknowledge`, { note: 'calling the driver' });
    await tenant.api.call('POST', `/api/v1/alerts/${second}/acknowledge`, { note: 'calling the driver' });

    const exit = await target.child.exited;
    const shutdownMs = Date.now() - signalled;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeLessThan(25_000);

    // Every alert event of the tenant reaches every client: what the API says happened …
    const list = async () => (await tenant.api.call<{ data: Array<{ id: string; type: string; driverName: string; acknowledgedAt: string | null }> }>('GET', '/api/v1/alerts?pageSize=100')).data;
    await expect.poll(async () => (await list()).filter((al) => al.type === 'ROUTE_DEVIATION').length, { timeout: WAIT_MS, interval: 250 }).toBe(4);
    const alerts = await list();
    const expected = (c: SseWatcher | SocketWatcher) => {
      const [created, updated] = c instanceof SseWatcher ? ['alert', 'alert_updated'] : ['alert:new', 'alert:updated'];
      return alerts.flatMap((al) => [`${created}:${al.id}`, ...(al.acknowledgedAt ? [`${updated}:${al.id}`] : [])]);
    };
    const has = (c: SseWatcher | SocketWatcher) => () => expected(c).every((e) => c.seen.some((s) => `${s.name}:${s.alertId}` === e));
    await Promise.all(clients.map((c) => c.until(has(c), WAIT_MS, 'every alert event')));
    traffic = false;
    await load;

    // … the clients of the stopped instance reconnected (to the other one: it is the only one left) …
    await expect.poll(() => connections(survivor), { timeout: 10_000, interval: 100 }).toEqual({ sse: sse.length, socketio: sockets.length + (BROWSER ? 1 : 0) });
    // (the browser may have been one of the target's sockets: it is not among these watchers)
    expect(clients.filter((c) => c.opens >= 2).length).toBeGreaterThanOrEqual(before.sse + before.socketio - (BROWSER ? 1 : 0));
    for (const s of sockets) expect(s.disconnects.filter((d) => d === 'io server disconnect')).toEqual([]);
    for (const s of sse) expect(s.readyState).toBe(1);
    // … and no request through the proxy failed.
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);

    if (browser) {
      const { page } = browser;
      // The dashboard is live again and, without a reload, shows every alert as it is now: the two raised
      // last as new, the two acknowledged meanwhile as acknowledged (or gone from its "open (active)"
      // list, when it reloaded that list after reconnecting).
      await page.locator('.live-on').waitFor();
      const card = (driverName: string) => page.getByRole('article').filter({ hasText: driverName });
      for (const al of alerts) {
        if (al.acknowledgedAt === null) await card(al.driverName).getByText('Active', { exact: true }).waitFor();
        else await expect.poll(async () => (await card(al.driverName).count()) === 0 || (await card(al.driverName).getByText('Acknowledged', { exact: true }).count()) === 1, { timeout: WAIT_MS }).toBe(true);
      }
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      await screenshot(page, 'graceful-restart-dashboard');
    }
  }, 4 * WAIT_MS);
});
