import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { randomBase62 } from '../../lib/ids.js';

let seq = 0;
const loadBody = (overrides: Record<string, unknown> = {}) => {
  seq += 1;
  return {
    referenceNumber: `REF-${seq}-${randomBase62(5)}`,
    customer: 'Walmart DC 6094',
    originAddress: '100 Commerce St, Dallas, TX 75201',
    destinationAddress: '2000 Ponce de Leon Blvd, Atlanta, GA 30307',
    scheduledPickup: '2026-03-03T14:00:00.000Z',
    scheduledDelivery: '2026-03-05T09:30:00.000Z',
    weight: 42000,
    commodity: 'Dry groceries',
    ...overrides,
  };
};

interface OutboxRow {
  event_type: string;
  payload: Record<string, unknown>;
}

describe.each(DB_KINDS)('loads API (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    acme = await createTenant(t.app, { name: 'Acme Freight' });
    other = await createTenant(t.app, { name: 'Other Carrier' });
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const create = async (auth: Record<string, string>, overrides: Record<string, unknown> = {}) => {
    const res = await inject({ method: 'POST', url: '/api/v1/loads', headers: auth, payload: loadBody(overrides) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; referenceNumber: string; status: string; [k: string]: unknown }>();
  };
  const setStatus = (auth: Record<string, string>, id: string, status: string, note?: string) =>
    inject({ method: 'POST', url: `/api/v1/loads/${id}/status`, headers: auth, payload: { status, ...(note ? { note } : {}) } });
  const events = async (tenantId: string, loadId: string) =>
    (
      await t.db.tenant(tenantId, (tx) =>
        tx.query<OutboxRow>("SELECT event_type, payload FROM outbox_events WHERE event_type = 'load.status_changed' AND payload->>'loadId' = $1 ORDER BY created_at, id", [loadId]),
      )
    ).rows;

  it('creates a load (PENDING, source MANUAL, ld_ id) with normalised timestamps and reads it back', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/v1/loads',
      headers: acme.auth,
      payload: { referenceNumber: ' PO-1001 ', customer: 'Acme Foods', scheduledPickup: '2026-03-03T08:00:00-06:00', scheduledDelivery: '2026-03-04T08:00:00+00:00', weight: 0, externalId: 'my-1001' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const l = res.json();
    expect(l).toEqual({
      id: expect.stringMatching(/^ld_[0-9A-Za-z]{22}$/),
      referenceNumber: 'PO-1001',
      customer: 'Acme Foods',
      originAddress: null,
      destinationAddress: null,
      scheduledPickup: '2026-03-03T14:00:00.000Z',
      scheduledDelivery: '2026-03-04T08:00:00.000Z',
      weight: 0,
      commodity: null,
      status: 'PENDING',
      source: 'MANUAL',
      externalId: 'my-1001',
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
      originTimeZone: null,
      destinationTimeZone: null,
    });
    const got = await inject({ method: 'GET', url: `/api/v1/loads/${l.id}`, headers: acme.auth });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(l);
    // The zones its pickup and delivery are read in: those of its addresses.
    expect(await create(acme.auth)).toMatchObject({ weight: 42000, commodity: 'Dry groceries', status: 'PENDING', originTimeZone: 'America/Chicago', destinationTimeZone: 'America/New_York' });
  });

  it('validates: required referenceNumber, unknown and read-only fields, types, ranges and the schedule → 400 with details', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ customer: 'X' }, 'body.referenceNumber'],
      [{ referenceNumber: '' }, 'body.referenceNumber'],
      [{ referenceNumber: '  ' }, 'body.referenceNumber'],
      [{ referenceNumber: 'r'.repeat(51) }, 'body.referenceNumber'],
      [loadBody({ status: 'DELIVERED' }), 'body.status'],
      [loadBody({ source: 'mcleod' }), 'body.source'],
      [loadBody({ trailer: 'T-1' }), 'body.trailer'],
      [loadBody({ weight: -1 }), 'body.weight'],
      [loadBody({ weight: 200_001 }), 'body.weight'],
      [loadBody({ weight: '1000' }), 'body.weight'],
      [loadBody({ scheduledPickup: 'tomorrow' }), 'body.scheduledPickup'],
      [loadBody({ scheduledPickup: '2026-03-03' }), 'body.scheduledPickup'],
      [loadBody({ scheduledDelivery: '2026-03-03T14:00:00' }), 'body.scheduledDelivery'],
      [loadBody({ scheduledPickup: 1772546400000 }), 'body.scheduledPickup'],
      [loadBody({ scheduledDelivery: '2026-03-03T13:59:59.999Z' }), 'body.scheduledDelivery'],
      [loadBody({ scheduledPickup: '2026-03-03T23:59:60Z' }), 'body.scheduledPickup'],
      [loadBody({ customer: 'c'.repeat(201) }), 'body.customer'],
      [loadBody({ originAddress: 'a'.repeat(301) }), 'body.originAddress'],
      [loadBody({ commodity: 7 }), 'body.commodity'],
      [loadBody({ externalId: 'e'.repeat(101) }), 'body.externalId'],
    ];
    for (const [payload, field] of cases) {
      const res = await inject({ method: 'POST', url: '/api/v1/loads', headers: acme.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
      expect(body.details.map((d: { field: string }) => d.field), JSON.stringify(payload)).toContain(field);
    }
    const sameInstant = await create(acme.auth, { scheduledPickup: '2026-03-03T14:00:00Z', scheduledDelivery: '2026-03-03T09:00:00-05:00' });
    expect(sameInstant.scheduledDelivery).toBe('2026-03-03T14:00:00.000Z');
    await create(acme.auth, { weight: 200_000, scheduledPickup: null, scheduledDelivery: '2026-01-01T00:00:00Z' });
  });

  it('keeps reference numbers (case-insensitive) and external ids unique per tenant, not across tenants', async () => {
    const first = await create(acme.auth, { referenceNumber: 'Dup-Ref-9', externalId: 'ext-dup' });
    const dup = await inject({ method: 'POST', url: '/api/v1/loads', headers: acme.auth, payload: loadBody({ referenceNumber: 'DUP-REF-9' }) });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'A load with reference number DUP-REF-9 already exists in this organization' });
    const dupExt = await inject({ method: 'POST', url: '/api/v1/loads', headers: acme.auth, payload: loadBody({ externalId: 'ext-dup' }) });
    expect(dupExt.statusCode).toBe(400);
    expect(dupExt.json().message).toBe('A load with external id ext-dup already exists in this organization');
    await create(other.auth, { referenceNumber: 'Dup-Ref-9', externalId: 'ext-dup' });
    const second = await create(acme.auth);
    const clash = await inject({ method: 'PUT', url: `/api/v1/loads/${second.id}`, headers: acme.auth, payload: { referenceNumber: 'dup-ref-9' } });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toMatch(/reference number dup-ref-9 already exists/);
    // Cancelling does not free the reference number.
    await setStatus(acme.auth, first.id, 'CANCELLED');
    expect((await inject({ method: 'POST', url: '/api/v1/loads', headers: acme.auth, payload: loadBody({ referenceNumber: 'dup-ref-9' }) })).statusCode).toBe(400);
  });

  it('lists newest first with pagination, status filter and search on reference number or customer', async () => {
    const tenant = await createTenant(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      t.clock.advance(1000);
      ids.push((await create(tenant.auth, { referenceNumber: `BULK-${i}`, customer: 'Target' })).id);
    }
    t.clock.advance(1000);
    const special = await create(tenant.auth, { referenceNumber: 'ORD-777-X', customer: 'Home Depot #42' });

    const page1 = (await inject({ method: 'GET', url: '/api/v1/loads', headers: tenant.auth })).json();
    expect(page1).toMatchObject({ total: 24, page: 1, pageSize: 20 });
    expect(page1.data).toHaveLength(20);
    expect(page1.data[0].id).toBe(special.id);
    expect(page1.data[1].id).toBe(ids[22]);
    const page2 = (await inject({ method: 'GET', url: '/api/v1/loads?page=2&pageSize=20', headers: tenant.auth })).json();
    expect(page2.data.map((l: { id: string }) => l.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect((await inject({ method: 'GET', url: '/api/v1/loads?page=3', headers: tenant.auth })).json()).toMatchObject({ data: [], total: 24, page: 3 });
    for (const q of ['pageSize=101', 'page=0', 'status=LOST', 'search=' + 's'.repeat(101), 'source=MANUAL']) {
      expect((await inject({ method: 'GET', url: `/api/v1/loads?${q}`, headers: tenant.auth })).statusCode, q).toBe(400);
    }

    for (const q of ['ord-777', 'home depot', '#42']) {
      const found = (await inject({ method: 'GET', url: `/api/v1/loads?search=${encodeURIComponent(q)}`, headers: tenant.auth })).json();
      expect(found.data.map((l: { id: string }) => l.id), q).toEqual([special.id]);
    }
    expect((await inject({ method: 'GET', url: '/api/v1/loads?search=target&pageSize=100', headers: tenant.auth })).json().total).toBe(23);
    expect((await inject({ method: 'GET', url: '/api/v1/loads?search=%25', headers: tenant.auth })).json().total).toBe(0);

    await setStatus(tenant.auth, special.id, 'ASSIGNED');
    await setStatus(tenant.auth, ids[0]!, 'CANCELLED');
    expect((await inject({ method: 'GET', url: '/api/v1/loads?status=ASSIGNED', headers: tenant.auth })).json().data.map((l: { id: string }) => l.id)).toEqual([special.id]);
    expect((await inject({ method: 'GET', url: '/api/v1/loads?status=PENDING', headers: tenant.auth })).json().total).toBe(22);
    expect((await inject({ method: 'GET', url: '/api/v1/loads?status=CANCELLED&search=bulk', headers: tenant.auth })).json().total).toBe(1);
  });

  it('updates descriptive fields (null clears), checks the schedule against stored values, and refuses status/source/empty changes', async () => {
    const l = await create(acme.auth);
    t.clock.advance(5000);
    const res = await inject({ method: 'PUT', url: `/api/v1/loads/${l.id}`, headers: acme.auth, payload: { customer: 'Kroger', weight: 38000.5, commodity: null, originAddress: '' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: l.id, customer: 'Kroger', weight: 38000.5, commodity: null, originAddress: null, status: 'PENDING', createdAt: l.createdAt, updatedAt: t.clock.now().toISOString() });

    // Moving only the delivery before the stored pickup is refused; moving both together is fine.
    const early = await inject({ method: 'PUT', url: `/api/v1/loads/${l.id}`, headers: acme.auth, payload: { scheduledDelivery: '2026-03-02T00:00:00Z' } });
    expect(early.statusCode).toBe(400);
    expect(early.json().details).toEqual([{ field: 'body.scheduledDelivery', message: 'must not be before scheduledPickup' }]);
    const late = await inject({ method: 'PUT', url: `/api/v1/loads/${l.id}`, headers: acme.auth, payload: { scheduledPickup: '2026-03-06T00:00:00Z' } });
    expect(late.statusCode).toBe(400);
    const both = await inject({ method: 'PUT', url: `/api/v1/loads/${l.id}`, headers: acme.auth, payload: { scheduledPickup: '2026-03-01T00:00:00Z', scheduledDelivery: '2026-03-02T00:00:00Z' } });
    expect(both.statusCode).toBe(200);
    const cleared = await inject({ method: 'PUT', url: `/api/v1/loads/${l.id}`, headers: acme.auth, payload: { scheduledPickup: null } });
    expect(cleared.json()).toMatchObject({ scheduledPickup: null, scheduledDelivery: '2026-03-02T00:00:00.000Z' });

    for (const payload of [{}, { status: 'ASSIGNED' }, { source: 'mcleod' }, { referenceNumber: null }, { referenceNumber: '' }, { weight: 300000 }, { id: 'ld_x' }]) {
      const r = await inject({ method: 'PUT', url: `/api/v1/loads/${l.id}`, headers: acme.auth, payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await inject({ method: 'GET', url: `/api/v1/loads/${l.id}`, headers: acme.auth })).json()).toEqual(cleared.json());
  });

  it('moves through PENDING → ASSIGNED → IN_TRANSIT → DELIVERED and refuses every other transition', async () => {
    const l = await create(acme.auth);
    for (const bad of ['IN_TRANSIT', 'DELIVERED', 'PENDING']) {
      const r = await setStatus(acme.auth, l.id, bad);
      expect(r.statusCode, bad).toBe(400);
    }
    expect((await setStatus(acme.auth, l.id, 'IN_TRANSIT')).json().message).toBe('Cannot change load status from PENDING to IN_TRANSIT (allowed: ASSIGNED, CANCELLED)');
    expect((await setStatus(acme.auth, l.id, 'PENDING')).json().message).toBe('Load is already PENDING');

    const assigned = await setStatus(acme.auth, l.id, 'ASSIGNED');
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json()).toMatchObject({ id: l.id, status: 'ASSIGNED' });
    expect((await setStatus(acme.auth, l.id, 'PENDING')).statusCode).toBe(400);
    expect((await setStatus(acme.auth, l.id, 'DELIVERED')).statusCode).toBe(400);
    expect((await setStatus(acme.auth, l.id, 'IN_TRANSIT')).json().status).toBe('IN_TRANSIT');
    expect((await setStatus(acme.auth, l.id, 'ASSIGNED')).statusCode).toBe(400);
    expect((await setStatus(acme.auth, l.id, 'DELIVERED')).json().status).toBe('DELIVERED');
    for (const after of ['CANCELLED', 'IN_TRANSIT', 'PENDING']) {
      const r = await setStatus(acme.auth, l.id, after);
      expect(r.statusCode, after).toBe(400);
      expect(r.json().message, after).toMatch(/^Cannot change load status from DELIVERED to \w+: DELIVERED is final$/);
    }
    const del = await inject({ method: 'DELETE', url: `/api/v1/loads/${l.id}`, headers: acme.auth });
    expect(del.statusCode).toBe(400);

    for (const body of [{}, { status: 'LOST' }, { status: 'ASSIGNED', note: 'n'.repeat(501) }, { status: 'ASSIGNED', driverId: 'drv_x' }]) {
      const r = await inject({ method: 'POST', url: `/api/v1/loads/${l.id}/status`, headers: acme.auth, payload: body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().message).toBe('Validation failed');
    }
  });

  it('cancels from any non-final state, via the status endpoint or DELETE (200 with the record), once', async () => {
    for (const path of [[], ['ASSIGNED'], ['ASSIGNED', 'IN_TRANSIT']]) {
      const l = await create(acme.auth);
      for (const s of path) expect((await setStatus(acme.auth, l.id, s)).statusCode).toBe(200);
      const del = await inject({ method: 'DELETE', url: `/api/v1/loads/${l.id}`, headers: acme.auth });
      expect(del.statusCode, path.join('>')).toBe(200);
      expect(del.json()).toMatchObject({ id: l.id, referenceNumber: l.referenceNumber, status: 'CANCELLED' });
      const again = await inject({ method: 'DELETE', url: `/api/v1/loads/${l.id}`, headers: acme.auth });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('Load is already CANCELLED');
      expect((await setStatus(acme.auth, l.id, 'PENDING')).statusCode).toBe(400);
    }
    const viaStatus = await create(acme.auth);
    expect((await setStatus(acme.auth, viaStatus.id, 'CANCELLED', 'customer called it off')).json().status).toBe('CANCELLED');
    // A cancelled load stays readable and editable for the record.
    expect((await inject({ method: 'GET', url: `/api/v1/loads/${viaStatus.id}`, headers: acme.auth })).json().status).toBe('CANCELLED');
  });

  it('writes load.status_changed to the outbox for every status change, in the same transaction, and nothing for refused ones', async () => {
    const dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
    const l = await create(acme.auth, { referenceNumber: 'EVT-1' });
    expect(await events(acme.tenantId, l.id)).toEqual([]);
    const t0 = t.clock.now().toISOString();
    await setStatus(acme.auth, l.id, 'ASSIGNED', '  driver Dana, truck T-42  ');
    t.clock.advance(60_000);
    const t1 = t.clock.now().toISOString();
    await setStatus(dispatcher.auth, l.id, 'IN_TRANSIT');
    await setStatus(acme.auth, l.id, 'PENDING'); // refused
    await inject({ method: 'PUT', url: `/api/v1/loads/${l.id}`, headers: acme.auth, payload: { customer: 'Changed' } }); // not a status change
    t.clock.advance(60_000);
    const t2 = t.clock.now().toISOString();
    await inject({ method: 'DELETE', url: `/api/v1/loads/${l.id}`, headers: acme.auth });

    const rows = await events(acme.tenantId, l.id);
    expect(rows.map((r) => r.payload)).toEqual([
      { loadId: l.id, referenceNumber: 'EVT-1', oldStatus: 'PENDING', newStatus: 'ASSIGNED', changedBy: acme.ownerId, changedAt: t0, note: 'driver Dana, truck T-42' },
      { loadId: l.id, referenceNumber: 'EVT-1', oldStatus: 'ASSIGNED', newStatus: 'IN_TRANSIT', changedBy: dispatcher.userId, changedAt: t1, note: null },
      { loadId: l.id, referenceNumber: 'EVT-1', oldStatus: 'IN_TRANSIT', newStatus: 'CANCELLED', changedBy: acme.ownerId, changedAt: t2, note: null },
    ]);
    // The event is in the load's tenant only.
    expect(await events(other.tenantId, l.id)).toEqual([]);

    // An API key acts as the user who created it.
    const key = await createApiKey(t.app, acme, 'tms bridge');
    const viaKey = await create(acme.auth);
    expect((await setStatus({ 'x-api-key': key.key }, viaKey.id, 'ASSIGNED')).statusCode).toBe(200);
    expect((await events(acme.tenantId, viaKey.id))[0]!.payload.changedBy).toBe(acme.ownerId);
  });

  it('rolls the status change back when the outbox write fails', async () => {
    const l = await create(acme.auth);
    // Make the outbox insert fail for this tenant only, inside the same transaction as the status update.
    await t.db.system((tx) =>
      tx.query(`CREATE FUNCTION fail_load_event() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.event_type = 'load.status_changed' AND NEW.payload->>'loadId' = '${l.id}' THEN RAISE EXCEPTION 'outbox down'; END IF; RETURN NEW; END $$`),
    );
    await t.db.system((tx) => tx.query('CREATE TRIGGER fail_load_event BEFORE INSERT ON outbox_events FOR EACH ROW EXECUTE FUNCTION fail_load_event()'));
    try {
      const res = await setStatus(acme.auth, l.id, 'ASSIGNED');
      expect(res.statusCode).toBe(500);
      expect((await inject({ method: 'GET', url: `/api/v1/loads/${l.id}`, headers: acme.auth })).json().status).toBe('PENDING');
    } finally {
      await t.db.system((tx) => tx.query('DROP TRIGGER fail_load_event ON outbox_events'));
      await t.db.system((tx) => tx.query('DROP FUNCTION fail_load_event()'));
    }
    expect((await setStatus(acme.auth, l.id, 'ASSIGNED')).statusCode).toBe(200);
  });

  it("answers 404 for another tenant's load on every :id route and leaves it untouched", async () => {
    const theirs = await create(other.auth, { referenceNumber: 'ONLY-OTHER-LOAD' });
    expect((await inject({ method: 'GET', url: '/api/v1/loads?search=ONLY-OTHER-LOAD', headers: acme.auth })).json().total).toBe(0);
    for (const [method, url, payload] of [
      ['GET', `/api/v1/loads/${theirs.id}`, undefined],
      ['PUT', `/api/v1/loads/${theirs.id}`, { customer: 'Hijacked' }],
      ['POST', `/api/v1/loads/${theirs.id}/status`, { status: 'ASSIGNED' }],
      ['DELETE', `/api/v1/loads/${theirs.id}`, undefined],
    ] as const) {
      const res = await inject({ method, url, headers: acme.auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Load not found' });
    }
    expect((await inject({ method: 'GET', url: `/api/v1/loads/${theirs.id}`, headers: other.auth })).json()).toEqual(theirs);
    expect(await events(other.tenantId, theirs.id)).toEqual([]);
    expect((await inject({ method: 'GET', url: '/api/v1/loads/ld_doesnotexist00000000000', headers: acme.auth })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/v1/loads/veh_doesnotexist0000000000', headers: acme.auth })).statusCode).toBe(400);
  });

  it('lets dispatchers manage loads, viewers only read them, and drivers neither', async () => {
    const dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
    const viewer = await createUser(t.app, t.mailer, acme, 'VIEWER');
    const driver = await createUser(t.app, t.mailer, acme, 'DRIVER');
    const l = await create(dispatcher.auth);
    expect((await setStatus(dispatcher.auth, l.id, 'ASSIGNED')).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/v1/loads', headers: viewer.auth })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: `/api/v1/loads/${l.id}`, headers: viewer.auth })).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/api/v1/loads', loadBody()],
      ['PUT', `/api/v1/loads/${l.id}`, { customer: 'V' }],
      ['POST', `/api/v1/loads/${l.id}/status`, { status: 'IN_TRANSIT' }],
      ['DELETE', `/api/v1/loads/${l.id}`, undefined],
    ] as const) {
      const denied = await inject({ method, url, headers: viewer.auth, ...(payload ? { payload } : {}) });
      expect(denied.statusCode, `${method} ${url}`).toBe(403);
      expect(denied.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    expect((await inject({ method: 'GET', url: '/api/v1/loads', headers: driver.auth })).statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: `/api/v1/loads/${l.id}`, headers: acme.auth })).json().status).toBe('ASSIGNED');
    expect(await events(acme.tenantId, l.id)).toHaveLength(1);
  });
});
