/**
 * One truth for a driver's hours (issue 26): when an ELD's clocks and the duty-status log disagree, the
 * driver's HOS record, the driver record, the Drivers list and the route's alert all show the same clocks
 * (the ELD's), name where they come from, and state the disagreement with both figures and the difference.
 * Real app, both databases, the app's own monitoring worker, a fake clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant } from '../../../test/helpers/factories.js';

const HOUR = 3_600_000;
const MIN = 60_000;
const T0 = Date.parse('2026-11-29T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DB_KINDS)('one set of hours per driver (%s)', (kind) => {
  let t: TestApp;
  let auth: Record<string, string>;
  const clock = new FakeClock(iso(T0 - 8 * HOUR));

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock });
    const tenant = await createTenant(t.app, { name: 'One Truth Freight' });
    auth = { 'x-api-key': (await createApiKey(t.app, tenant)).key };
  });
  afterAll(async () => t?.close());

  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    return res.json();
  };

  it("the ELD's clocks, their source and the disagreement with the log are the same on the HOS record, the driver, the Drivers list and the alert", async () => {
    const lena = await createDriver(t.app, auth, { firstName: 'Lena', lastName: 'Ortiz' });
    // Her log: driving since 04:37 UTC, 7 h 23 min by noon: 3:37 of driving left by the log.
    clock.set(iso(T0 - (7 * 60 + 23) * MIN));
    await api('POST', `/api/v1/drivers/${lena.id}/duty-status`, { status: 'ON_DUTY_DRIVING' });
    clock.set(iso(T0));
    const plan = await api('POST', '/api/v1/routes/plan', {
      driverId: lena.id,
      departureTime: iso(T0),
      stops: [
        { name: 'Indianapolis, IN', latitude: 39.7684, longitude: -86.1581, type: 'ORIGIN' },
        { name: 'Columbus, OH', latitude: 39.9612, longitude: -82.9988, type: 'DELIVERY', dockDurationHours: 1 },
      ],
    });
    await api('POST', `/api/v1/routes/${plan.id}/activate`);
    // Her ELD (as the Samsara adapter stores it) synced 28 s ago: no driving time left.
    const integration = await api('POST', '/api/v1/integrations', { vendor: 'fake_eld', name: 'ELD', config: { apiToken: 'one-truth-token' } });
    await t.db.system((tx) =>
      tx.query(
        `INSERT INTO driver_eld_clocks (tenant_id, driver_id, integration_id, source, vendor_driver_id, current_status, drive_remaining_ms, shift_remaining_ms, cycle_remaining_ms, break_remaining_ms, synced_at)
         SELECT tenant_id, $1, $2, 'samsara', 'v-lena', 'ON_DUTY_DRIVING', 0, $3, $4, $5, $6 FROM drivers WHERE id = $1`,
        [lena.id, integration.id, (6 * 60 + 37) * MIN + 28_000, 62 * HOUR + 37 * MIN + 28_000, 37 * MIN + 28_000, new Date(T0 - 28_000)],
      ),
    );

    const source = { kind: 'ELD', vendor: 'samsara', name: 'Samsara', syncedAt: iso(T0 - 28_000) };
    const disagreement = {
      clocks: [{ clock: 'DRIVE', eldHours: 0, logHours: 3.62, differenceHours: -3.62 }],
      message: "Samsara and the duty-status log disagree: 0:00 of driving left by Samsara, 3:37 by the log (3:37 apart). The clocks shown are Samsara's; check the log for missing or late entries.",
    };

    // The driver's page (the HOS record): the ELD's clocks, the next rest from them, the source, the disagreement.
    const hos = await api('GET', `/api/v1/drivers/${lena.id}/hos`);
    expect(hos).toMatchObject({ currentHoursDriven: 11, driveTimeRemaining: 0, source: 'samsara', clockSource: source, disagreement });
    expect(hos.nextRequiredRest).toMatchObject({ kind: 'FULL_REST', requiredAfterDrivingHours: 0, limitedBy: 'DRIVE' });
    expect(hos.nextRequiredRest.explanation).toBe('The driving limit is reached: 49 CFR 395.3(a)(1) 10 consecutive hours off duty restores the duty period.');
    expect(hos.explanation).toContain(disagreement.message);

    // The Drivers list and the driver record: the same figures.
    const list = await api('GET', '/api/v1/drivers?search=Lena%20Ortiz');
    expect(list.data).toEqual([expect.objectContaining({ id: lena.id, currentHoursDriven: 11, driveTimeRemaining: 0, clockSource: source, disagreement })]);
    expect(await api('GET', `/api/v1/drivers/${lena.id}`)).toMatchObject({ currentHoursDriven: 11 });

    // The alert: the same clocks, named as Samsara's, with the same disagreement.
    await t.app.workers.get('monitoring').worker.runOnce(t.clock.now());
    const alerts = (await api('GET', `/api/v1/alerts?routePlanId=${plan.id}&type=HOS_APPROACHING_DRIVE_LIMIT`)).data;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ title: 'Drive limit reached', metadata: { driveTimeRemaining: 0, currentHoursDriven: 11, hosSource: 'samsara', hosDisagreement: disagreement.message } });
    expect(alerts[0].message).toBe(`Lena Ortiz has no driving time left (11:00 driven, by Samsara's clocks); a 10-hour rest is required before driving on. ${disagreement.message}`);
  });
});
