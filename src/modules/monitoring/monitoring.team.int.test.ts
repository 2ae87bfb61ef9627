/**
 * Monitoring a team route (issue 20): each driver's HOS alerts are their own. The co-driver's duty-status
 * changes raise and clear the co-driver's alert (named for them, with their driverId), never the driver's,
 * and the other way round. Real rules, the app's own monitoring worker, a fake clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant } from '../../../test/helpers/factories.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-05-11T14:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

interface Alert {
  id: string;
  type: string;
  status: string;
  driverId: string | null;
  driverName: string | null;
  message: string;
}

describe.each(DB_KINDS)('monitoring a team route (%s)', (kind) => {
  let t: TestApp;
  let auth: Record<string, string>;
  const clock = new FakeClock(iso(T0 - 10.75 * HOUR));

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock });
    const tenant = await createTenant(t.app, { name: 'Team Watch Freight' });
    auth = { 'x-api-key': (await createApiKey(t.app, tenant)).key };
  });
  afterAll(async () => t?.close());

  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    return res.json();
  };

  it("the co-driver's duty-status changes raise and clear the co-driver's own HOS alert; the driver's are the driver's", async () => {
    const rosa = await createDriver(t.app, auth, { firstName: 'Rosa', lastName: 'Diaz' });
    const omar = await createDriver(t.app, auth, { firstName: 'Omar', lastName: 'Haddad' });
    // Omar drove 10 h 15 min before this trip (his own log: 7.5 h, a 30-minute break, 2.75 h), then went on
    // duty, not driving, at the departure: 45 min of driving left.
    const log = async (status: string, at: number) => {
      clock.set(iso(at));
      await api('POST', `/api/v1/drivers/${omar.id}/duty-status`, { status, at: iso(at) });
    };
    await log('ON_DUTY_DRIVING', T0 - 10.75 * HOUR);
    await log('OFF_DUTY', T0 - 3.25 * HOUR);
    await log('ON_DUTY_DRIVING', T0 - 2.75 * HOUR);
    clock.set(iso(T0));
    await api('POST', `/api/v1/drivers/${omar.id}/duty-status`, { status: 'ON_DUTY_NOT_DRIVING', at: iso(T0) });
    await api('POST', `/api/v1/drivers/${rosa.id}/duty-status`, { status: 'ON_DUTY_DRIVING', at: iso(T0) });
    const plan = await api('POST', '/api/v1/routes/plan', {
      driverId: rosa.id,
      coDriverId: omar.id,
      departureTime: iso(T0),
      stops: [
        { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
        { name: 'Los Angeles, CA', latitude: 34.0522, longitude: -118.2437, type: 'DELIVERY', dockDurationHours: 1 },
      ],
    });
    expect(plan.segments.find((s: { type: string }) => s.type === 'drive').driver_id).toBe(rosa.id);
    await api('POST', `/api/v1/routes/${plan.id}/activate`);
    const monitoring = t.app.workers.get('monitoring').worker;
    const hosAlerts = async (): Promise<Alert[]> =>
      ((await api('GET', `/api/v1/alerts?routePlanId=${plan.id}&pageSize=100`)).data as Alert[]).filter((a) => a.type.startsWith('HOS_'));

    // At the departure: Omar has 45 min of driving left — his alert, in his name; nothing about Rosa.
    await monitoring.runOnce(t.clock.now());
    const first = await hosAlerts();
    expect(first.filter((a) => a.status !== 'RESOLVED').map((a) => [a.type, a.driverId])).toEqual([['HOS_APPROACHING_DRIVE_LIMIT', omar.id]]);
    expect(first[0]!.driverName).toBe('Omar Haddad');
    expect(first[0]!.message).toMatch(/Omar Haddad/);

    // Omar goes to the sleeper berth; Rosa drives on. 10 h 5 min later Omar is rested: his alert clears by
    // itself, and Rosa, 10 h into her driving, has her own.
    await api('POST', `/api/v1/drivers/${omar.id}/duty-status`, { status: 'SLEEPER_BERTH', at: iso(T0 + 60_000) });
    clock.set(iso(T0 + 10 * HOUR + 5 * 60_000));
    await monitoring.runOnce(t.clock.now());
    const later = await hosAlerts();
    const omars = later.filter((a) => a.driverId === omar.id);
    expect(omars.map((a) => [a.type, a.status])).toEqual([['HOS_APPROACHING_DRIVE_LIMIT', 'RESOLVED']]);
    expect(later.filter((a) => a.driverId === rosa.id && a.status !== 'RESOLVED').map((a) => a.type)).toContain('HOS_APPROACHING_DRIVE_LIMIT');
    expect(later.find((a) => a.driverId === rosa.id)!.message).toMatch(/Rosa Diaz/);
  });

  it("the co-driver's own ELD clocks, when an ELD integration reported them, are the co-driver's", async () => {
    const ana = await createDriver(t.app, auth, { firstName: 'Ana', lastName: 'Lopez' });
    const ben = await createDriver(t.app, auth, { firstName: 'Ben', lastName: 'Okafor' });
    const plan = await api('POST', '/api/v1/routes/plan', {
      driverId: ana.id,
      coDriverId: ben.id,
      stops: [
        { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
        { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 },
      ],
    });
    await api('POST', `/api/v1/routes/${plan.id}/activate`);
    const integration = await api('POST', '/api/v1/integrations', { vendor: 'fake_eld', name: 'Team ELD', config: { apiToken: 'team-token-0000' } });
    // Ben's ELD: 20 min of driving left (his log here says nothing: rested).
    await t.db.system((tx) =>
      tx.query(
        `INSERT INTO driver_eld_clocks (tenant_id, driver_id, integration_id, source, vendor_driver_id, current_status, drive_remaining_ms, shift_remaining_ms, cycle_remaining_ms, break_remaining_ms, synced_at)
         SELECT tenant_id, $1, $2, 'fake_eld', 'v-ben', 'ON_DUTY_NOT_DRIVING', $3, $4, $5, $6, $7 FROM drivers WHERE id = $1`,
        [ben.id, integration.id, (20 / 60) * HOUR, 5 * HOUR, 40 * HOUR, 4 * HOUR, t.clock.now()],
      ),
    );
    await t.app.workers.get('monitoring').worker.runOnce(t.clock.now());
    const alerts = ((await api('GET', `/api/v1/alerts?routePlanId=${plan.id}&pageSize=100`)).data as (Alert & { metadata: Record<string, unknown> })[]).filter((a) => a.type.startsWith('HOS_'));
    expect(alerts.map((a) => [a.type, a.driverId, a.metadata.hosSource])).toEqual([['HOS_APPROACHING_DRIVE_LIMIT', ben.id, 'fake_eld']]);
  });
});
