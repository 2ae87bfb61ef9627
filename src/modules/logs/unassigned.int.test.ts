/**
 * Unassigned driving through the public API, on PGlite and PostgreSQL (49 CFR 395.32; ELD specification
 * §4.6.1.6): telematics report a segment (a resend is the same segment; overlapping or future ones are
 * refused); a vehicle with more than 30 minutes unresolved in 24 hours is flagged; assigning it asks the
 * driver (origin UNIDENTIFIED_ASSUMED) and changes the log only when the driver accepts; a rejection returns it
 * to UNASSIGNED; annotating closes it; only the carrier's users see or change it; another tenant's is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

const H = 3_600_000;
const NOW = Date.parse('2026-11-10T18:00:00.000Z'); // 12:00 CST
const iso = (ms: number) => new Date(ms).toISOString();

interface Segment {
  id: string;
  status: string;
  driverId: string | null;
  driverName: string | null;
  editId: string | null;
  durationMinutes: number;
  startLocation: { name: string } | null;
  miles: number | null;
  timeZone: string | null;
  annotation: string | null;
  source: string;
}
interface Listing {
  data: Segment[];
  total: number;
  vehicles: Array<{ vehicleId: string; vehicleUnitNumber: string; unresolvedMinutesLast24Hours: number; flagged: boolean }>;
}

describe.each(DB_KINDS)('unassigned driving (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let other: TenantFixture;
  let dispatcher: { auth: Record<string, string> };
  let lena: { id: string; auth: Record<string, string> };
  let truck: string;
  let yardTruck: string;
  const clock = new FakeClock(iso(NOW));

  const call = async (method: 'GET' | 'POST', url: string, auth: Record<string, string>, payload?: object) => t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
  const ok = async <T = Record<string, unknown>>(method: 'GET' | 'POST', url: string, auth: Record<string, string>, payload?: object): Promise<T> => {
    const res = await call(method, url, auth, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 400)}`).toBeLessThan(300);
    return res.json<T>();
  };
  const events = async () =>
    (await ok<{ data: Array<{ events: Array<{ status: string; origin: string; start: string; end: string }> }> }>('GET', `/api/v1/drivers/${lena.id}/logs?from=2026-11-10&to=2026-11-10`, acme.auth)).data[0]!.events;

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Unassigned Freight' });
    other = await createTenant(t.app, { name: 'Other Freight' });
    dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
    const d = await createDriver(t.app, acme.auth, { firstName: 'Lena', lastName: 'Ortiz' });
    lena = { id: d.id, auth: (await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId: d.id })).auth };
    truck = (await ok<{ id: string }>('POST', '/api/v1/vehicles', acme.auth, { unitNumber: 'T-105' })).id;
    yardTruck = (await ok<{ id: string }>('POST', '/api/v1/vehicles', acme.auth, { unitNumber: 'T-106' })).id;
    // Lena's day: on duty at 06:00 CST, off duty from 07:00.
    await ok('POST', `/api/v1/drivers/${lena.id}/duty-status`, acme.auth, { status: 'ON_DUTY_NOT_DRIVING', at: iso(NOW - 6 * H) });
    await ok('POST', `/api/v1/drivers/${lena.id}/duty-status`, acme.auth, { status: 'OFF_DUTY', at: iso(NOW - 5 * H) });
  });
  afterAll(async () => t?.close());

  it('telematics report segments: a resend is the same segment; overlapping, future and malformed ones are refused', async () => {
    const body = { start: iso(NOW - 4 * H), end: iso(NOW - 4 * H + 45 * 60_000), startLocation: { latitude: 32.78, longitude: -96.8 }, endLocation: { latitude: 33.2, longitude: -97.1 }, miles: 31.2, externalId: 'tele-1' };
    const first = await call('POST', `/api/v1/vehicles/${truck}/unassigned-driving`, dispatcher.auth, body);
    expect(first.statusCode, first.body).toBe(201);
    const seg = first.json<Segment>();
    expect(seg).toMatchObject({ status: 'UNASSIGNED', durationMinutes: 45, miles: 31.2, source: 'API', driverId: null });
    expect(seg.startLocation?.name).toMatch(/TX/);
    expect(seg.timeZone).toBe('America/Chicago');
    const again = await call('POST', `/api/v1/vehicles/${truck}/unassigned-driving`, dispatcher.auth, body);
    expect(again.statusCode).toBe(200);
    expect(again.json<Segment>().id).toBe(seg.id);

    const overlap = await call('POST', `/api/v1/vehicles/${truck}/unassigned-driving`, acme.auth, { start: iso(NOW - 4 * H + 30 * 60_000), end: iso(NOW - 3 * H) });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json<{ message: string }>().message).toMatch(/already has unassigned driving/);
    for (const bad of [
      { start: iso(NOW - H), end: iso(NOW + H) },
      { start: iso(NOW - H), end: iso(NOW - 2 * H) },
      { start: iso(NOW - 30 * H), end: iso(NOW - H) },
      { start: iso(NOW - 2 * H), end: iso(NOW - H), startLocation: { latitude: 95, longitude: 0 } },
      { start: 'yesterday', end: iso(NOW - H) },
    ]) {
      const res = await call('POST', `/api/v1/vehicles/${truck}/unassigned-driving`, acme.auth, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await call('POST', `/api/v1/vehicles/${truck}/unassigned-driving`, other.auth, { start: iso(NOW - 2 * H), end: iso(NOW - H) })).statusCode).toBe(404);

    await ok('POST', `/api/v1/vehicles/${yardTruck}/unassigned-driving`, acme.auth, { start: iso(NOW - 2 * H), end: iso(NOW - 2 * H + 10 * 60_000) });
  });

  it('a vehicle with more than 30 minutes unresolved in 24 hours is flagged', async () => {
    const list = await ok<Listing>('GET', '/api/v1/unassigned-driving', dispatcher.auth);
    expect(list.total).toBe(2);
    const byUnit = Object.fromEntries(list.vehicles.map((v) => [v.vehicleUnitNumber, v]));
    expect(byUnit['T-105']).toMatchObject({ unresolvedMinutesLast24Hours: 45, flagged: true });
    expect(byUnit['T-106']).toMatchObject({ unresolvedMinutesLast24Hours: 10, flagged: false });
    expect((await ok<Listing>('GET', `/api/v1/unassigned-driving?vehicleId=${yardTruck}`, acme.auth)).data).toHaveLength(1);
    expect((await ok<Listing>('GET', '/api/v1/unassigned-driving?status=ASSIGNED', acme.auth)).total).toBe(0);
    // Not for DRIVER users; another tenant sees none.
    expect((await call('GET', '/api/v1/unassigned-driving', lena.auth)).statusCode).toBe(403);
    expect((await ok<Listing>('GET', '/api/v1/unassigned-driving', other.auth)).total).toBe(0);
    expect((await call('GET', `/api/v1/unassigned-driving/${list.data[0]!.id}`, other.auth)).statusCode).toBe(404);
  });

  it('assigned: a request the driver answers; rejected it is unassigned again, accepted it is in the log as assumed', async () => {
    const seg = (await ok<Listing>('GET', `/api/v1/unassigned-driving?vehicleId=${truck}`, acme.auth)).data[0]!;
    const before = await events();
    const assigned = await ok<{ segment: Segment; edit: { id: string; status: string; origin: string } }>('POST', `/api/v1/unassigned-driving/${seg.id}/assign`, dispatcher.auth, { driverId: lena.id });
    expect(assigned.segment).toMatchObject({ status: 'ASSIGNMENT_PENDING', driverId: lena.id, driverName: 'Lena Ortiz', editId: assigned.edit.id });
    expect(assigned.edit).toMatchObject({ status: 'PENDING', origin: 'UNIDENTIFIED_ASSUMED' });
    // Nothing changes until the driver answers; no second assignment meanwhile; the dispatcher cannot accept.
    expect(await events()).toEqual(before);
    expect((await call('POST', `/api/v1/unassigned-driving/${seg.id}/assign`, dispatcher.auth, { driverId: lena.id })).statusCode).toBe(400);
    expect((await call('POST', `/api/v1/unassigned-driving/${seg.id}/annotate`, dispatcher.auth, { annotation: 'Yard move' })).statusCode).toBe(400);
    expect((await call('POST', `/api/v1/log-edits/${assigned.edit.id}/accept`, dispatcher.auth)).statusCode).toBe(403);

    await ok('POST', `/api/v1/log-edits/${assigned.edit.id}/reject`, lena.auth, { annotation: 'Not me, I was off' });
    expect(await ok<Segment>('GET', `/api/v1/unassigned-driving/${seg.id}`, acme.auth)).toMatchObject({ status: 'UNASSIGNED', driverId: null });
    expect(await events()).toEqual(before);

    const again = await ok<{ edit: { id: string } }>('POST', `/api/v1/unassigned-driving/${seg.id}/assign`, acme.auth, { driverId: lena.id, annotation: 'Moved T-105 to the shop' });
    await ok('POST', `/api/v1/log-edits/${again.edit.id}/accept`, lena.auth);
    expect(await ok<Segment>('GET', `/api/v1/unassigned-driving/${seg.id}`, acme.auth)).toMatchObject({ status: 'ASSIGNED', driverId: lena.id });
    const after = await events();
    expect(after.find((e) => e.status === 'ON_DUTY_DRIVING')).toMatchObject({ origin: 'UNIDENTIFIED_ASSUMED', start: iso(NOW - 4 * H), end: iso(NOW - 4 * H + 45 * 60_000) });
    // The log goes on as before after the assumed driving: off duty.
    expect(after.at(-1)).toMatchObject({ status: 'OFF_DUTY' });
    const hos = await ok<{ currentHoursDriven: number }>('GET', `/api/v1/drivers/${lena.id}/hos`, acme.auth);
    expect(hos.currentHoursDriven).toBeCloseTo(0.75, 5);
    // No longer unresolved: the flag is gone.
    const flags = (await ok<Listing>('GET', '/api/v1/unassigned-driving', acme.auth)).vehicles;
    expect(flags.find((v) => v.vehicleId === truck)).toBeUndefined();
  });

  it('annotated: closed with the carrier’s reason', async () => {
    const seg = (await ok<Listing>('GET', `/api/v1/unassigned-driving?vehicleId=${yardTruck}`, acme.auth)).data[0]!;
    expect((await call('POST', `/api/v1/unassigned-driving/${seg.id}/annotate`, acme.auth, { annotation: 'ok' })).statusCode).toBe(400);
    expect((await call('POST', `/api/v1/unassigned-driving/${seg.id}/annotate`, lena.auth, { annotation: 'Yard move' })).statusCode).toBe(403);
    expect((await call('POST', `/api/v1/unassigned-driving/${seg.id}/annotate`, other.auth, { annotation: 'Yard move' })).statusCode).toBe(404);
    const done = await ok<Segment>('POST', `/api/v1/unassigned-driving/${seg.id}/annotate`, dispatcher.auth, { annotation: 'Yard move to the wash bay' });
    expect(done).toMatchObject({ status: 'ANNOTATED', annotation: 'Yard move to the wash bay' });
    expect((await call('POST', `/api/v1/unassigned-driving/${seg.id}/assign`, acme.auth, { driverId: lena.id })).statusCode).toBe(400);
    expect((await ok<Listing>('GET', '/api/v1/unassigned-driving?status=ANNOTATED', acme.auth)).total).toBe(1);
  });
});
