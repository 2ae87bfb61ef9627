import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { randomBase62 } from '../../lib/ids.js';

const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const randomVin = () => Array.from({ length: 17 }, () => VIN_ALPHABET[Math.floor(Math.random() * VIN_ALPHABET.length)]).join('');
let unit = 0;
const vehicleBody = (overrides: Record<string, unknown> = {}) => {
  unit += 1;
  return { unitNumber: `U-${unit}-${randomBase62(4)}`, vin: randomVin(), make: 'Freightliner', model: 'Cascadia', year: 2022, licensePlate: 'TX 1234', ...overrides };
};

describe.each(DB_KINDS)('vehicles API (%s)', (kind) => {
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
    const res = await inject({ method: 'POST', url: '/api/v1/vehicles', headers: auth, payload: vehicleBody(overrides) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; unitNumber: string; vin: string | null; [k: string]: unknown }>();
  };
  const fieldsOf = (body: { details?: Array<{ field: string }> }) => (body.details ?? []).map((d) => d.field);

  it('creates a vehicle with defaults (150 gal, 6.5 mpg, ACTIVE) and a veh_ id, and reads it back', async () => {
    const res = await inject({ method: 'POST', url: '/api/v1/vehicles', headers: acme.auth, payload: { unitNumber: '  T-100 ', vin: '1fuJgldr0cllv1234' } });
    expect(res.statusCode).toBe(201);
    const v = res.json();
    expect(v).toEqual({
      id: expect.stringMatching(/^veh_[0-9A-Za-z]{22}$/),
      unitNumber: 'T-100',
      vin: '1FUJGLDR0CLLV1234',
      make: null,
      model: null,
      year: null,
      licensePlate: null,
      fuelTankGallons: 150,
      mpg: 6.5,
      status: 'ACTIVE',
      eldExternalId: null,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    const got = await inject({ method: 'GET', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(v);

    const full = await create(acme.auth, { fuelTankGallons: 300, mpg: 7.2, status: 'IN_MAINTENANCE', eldExternalId: 'samsara-42' });
    expect(full).toMatchObject({ make: 'Freightliner', model: 'Cascadia', year: 2022, licensePlate: 'TX 1234', fuelTankGallons: 300, mpg: 7.2, status: 'IN_MAINTENANCE', eldExternalId: 'samsara-42' });
  });

  it('validates: required unitNumber, unknown fields, wrong types and ranges → 400 "Validation failed" with details', async () => {
    const nextYear = t.clock.now().getUTCFullYear() + 1;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ make: 'Volvo' }, 'body.unitNumber'],
      [{ unitNumber: '' }, 'body.unitNumber'],
      [{ unitNumber: '   ' }, 'body.unitNumber'],
      [{ unitNumber: 'x'.repeat(51) }, 'body.unitNumber'],
      [{ unitNumber: 42 }, 'body.unitNumber'],
      [vehicleBody({ color: 'red' }), 'body.color'],
      [vehicleBody({ id: 'veh_chosenByMe0000000000' }), 'body.id'],
      [vehicleBody({ createdAt: '2020-01-01T00:00:00Z' }), 'body.createdAt'],
      [vehicleBody({ year: '2020' }), 'body.year'],
      [vehicleBody({ year: 2020.5 }), 'body.year'],
      [vehicleBody({ year: 1979 }), 'body.year'],
      [vehicleBody({ year: nextYear + 1 }), 'body.year'],
      [vehicleBody({ fuelTankGallons: 9 }), 'body.fuelTankGallons'],
      [vehicleBody({ fuelTankGallons: 401 }), 'body.fuelTankGallons'],
      [vehicleBody({ fuelTankGallons: '150' }), 'body.fuelTankGallons'],
      [vehicleBody({ mpg: 1.9 }), 'body.mpg'],
      [vehicleBody({ mpg: 15.1 }), 'body.mpg'],
      [vehicleBody({ status: 'RETIRED' }), 'body.status'],
      [vehicleBody({ vin: '1FUJGLDR0CLLV123' }), 'body.vin'],
      [vehicleBody({ vin: '1FUJGLDR0CLLV12345' }), 'body.vin'],
      [vehicleBody({ vin: '1FUJGLDROCLLV1234' }), 'body.vin'], // letter O
      [vehicleBody({ vin: 'IFUJGLDR0CLLV1234' }), 'body.vin'], // letter I
      [vehicleBody({ vin: '1FUJGLDR0CLLQ1234' }), 'body.vin'], // letter Q
      [vehicleBody({ make: 'm'.repeat(51) }), 'body.make'],
      [vehicleBody({ licensePlate: 'p'.repeat(21) }), 'body.licensePlate'],
      [vehicleBody({ eldExternalId: 'e'.repeat(101) }), 'body.eldExternalId'],
    ];
    for (const [payload, field] of cases) {
      const res = await inject({ method: 'POST', url: '/api/v1/vehicles', headers: acme.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json();
      expect(body, JSON.stringify(payload)).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
      expect(fieldsOf(body), JSON.stringify(payload)).toContain(field);
    }
    // The bounds themselves are accepted.
    for (const ok of [{ year: 1980 }, { year: nextYear }, { fuelTankGallons: 10, mpg: 2 }, { fuelTankGallons: 400, mpg: 15 }]) {
      await create(acme.auth, ok);
    }
  });

  it('keeps unit numbers and VINs unique per tenant (case-insensitive), but not across tenants', async () => {
    const first = await create(acme.auth, { unitNumber: 'Dup-Unit-1' });
    const dupUnit = await inject({ method: 'POST', url: '/api/v1/vehicles', headers: acme.auth, payload: vehicleBody({ unitNumber: 'DUP-UNIT-1' }) });
    expect(dupUnit.statusCode).toBe(400);
    expect(dupUnit.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'A vehicle with unit number DUP-UNIT-1 already exists in this organization' });
    const dupVin = await inject({ method: 'POST', url: '/api/v1/vehicles', headers: acme.auth, payload: vehicleBody({ vin: first.vin!.toLowerCase() }) });
    expect(dupVin.statusCode).toBe(400);
    expect(dupVin.json().message).toBe(`A vehicle with VIN ${first.vin} already exists in this organization`);
    // Vehicles without a VIN do not collide with each other.
    await create(acme.auth, { vin: null });
    await create(acme.auth, { vin: null });

    await create(other.auth, { unitNumber: 'Dup-Unit-1', vin: first.vin });

    const second = await create(acme.auth);
    const clash = await inject({ method: 'PUT', url: `/api/v1/vehicles/${second.id}`, headers: acme.auth, payload: { unitNumber: 'dup-unit-1' } });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toMatch(/unit number dup-unit-1 already exists/);
    const vinClash = await inject({ method: 'PUT', url: `/api/v1/vehicles/${second.id}`, headers: acme.auth, payload: { vin: first.vin } });
    expect(vinClash.statusCode).toBe(400);
  });

  it('lists with pagination (default 20, max 100), status filter and search on unit number, VIN, plate, make and model', async () => {
    const tenant = await createTenant(t.app);
    for (let i = 0; i < 24; i++) await create(tenant.auth, { unitNumber: `FLEET-${String(i).padStart(2, '0')}`, make: 'Kenworth', model: 'T680', licensePlate: `KW ${i}`, vin: null }); // no random VIN: one could contain a searched term such as 579
    const special = await create(tenant.auth, { unitNumber: 'SPECIAL-7', vin: '3AKJHHDR5JSJV9999', make: 'Peterbilt', model: '579', licensePlate: 'ZZ-PLATE' });

    const first = await inject({ method: 'GET', url: '/api/v1/vehicles', headers: tenant.auth });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1).toMatchObject({ total: 25, page: 1, pageSize: 20 });
    expect(page1.data).toHaveLength(20);
    expect(page1.data[0].unitNumber).toBe('FLEET-00');
    const page2 = (await inject({ method: 'GET', url: '/api/v1/vehicles?page=2', headers: tenant.auth })).json();
    expect(page2.data).toHaveLength(5);
    expect(new Set([...page1.data, ...page2.data].map((v: { id: string }) => v.id)).size).toBe(25);
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles?page=5&pageSize=10', headers: tenant.auth })).json()).toMatchObject({ data: [], total: 25, page: 5, pageSize: 10 });
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles?pageSize=100', headers: tenant.auth })).json().data).toHaveLength(25);
    for (const q of ['pageSize=101', 'pageSize=0', 'page=0', 'page=abc', 'status=RETIRED', 'search=' + 'x'.repeat(101), 'color=red']) {
      const res = await inject({ method: 'GET', url: `/api/v1/vehicles?${q}`, headers: tenant.auth });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toBe('Validation failed');
    }

    for (const q of ['special-7', '3akjhhdr5jsjv9999', 'zz-plate', 'peterbilt', '579']) {
      const found = (await inject({ method: 'GET', url: `/api/v1/vehicles?search=${encodeURIComponent(q)}`, headers: tenant.auth })).json();
      expect(found.data.map((v: { id: string }) => v.id), q).toEqual([special.id]);
    }
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles?search=%25', headers: tenant.auth })).json().total).toBe(0);
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles?search=_', headers: tenant.auth })).json().total).toBe(0);

    await inject({ method: 'PUT', url: `/api/v1/vehicles/${special.id}`, headers: tenant.auth, payload: { status: 'IN_MAINTENANCE' } });
    const maint = (await inject({ method: 'GET', url: '/api/v1/vehicles?status=IN_MAINTENANCE', headers: tenant.auth })).json();
    expect(maint.data.map((v: { id: string }) => v.id)).toEqual([special.id]);
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles?status=ACTIVE&search=kenworth', headers: tenant.auth })).json().total).toBe(24);
  });

  it('updates any mutable field, clears optional ones with null, and refuses empty or unknown changes', async () => {
    const v = await create(acme.auth);
    t.clock.advance(60_000);
    const res = await inject({
      method: 'PUT',
      url: `/api/v1/vehicles/${v.id}`,
      headers: acme.auth,
      payload: { unitNumber: 'RENAMED-1', make: 'Volvo', model: 'VNL', year: 2024, licensePlate: 'OK 777', fuelTankGallons: 250, mpg: 8, status: 'IN_MAINTENANCE', eldExternalId: 'eld-9', vin: 'ab12cd34ef56gh78j' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const u = res.json();
    expect(u).toMatchObject({ id: v.id, unitNumber: 'RENAMED-1', make: 'Volvo', model: 'VNL', year: 2024, licensePlate: 'OK 777', fuelTankGallons: 250, mpg: 8, status: 'IN_MAINTENANCE', eldExternalId: 'eld-9', vin: 'AB12CD34EF56GH78J' });
    expect(u.createdAt).toBe(v.createdAt);
    expect(u.updatedAt).toBe(t.clock.now().toISOString());
    const cleared = (await inject({ method: 'PUT', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth, payload: { vin: null, make: null, model: '', year: null, licensePlate: null, eldExternalId: null } })).json();
    expect(cleared).toMatchObject({ vin: null, make: null, model: null, year: null, licensePlate: null, eldExternalId: null, unitNumber: 'RENAMED-1' });
    expect((await inject({ method: 'GET', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth })).json()).toEqual(cleared);

    for (const payload of [{}, { unitNumber: null }, { unitNumber: '' }, { fuelTankGallons: null }, { mpg: 20 }, { id: 'veh_x' }, { createdAt: '2020-01-01T00:00:00Z' }, { odometer: 5 }]) {
      const r = await inject({ method: 'PUT', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth, payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('DELETE deactivates (200 with the record) and refuses an INACTIVE vehicle; PUT can reactivate', async () => {
    const v = await create(acme.auth);
    const del = await inject({ method: 'DELETE', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ ...v, status: 'INACTIVE', updatedAt: expect.any(String) });
    expect((await inject({ method: 'GET', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth })).json().status).toBe('INACTIVE');
    const again = await inject({ method: 'DELETE', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Vehicle is already INACTIVE' });
    const back = await inject({ method: 'PUT', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth, payload: { status: 'ACTIVE' } });
    expect(back.json().status).toBe('ACTIVE');
    expect((await inject({ method: 'DELETE', url: `/api/v1/vehicles/${v.id}`, headers: acme.auth })).statusCode).toBe(200);
  });

  it("answers 404 for another tenant's vehicle on every :id route and leaves it untouched", async () => {
    const theirs = await create(other.auth, { unitNumber: 'ONLY-OTHER' });
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles?search=ONLY-OTHER', headers: acme.auth })).json().total).toBe(0);
    for (const [method, url] of [
      ['GET', `/api/v1/vehicles/${theirs.id}`],
      ['PUT', `/api/v1/vehicles/${theirs.id}`],
      ['DELETE', `/api/v1/vehicles/${theirs.id}`],
    ] as const) {
      const res = await inject({ method, url, headers: acme.auth, ...(method === 'PUT' ? { payload: { make: 'Hijacked' } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Vehicle not found' });
    }
    expect((await inject({ method: 'GET', url: `/api/v1/vehicles/${theirs.id}`, headers: other.auth })).json()).toEqual(theirs);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles/veh_doesnotexist000000000', headers: acme.auth })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles/drv_doesnotexist000000000', headers: acme.auth })).statusCode).toBe(400);
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles/not-an-id', headers: acme.auth })).statusCode).toBe(400);
  });

  it('lets dispatchers manage vehicles, viewers only read them, and drivers neither', async () => {
    const dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
    const viewer = await createUser(t.app, t.mailer, acme, 'VIEWER');
    const driver = await createUser(t.app, t.mailer, acme, 'DRIVER');
    const v = await create(dispatcher.auth);
    expect((await inject({ method: 'PUT', url: `/api/v1/vehicles/${v.id}`, headers: dispatcher.auth, payload: { mpg: 7 } })).statusCode).toBe(200);

    expect((await inject({ method: 'GET', url: '/api/v1/vehicles', headers: viewer.auth })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: `/api/v1/vehicles/${v.id}`, headers: viewer.auth })).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/api/v1/vehicles', vehicleBody()],
      ['PUT', `/api/v1/vehicles/${v.id}`, { mpg: 8 }],
      ['DELETE', `/api/v1/vehicles/${v.id}`, undefined],
    ] as const) {
      const denied = await inject({ method, url, headers: viewer.auth, ...(payload ? { payload } : {}) });
      expect(denied.statusCode, `${method} ${url}`).toBe(403);
      expect(denied.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    expect((await inject({ method: 'GET', url: '/api/v1/vehicles', headers: driver.auth })).statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: `/api/v1/vehicles/${v.id}`, headers: viewer.auth })).json()).toMatchObject({ mpg: 7, status: 'ACTIVE' });
  });
});
