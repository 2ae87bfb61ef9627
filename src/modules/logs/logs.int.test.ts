/**
 * Daily logs through the public API, on PGlite and PostgreSQL: the 3-day log across the end of daylight
 * saving time that src/domain/logs/daily-log.test.ts computes by hand from the rule text (the same records,
 * posted as a driver's duty statuses), the zone the periods keep, the default range and its limits, the
 * history of records, and the organization's settings for the periods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { DST_LOG } from '../../../test/helpers/dst-log.js';
import { createDriver, createTenant, type TenantFixture } from '../../../test/helpers/factories.js';

const NOW = '2026-11-03T12:00:00.000Z';

interface Day {
  date: string;
  periodStart: string;
  periodEnd: string;
  timeZone: string;
  totals: Record<string, number>;
  events: Array<{ status: string; start: string; end: string; location: string | null; continued: boolean }>;
  violations: Array<{ type: string; start: string; end: string; overHours: number; rule: string }>;
  recap: { onDutyToday: number; onDutyCycleDays: number; availableTomorrow: number };
  certification: { certified: boolean; recertificationRequired: boolean };
  pendingEditRequests: number;
  milesDriven: number | null;
}

describe.each(DB_KINDS)('daily logs (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let other: TenantFixture;
  let driverId: string;
  const clock = new FakeClock(NOW);

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Daylight Freight' });
    other = await createTenant(t.app, { name: 'Other Freight' });
    driverId = (await createDriver(t.app, acme.auth, { firstName: 'Dana', lastName: 'Daylight' })).id;
    for (const [i, [at, status]] of DST_LOG.entries()) {
      const payload = { status, at, ...(i === 1 ? { latitude: 32.7767, longitude: -96.797 } : {}) };
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/drivers/${driverId}/duty-status`, headers: acme.auth, payload });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  const logs = async (query: string, auth = acme.auth) => t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/logs${query}`, headers: auth });

  it('answers the hand-computed days across the end of daylight saving time: totals, the 25-hour day, the violation, the recap', async () => {
    const res = await logs('?from=2026-10-31&to=2026-11-02');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ data: Day[]; timeZone: string; periodStartTime: string }>();
    // The organization's address (Dallas, TX) names the zone: no driver home terminal, no setting.
    expect(body).toMatchObject({ timeZone: 'America/Chicago', periodStartTime: '00:00' });
    expect(body.data.map((d) => [d.date, d.periodStart, d.periodEnd])).toEqual([
      ['2026-11-02', '2026-11-02T06:00:00.000Z', '2026-11-03T06:00:00.000Z'],
      ['2026-11-01', '2026-11-01T05:00:00.000Z', '2026-11-02T06:00:00.000Z'],
      ['2026-10-31', '2026-10-31T05:00:00.000Z', '2026-11-01T05:00:00.000Z'],
    ]);
    expect(body.data.map((d) => d.totals)).toEqual([
      { OFF_DUTY: 15.5, SLEEPER_BERTH: 2, ON_DUTY_DRIVING: 6, ON_DUTY_NOT_DRIVING: 0.5 },
      { OFF_DUTY: 12.5, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 12, ON_DUTY_NOT_DRIVING: 0.5 },
      { OFF_DUTY: 12.5, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 10.5, ON_DUTY_NOT_DRIVING: 1 },
    ]);
    expect(body.data.map((d) => d.violations.map((v) => [v.type, v.start, v.end, v.overHours]))).toEqual([[], [['DRIVE', '2026-11-01T22:00:00.000Z', '2026-11-01T23:00:00.000Z', 1]], []]);
    expect(body.data[1]!.violations[0]!.rule).toContain('395.3(a)(3)(i)');
    expect(body.data.map((d) => [d.recap.onDutyToday, d.recap.onDutyCycleDays, d.recap.availableTomorrow])).toEqual([
      [6.5, 30.5, 39.5],
      [12.5, 24, 46],
      [11.5, 11.5, 58.5],
    ]);
    // Each status change with where it happened, when the driver said; the evening off duty carried into the next day.
    const oct31 = body.data[2]!;
    expect(oct31.events[1]).toMatchObject({ status: 'ON_DUTY_DRIVING', start: '2026-10-31T11:30:00.000Z', end: '2026-10-31T19:00:00.000Z', location: expect.stringMatching(/Dallas, TX/) });
    expect(body.data[1]!.events[0]).toMatchObject({ status: 'OFF_DUTY', start: '2026-11-01T05:00:00.000Z', end: '2026-11-01T10:00:00.000Z', continued: true });
    for (const d of body.data) expect(d).toMatchObject({ certification: { certified: false, recertificationRequired: false }, pendingEditRequests: 0, milesDriven: null });
  });

  it('defaults to today and the 7 days before; refuses more than 184 days, a from after to, and what is no date', async () => {
    const res = await logs('');
    expect(res.statusCode, res.body).toBe(200);
    const days = res.json<{ data: Day[] }>().data;
    expect(days.map((d) => d.date)).toEqual(['2026-11-03', '2026-11-02', '2026-11-01', '2026-10-31', '2026-10-30', '2026-10-29', '2026-10-28', '2026-10-27']);
    // Today runs to now: 06:00Z to 12:00Z off duty.
    expect(days[0]!.totals).toEqual({ OFF_DUTY: 6, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 });
    expect(days[7]!.totals.OFF_DUTY).toBe(24);
    expect((await logs('?from=2026-05-03&to=2026-11-02')).statusCode).toBe(200); // 184 days
    for (const q of ['?from=2026-05-02&to=2026-11-02', '?from=2026-11-03&to=2026-11-02', '?from=2026-02-30', '?to=yesterday']) {
      const bad = await logs(q);
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('keeps the zone of the setting, or of the driver’s home terminal, and the period start the organization chooses', async () => {
    const bad = await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/hos', headers: acme.auth, payload: { homeTerminalTimeZone: 'Mars/Olympus' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/hos', headers: acme.auth, payload: { periodStartTime: '25:00' } })).statusCode).toBe(400);
    const set = await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/hos', headers: acme.auth, payload: { homeTerminalTimeZone: 'America/New_York', periodStartTime: '06:00' } });
    expect(set.statusCode, set.body).toBe(200);
    const eastern = (await logs('?from=2026-11-02&to=2026-11-02')).json<{ data: Day[]; timeZone: string }>();
    expect(eastern.timeZone).toBe('America/New_York');
    expect(eastern.data[0]).toMatchObject({ periodStart: '2026-11-02T11:00:00.000Z', periodEnd: '2026-11-03T11:00:00.000Z' });
    // The driver's own home terminal comes first.
    const put = await t.app.inject({ method: 'PUT', url: `/api/v1/drivers/${driverId}`, headers: acme.auth, payload: { homeTerminal: { address: 'Denver, CO' } } });
    expect(put.statusCode, put.body).toBe(200);
    const mountain = (await logs('?from=2026-11-02&to=2026-11-02')).json<{ data: Day[]; timeZone: string }>();
    expect(mountain.timeZone).toBe('America/Denver');
    expect(mountain.data[0]).toMatchObject({ periodStart: '2026-11-02T13:00:00.000Z' });
    await t.app.inject({ method: 'PUT', url: `/api/v1/drivers/${driverId}`, headers: acme.auth, payload: { homeTerminal: null } });
    await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/hos', headers: acme.auth, payload: { homeTerminalTimeZone: null, periodStartTime: '00:00' } });
  });

  it('lists the records with their status and origin; history adds nothing while nothing was corrected', async () => {
    const active = (await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/duty-status?from=2026-10-30T00:00:00Z`, headers: acme.auth })).json<{ data: Array<{ recordStatus: string; origin: string; sequence: number }> }>().data;
    expect(active).toHaveLength(DST_LOG.length);
    expect(new Set(active.map((r) => `${r.recordStatus} ${r.origin}`))).toEqual(new Set(['ACTIVE OTHER_USER']));
    const history = (await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/duty-status?from=2026-10-30T00:00:00Z&history=true`, headers: acme.auth })).json<{ data: unknown[] }>().data;
    expect(history).toEqual(active);
  });

  it('another organization’s driver is not found', async () => {
    const res = await logs('', other.auth);
    expect(res.statusCode).toBe(404);
  });

  it('a record of duty status cannot be deleted or changed, even by the application’s own database role', async () => {
    const run = (sql: string) => t.db.tenant(acme.tenantId, (tx) => tx.query(sql, [driverId]));
    await expect(run('DELETE FROM duty_status_events WHERE driver_id = $1')).rejects.toThrow(/permission denied/);
    await expect(run(`UPDATE duty_status_events SET status = 'OFF_DUTY' WHERE driver_id = $1`)).rejects.toThrow(/never changed/);
    await expect(run(`UPDATE duty_status_events SET record_status = 'INACTIVE_CHANGE_REJECTED' WHERE driver_id = $1`)).rejects.toThrow(/cannot become/);
    // Nor their corrections, certifications or unidentified driving records (395.8(k), 395.32(c)).
    for (const table of ['log_edits', 'log_certifications', 'unassigned_driving']) {
      await expect(t.db.tenant(acme.tenantId, (tx) => tx.query(`DELETE FROM ${table}`))).rejects.toThrow(/permission denied/);
    }
    const still = await logs('?from=2026-10-31&to=2026-11-02');
    expect(still.json<{ data: Day[] }>().data[2]!.totals.ON_DUTY_DRIVING).toBe(10.5);
  });

  it('deactivating the driver keeps the records: the logs, their history and the printed log still answer', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/drivers/${driverId}`, headers: acme.auth });
    expect(res.statusCode, res.body).toBe(200);
    const after = await logs('?from=2026-10-31&to=2026-11-02');
    expect(after.statusCode).toBe(200);
    expect(after.json<{ data: Day[] }>().data[2]!.totals.ON_DUTY_DRIVING).toBe(10.5);
    const history = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/duty-status?from=2026-10-30T00:00:00Z&history=true`, headers: acme.auth });
    expect(history.json<{ data: unknown[] }>().data).toHaveLength(DST_LOG.length);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/logs.pdf?from=2026-10-31&to=2026-11-02`, headers: acme.auth });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });
});
