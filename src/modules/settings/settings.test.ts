import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

describe.each(DB_KINDS)('tenant settings (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    acme = await createTenant(t.app);
  });
  afterAll(async () => t?.close());

  it('starts from documented defaults', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/tenant/settings', headers: acme.auth });
    expect(res.statusCode).toBe(200);
    const defaults = {
      alerts: {
        hosApproachingThresholdHours: 1,
        routeDeviationThresholdMiles: 5,
        unplannedStopThresholdMinutes: 30,
        dockDelayThresholdMinutes: 120,
        enableWeatherAlerts: true,
        enableMechanicalAlerts: true,
      },
      monitoring: { monitoringIntervalSeconds: 60, autoResolveDeviationAfterMinutes: 15, hosWarningThresholdMinutes: 30, telemetryStaleMinutes: 15 },
      hos: { ruleSet: 'US_PROPERTY_70_8', adverseDrivingConditions: false, shortHaul16Hour: false, shortHaul150AirMile: false, homeTerminalUtcOffsetMinutes: 0, homeTerminalTimeZone: null, periodStartTime: '00:00' },
    };
    expect(res.json()).toEqual({ ...defaults, defaults });
  });

  it('reports the defaults beside changed values (the form shows both); the updates answer the settings alone', async () => {
    const tenant = await createTenant(t.app);
    const put = await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/alerts', headers: tenant.auth, payload: { routeDeviationThresholdMiles: 12 } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).not.toHaveProperty('defaults');
    const res = (await t.app.inject({ method: 'GET', url: '/api/v1/tenant/settings', headers: tenant.auth })).json();
    expect(res.alerts.routeDeviationThresholdMiles).toBe(12);
    expect(res.defaults.alerts.routeDeviationThresholdMiles).toBe(5);
  });

  it('switches the HOS rule set, which then governs the driver clocks', async () => {
    const tenant = await createTenant(t.app);
    const res = await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/hos', headers: tenant.auth, payload: { ruleSet: 'US_PROPERTY_60_7' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().hos.ruleSet).toBe('US_PROPERTY_60_7');
    const driver = await createDriver(t.app, tenant.auth);
    const hos = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driver.id}/hos`, headers: tenant.auth });
    expect(hos.json()).toMatchObject({ ruleSet: 'US_PROPERTY_60_7', cycleTimeRemaining: 60 });
    const bad = await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/hos', headers: tenant.auth, payload: { ruleSet: 'MARS_RULES' } });
    expect(bad.statusCode).toBe(400);
  });

  it('updates alert and monitoring settings (the fields given) and keeps them per tenant', async () => {
    const alerts = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/tenant/settings/alerts',
      headers: acme.auth,
      payload: { hosApproachingThresholdHours: 2, enableWeatherAlerts: false },
    });
    expect(alerts.statusCode).toBe(200);
    expect(alerts.json().alerts).toMatchObject({ hosApproachingThresholdHours: 2, enableWeatherAlerts: false, routeDeviationThresholdMiles: 5 });
    const monitoring = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/tenant/settings/monitoring',
      headers: acme.auth,
      payload: { monitoringIntervalSeconds: 30, autoResolveDeviationAfterMinutes: 10, hosWarningThresholdMinutes: 45, telemetryStaleMinutes: 5 },
    });
    expect(monitoring.statusCode).toBe(200);
    const now = (await t.app.inject({ method: 'GET', url: '/api/v1/tenant/settings', headers: acme.auth })).json();
    expect(now.monitoring).toEqual({ monitoringIntervalSeconds: 30, autoResolveDeviationAfterMinutes: 10, hosWarningThresholdMinutes: 45, telemetryStaleMinutes: 5 });
    expect(now.alerts.hosApproachingThresholdHours).toBe(2);

    const other = await createTenant(t.app);
    const theirs = (await t.app.inject({ method: 'GET', url: '/api/v1/tenant/settings', headers: other.auth })).json();
    expect(theirs.monitoring.monitoringIntervalSeconds).toBe(60);
    expect(theirs.alerts.hosApproachingThresholdHours).toBe(1);
  });

  it.each([
    ['alerts', { hosApproachingThresholdHours: 0 }],
    ['alerts', { hosApproachingThresholdHours: 12 }],
    ['alerts', { routeDeviationThresholdMiles: -1 }],
    ['alerts', { dockDelayThresholdMinutes: 'soon' }],
    ['alerts', { enableWeatherAlerts: 'yes' }],
    ['alerts', { somethingElse: 1 }],
    ['alerts', {}],
    ['monitoring', { monitoringIntervalSeconds: 4 }],
    ['monitoring', { monitoringIntervalSeconds: 3601 }],
    ['monitoring', { monitoringIntervalSeconds: 30.5 }],
    ['monitoring', { hosWarningThresholdMinutes: 0 }],
    ['monitoring', { telemetryStaleMinutes: 0 }],
    ['monitoring', { telemetryStaleMinutes: 1441 }],
  ])('rejects out-of-range %s settings %j with 400', async (section, payload) => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/v1/tenant/settings/${section}`, headers: acme.auth, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Validation failed');
  });

  it('lets only OWNER and ADMIN change settings', async () => {
    const admin = await createUser(t.app, t.mailer, acme, 'ADMIN');
    const dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
    const ok = await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/alerts', headers: admin.auth, payload: { dockDelayThresholdMinutes: 90 } });
    expect(ok.statusCode).toBe(200);
    const denied = await t.app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/monitoring', headers: dispatcher.auth, payload: { monitoringIntervalSeconds: 10 } });
    expect(denied.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/tenant/settings', headers: dispatcher.auth })).statusCode).toBe(200);
  });
});
