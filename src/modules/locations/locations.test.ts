import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { randomBase62 } from '../../lib/ids.js';
import { formatCsvRecord } from './locations.csv.js';

const HEADER = 'name,type,address,latitude,longitude,parking,showers,diesel,fuelDiscountPerGallon,externalId';
const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const FORT_WORTH = { latitude: 32.7555, longitude: -97.3308 };
const AUSTIN = { latitude: 30.2672, longitude: -97.7431 };

const locationBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Pilot ${randomBase62(6)}`,
  type: 'TRUCK_STOP',
  address: '1 Interstate Hwy, Dallas, TX',
  ...DALLAS,
  amenities: { parking: true, showers: true, diesel: true },
  fuelDiscountPerGallon: 0.12,
  ...overrides,
});

/** Great-circle distance in miles, independent of the SQL under test. */
function haversineMiles(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(r(b.latitude - a.latitude) / 2) ** 2 + Math.cos(r(a.latitude)) * Math.cos(r(b.latitude)) * Math.sin(r(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 3958.7613 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A small deterministic generator so failures reproduce. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe.each(DB_KINDS)('locations API (%s)', (kind) => {
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
    const res = await inject({ method: 'POST', url: '/api/v1/locations', headers: auth, payload: locationBody(overrides) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; name: string; [k: string]: unknown }>();
  };
  const importCsv = (auth: Record<string, string>, csv: string, contentType = 'text/csv') =>
    inject({ method: 'POST', url: '/api/v1/locations/import', headers: { ...auth, 'content-type': contentType }, payload: csv });
  const all = async (auth: Record<string, string>, query = '') => {
    const out: Array<Record<string, unknown>> = [];
    for (let page = 1; ; page++) {
      const res = await inject({ method: 'GET', url: `/api/v1/locations?pageSize=100&page=${page}${query ? `&${query}` : ''}`, headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ data: Array<Record<string, unknown>>; total: number }>();
      out.push(...body.data);
      if (out.length >= body.total || body.data.length === 0) return out;
    }
  };

  describe('CRUD', () => {
    it('creates a location (loc_ id, amenities default false) and reads it back', async () => {
      const res = await inject({ method: 'POST', url: '/api/v1/locations', headers: acme.auth, payload: { name: '  Acme Yard ', type: 'YARD', latitude: 32.5, longitude: -97.1, amenities: { parking: true } } });
      expect(res.statusCode, res.body).toBe(201);
      const l = res.json();
      expect(l).toEqual({
        id: expect.stringMatching(/^loc_[0-9A-Za-z]{22}$/),
        name: 'Acme Yard',
        type: 'YARD',
        address: null,
        latitude: 32.5,
        longitude: -97.1,
        amenities: { parking: true, showers: false, diesel: false },
        fuelDiscountPerGallon: null,
        externalId: null,
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
      });
      expect((await inject({ method: 'GET', url: `/api/v1/locations/${l.id}`, headers: acme.auth })).json()).toEqual(l);
      const full = await create(acme.auth, { externalId: 'pilot-1', type: 'FUEL_STATION', fuelDiscountPerGallon: 2 });
      expect(full).toMatchObject({ type: 'FUEL_STATION', amenities: { parking: true, showers: true, diesel: true }, fuelDiscountPerGallon: 2, externalId: 'pilot-1' });
    });

    it('validates: required fields, unknown fields, types and ranges → 400 "Validation failed" with details', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ type: 'YARD', latitude: 1, longitude: 1 }, 'body.name'],
        [{ name: 'x', latitude: 1, longitude: 1 }, 'body.type'],
        [{ name: 'x', type: 'YARD', longitude: 1 }, 'body.latitude'],
        [{ name: 'x', type: 'YARD', latitude: 1 }, 'body.longitude'],
        [locationBody({ name: '' }), 'body.name'],
        [locationBody({ name: '   ' }), 'body.name'],
        [locationBody({ name: 'n'.repeat(201) }), 'body.name'],
        [locationBody({ type: 'truck_stop' }), 'body.type'],
        [locationBody({ type: 'WAREHOUSE' }), 'body.type'],
        [locationBody({ latitude: 90.0001 }), 'body.latitude'],
        [locationBody({ latitude: -91 }), 'body.latitude'],
        [locationBody({ longitude: 180.5 }), 'body.longitude'],
        [locationBody({ longitude: -181 }), 'body.longitude'],
        [locationBody({ latitude: '32.7' }), 'body.latitude'],
        [locationBody({ fuelDiscountPerGallon: 2.01 }), 'body.fuelDiscountPerGallon'],
        [locationBody({ fuelDiscountPerGallon: -0.01 }), 'body.fuelDiscountPerGallon'],
        [locationBody({ amenities: { parking: 'yes' } }), 'body.amenities.parking'],
        [locationBody({ amenities: { wifi: true } }), 'body.amenities.wifi'],
        [locationBody({ amenities: null }), 'body.amenities'],
        [locationBody({ address: 'a'.repeat(301) }), 'body.address'],
        [locationBody({ externalId: 'e'.repeat(101) }), 'body.externalId'],
        [locationBody({ rating: 5 }), 'body.rating'],
        [locationBody({ id: 'loc_mine' }), 'body.id'],
      ];
      for (const [payload, field] of cases) {
        const res = await inject({ method: 'POST', url: '/api/v1/locations', headers: acme.auth, payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        const body = res.json();
        expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
        expect(body.details.map((d: { field: string }) => d.field), JSON.stringify(payload)).toContain(field);
      }
      for (const edge of [{ latitude: 90, longitude: 180 }, { latitude: -90, longitude: -180 }, { fuelDiscountPerGallon: 0 }]) await create(acme.auth, edge);
    });

    it('keeps external ids unique per tenant, not across tenants', async () => {
      await create(acme.auth, { externalId: 'dup-ext' });
      const dup = await inject({ method: 'POST', url: '/api/v1/locations', headers: acme.auth, payload: locationBody({ externalId: 'dup-ext' }) });
      expect(dup.statusCode).toBe(400);
      expect(dup.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'A location with external id dup-ext already exists in this organization' });
      await create(other.auth, { externalId: 'dup-ext' });
      const second = await create(acme.auth);
      const clash = await inject({ method: 'PUT', url: `/api/v1/locations/${second.id}`, headers: acme.auth, payload: { externalId: 'dup-ext' } });
      expect(clash.statusCode).toBe(400);
      // Locations without an external id never collide.
      await create(acme.auth, { externalId: null });
      await create(acme.auth, { externalId: '' });
    });

    it('updates fields, merges partial amenities, clears optional fields with null, and refuses bad changes', async () => {
      const l = await create(acme.auth, { externalId: `upd-${randomBase62(4)}` });
      t.clock.advance(1000);
      const res = await inject({ method: 'PUT', url: `/api/v1/locations/${l.id}`, headers: acme.auth, payload: { name: 'Renamed', type: 'REST_AREA', latitude: 10, longitude: 20, amenities: { showers: false } } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: l.id, name: 'Renamed', type: 'REST_AREA', latitude: 10, longitude: 20, amenities: { parking: true, showers: false, diesel: true }, createdAt: l.createdAt, updatedAt: t.clock.now().toISOString() });
      const cleared = await inject({ method: 'PUT', url: `/api/v1/locations/${l.id}`, headers: acme.auth, payload: { address: null, fuelDiscountPerGallon: null, externalId: null } });
      expect(cleared.json()).toMatchObject({ address: null, fuelDiscountPerGallon: null, externalId: null, name: 'Renamed' });
      for (const payload of [{}, { name: null }, { name: '' }, { type: null }, { latitude: null }, { latitude: 100 }, { amenities: { parking: 1 } }, { createdAt: '2020-01-01T00:00:00Z' }]) {
        const r = await inject({ method: 'PUT', url: `/api/v1/locations/${l.id}`, headers: acme.auth, payload });
        expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      }
      expect((await inject({ method: 'GET', url: `/api/v1/locations/${l.id}`, headers: acme.auth })).json()).toEqual(cleared.json());
    });

    it('deletes permanently, answering the deleted record', async () => {
      const l = await create(acme.auth);
      const del = await inject({ method: 'DELETE', url: `/api/v1/locations/${l.id}`, headers: acme.auth });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual(l);
      expect((await inject({ method: 'GET', url: `/api/v1/locations/${l.id}`, headers: acme.auth })).statusCode).toBe(404);
      expect((await inject({ method: 'DELETE', url: `/api/v1/locations/${l.id}`, headers: acme.auth })).statusCode).toBe(404);
    });

    it("answers 404 for another tenant's location on every :id route and leaves it untouched", async () => {
      const theirs = await create(other.auth, { name: 'Only Other Stop' });
      expect((await inject({ method: 'GET', url: '/api/v1/locations?search=Only%20Other', headers: acme.auth })).json().total).toBe(0);
      for (const [method, url] of [
        ['GET', `/api/v1/locations/${theirs.id}`],
        ['PUT', `/api/v1/locations/${theirs.id}`],
        ['DELETE', `/api/v1/locations/${theirs.id}`],
      ] as const) {
        const res = await inject({ method, url, headers: acme.auth, ...(method === 'PUT' ? { payload: { name: 'Hijacked' } } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Location not found' });
      }
      expect((await inject({ method: 'GET', url: `/api/v1/locations/${theirs.id}`, headers: other.auth })).json()).toEqual(theirs);
      expect((await inject({ method: 'GET', url: '/api/v1/locations/loc_doesnotexist000000000', headers: acme.auth })).statusCode).toBe(404);
      expect((await inject({ method: 'GET', url: '/api/v1/locations/not-an-id', headers: acme.auth })).statusCode).toBe(400);
    });

    it('lets dispatchers manage locations, viewers only read them, and drivers neither', async () => {
      const dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
      const viewer = await createUser(t.app, t.mailer, acme, 'VIEWER');
      const driver = await createUser(t.app, t.mailer, acme, 'DRIVER');
      const l = await create(dispatcher.auth);
      expect((await importCsv(dispatcher.auth, `name,type,latitude,longitude\nDispatch Yard,YARD,30,-90\n`)).statusCode).toBe(200);
      expect((await inject({ method: 'GET', url: '/api/v1/locations', headers: viewer.auth })).statusCode).toBe(200);
      expect((await inject({ method: 'GET', url: `/api/v1/locations/${l.id}`, headers: viewer.auth })).statusCode).toBe(200);
      for (const [method, url, payload] of [
        ['POST', '/api/v1/locations', locationBody()],
        ['PUT', `/api/v1/locations/${l.id}`, { name: 'V' }],
        ['DELETE', `/api/v1/locations/${l.id}`, undefined],
      ] as const) {
        const denied = await inject({ method, url, headers: viewer.auth, ...(payload ? { payload } : {}) });
        expect(denied.statusCode, `${method} ${url}`).toBe(403);
        expect(denied.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      }
      const deniedImport = await importCsv(viewer.auth, `name,type,latitude,longitude\nViewer Yard,YARD,30,-90\n`);
      expect(deniedImport.statusCode).toBe(403);
      expect((await inject({ method: 'GET', url: '/api/v1/locations?search=Viewer%20Yard', headers: acme.auth })).json().total).toBe(0);
      expect((await inject({ method: 'GET', url: '/api/v1/locations', headers: driver.auth })).statusCode).toBe(403);
    });
  });

  describe('listing', () => {
    let tenant: TenantFixture;
    beforeAll(async () => {
      tenant = await createTenant(t.app);
    });

    it('pages (default 20, max 100) by name, filters by type and searches name and address', async () => {
      for (let i = 0; i < 22; i++) await create(tenant.auth, { name: `Stop ${String(i).padStart(2, '0')}`, type: i % 2 ? 'TRUCK_STOP' : 'FUEL_STATION', address: `${i} Route 66, Tulsa, OK` });
      const dock = await create(tenant.auth, { name: 'Walmart DC 6094', type: 'CUSTOMER', address: '4500 Dock Rd, Bentonville, AR' });
      const page1 = (await inject({ method: 'GET', url: '/api/v1/locations', headers: tenant.auth })).json();
      expect(page1).toMatchObject({ total: 23, page: 1, pageSize: 20 });
      expect(page1.data.map((l: { name: string }) => l.name).slice(0, 2)).toEqual(['Stop 00', 'Stop 01']);
      expect(page1.data[0]).not.toHaveProperty('distanceMiles');
      const page2 = (await inject({ method: 'GET', url: '/api/v1/locations?page=2', headers: tenant.auth })).json();
      expect(page2.data.map((l: { name: string }) => l.name)).toEqual(['Stop 20', 'Stop 21', 'Walmart DC 6094']);
      expect((await inject({ method: 'GET', url: '/api/v1/locations?page=4&pageSize=10', headers: tenant.auth })).json()).toMatchObject({ data: [], total: 23 });
      expect((await inject({ method: 'GET', url: '/api/v1/locations?type=TRUCK_STOP', headers: tenant.auth })).json().total).toBe(11);
      expect((await inject({ method: 'GET', url: '/api/v1/locations?type=CUSTOMER', headers: tenant.auth })).json().data.map((l: { id: string }) => l.id)).toEqual([dock.id]);
      for (const q of ['walmart', 'dock rd', 'BENTONVILLE']) {
        expect((await inject({ method: 'GET', url: `/api/v1/locations?search=${encodeURIComponent(q)}`, headers: tenant.auth })).json().data.map((l: { id: string }) => l.id), q).toEqual([dock.id]);
      }
      expect((await inject({ method: 'GET', url: '/api/v1/locations?search=tulsa&type=FUEL_STATION', headers: tenant.auth })).json().total).toBe(11);
      for (const q of ['pageSize=101', 'type=WAREHOUSE', 'search=' + 'x'.repeat(101), 'sort=name']) {
        const res = await inject({ method: 'GET', url: `/api/v1/locations?${q}`, headers: tenant.auth });
        expect(res.statusCode, q).toBe(400);
        expect(res.json().message).toBe('Validation failed');
      }
    });

    it('filters by distance with near=lat,lng&radiusMiles, nearest first, with distanceMiles', async () => {
      const t2 = await createTenant(t.app);
      const dallas = await create(t2.auth, { name: 'Dallas', ...DALLAS });
      const fortWorth = await create(t2.auth, { name: 'Fort Worth', ...FORT_WORTH });
      const austin = await create(t2.auth, { name: 'Austin', ...AUSTIN, type: 'YARD' });
      const near = (q: string) => inject({ method: 'GET', url: `/api/v1/locations?${q}`, headers: t2.auth });

      const within50 = (await near(`near=${DALLAS.latitude},${DALLAS.longitude}&radiusMiles=50`)).json();
      expect(within50.total).toBe(2);
      expect(within50.data.map((l: { id: string }) => l.id)).toEqual([dallas.id, fortWorth.id]);
      expect(within50.data[0].distanceMiles).toBe(0);
      expect(within50.data[1].distanceMiles).toBeCloseTo(haversineMiles(DALLAS, FORT_WORTH), 1);
      expect(within50.data[1].distanceMiles).toBeGreaterThan(30);
      expect(within50.data[1].distanceMiles).toBeLessThan(33);
      const within200 = (await near(`near=${DALLAS.latitude},${DALLAS.longitude}&radiusMiles=200`)).json();
      expect(within200.data.map((l: { name: string }) => l.name)).toEqual(['Dallas', 'Fort Worth', 'Austin']);
      // The default radius is 50 miles; filters combine.
      expect((await near(`near=%20${DALLAS.latitude},%20${DALLAS.longitude}`)).json().total).toBe(2);
      expect((await near(`near=${DALLAS.latitude},${DALLAS.longitude}&radiusMiles=200&type=YARD`)).json().data.map((l: { id: string }) => l.id)).toEqual([austin.id]);
      expect((await near(`near=${DALLAS.latitude},${DALLAS.longitude}&radiusMiles=200&search=fort`)).json().data.map((l: { id: string }) => l.id)).toEqual([fortWorth.id]);
      expect((await near('near=0,0&radiusMiles=500')).json()).toMatchObject({ data: [], total: 0 });
      const paged = (await near(`near=${DALLAS.latitude},${DALLAS.longitude}&radiusMiles=200&pageSize=1&page=3`)).json();
      expect(paged).toMatchObject({ total: 3, page: 3, pageSize: 1 });
      expect(paged.data.map((l: { id: string }) => l.id)).toEqual([austin.id]);

      for (const [q, field] of [
        ['radiusMiles=10', 'querystring.radiusMiles'],
        ['near=91,0', 'querystring.near'],
        ['near=0,181', 'querystring.near'],
        ['near=dallas', 'querystring.near'],
        ['near=1,2,3', 'querystring.near'],
        ['near=1', 'querystring.near'],
        ['near=0,0&radiusMiles=0', 'querystring.radiusMiles'],
        ['near=0,0&radiusMiles=501', 'querystring.radiusMiles'],
        ['near=0,0&radiusMiles=-5', 'querystring.radiusMiles'],
      ] as const) {
        const res = await near(q);
        expect(res.statusCode, q).toBe(400);
        expect(res.json().message, q).toBe('Validation failed');
        expect(res.json().details.map((d: { field: string }) => d.field), q).toContain(field);
      }
    });

    it('finds places across the antimeridian and near the poles', async () => {
      const t3 = await createTenant(t.app);
      const east = await create(t3.auth, { name: 'East', latitude: 0, longitude: 179.95 });
      const west = await create(t3.auth, { name: 'West', latitude: 0, longitude: -179.95 });
      await create(t3.auth, { name: 'Far', latitude: 0, longitude: 170 });
      const across = (await inject({ method: 'GET', url: '/api/v1/locations?near=0,-179.99&radiusMiles=20', headers: t3.auth })).json();
      expect(across.data.map((l: { id: string }) => l.id)).toEqual([west.id, east.id]);
      const polar = await create(t3.auth, { name: 'Polar', latitude: 89.9, longitude: 180 });
      const pole = (await inject({ method: 'GET', url: '/api/v1/locations?near=89.9,0&radiusMiles=20', headers: t3.auth })).json();
      expect(pole.data.map((l: { id: string }) => l.id)).toEqual([polar.id]);
      expect(pole.data[0].distanceMiles).toBeCloseTo(haversineMiles({ latitude: 89.9, longitude: 0 }, { latitude: 89.9, longitude: 180 }), 1);
    });

    it('agrees with an independent haversine on random places and circles', async () => {
      const t4 = await createTenant(t.app);
      const rand = prng(20260302);
      const places = Array.from({ length: 400 }, (_, i) => {
        // Clustered around a few centres, some at high latitude, so that circles catch many of them.
        const centre = [DALLAS, { latitude: 61.2, longitude: -149.9 }, { latitude: -33.9, longitude: 151.2 }, { latitude: 10, longitude: 179.5 }][i % 4]!;
        const latitude = Math.max(-90, Math.min(90, centre.latitude + (rand() - 0.5) * 12));
        let longitude = centre.longitude + (rand() - 0.5) * 24;
        if (longitude > 180) longitude -= 360;
        if (longitude < -180) longitude += 360;
        return { name: `P${i}`, latitude: Number(latitude.toFixed(5)), longitude: Number(longitude.toFixed(5)) };
      });
      const csv = ['name,type,latitude,longitude', ...places.map((p) => `${p.name},FUEL_STATION,${p.latitude},${p.longitude}`)].join('\n');
      expect((await importCsv(t4.auth, csv)).json()).toEqual({ imported: 400, updated: 0, errors: [] });
      for (let k = 0; k < 12; k++) {
        const centre = places[Math.floor(rand() * places.length)]!;
        const radius = Math.round((10 + rand() * 490) * 10) / 10;
        const expected = places
          .map((p) => ({ name: p.name, d: haversineMiles(centre, p) }))
          .filter((p) => Math.abs(p.d - radius) > 1e-6) // leave out knife-edge cases
          .filter((p) => p.d <= radius);
        const found = await all(t4.auth, `near=${centre.latitude},${centre.longitude}&radiusMiles=${radius}`);
        const foundNames = found.map((f) => f.name as string);
        expect(new Set(foundNames), `${centre.name} r=${radius}`).toEqual(new Set(expected.map((e) => e.name)));
        const distances = found.map((f) => f.distanceMiles as number);
        expect([...distances].sort((a, b) => a - b)).toEqual(distances);
        for (const f of found) expect(f.distanceMiles as number).toBeCloseTo(haversineMiles(centre, f as { latitude: number; longitude: number }), 1);
      }
    });
  });

  describe('CSV import', () => {
    it('imports rows (quoted fields with commas and quotes, CRLF, any column order) and answers the counts', async () => {
      const tenant = await createTenant(t.app);
      const csv = [
        HEADER,
        '"Love\'s Travel Stop #512, ""The Big One""","TRUCK_STOP","2000 I-35, Exit 42, Denton, TX 76207",33.2148,-97.1331,true,yes,Y,0.15,LOVES-512',
        'Acme DC,customer,,32.9,-96.8,,,,,',
        'North Yard,Yard,"1 Yard Rd\nBuilding ""C""",33,-97,FALSE,no,0,,YARD-N',
        '',
      ].join('\r\n');
      const res = await importCsv(tenant.auth, csv);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ imported: 3, updated: 0, errors: [] });
      const list = await all(tenant.auth);
      expect(list.map((l) => l.name)).toEqual(['Acme DC', 'Love\'s Travel Stop #512, "The Big One"', 'North Yard']);
      expect(list[1]).toMatchObject({
        type: 'TRUCK_STOP',
        address: '2000 I-35, Exit 42, Denton, TX 76207',
        latitude: 33.2148,
        longitude: -97.1331,
        amenities: { parking: true, showers: true, diesel: true },
        fuelDiscountPerGallon: 0.15,
        externalId: 'LOVES-512',
        createdAt: t.clock.now().toISOString(),
      });
      expect(list[0]).toMatchObject({ type: 'CUSTOMER', address: null, amenities: { parking: false, showers: false, diesel: false }, fuelDiscountPerGallon: null, externalId: null });
      expect(list[2]).toMatchObject({ type: 'YARD', address: '1 Yard Rd\nBuilding "C"', amenities: { parking: false, showers: false, diesel: false }, externalId: 'YARD-N' });

      // Columns in another order, optional ones left out, a byte-order mark, text/csv with a charset.
      const reordered = await importCsv(tenant.auth, '\uFEFFLongitude,latitude,TYPE,name\n-90.1,29.9,rest area,Bayou Rest\n', 'text/csv; charset=utf-8');
      expect(reordered.statusCode, reordered.body).toBe(200);
      expect(reordered.json()).toEqual({ imported: 1, updated: 0, errors: [] });
      expect((await all(tenant.auth, 'search=bayou'))[0]).toMatchObject({ type: 'REST_AREA', latitude: 29.9, longitude: -90.1 });
    });

    it('updates the location with the same externalId (keeping its id), and inserts the rest', async () => {
      const tenant = await createTenant(t.app);
      const made = await create(tenant.auth, { name: 'Made By API', externalId: 'API-1' });
      const first = await importCsv(tenant.auth, [HEADER, 'Stop A,TRUCK_STOP,,30,-95,true,true,true,0.1,EXT-A', 'Stop B,FUEL_STATION,,31,-96,false,false,true,0.2,EXT-B'].join('\n'));
      expect(first.json()).toEqual({ imported: 2, updated: 0, errors: [] });
      const before = await all(tenant.auth);
      const idOf = (ext: string) => before.find((l) => l.externalId === ext)!.id;
      t.clock.advance(60_000);

      const second = await importCsv(
        tenant.auth,
        [HEADER, 'Stop A (renamed),REST_AREA,New address,30.5,-95.5,false,true,false,,EXT-A', 'Stop C,YARD,,32,-97,,,,,EXT-C', 'Made By CSV,CUSTOMER,,1,2,,,,,API-1', 'No Ext,YARD,,3,4,,,,,'].join('\n'),
      );
      expect(second.statusCode, second.body).toBe(200);
      expect(second.json()).toEqual({ imported: 2, updated: 2, errors: [] });
      const after = await all(tenant.auth);
      expect(after).toHaveLength(5);
      const a = after.find((l) => l.externalId === 'EXT-A')!;
      expect(a).toMatchObject({
        id: idOf('EXT-A'),
        name: 'Stop A (renamed)',
        type: 'REST_AREA',
        address: 'New address',
        latitude: 30.5,
        longitude: -95.5,
        amenities: { parking: false, showers: true, diesel: false },
        fuelDiscountPerGallon: null,
        createdAt: before.find((l) => l.externalId === 'EXT-A')!.createdAt,
        updatedAt: t.clock.now().toISOString(),
      });
      expect(after.find((l) => l.externalId === 'API-1')).toMatchObject({ id: made.id, name: 'Made By CSV', type: 'CUSTOMER' });
      expect(after.find((l) => l.externalId === 'EXT-B')).toEqual(before.find((l) => l.externalId === 'EXT-B'));

      // The same external id in another tenant is another location.
      expect((await importCsv(other.auth, [HEADER, 'Theirs,YARD,,1,1,,,,,EXT-A'].join('\n'))).json()).toEqual({ imported: 1, updated: 0, errors: [] });
      expect((await inject({ method: 'GET', url: `/api/v1/locations/${a.id as string}`, headers: tenant.auth })).json().name).toBe('Stop A (renamed)');
    });

    it('writes nothing when any row is invalid, and lists every problem as {row, field, message}', async () => {
      const tenant = await createTenant(t.app);
      await importCsv(tenant.auth, [HEADER, 'Keep Me,TRUCK_STOP,,30,-95,,,,,KEEP'].join('\n'));
      const before = await all(tenant.auth);
      const csv = [
        HEADER,
        'Good One,TRUCK_STOP,,30,-95,,,,,NEW-1', // row 2: fine
        'Keep Me Changed,TRUCK_STOP,,30,-95,,,,,KEEP', // row 3: fine (an update)
        ',WAREHOUSE,,91,abc,maybe,,,2.5,', // row 4: five problems
        'Short,YARD,,1', // row 5: too few fields
        '',
        '"Dup",YARD,,1,1,,,,,NEW-1', // row 7: duplicate external id
        `${'n'.repeat(201)},YARD,,-90.5,180.01,,,,-0.1,${'e'.repeat(101)}`, // row 8
      ].join('\n');
      const res = await importCsv(tenant.auth, csv);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['details', 'error', 'message', 'statusCode']);
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'CSV import failed: 4 rows have errors; nothing was imported' });
      expect(body.details).toEqual([
        { row: 4, field: 'name', message: 'is required' },
        { row: 4, field: 'type', message: 'must be one of TRUCK_STOP, REST_AREA, CUSTOMER, YARD, FUEL_STATION' },
        { row: 4, field: 'latitude', message: 'must be between -90 and 90' },
        { row: 4, field: 'longitude', message: 'must be a number' },
        { row: 4, field: 'parking', message: 'must be true or false (yes/no, y/n, 1/0; empty is false)' },
        { row: 4, field: 'fuelDiscountPerGallon', message: 'must be between 0 and 2' },
        { row: 5, field: 'row', message: 'has 4 fields; the header has 10' },
        { row: 7, field: 'externalId', message: 'duplicates row 2' },
        { row: 8, field: 'name', message: 'must be at most 200 characters' },
        { row: 8, field: 'latitude', message: 'must be between -90 and 90' },
        { row: 8, field: 'longitude', message: 'must be between -180 and 180' },
        { row: 8, field: 'fuelDiscountPerGallon', message: 'must be between 0 and 2' },
        { row: 8, field: 'externalId', message: 'must be at most 100 characters' },
      ]);
      expect(await all(tenant.auth)).toEqual(before);
    });

    it('refuses header problems, CSV syntax errors, and an empty file', async () => {
      const tenant = await createTenant(t.app);
      const cases: Array<[string, Array<{ row: number; field: string; message: string }>]> = [
        ['name,type,latitude\nA,YARD,1\n', [{ row: 1, field: 'longitude', message: 'is a required column' }]],
        ['name,type,latitude,longitude,color\nA,YARD,1,1,red\n', [{ row: 1, field: 'color', message: expect.stringMatching(/^is not a known column/) as unknown as string }]],
        ['name,type,latitude,longitude,name\nA,YARD,1,1,B\n', [{ row: 1, field: 'name', message: 'appears more than once' }]],
        ['name,type,latitude,longitude\nA,YARD,1,1\n"B,YARD,2,2\n', [{ row: 3, field: 'csv', message: 'a quoted field is not closed' }]],
        ['name,type,latitude,longitude\n"A"x,YARD,1,1\n', [{ row: 2, field: 'csv', message: 'unexpected character after a closing quote' }]],
        ['', [{ row: 1, field: 'header', message: expect.stringMatching(/^a header row is required/) as unknown as string }]],
        ['\r\n\r\n', [{ row: 1, field: 'header', message: expect.stringMatching(/^a header row is required/) as unknown as string }]],
      ];
      for (const [csv, details] of cases) {
        const res = await importCsv(tenant.auth, csv);
        expect(res.statusCode, JSON.stringify(csv)).toBe(400);
        expect(res.json().details, JSON.stringify(csv)).toEqual(details);
      }
      // A header alone imports nothing, successfully.
      expect((await importCsv(tenant.auth, `${HEADER}\r\n`)).json()).toEqual({ imported: 0, updated: 0, errors: [] });
      expect(await all(tenant.auth)).toEqual([]);
    });

    it('accepts 5,000 data rows and refuses 5,001 without writing any', async () => {
      const tenant = await createTenant(t.app);
      const rows = (n: number, prefix: string) =>
        [HEADER, ...Array.from({ length: n }, (_, i) => formatCsvRecord([`${prefix} ${i}, Exit ${i % 90}`, 'FUEL_STATION', `${i} Main St`, String(25 + (i % 20)), String(-120 + (i % 40)), 'true', 'false', 'true', '0.05', `${prefix}-${i}`]))].join('\n');
      const over = await importCsv(tenant.auth, rows(5001, 'over'));
      expect(over.statusCode).toBe(400);
      expect(over.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'CSV has more than 5000 data rows; split it into files of at most 5000 rows',
        details: [{ field: 'body', message: 'must have at most 5000 data rows' }],
      });
      expect((await inject({ method: 'GET', url: '/api/v1/locations', headers: tenant.auth })).json().total).toBe(0);

      const max = await importCsv(tenant.auth, rows(5000, 'max'));
      expect(max.statusCode, max.body.slice(0, 500)).toBe(200);
      expect(max.json()).toEqual({ imported: 5000, updated: 0, errors: [] });
      expect((await inject({ method: 'GET', url: '/api/v1/locations?pageSize=1', headers: tenant.auth })).json().total).toBe(5000);
      // Re-importing the same file updates all of them.
      expect((await importCsv(tenant.auth, rows(5000, 'max'))).json()).toEqual({ imported: 0, updated: 5000, errors: [] });
    });

    it('takes only text/csv, within its size limit', async () => {
      const tenant = await createTenant(t.app);
      const csv = 'name,type,latitude,longitude\nA,YARD,1,1\n';
      const plain = await importCsv(tenant.auth, csv, 'text/plain');
      expect(plain.statusCode).toBe(415);
      expect(plain.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
      const json = await inject({ method: 'POST', url: '/api/v1/locations/import', headers: tenant.auth, payload: { csv } });
      expect(json.statusCode).toBe(400);
      expect(json.json()).toMatchObject({ message: 'Validation failed', details: [{ field: 'body', message: 'must be string' }] });
      const none = await inject({ method: 'POST', url: '/api/v1/locations/import', headers: tenant.auth });
      expect(none.statusCode).toBe(400);
      // Over 4 MiB of CSV → 413; over the app's 1 MiB limit as JSON → 413.
      const huge = await importCsv(tenant.auth, `${HEADER}\n${'x'.repeat(4 * 1024 * 1024)}`);
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
      const hugeJson = await inject({ method: 'POST', url: '/api/v1/locations/import', headers: { ...tenant.auth, 'content-type': 'application/json' }, payload: `{"a":"${'x'.repeat(1024 * 1024)}"}` });
      expect(hugeJson.statusCode).toBe(413);
      // text/csv is accepted on this route only.
      const elsewhere = await inject({ method: 'POST', url: '/api/v1/locations', headers: { ...tenant.auth, 'content-type': 'text/csv' }, payload: csv });
      expect(elsewhere.statusCode).toBe(415);
      expect(await all(tenant.auth)).toEqual([]);
    });
  });
});
