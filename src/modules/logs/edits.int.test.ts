/**
 * Corrections through the public API, on PGlite and PostgreSQL (49 CFR 395.30; ELD specification §4.3.2.8):
 * a dispatcher's correction changes nothing (clocks, logs, alerts) until the driver's user accepts it; after
 * acceptance the clocks are the engine's over the new ACTIVE records, the originals are INACTIVE_CHANGED,
 * the driver's HOS alert resolves at the next monitoring pass, and the certified day asks for
 * recertification; a rejected request leaves everything as it was; only the driver accepts (403 for the
 * dispatcher), a driver cannot touch another driver's log, another tenant's edit is 404; automatically
 * recorded driving cannot be changed (400 naming the rule); the driver's own correction applies at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-02T12:00:00.000Z'); // 06:00 CST
const iso = (ms: number) => new Date(ms).toISOString();

interface Edit {
  id: string;
  status: string;
  requestedByName?: string | null;
  decidedByName?: string | null;
  origin: string;
  dates: string[];
  before: Array<{ date: string; totals: Record<string, number> }>;
  after: Array<{ date: string; totals: Record<string, number> }>;
}

describe.each(DB_KINDS)('corrections of a record of duty status (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let other: TenantFixture;
  let dispatcher: { auth: Record<string, string> };
  let lena: { id: string; auth: Record<string, string> };
  let bruno: { id: string; auth: Record<string, string> };
  const clock = new FakeClock(iso(T0 + 14 * H)); // 20:00 CST on Nov 2

  const call = async (method: 'GET' | 'POST', url: string, auth: Record<string, string>, payload?: object) => t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
  const ok = async <T = Record<string, unknown>>(method: 'GET' | 'POST', url: string, auth: Record<string, string>, payload?: object): Promise<T> => {
    const res = await call(method, url, auth, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 400)}`).toBeLessThan(300);
    return res.json<T>();
  };
  const hos = (id: string) => ok<{ currentHoursDriven: number; driveTimeRemaining: number; currentDutyStatus: string }>('GET', `/api/v1/drivers/${id}/hos`, acme.auth);
  const day = async (id: string, date: string, auth = acme.auth) => (await ok<{ data: Array<{ totals: Record<string, number>; certification: { certified: boolean; recertificationRequired: boolean }; pendingEditRequests: number }> }>('GET', `/api/v1/drivers/${id}/logs?from=${date}&to=${date}`, auth)).data[0]!;

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Correct Freight' });
    other = await createTenant(t.app, { name: 'Other Freight' });
    dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
    for (const [name, set] of [['Lena', (v: typeof lena) => (lena = v)], ['Bruno', (v: typeof bruno) => (bruno = v)]] as const) {
      const d = await createDriver(t.app, acme.auth, { firstName: name, lastName: 'Driver' });
      const u = await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId: d.id });
      set({ id: d.id, auth: u.auth });
    }
    // Lena's log: on duty at 06:00 CST, driving 06:30–10:30, a break, driving 11:00–18:30 — 11:30 of driving
    // by her log, past the 11-hour limit — though she stopped driving at 16:00 and worked the dock until 18:30.
    await ok('POST', `/api/v1/drivers/${lena.id}/duty-status`, acme.auth, { status: 'ON_DUTY_NOT_DRIVING', at: iso(T0) });
    await ok('POST', `/api/v1/drivers/${lena.id}/duty-status`, acme.auth, { status: 'ON_DUTY_DRIVING', at: iso(T0 + 0.5 * H) });
    await ok('POST', `/api/v1/drivers/${lena.id}/duty-status`, acme.auth, { status: 'OFF_DUTY', at: iso(T0 + 4.5 * H) });
    await ok('POST', `/api/v1/drivers/${lena.id}/duty-status`, acme.auth, { status: 'ON_DUTY_DRIVING', at: iso(T0 + 5 * H) });
    await ok('POST', `/api/v1/drivers/${lena.id}/duty-status`, acme.auth, { status: 'OFF_DUTY', at: iso(T0 + 12.5 * H) });
  });
  afterAll(async () => t?.close());

  const correction = () => ({
    from: iso(T0 + 10 * H),
    to: iso(T0 + 12.5 * H),
    entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: iso(T0 + 10 * H), note: 'Unloading at the dock' }],
    annotation: 'Stopped driving at 16:00, unloading',
  });

  it('a dispatcher’s correction is a request: nothing changes until the driver answers', async () => {
    const before = await hos(lena.id);
    expect(before.currentHoursDriven).toBeCloseTo(11.5, 5);
    const dayBefore = await day(lena.id, '2026-11-02');
    const edit = await ok<Edit>('POST', `/api/v1/drivers/${lena.id}/log-edits`, dispatcher.auth, correction());
    expect(edit).toMatchObject({ status: 'PENDING', origin: 'OTHER_USER', dates: ['2026-11-02'], requestedByName: 'Test DISPATCHER', decidedByName: null });
    expect(edit.before[0]!.totals.ON_DUTY_DRIVING).toBe(11.5);
    expect(edit.after[0]!.totals).toMatchObject({ ON_DUTY_DRIVING: 9, ON_DUTY_NOT_DRIVING: 3 });
    // Nothing changed: clocks, the day's totals; the day counts one request waiting.
    expect(await hos(lena.id)).toEqual(before);
    expect((await day(lena.id, '2026-11-02')).totals).toEqual(dayBefore.totals);
    expect((await day(lena.id, '2026-11-02')).pendingEditRequests).toBe(1);
    const records = await ok<{ data: Array<{ recordStatus: string; origin: string }> }>('GET', `/api/v1/drivers/${lena.id}/duty-status?history=true`, acme.auth);
    expect(records.data.filter((r) => r.recordStatus === 'INACTIVE_CHANGE_REQUESTED')).toHaveLength(1);

    // The dispatcher cannot accept for her; Bruno cannot see it; another organization cannot either.
    expect((await call('POST', `/api/v1/log-edits/${edit.id}/accept`, dispatcher.auth, {})).statusCode).toBe(403);
    expect((await call('POST', `/api/v1/log-edits/${edit.id}/accept`, bruno.auth, {})).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/log-edits/${edit.id}`, other.auth)).statusCode).toBe(404);
    expect((await call('POST', `/api/v1/drivers/${lena.id}/log-edits`, bruno.auth, correction())).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/drivers/${lena.id}/logs`, other.auth)).statusCode).toBe(404);

    // She rejects it: everything as it was.
    const rejected = await ok<Edit>('POST', `/api/v1/log-edits/${edit.id}/reject`, lena.auth, { annotation: 'I was driving until 18:00' });
    expect(rejected.status).toBe('REJECTED');
    expect(await hos(lena.id)).toEqual(before);
    expect((await day(lena.id, '2026-11-02')).pendingEditRequests).toBe(0);
    const after = await ok<{ data: Array<{ recordStatus: string }> }>('GET', `/api/v1/drivers/${lena.id}/duty-status?history=true`, acme.auth);
    expect(after.data.map((r) => r.recordStatus).sort()).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE', 'ACTIVE', 'ACTIVE', 'INACTIVE_CHANGE_REJECTED']);
    expect((await call('POST', `/api/v1/log-edits/${edit.id}/accept`, lena.auth, {})).statusCode).toBe(400);
  });

  it('accepted, the correction is applied: new clocks, the originals kept as INACTIVE_CHANGED, the certified day to recertify', async () => {
    // She certifies the day first.
    const cert = await ok<{ recertification: boolean }>('POST', `/api/v1/drivers/${lena.id}/logs/2026-11-02/certify`, lena.auth);
    expect(cert.recertification).toBe(false);
    expect((await call('POST', `/api/v1/drivers/${lena.id}/logs/2026-11-02/certify`, dispatcher.auth)).statusCode).toBe(403);
    expect((await day(lena.id, '2026-11-02')).certification).toMatchObject({ certified: true, recertificationRequired: false });

    // She is on an active route: monitoring sees her log's 11:30 of driving — past the 11-hour limit.
    const route = await ok<{ id: string }>('POST', '/api/v1/routes/plan', acme.auth, {
      driverId: lena.id,
      stops: [{ latitude: 32.7767, longitude: -96.797, name: 'Dallas, TX' }, { latitude: 35.4676, longitude: -97.5164, name: 'Oklahoma City, OK', type: 'DELIVERY' }],
    });
    await ok('POST', `/api/v1/routes/${route.id}/activate`, acme.auth);
    const monitoring = t.app.workers.get('monitoring').worker;
    await monitoring.runOnce(clock.now());
    const hosAlerts = async () =>
      (await ok<{ data: Array<{ type: string; status: string }> }>('GET', `/api/v1/alerts?driverId=${lena.id}&category=HOS_VIOLATION&status=ACTIVE,ACKNOWLEDGED,SNOOZED,RESOLVED&pageSize=50`, acme.auth)).data;
    const violation = (await hosAlerts()).find((a) => a.type === 'HOS_VIOLATION');
    expect(violation?.status).toBe('ACTIVE');

    clock.advance(60_000);
    const edit = await ok<Edit>('POST', `/api/v1/drivers/${lena.id}/log-edits`, dispatcher.auth, correction());
    // A pending request changes nothing, alerts neither.
    await monitoring.runOnce(clock.now());
    expect((await hosAlerts()).find((a) => a.type === 'HOS_VIOLATION')?.status).toBe('ACTIVE');
    clock.advance(60_000);
    const accepted = await ok<Edit>('POST', `/api/v1/log-edits/${edit.id}/accept`, lena.auth, {});
    expect(accepted).toMatchObject({ status: 'ACCEPTED', requestedByName: 'Test DISPATCHER', decidedByName: 'Test DRIVER' });
    // The route is due at once: the next pass resolves the violation the corrected log no longer shows.
    await monitoring.runOnce(clock.now());
    expect((await hosAlerts()).find((a) => a.type === 'HOS_VIOLATION')?.status).toBe('RESOLVED');
    const now = await hos(lena.id);
    expect(now.currentHoursDriven).toBeCloseTo(9, 5);
    const d = await day(lena.id, '2026-11-02');
    expect(d.totals).toMatchObject({ ON_DUTY_DRIVING: 9, ON_DUTY_NOT_DRIVING: 3 });
    expect(d.certification).toMatchObject({ certified: true, recertificationRequired: true });
    const records = await ok<{ data: Array<{ recordStatus: string; origin: string; status: string; annotation: string | null }> }>('GET', `/api/v1/drivers/${lena.id}/duty-status?history=true`, acme.auth);
    expect(records.data.filter((r) => r.recordStatus === 'INACTIVE_CHANGED')).toEqual([]); // no ACTIVE record started in [16:00, 18:30)
    const active = records.data.filter((r) => r.recordStatus === 'ACTIVE');
    expect(active.map((r) => r.status)).toEqual(['OFF_DUTY', 'ON_DUTY_NOT_DRIVING', 'ON_DUTY_DRIVING', 'OFF_DUTY', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING']);
    expect(active[1]).toMatchObject({ origin: 'OTHER_USER', annotation: 'Stopped driving at 16:00, unloading' });
    // Recertified: both certifications kept.
    const again = await ok<{ recertification: boolean }>('POST', `/api/v1/drivers/${lena.id}/logs/2026-11-02/certify`, lena.auth);
    expect(again.recertification).toBe(true);
    expect((await day(lena.id, '2026-11-02')).certification).toMatchObject({ certified: true, recertificationRequired: false });
  });

  it('the driver’s own correction applies at once; a record replaced is kept as INACTIVE_CHANGED', async () => {
    // She rested in the sleeper berth 18:30–19:30, not off duty: she corrects it herself.
    const edit = await ok<Edit>('POST', `/api/v1/drivers/${lena.id}/log-edits`, lena.auth, {
      from: iso(T0 + 12.5 * H),
      to: iso(T0 + 13.5 * H),
      entries: [{ status: 'SLEEPER_BERTH', at: iso(T0 + 12.5 * H) }],
      annotation: 'Rested in the sleeper',
    });
    expect(edit).toMatchObject({ status: 'APPLIED', origin: 'DRIVER' });
    const records = await ok<{ data: Array<{ recordStatus: string; status: string; at: string; origin: string }> }>('GET', `/api/v1/drivers/${lena.id}/duty-status?history=true`, acme.auth);
    expect(records.data.find((r) => r.recordStatus === 'INACTIVE_CHANGED')).toMatchObject({ status: 'OFF_DUTY', at: iso(T0 + 12.5 * H) });
    const active = records.data.filter((r) => r.recordStatus === 'ACTIVE').map((r) => [r.at, r.status, r.origin]);
    expect(active.slice(0, 2)).toEqual([
      [iso(T0 + 13.5 * H), 'OFF_DUTY', 'DRIVER'],
      [iso(T0 + 12.5 * H), 'SLEEPER_BERTH', 'DRIVER'],
    ]);
    const edits = await ok<{ data: Edit[]; total: number }>('GET', `/api/v1/log-edits?driverId=${lena.id}`, lena.auth);
    expect(edits.data.map((e) => e.status)).toEqual(['APPLIED', 'ACCEPTED', 'REJECTED']);
    // Bruno's user sees none of them.
    expect((await ok<{ total: number }>('GET', `/api/v1/log-edits?driverId=${lena.id}`, bruno.auth)).total).toBe(0);
  });

  it('driving an ELD recorded automatically cannot be shortened or relabelled: 400 naming the rule', async () => {
    const integration = await ok<{ id: string }>('POST', '/api/v1/integrations', acme.auth, { vendor: 'fake_eld', name: 'ELD', config: { apiToken: `auto-${kind}` } });
    await t.db.system((tx) =>
      tx.query(
        `INSERT INTO duty_status_events (tenant_id, id, driver_id, status, started_at, source, origin, created_at) VALUES
           ($1, 'dst_auto1', $2, 'ON_DUTY_DRIVING', $3, 'samsara', 'AUTOMATIC', $5), ($1, 'dst_auto2', $2, 'OFF_DUTY', $4, 'samsara', 'AUTOMATIC', $5)`,
        [acme.tenantId, bruno.id, new Date(T0 + 2 * H), new Date(T0 + 5 * H), new Date(T0 + 6 * H)],
      ),
    );
    void integration;
    const shorten = await call('POST', `/api/v1/drivers/${bruno.id}/log-edits`, bruno.auth, {
      from: iso(T0 + 4 * H),
      to: iso(T0 + 5 * H),
      entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: iso(T0 + 4 * H) }],
      annotation: 'I was fueling',
    });
    expect(shorten.statusCode).toBe(400);
    expect(shorten.json().details[0].message).toMatch(/automatically recorded driving time cannot be shortened or changed/);
    // The times in the home terminal's words (T0 + 2 h is 08:00 CST).
    expect(shorten.json().details[0].message).toMatch(/recorded automatically from Mon, Nov 2, 08:00 CST to Mon, Nov 2, 11:00 CST/);
    // The time around it can be corrected.
    const around = await call('POST', `/api/v1/drivers/${bruno.id}/log-edits`, bruno.auth, {
      from: iso(T0 + 1 * H),
      to: iso(T0 + 2 * H),
      entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: iso(T0 + 1 * H) }],
      annotation: 'Pre-trip inspection',
    });
    expect(around.statusCode, around.body).toBe(201);
  });

  it('refuses a correction without an annotation of 4 to 60 characters, in the future, or out of order', async () => {
    for (const body of [
      { ...correction(), annotation: 'ok' },
      { ...correction(), annotation: 'x'.repeat(61) },
      { ...correction(), to: iso(T0 + 30 * H) },
      { ...correction(), entries: [{ status: 'OFF_DUTY', at: iso(T0 + 11 * H) }] },
    ]) {
      const res = await call('POST', `/api/v1/drivers/${lena.id}/log-edits`, dispatcher.auth, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });
});
