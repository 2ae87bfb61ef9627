import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { buildDriver, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

describe.each(DB_KINDS)('drivers API (%s)', (kind) => {
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

  it('creates a driver with status ACTIVE, zeroed clocks and a drv_ id', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/v1/drivers',
      headers: acme.auth,
      payload: { firstName: 'John', lastName: 'Smith', licenseNumber: 'tx-100200', licenseState: 'tx', truckNumber: 'T-42', phoneNumber: '+1 555 0100', email: 'john@example.test' },
    });
    expect(res.statusCode).toBe(201);
    const d = res.json();
    expect(d).toMatchObject({
      firstName: 'John',
      lastName: 'Smith',
      licenseNumber: 'TX-100200',
      licenseState: 'TX',
      truckNumber: 'T-42',
      phoneNumber: '+1 555 0100',
      email: 'john@example.test',
      status: 'ACTIVE',
      currentHoursDriven: 0,
      currentOnDutyTime: 0,
      currentCycleUsed: 0,
      lastRestartDate: null,
    });
    expect(d.id).toMatch(/^drv_[0-9A-Za-z]{22}$/);
    expect(Date.parse(d.createdAt)).not.toBeNaN();
    const got = await inject({ method: 'GET', url: `/api/v1/drivers/${d.id}`, headers: acme.auth });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(d);
  });

  it('requires firstName, lastName, licenseNumber and licenseState, and rejects unknown fields', async () => {
    const res = await inject({ method: 'POST', url: '/api/v1/drivers', headers: acme.auth, payload: { firstName: 'A', nickname: 'x' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
    const fields = body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body.lastName', 'body.licenseNumber', 'body.licenseState', 'body.nickname']));
  });

  it('rejects a license state that is not a state or province', async () => {
    const res = await inject({ method: 'POST', url: '/api/v1/drivers', headers: acme.auth, payload: buildDriver({ licenseState: 'ZZ' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toEqual({ field: 'body.licenseState', message: 'ZZ is not a US state or Canadian province code' });
  });

  it('keeps license numbers unique per tenant (case-insensitive), but not across tenants', async () => {
    await createDriver(t.app, acme.auth, { licenseNumber: 'DUP-1' });
    const dup = await inject({ method: 'POST', url: '/api/v1/drivers', headers: acme.auth, payload: buildDriver({ licenseNumber: 'dup-1' }) });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toMatch(/license number DUP-1 already exists/);
    const elsewhere = await inject({ method: 'POST', url: '/api/v1/drivers', headers: other.auth, payload: buildDriver({ licenseNumber: 'DUP-1' }) });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('keeps an external id (matched by ELD syncs), unique per tenant, clearable', async () => {
    const d = await createDriver(t.app, acme.auth, { licenseNumber: 'EXT-1', externalId: 'EMP-0042' } as never);
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${d.id as string}`, headers: acme.auth })).json()).toMatchObject({ externalId: 'EMP-0042' });
    const dup = await inject({ method: 'POST', url: '/api/v1/drivers', headers: acme.auth, payload: buildDriver({ licenseNumber: 'EXT-2', externalId: 'EMP-0042' } as never) });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toMatch(/external id EMP-0042 already exists/);
    const cleared = await inject({ method: 'PUT', url: `/api/v1/drivers/${d.id as string}`, headers: acme.auth, payload: { externalId: null } });
    expect(cleared.statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${d.id as string}`, headers: acme.auth })).json()).toMatchObject({ externalId: null });
  });

  it('lists with pagination (default 20, max 100), status and search filters, and the list subset', async () => {
    const tenant = await createTenant(t.app);
    for (let i = 0; i < 25; i++) {
      await createDriver(t.app, tenant.auth, { lastName: `Zed${String(i).padStart(2, '0')}`, truckNumber: `UNIT-${i}` });
    }
    const special = await createDriver(t.app, tenant.auth, { firstName: 'Maria', lastName: 'Lopez', licenseNumber: 'ML-777', truckNumber: 'TRK-9' });

    const first = await inject({ method: 'GET', url: '/api/v1/drivers', headers: tenant.auth });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1).toMatchObject({ total: 26, page: 1, pageSize: 20 });
    expect(page1.data).toHaveLength(20);
    expect(Object.keys(page1.data[0]).sort()).toEqual(
      ['id', 'firstName', 'lastName', 'licenseNumber', 'licenseState', 'truckNumber', 'status', 'currentHoursDriven', 'currentOnDutyTime', 'driveTimeRemaining', 'dutyTimeRemaining', 'currentDutyStatus', 'clockSource', 'disagreement'].sort(),
    );
    const second = (await inject({ method: 'GET', url: '/api/v1/drivers?page=2&pageSize=20', headers: tenant.auth })).json();
    expect(second.data).toHaveLength(6);
    const ids = new Set([...page1.data, ...second.data].map((d: { id: string }) => d.id));
    expect(ids.size).toBe(26);

    const beyond = (await inject({ method: 'GET', url: '/api/v1/drivers?page=9', headers: tenant.auth })).json();
    expect(beyond).toMatchObject({ data: [], total: 26, page: 9 });

    const big = await inject({ method: 'GET', url: '/api/v1/drivers?pageSize=101', headers: tenant.auth });
    expect(big.statusCode).toBe(400);
    const all = (await inject({ method: 'GET', url: '/api/v1/drivers?pageSize=100', headers: tenant.auth })).json();
    expect(all.data).toHaveLength(26);

    for (const q of ['maria', 'LOPEZ', 'maria lopez', 'ml-777', 'trk-9']) {
      const found = (await inject({ method: 'GET', url: `/api/v1/drivers?search=${encodeURIComponent(q)}`, headers: tenant.auth })).json();
      expect(found.data.map((d: { id: string }) => d.id), q).toEqual([special.id]);
    }
    const wildcard = (await inject({ method: 'GET', url: '/api/v1/drivers?search=%25', headers: tenant.auth })).json();
    expect(wildcard.total).toBe(0);

    await inject({ method: 'POST', url: `/api/v1/drivers/${special.id}/deactivate`, headers: tenant.auth });
    const inactive = (await inject({ method: 'GET', url: '/api/v1/drivers?status=INACTIVE', headers: tenant.auth })).json();
    expect(inactive.data.map((d: { id: string }) => d.id)).toEqual([special.id]);
    const active = (await inject({ method: 'GET', url: '/api/v1/drivers?status=ACTIVE', headers: tenant.auth })).json();
    expect(active.total).toBe(25);
    const bad = await inject({ method: 'GET', url: '/api/v1/drivers?status=RETIRED', headers: tenant.auth });
    expect(bad.statusCode).toBe(400);
  });

  it("never lists or returns another tenant's drivers", async () => {
    const mine = await createDriver(t.app, other.auth, { lastName: 'OnlyOther' });
    const list = (await inject({ method: 'GET', url: '/api/v1/drivers?pageSize=100&search=OnlyOther', headers: acme.auth })).json();
    expect(list.total).toBe(0);
    for (const [method, url] of [
      ['GET', `/api/v1/drivers/${mine.id}`],
      ['PUT', `/api/v1/drivers/${mine.id}`],
      ['POST', `/api/v1/drivers/${mine.id}/deactivate`],
      ['DELETE', `/api/v1/drivers/${mine.id}`],
      ['POST', `/api/v1/drivers/${mine.id}/reactivate`],
    ] as const) {
      const res = await inject({ method, url, headers: acme.auth, ...(method === 'PUT' ? { payload: { truckNumber: 'X' } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Driver not found' });
    }
    const still = (await inject({ method: 'GET', url: `/api/v1/drivers/${mine.id}`, headers: other.auth })).json();
    expect(still).toMatchObject({ status: 'ACTIVE', truckNumber: mine.truckNumber });
  });

  it('updates mutable fields and returns the update subset', async () => {
    const d = await createDriver(t.app, acme.auth);
    const res = await inject({ method: 'PUT', url: `/api/v1/drivers/${d.id}`, headers: acme.auth, payload: { truckNumber: 'T-900', phoneNumber: '+1 214 555 0199' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['id', 'firstName', 'lastName', 'licenseNumber', 'licenseState', 'truckNumber', 'phoneNumber', 'email', 'status', 'updatedAt'].sort(),
    );
    expect(body).toMatchObject({ truckNumber: 'T-900', phoneNumber: '+1 214 555 0199' });
    const cleared = (await inject({ method: 'PUT', url: `/api/v1/drivers/${d.id}`, headers: acme.auth, payload: { truckNumber: null } })).json();
    expect(cleared.truckNumber).toBeNull();
    for (const payload of [{}, { status: 'INACTIVE' }, { firstName: '' }, { firstName: '   ' }, { currentHoursDriven: 3 }]) {
      const r = await inject({ method: 'PUT', url: `/api/v1/drivers/${d.id}`, headers: acme.auth, payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('deactivates (POST or DELETE), refuses to deactivate twice, and reactivates', async () => {
    const d = await createDriver(t.app, acme.auth);
    const off = await inject({ method: 'POST', url: `/api/v1/drivers/${d.id}/deactivate`, headers: acme.auth });
    expect(off.statusCode).toBe(200);
    expect(Object.keys(off.json()).sort()).toEqual(['deactivatedAt', 'firstName', 'id', 'lastName', 'status']);
    expect(off.json().status).toBe('INACTIVE');
    const again = await inject({ method: 'POST', url: `/api/v1/drivers/${d.id}/deactivate`, headers: acme.auth });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Driver is already INACTIVE');
    const del = await inject({ method: 'DELETE', url: `/api/v1/drivers/${d.id}`, headers: acme.auth });
    expect(del.statusCode).toBe(400);

    const on = await inject({ method: 'POST', url: `/api/v1/drivers/${d.id}/reactivate`, headers: acme.auth });
    expect(on.statusCode).toBe(200);
    expect(Object.keys(on.json()).sort()).toEqual(['firstName', 'id', 'lastName', 'reactivatedAt', 'status']);
    expect(on.json().status).toBe('ACTIVE');
    const onAgain = await inject({ method: 'POST', url: `/api/v1/drivers/${d.id}/reactivate`, headers: acme.auth });
    expect(onAgain.statusCode).toBe(400);

    const viaDelete = await inject({ method: 'DELETE', url: `/api/v1/drivers/${d.id}`, headers: acme.auth });
    expect(viaDelete.statusCode).toBe(200);
    expect(viaDelete.json().status).toBe('INACTIVE');
    const full = (await inject({ method: 'GET', url: `/api/v1/drivers/${d.id}`, headers: acme.auth })).json();
    expect(full.deactivatedAt).toBe(viaDelete.json().deactivatedAt);
    expect(full.reactivatedAt).toBe(on.json().reactivatedAt);
  });

  it('writes driver.status_changed events to the outbox in the same transaction', async () => {
    const d = await createDriver(t.app, acme.auth);
    await inject({ method: 'POST', url: `/api/v1/drivers/${d.id}/deactivate`, headers: acme.auth });
    t.clock.advance(1000);
    await inject({ method: 'POST', url: `/api/v1/drivers/${d.id}/reactivate`, headers: acme.auth });
    const { rows } = await t.db.tenant(acme.tenantId, (tx) =>
      tx.query<{ event_type: string; payload: { driverId: string; oldStatus: string; newStatus: string } }>(
        "SELECT event_type, payload FROM outbox_events WHERE event_type = 'driver.status_changed' AND payload->>'driverId' = $1 ORDER BY created_at, id",
        [d.id],
      ),
    );
    expect(rows.map((r) => [r.payload.oldStatus, r.payload.newStatus])).toEqual([
      ['ACTIVE', 'INACTIVE'],
      ['INACTIVE', 'ACTIVE'],
    ]);
  });

  it('lets dispatchers manage drivers and viewers only read them', async () => {
    const dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
    const viewer = await createUser(t.app, t.mailer, acme, 'VIEWER');
    const created = await inject({ method: 'POST', url: '/api/v1/drivers', headers: dispatcher.auth, payload: buildDriver() });
    expect(created.statusCode).toBe(201);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: viewer.auth })).statusCode).toBe(200);
    const denied = await inject({ method: 'POST', url: '/api/v1/drivers', headers: viewer.auth, payload: buildDriver() });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  });

  it('answers 404 for an unknown or malformed driver id', async () => {
    expect((await inject({ method: 'GET', url: '/api/v1/drivers/drv_doesnotexist000000000', headers: acme.auth })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers/not-an-id', headers: acme.auth })).statusCode).toBe(400);
  });
});
