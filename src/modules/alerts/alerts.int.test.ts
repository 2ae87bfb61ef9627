import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { seedAlerts } from '../../../test/helpers/alerts.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createActiveRoute, createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

const ALERT_FIELDS = [
  'id', 'type', 'category', 'priority', 'status', 'title', 'message', 'driverId', 'driverName', 'vehicleId', 'vehicleUnit', 'routePlanId', 'metadata',
  'createdAt', 'updatedAt', 'acknowledgedBy', 'acknowledgedAt', 'snoozedBy', 'snoozedUntil', 'resolvedBy', 'resolvedAt', 'resolution',
].sort();

type Json = Record<string, unknown> & { id?: unknown };

describe.each(DB_KINDS)('alerts API (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let other: TenantFixture;
  let d1: string;
  let d2: string;
  /** The fixture's alerts by letter (see beforeAll). */
  const id: Record<string, string> = {};
  let otherAlert: string;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    acme = await createTenant(t.app, { name: 'Alert Listing Co' });
    other = await createTenant(t.app, { name: 'Someone Else Inc' });
    d1 = (await createDriver(t.app, acme.auth, { firstName: 'Ann', lastName: 'One' })).id;
    d2 = (await createDriver(t.app, acme.auth, { firstName: 'Bob', lastName: 'Two' })).id;
    const day = '2026-03-01T';
    const ids = await seedAlerts(t.db, acme.tenantId, [
      { type: 'HOS_APPROACHING_DRIVE_LIMIT', at: `${day}10:00:00.000Z`, driverId: d1 }, // A ACTIVE MEDIUM
      { type: 'HOS_BREAK_REQUIRED', at: `${day}10:05:00.000Z`, driverId: d1, ackAfter: 3 }, // B ACKNOWLEDGED
      { type: 'HOS_VIOLATION', at: `${day}10:10:00.000Z`, driverId: d2, resolveAfter: 30 }, // C RESOLVED CRITICAL
      { type: 'ROUTE_DEVIATION', at: `${day}10:15:00.000Z`, driverId: d2, routeId: 'rte_fixture1' }, // D ACTIVE
      { type: 'LOW_FUEL', at: `${day}10:20:00.000Z`, snoozeFor: 600 }, // E SNOOZED MECHANICAL, no driver
      { type: 'WEATHER_ADVISORY', at: `${day}10:20:00.000Z`, driverId: d1 }, // F ACTIVE LOW, same time as E
      { type: 'HOS_APPROACHING_CYCLE_LIMIT', priority: 'HIGH', at: `${day}10:30:00.000Z`, driverId: d2 }, // G ACTIVE HIGH
    ]);
    'ABCDEFG'.split('').forEach((letter, i) => (id[letter] = ids[i]!));
    otherAlert = (await seedAlerts(t.db, other.tenantId, [{ type: 'ROUTE_DEVIATION', at: `${day}10:00:00.000Z` }]))[0]!;
  });
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string> = acme.auth) => t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload?: unknown, headers: Record<string, string> = acme.auth) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  /** The letters of the listed alerts, in order. */
  const letters = (body: { data: Json[] }) => body.data.map((a) => Object.keys(id).find((k) => id[k] === a.id) ?? String(a.id)).join('');
  const list = async (query: string, headers?: Record<string, string>) => {
    const res = await get(`/api/v1/alerts${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Json[]; total: number; page: number; pageSize: number }>();
  };
  const events = async (tenantId: string, type: string, alertId: string) =>
    (await t.db.system((tx) => tx.query<{ payload: unknown }>('SELECT payload FROM outbox_events WHERE tenant_id = $1 AND event_type = $2 ORDER BY enqueued', [tenantId, type]))).rows
      .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Json)
      .filter((p) => p.id === alertId);

  describe('listing', () => {
    it('lists newest first with ties on createdAt broken by id, with every alert field and the driver name', async () => {
      const body = await list('');
      const tie = id.E! > id.F! ? 'EF' : 'FE';
      expect(letters(body)).toBe(`G${tie}DCBA`);
      expect(body).toMatchObject({ total: 7, page: 1, pageSize: 20 });
      const g = body.data[0]!;
      expect(Object.keys(g).sort()).toEqual(ALERT_FIELDS);
      expect(g).toMatchObject({ type: 'HOS_APPROACHING_CYCLE_LIMIT', category: 'HOS_VIOLATION', priority: 'HIGH', status: 'ACTIVE', driverId: d2, driverName: 'Bob Two', createdAt: '2026-03-01T10:30:00.000Z' });
    });

    it('filters by status, one or several (comma-separated or repeated)', async () => {
      expect(letters(await list('?status=ACTIVE'))).toBe('GFDA');
      expect((await list('?status=ACTIVE')).total).toBe(4);
      expect(letters(await list('?status=ACKNOWLEDGED,SNOOZED'))).toBe('EB');
      expect(letters(await list('?status=ACKNOWLEDGED&status=RESOLVED'))).toBe('CB');
      expect(letters(await list('?status=RESOLVED'))).toBe('C');
    });

    it('filters by type, with HOS_APPROACHING_LIMIT standing for HOS_APPROACHING_DRIVE_LIMIT, _DUTY_LIMIT, _CYCLE_LIMIT and HOS_BREAK_REQUIRED', async () => {
      expect(letters(await list('?type=ROUTE_DEVIATION'))).toBe('D');
      expect(letters(await list('?type=HOS_APPROACHING_LIMIT'))).toBe('GBA');
      expect(letters(await list('?type=HOS_APPROACHING_LIMIT,HOS_VIOLATION'))).toBe('GCBA');
      expect(letters(await list('?type=HOS_APPROACHING_DUTY_LIMIT'))).toBe('');
    });

    it('filters by category, priority, driver, route and createdAt range [from, to)', async () => {
      expect(letters(await list('?category=MECHANICAL'))).toBe('E');
      expect(letters(await list('?category=WEATHER,ROUTE_DEVIATION'))).toBe('FD');
      expect(letters(await list('?priority=CRITICAL,HIGH'))).toBe('GC');
      expect(letters(await list(`?driverId=${d1}`))).toBe('FBA');
      expect(letters(await list('?routePlanId=rte_fixture1'))).toBe('D');
      expect(letters(await list('?routePlanId=rte_nosuchroute'))).toBe('');
      expect(letters(await list('?from=2026-03-01T10:10:00.000Z&to=2026-03-01T10:20:00.000Z'))).toBe('DC');
      expect(letters(await list('?from=2026-03-01T10:20:00Z'))).toHaveLength(3);
      expect(letters(await list(`?status=ACTIVE&driverId=${d2}&priority=MEDIUM`))).toBe('D');
    });

    it('pages with a stable order and the total on every page', async () => {
      const all = letters(await list(''));
      const pages = [await list('?pageSize=3'), await list('?pageSize=3&page=2'), await list('?pageSize=3&page=3'), await list('?pageSize=3&page=4')];
      expect(pages.map(letters).join('')).toBe(all);
      expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1, 0]);
      for (const p of pages) expect(p.total).toBe(7);
      expect(pages[1]).toMatchObject({ page: 2, pageSize: 3 });
    });

    it.each([
      ['?status=OPEN', 'querystring.status'],
      ['?status=ACTIVE,bogus', 'querystring.status'],
      ['?status=', 'querystring'],
      ['?type=HOS_SOMETHING', 'querystring.type'],
      ['?category=FOOD', 'querystring.category'],
      ['?priority=URGENT', 'querystring.priority'],
      ['?pageSize=101', 'querystring.pageSize'],
      ['?page=0', 'querystring.page'],
      ['?from=yesterday', 'querystring.from'],
      ['?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'querystring.from'],
      ['?driverId=not-a-driver', 'querystring.driverId'],
      ['?color=red', 'querystring.color'],
    ])('%s is a 400 with the error body', async (query, field) => {
      const res = await get(`/api/v1/alerts${query}`);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json<{ statusCode: number; error: string; message: string; details: { field: string }[] }>();
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
      expect(body.details.map((d) => d.field).some((f) => f.startsWith(field))).toBe(true);
    });
  });

  describe('tenants and roles', () => {
    it("another tenant's alert is not found and never listed", async () => {
      expect((await get(`/api/v1/alerts/${otherAlert}`)).statusCode).toBe(404);
      expect((await get(`/api/v1/alerts/${otherAlert}/notes`)).statusCode).toBe(404);
      for (const action of ['acknowledge', 'resolve']) expect((await post(`/api/v1/alerts/${otherAlert}/${action}`)).statusCode).toBe(404);
      expect((await post(`/api/v1/alerts/${otherAlert}/snooze`, { minutes: 5 })).statusCode).toBe(404);
      expect((await post(`/api/v1/alerts/${otherAlert}/notes`, { text: 'hello' })).statusCode).toBe(404);
      expect((await list('')).data.map((a) => a.id)).not.toContain(otherAlert);
      const theirs = await list('', other.auth);
      expect(theirs.data.map((a) => a.id)).toEqual([otherAlert]);
      expect((await get(`/api/v1/alerts/${id.A}`, other.auth)).statusCode).toBe(404);
      // The other tenant's alert is untouched.
      expect(theirs.data[0]).toMatchObject({ status: 'ACTIVE', acknowledgedAt: null });
    });

    it("a DRIVER user sees their own driver's alerts only", async () => {
      const driverUser = await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId: d1 });
      expect(letters(await list('', driverUser.auth))).toBe('FBA');
      expect(letters(await list(`?driverId=${d2}`, driverUser.auth))).toBe('');
      expect((await get(`/api/v1/alerts/${id.A}`, driverUser.auth)).statusCode).toBe(200);
      expect((await get(`/api/v1/alerts/${id.C}`, driverUser.auth)).statusCode).toBe(404);
      expect((await get(`/api/v1/alerts/${id.E}`, driverUser.auth)).statusCode).toBe(404); // no driver
      expect((await post(`/api/v1/alerts/${id.D}/acknowledge`, undefined, driverUser.auth)).statusCode).toBe(404);
      const stats = await get('/api/v1/alerts/stats', driverUser.auth);
      expect(stats.json()).toMatchObject({ total: 3, byStatus: { ACTIVE: 2, ACKNOWLEDGED: 1, SNOOZED: 0, RESOLVED: 0 } });
      const volume = await get('/api/v1/alerts/analytics/volume?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z', driverUser.auth);
      expect(volume.json()).toMatchObject({ total: 3 });
      // Their own alert they may handle.
      const ack = await post(`/api/v1/alerts/${id.F}/acknowledge`, { note: 'Pulling over' }, driverUser.auth);
      expect(ack.statusCode, ack.body).toBe(200);
      expect(ack.json()).toMatchObject({ status: 'ACKNOWLEDGED', acknowledgedBy: driverUser.userId });
    });

    it('a DRIVER user with no driver profile sees no alert at all', async () => {
      const unlinked = await createUser(t.app, t.mailer, acme, 'DRIVER');
      expect(await list('', unlinked.auth)).toMatchObject({ total: 0, data: [] });
      expect((await get(`/api/v1/alerts/${id.E}`, unlinked.auth)).statusCode).toBe(404);
      expect((await get('/api/v1/alerts/stats', unlinked.auth)).json()).toMatchObject({ total: 0 });
      expect((await get('/api/v1/alerts/analytics/top-types?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z', unlinked.auth)).json()).toMatchObject({ total: 0, data: [] });
    });

    it('a VIEWER reads but cannot acknowledge, resolve, snooze or annotate (403)', async () => {
      const viewer = await createUser(t.app, t.mailer, acme, 'VIEWER');
      expect((await list('', viewer.auth)).total).toBe(7);
      for (const [action, body] of [['acknowledge', undefined], ['resolve', undefined], ['snooze', { minutes: 5 }], ['notes', { text: 'hi' }]] as const) {
        const res = await post(`/api/v1/alerts/${id.A}/${action}`, body, viewer.auth);
        expect(res.statusCode, action).toBe(403);
        expect(res.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      }
      expect((await get(`/api/v1/alerts/${id.A}`)).json()).toMatchObject({ status: 'ACTIVE' });
    });

    it('an API key and no credentials', async () => {
      const key = await createApiKey(t.app, acme);
      expect((await list('', { 'x-api-key': key.key })).total).toBe(7);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/alerts' })).statusCode).toBe(401);
    });
  });

  describe('transitions', () => {
    // Alerts of the other tenant, so the listing fixture stays as it is.
    const fresh = async (type: 'ROUTE_DEVIATION' | 'LOW_FUEL' = 'ROUTE_DEVIATION') =>
      (await seedAlerts(t.db, other.tenantId, [{ type, at: new Date(t.clock.now().getTime() - 60_000).toISOString() }]))[0]!;
    const act = (alertId: string, action: string, payload?: unknown) => post(`/api/v1/alerts/${alertId}/${action}`, payload, other.auth);

    it('acknowledge (no body) → ACKNOWLEDGED by the caller with alert.updated; twice is a 400', async () => {
      const a = await fresh();
      const res = await act(a, 'acknowledge');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<Json>();
      expect(Object.keys(body).sort()).toEqual(ALERT_FIELDS);
      expect(body).toMatchObject({ id: a, status: 'ACKNOWLEDGED', acknowledgedBy: other.ownerId, acknowledgedAt: t.clock.now().toISOString() });
      expect(await events(other.tenantId, 'alert.updated', a)).toEqual([
        expect.objectContaining({ id: a, status: 'ACKNOWLEDGED', change: 'acknowledged', updatedBy: other.ownerId, acknowledgedBy: other.ownerId }),
      ]);
      const again = await act(a, 'acknowledge', {});
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Alert is already acknowledged' });
      expect(await events(other.tenantId, 'alert.updated', a)).toHaveLength(1);
    });

    it('acknowledge with a note keeps the note; GET shows the alert with its notes', async () => {
      const a = await fresh();
      expect((await act(a, 'acknowledge', { note: '  Calling the driver  ' })).statusCode).toBe(200);
      const detail = (await get(`/api/v1/alerts/${a}`, other.auth)).json<Json & { notes: Json[] }>();
      expect(detail).toMatchObject({ id: a, status: 'ACKNOWLEDGED' });
      expect(detail.notes).toEqual([{ id: expect.stringMatching(/^note_/), alertId: a, authorId: other.ownerId, text: 'Calling the driver', createdAt: t.clock.now().toISOString() }]);
      expect((await act(a, 'acknowledge', { note: 'x', extra: 1 })).statusCode).toBe(400);
    });

    it('resolve (no body, or a resolution) → RESOLVED with alert.resolved; resolving or acting on it again is a 400', async () => {
      const a = await fresh();
      const res = await act(a, 'resolve');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'RESOLVED', resolvedBy: other.ownerId, resolvedAt: t.clock.now().toISOString(), resolution: null });
      expect(await events(other.tenantId, 'alert.resolved', a)).toEqual([expect.objectContaining({ id: a, status: 'RESOLVED', resolvedBy: other.ownerId, resolution: null })]);
      for (const [action, body] of [['resolve', undefined], ['acknowledge', undefined], ['snooze', { minutes: 5 }]] as const) {
        const again = await act(a, action, body);
        expect(again.statusCode, action).toBe(400);
        expect(again.json()).toMatchObject({ statusCode: 400, message: 'Alert is already resolved' });
      }
      const b = await fresh();
      expect((await act(b, 'acknowledge')).statusCode).toBe(200);
      const resolved = await act(b, 'resolve', { resolution: 'Driver back on I-35' });
      expect(resolved.json()).toMatchObject({ status: 'RESOLVED', resolution: 'Driver back on I-35', acknowledgedBy: other.ownerId });
      expect(await events(other.tenantId, 'alert.resolved', b)).toEqual([expect.objectContaining({ resolution: 'Driver back on I-35' })]);
    });

    it('snooze → SNOOZED until now + minutes with alert.updated; acknowledging a snoozed alert clears the snooze', async () => {
      const a = await fresh('LOW_FUEL');
      const res = await act(a, 'snooze', { minutes: 30 });
      expect(res.statusCode, res.body).toBe(200);
      const until = new Date(t.clock.now().getTime() + 30 * 60_000).toISOString();
      expect(res.json()).toMatchObject({ status: 'SNOOZED', snoozedBy: other.ownerId, snoozedUntil: until });
      expect(await events(other.tenantId, 'alert.updated', a)).toEqual([expect.objectContaining({ status: 'SNOOZED', change: 'snoozed', snoozedUntil: until })]);
      const ack = await act(a, 'acknowledge');
      expect(ack.json()).toMatchObject({ status: 'ACKNOWLEDGED', snoozedUntil: null });
    });

    it.each([[{ minutes: 0 }], [{ minutes: 10_081 }], [{ minutes: 1.5 }], [{ minutes: '5' }], [{}], [undefined]])('snooze %j is a 400', async (body) => {
      const a = await fresh();
      const res = await act(a, 'snooze', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, message: 'Validation failed' });
    });

    it('snooze accepts 1 and 10080 minutes', async () => {
      expect((await act(await fresh(), 'snooze', { minutes: 1 })).statusCode).toBe(200);
      expect((await act(await fresh(), 'snooze', { minutes: 10_080 })).json()).toMatchObject({ snoozedUntil: new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString() });
    });

    it('notes: 201 with the note and alert.updated (annotated); listed oldest first with paging; empty text is a 400', async () => {
      const a = await fresh();
      const first = await act(a, 'notes', { text: 'First look' });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toEqual({ id: expect.stringMatching(/^note_/), alertId: a, authorId: other.ownerId, text: 'First look', createdAt: t.clock.now().toISOString() });
      t.clock.advance(1000);
      expect((await act(a, 'notes', { text: 'Second look' })).statusCode).toBe(201);
      const notes = (await get(`/api/v1/alerts/${a}/notes`, other.auth)).json<{ data: Json[]; total: number }>();
      expect(notes.total).toBe(2);
      expect(notes.data.map((n) => n.text)).toEqual(['First look', 'Second look']);
      const page2 = (await get(`/api/v1/alerts/${a}/notes?pageSize=1&page=2`, other.auth)).json<{ data: Json[]; total: number; page: number }>();
      expect(page2).toMatchObject({ total: 2, page: 2, pageSize: 1, data: [expect.objectContaining({ text: 'Second look' })] });
      const updates = await events(other.tenantId, 'alert.updated', a);
      expect(updates).toEqual([
        expect.objectContaining({ change: 'annotated', status: 'ACTIVE', note: expect.objectContaining({ text: 'First look' }) }),
        expect.objectContaining({ change: 'annotated', note: expect.objectContaining({ text: 'Second look' }) }),
      ]);
      expect((await get(`/api/v1/alerts/${a}`, other.auth)).json()).toMatchObject({ status: 'ACTIVE', notes: [expect.anything(), expect.anything()] });
      for (const body of [{ text: '' }, { text: '   ' }, {}, { text: 'x'.repeat(4001) }]) expect((await act(a, 'notes', body)).statusCode).toBe(400);
    });

    it('an unknown alert id is a 404, a malformed one a 400', async () => {
      expect((await get('/api/v1/alerts/alt_doesnotexist000', other.auth)).json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Alert not found' });
      expect((await act('alt_doesnotexist000', 'acknowledge')).statusCode).toBe(404);
      expect((await get('/api/v1/alerts/drv_123', other.auth)).statusCode).toBe(400);
    });
  });
});

describe.each(DB_KINDS)('snoozed alerts resurface through monitoring (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    acme = await createTenant(t.app, { name: 'Snoozing Freight' });
  });
  afterAll(async () => t?.close());

  it('snoozed 10 minutes while the truck stays off route: not raised again meanwhile; ACTIVE again with alert.updated after the snooze', async () => {
    const { routeId } = await createActiveRoute(t.app, acme.auth, { departureTime: t.clock.now().toISOString() });
    // An API key: the fake clock runs past an access token's 15 minutes.
    const byKey = { 'x-api-key': (await createApiKey(t.app, acme)).key };
    const worker = t.app.workers.get('monitoring').worker;
    const offRoute = async () => {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/positions`, headers: byKey, payload: { latitude: 32.95, longitude: -96.3, speedMph: 55 } });
      expect(res.statusCode).toBe(201);
    };
    const routeAlerts = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/alerts?routePlanId=${routeId}`, headers: byKey })).json<{ data: Json[]; total: number }>();
    const eventsOf = async (type: string, alertId: string) =>
      (await t.db.system((tx) => tx.query<{ payload: unknown }>('SELECT payload FROM outbox_events WHERE tenant_id = $1 AND event_type = $2 ORDER BY enqueued', [acme.tenantId, type]))).rows
        .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Json)
        .filter((p) => p.id === alertId);

    t.clock.advance(10 * 60_000);
    await offRoute();
    await worker.runOnce(t.clock.now());
    const raised = await routeAlerts();
    expect(raised.data).toEqual([expect.objectContaining({ type: 'ROUTE_DEVIATION', status: 'ACTIVE' })]);
    const alertId = raised.data[0]!.id as string;

    const snoozed = await t.app.inject({ method: 'POST', url: `/api/v1/alerts/${alertId}/snooze`, headers: byKey, payload: { minutes: 10 } });
    expect(snoozed.statusCode, snoozed.body).toBe(200);
    const snoozedAt = t.clock.now().getTime();

    // Checks every minute through the snooze, the truck still off route: the alert stays snoozed, alone.
    for (let minute = 1; minute <= 9; minute++) {
      t.clock.set(new Date(snoozedAt + minute * 60_000));
      await offRoute();
      await worker.runOnce(t.clock.now());
      const now = await routeAlerts();
      expect(now.total).toBe(1);
      expect(now.data[0]).toMatchObject({ id: alertId, status: 'SNOOZED' });
    }
    expect(await eventsOf('alert.updated', alertId)).toEqual([expect.objectContaining({ change: 'snoozed' })]);

    t.clock.set(new Date(snoozedAt + 11 * 60_000));
    await offRoute();
    await worker.runOnce(t.clock.now());
    const after = await routeAlerts();
    expect(after.total).toBe(1);
    expect(after.data[0]).toMatchObject({ id: alertId, status: 'ACTIVE', snoozedUntil: null });
    expect(await eventsOf('alert.updated', alertId)).toEqual([
      expect.objectContaining({ change: 'snoozed' }),
      expect.objectContaining({ change: 'resurfaced', status: 'ACTIVE', updatedBy: 'system' }),
    ]);
    const created = (await t.db.system((tx) => tx.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND event_type = 'alert.created'", [acme.tenantId]))).rows[0]!.n;
    expect(created).toBe(1);
  });
});
