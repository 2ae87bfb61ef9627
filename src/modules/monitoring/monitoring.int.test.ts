import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/types.js';
import type { AlertCondition, MonitoringSnapshot, Reconciliation } from '../../domain/alerts/types.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS, openTestDatabase } from '../../../test/helpers/db.js';
import { createActiveRoute, createApiKey, createTenant, type TenantFixture } from '../../../test/helpers/factories.js';
import { noMonitoringSources, type MonitoringSources } from './monitoring.sources.js';
import { MonitoringWorker, type AlertRules } from './monitoring.worker.js';
import { alertObject, findAlert } from '../alerts/alerts.repository.js';

const OPTS = { batch: 50, leaseMs: 15_000, positionWindowMs: 6 * 3_600_000, positionsPerRoute: 120, defaultIntervalSeconds: 60 };

/** Rules that record every snapshot and answer what the test sets per route (no conditions by default). */
function scriptedRules() {
  const seen: MonitoringSnapshot[] = [];
  const answers = new Map<string, AlertCondition[]>();
  const rules: AlertRules = {
    evaluate(s) {
      seen.push(s);
      return answers.get(s.route.id) ?? [];
    },
    // The simplest reconciliation: raise what is new, update on a priority change, resolve what cleared.
    reconcile(s, conditions): Reconciliation {
      const r: Reconciliation = { create: [], update: [], resolve: [], resurface: [] };
      for (const c of conditions) {
        const open = s.open.find((a) => a.type === c.type);
        if (!open) r.create.push(c);
        else if (open.priority !== c.priority) r.update.push({ alert: open, condition: c, priorityChanged: true });
      }
      for (const a of s.open) if (!conditions.some((c) => c.type === a.type)) r.resolve.push({ alert: a, resolution: `${a.type} cleared` });
      return r;
    },
  };
  return { rules, seen, answers };
}

const deviation = (priority: 'MEDIUM' | 'HIGH'): AlertCondition => ({
  type: 'ROUTE_DEVIATION',
  priority,
  title: 'Off route',
  message: 'The truck is 12 miles off its planned path',
  metadata: { distanceMiles: 12 },
});

describe.each(DB_KINDS)('monitoring worker (%s)', (kind) => {
  let shared: Database;
  let t: TestApp;
  let acme: TenantFixture;

  beforeAll(async () => {
    shared = await openTestDatabase(kind);
    t = await buildTestApp(kind, { db: shared });
    acme = await createTenant(t.app, { name: 'Monitored Freight' });
  });
  afterAll(async () => {
    await t?.close();
    await shared?.close();
  });

  const events = async (type: string) =>
    (await shared.system((tx) => tx.query<{ payload: Record<string, unknown> }>('SELECT payload FROM outbox_events WHERE tenant_id = $1 AND event_type = $2 ORDER BY enqueued', [acme.tenantId, type]))).rows.map(
      (r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    );

  it('checks an activated route at once, then once per interval, with a snapshot of its plan, positions, clocks and settings', async () => {
    const { routeId, driverId } = await createActiveRoute(t.app, acme.auth, { departureTime: t.clock.now().toISOString() });
    const pos = await t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/positions`, headers: acme.auth, payload: { latitude: 33.0, longitude: -96.9, speedMph: 61 } });
    expect(pos.statusCode).toBe(201);
    const { rules, seen } = scriptedRules();
    const worker = new MonitoringWorker(shared, rules, noMonitoringSources, OPTS);
    const start = t.clock.now().getTime();

    await worker.runOnce(new Date(start));
    const first = seen.filter((s) => s.route.id === routeId);
    expect(first).toHaveLength(1);
    const s = first[0]!;
    expect(s.driver.id).toBe(driverId);
    expect(s.positions).toEqual([expect.objectContaining({ latitude: 33.0, longitude: -96.9, speedMph: 61 })]);
    expect(s.route.segments.length).toBeGreaterThan(0);
    expect(s.hos?.source).toBe('MANUAL');
    expect(s.hos?.clocks.driveRemaining).toBe(11);
    expect(s.settings.monitoring.monitoringIntervalSeconds).toBe(60);
    expect(s.settings.alerts.routeDeviationThresholdMiles).toBe(5);
    expect(s.weather).toBeNull();

    // Not again within the interval; again once it has passed.
    await worker.runOnce(new Date(start + 59_000));
    expect(seen.filter((x) => x.route.id === routeId)).toHaveLength(1);
    await worker.runOnce(new Date(start + 60_000));
    expect(seen.filter((x) => x.route.id === routeId)).toHaveLength(2);
  });

  it("follows the tenant's own interval", async () => {
    const other = await createTenant(t.app, { name: 'Fast Checks Inc' });
    const set = await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/monitoring', headers: other.auth, payload: { monitoringIntervalSeconds: 10 } });
    expect(set.statusCode).toBe(200);
    const { routeId } = await createActiveRoute(t.app, other.auth);
    const { rules, seen } = scriptedRules();
    const worker = new MonitoringWorker(shared, rules, noMonitoringSources, OPTS);
    const start = t.clock.now().getTime();
    for (let sec = 0; sec <= 30; sec++) await worker.runOnce(new Date(start + sec * 1000));
    expect(seen.filter((x) => x.route.id === routeId)).toHaveLength(4); // at 0, 10, 20 and 30 s
  });

  it('raises an alert with its event, escalates it, and resolves it by itself when the condition clears', async () => {
    const { routeId, driverId } = await createActiveRoute(t.app, acme.auth);
    const { rules, answers } = scriptedRules();
    const worker = new MonitoringWorker(shared, rules, noMonitoringSources, OPTS);
    const at = (sec: number) => new Date(t.clock.now().getTime() + sec * 1000);

    answers.set(routeId, [deviation('MEDIUM')]);
    await worker.runOnce(at(0));
    const list = async () => (await shared.system((tx) => tx.query<Record<string, unknown>>('SELECT * FROM alerts WHERE route_id = $1 ORDER BY created_at', [routeId]))).rows;
    expect(await list()).toEqual([expect.objectContaining({ type: 'ROUTE_DEVIATION', category: 'ROUTE_DEVIATION', priority: 'MEDIUM', status: 'ACTIVE', driver_id: driverId })]);
    const created = (await events('alert.created')).filter((e) => e.routePlanId === routeId);
    expect(created).toEqual([expect.objectContaining({ type: 'ROUTE_DEVIATION', priority: 'MEDIUM', status: 'ACTIVE', driverId, routePlanId: routeId, driverName: expect.any(String) })]);

    // The same condition next time: nothing new.
    await worker.runOnce(at(60));
    expect(await list()).toHaveLength(1);

    answers.set(routeId, [deviation('HIGH')]);
    await worker.runOnce(at(120));
    expect(await list()).toEqual([expect.objectContaining({ priority: 'HIGH', status: 'ACTIVE' })]);
    expect((await events('alert.updated')).filter((e) => e.routePlanId === routeId)).toEqual([expect.objectContaining({ priority: 'HIGH', change: 'priority MEDIUM → HIGH', updatedBy: 'system' })]);

    answers.set(routeId, []);
    await worker.runOnce(at(180));
    expect(await list()).toEqual([expect.objectContaining({ status: 'RESOLVED', resolved_by: 'system', resolution: 'ROUTE_DEVIATION cleared' })]);
    expect((await events('alert.resolved')).filter((e) => e.routePlanId === routeId)).toEqual([expect.objectContaining({ status: 'RESOLVED', resolvedBy: 'system' })]);
  });

  it('a completed route leaves monitoring and its open alerts are resolved with it', async () => {
    const { routeId } = await createActiveRoute(t.app, acme.auth);
    const { rules, answers, seen } = scriptedRules();
    const worker = new MonitoringWorker(shared, rules, noMonitoringSources, OPTS);
    answers.set(routeId, [deviation('MEDIUM')]);
    const start = t.clock.now().getTime();
    await worker.runOnce(new Date(start));
    const done = await t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/complete`, headers: acme.auth });
    expect(done.statusCode).toBe(200);
    const alerts = (await shared.system((tx) => tx.query<Record<string, unknown>>('SELECT status, resolution FROM alerts WHERE route_id = $1', [routeId]))).rows;
    expect(alerts).toEqual([{ status: 'RESOLVED', resolution: 'Route completed' }]);
    const checks = seen.filter((s) => s.route.id === routeId).length;
    await worker.runOnce(new Date(start + 120_000));
    expect(seen.filter((s) => s.route.id === routeId)).toHaveLength(checks);
    const rows = await shared.system((tx) => tx.query('SELECT 1 FROM route_monitoring WHERE route_id = $1', [routeId]));
    expect(rows.rows).toHaveLength(0);
  });

  it("a worker that dies holding routes leaves them to another after its lease, within an interval", async () => {
    const { routeId } = await createActiveRoute(t.app, acme.auth);
    const start = t.clock.now().getTime();
    // The first worker claims the route and dies before finishing (its sources never answer).
    const hung: MonitoringSources = { signals: () => new Promise(() => undefined) };
    const dying = new MonitoringWorker(shared, scriptedRules().rules, hung, OPTS);
    void dying.runOnce(new Date(start));
    await new Promise((r) => setImmediate(r));
    const claimedBy = async () => (await shared.system((tx) => tx.query<{ locked_by: string | null }>('SELECT locked_by FROM route_monitoring WHERE route_id = $1', [routeId]))).rows[0]?.locked_by;
    // Wait until the claim is committed (the pass is parked in the sources call).
    for (let i = 0; i < 1000 && (await claimedBy()) !== dying.workerId; i++) await new Promise((r) => setImmediate(r));
    expect(await claimedBy()).toBe(dying.workerId);

    const { rules, seen } = scriptedRules();
    const survivor = new MonitoringWorker(shared, rules, noMonitoringSources, OPTS);
    await survivor.runOnce(new Date(start + 10_000)); // still leased
    expect(seen.filter((s) => s.route.id === routeId)).toHaveLength(0);
    await survivor.runOnce(new Date(start + 16_000)); // lease over
    expect(seen.filter((s) => s.route.id === routeId)).toHaveLength(1);
  });

  it('a worker that stops holding routes gives them back: another checks them at once, not after the lease', async () => {
    const { routeId } = await createActiveRoute(t.app, acme.auth);
    const start = t.clock.now().getTime();
    const hung: MonitoringSources = { signals: () => new Promise(() => undefined) };
    const stopping = new MonitoringWorker(shared, scriptedRules().rules, hung, OPTS);
    void stopping.runOnce(new Date(start));
    const claimedBy = async () => (await shared.system((tx) => tx.query<{ locked_by: string | null }>('SELECT locked_by FROM route_monitoring WHERE route_id = $1', [routeId]))).rows[0]?.locked_by;
    await expect.poll(claimedBy).toBe(stopping.workerId);
    await stopping.release();
    expect(await claimedBy()).toBeNull();
    const { rules, seen } = scriptedRules();
    await new MonitoringWorker(shared, rules, noMonitoringSources, OPTS).runOnce(new Date(start + 1_000));
    expect(seen.filter((s) => s.route.id === routeId)).toHaveLength(1);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two workers on one PostgreSQL', () => {
  let shared: Database;
  let second: Database;
  let t: TestApp;
  let acme: TenantFixture;

  beforeAll(async () => {
    shared = await openTestDatabase('postgres');
    t = await buildTestApp('postgres', { db: shared });
    acme = await createTenant(t.app, { name: 'Busy Fleet' });
  });
  afterAll(async () => {
    await t?.close();
    await second?.close();
    await shared?.close();
  });

  it('never check the same route twice in one interval (each route checked exactly once per interval, counted)', async () => {
    const routes: string[] = [];
    for (let i = 0; i < 30; i++) routes.push((await createActiveRoute(t.app, acme.auth)).routeId);
    // A second connection pool on the same schema, as a second worker process would have.
    const schema = (await shared.system((tx) => tx.query<{ s: string }>('SELECT current_schema() AS s'))).rows[0]!.s;
    const { openDatabase } = await import('../../db/client.js');
    second = await openDatabase({ url: process.env.TEST_DATABASE_URL!, schema, poolSize: 4 });
    const a = scriptedRules();
    const b = scriptedRules();
    const small = { ...OPTS, batch: 4 };
    const wa = new MonitoringWorker(shared, a.rules, noMonitoringSources, small);
    const wb = new MonitoringWorker(second, b.rules, noMonitoringSources, small);
    const start = t.clock.now().getTime();
    // Both workers run passes side by side through three intervals, every 5 s.
    for (let sec = 0; sec < 180; sec += 5) {
      const now = new Date(start + sec * 1000);
      let more = true;
      while (more) more = (await Promise.all([wa.runOnce(now), wb.runOnce(now)])).some((n) => n > 0);
    }
    const counts = new Map<string, number[]>();
    for (const s of [...a.seen, ...b.seen]) {
      if (!routes.includes(s.route.id)) continue;
      counts.set(s.route.id, [...(counts.get(s.route.id) ?? []), s.now]);
    }
    expect(a.seen.length).toBeGreaterThan(0);
    expect(b.seen.length).toBeGreaterThan(0);
    for (const id of routes) {
      const times = (counts.get(id) ?? []).sort((x, y) => x - y);
      expect(times).toHaveLength(3); // at 0, 60 and 120 s
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(60_000);
    }
  });
});

describe.each(DB_KINDS)("monitoring with the service's alert rules (%s)", (kind) => {
  let t: TestApp;
  let acme: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    acme = await createTenant(t.app, { name: 'Real Rules Trucking' });
  });
  afterAll(async () => t?.close());

  it('a position far off the path raises ROUTE_DEVIATION; back on the path for the auto-resolve time, it resolves itself', async () => {
    const departure = t.clock.now();
    const { routeId } = await createActiveRoute(t.app, acme.auth, { departureTime: departure.toISOString() });
    // An API key: the fake clock runs past an access token's 15 minutes.
    const byKey = { 'x-api-key': (await createApiKey(t.app, acme)).key };
    const worker = t.app.workers.get('monitoring').worker;
    const post = (latitude: number, longitude: number) =>
      t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/positions`, headers: byKey, payload: { latitude, longitude, speedMph: 55 } });
    const alerts = async () =>
      (await t.db.system((tx) => tx.query<{ type: string; status: string; priority: string; resolved_by: string | null }>('SELECT type, status, priority, resolved_by FROM alerts WHERE route_id = $1', [routeId]))).rows;

    // On the path just out of Dallas (the I-35 line towards Oklahoma City): nothing.
    t.clock.advance(10 * 60_000);
    expect((await post(32.87, -96.83)).statusCode).toBe(201);
    await worker.runOnce(t.clock.now());
    expect(await alerts()).toEqual([]);

    // 30 miles east of the path.
    t.clock.advance(60_000);
    expect((await post(32.95, -96.3)).statusCode).toBe(201);
    await worker.runOnce(t.clock.now());
    expect(await alerts()).toEqual([expect.objectContaining({ type: 'ROUTE_DEVIATION', status: 'ACTIVE', priority: 'HIGH' })]);
    // The alert.created event (raised in a batch, named from the route's facts) carries the alert as stored.
    const { rows: created } = await t.db.system((tx) =>
      tx.query<{ payload: unknown }>("SELECT payload FROM outbox_events WHERE event_type = 'alert.created' AND payload->>'routePlanId' = $1", [routeId]),
    );
    expect(created).toHaveLength(1);
    const payload = typeof created[0]!.payload === 'string' ? JSON.parse(created[0]!.payload) : created[0]!.payload;
    const stored = await t.db.tenant(acme.tenantId, (tx) => findAlert(tx, acme.tenantId, (payload as { id: string }).id));
    expect(payload).toEqual(alertObject(stored!));
    expect(payload).toMatchObject({ driverName: expect.stringMatching(/\S+ \S+/), metadata: expect.objectContaining({}) });

    // Back on the path: confirmed after 15 minutes (the default autoResolveDeviationAfterMinutes).
    for (let minute = 1; minute <= 16; minute++) {
      t.clock.advance(60_000);
      expect((await post(32.9 + minute * 0.01, -96.84)).statusCode).toBe(201);
      await worker.runOnce(t.clock.now());
      if (minute < 15) expect((await alerts())[0]!.status).toBe('ACTIVE');
    }
    expect(await alerts()).toEqual([expect.objectContaining({ type: 'ROUTE_DEVIATION', status: 'RESOLVED', resolved_by: 'system' })]);
  });
});
