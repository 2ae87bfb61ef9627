import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';
import { createActiveRoute, createTenant, createUser, type TenantFixture } from '../helpers/factories.js';
import { seedAlerts } from '../helpers/alerts.js';
import { dispatch, raiseTestAlert } from '../helpers/realtime.js';
import { startMonitoring } from '../../src/modules/monitoring/monitoring.repository.js';

/**
 * The alerts feed in a real browser with the workers running (events reach the page over Socket.IO):
 * an alert raised by monitoring while the page is open appears without a reload and counts in the
 * navigation badge; acknowledge, snooze, resolve and a note are done through the page; the analytics
 * page draws its charts.
 */
describeBrowser('alerts in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let acme: TenantFixture;
  let dispatcher: { email: string };
  const H = 3_600_000;

  beforeAll(async () => {
    w = await startWebApp({ workers: true });
    acme = await createTenant(w.t.app, { name: 'Alerting Freight' });
    dispatcher = await createUser(w.t.app, w.t.mailer, acme, 'DISPATCHER');
    // History for the analytics (none left ACTIVE: the feed starts empty), sent out before the page opens.
    const day = (d: number, h: number) => new Date(Date.now() - d * 24 * H - h * H).toISOString();
    await seedAlerts(w.t.app.deps.db, acme.tenantId, [
      { type: 'LOW_FUEL', at: day(5, 3), ackAfter: 4, resolveAfter: 50 },
      { type: 'LOW_FUEL', at: day(4, 2), ackAfter: 12, resolveAfter: 90, resolvedBy: 'system' },
      { type: 'HOS_VIOLATION', at: day(4, 6), ackAfter: 2, resolveAfter: 30 },
      { type: 'ROUTE_DEVIATION', at: day(3, 1), ackAfter: 20 },
      { type: 'SEVERE_WEATHER_IN_PATH', at: day(2, 5), ackAfter: 9, resolveAfter: 240, resolvedBy: 'system' },
      { type: 'LATE_TO_APPOINTMENT', at: day(1, 2), ackAfter: 35 },
      { type: 'LOW_FUEL', at: day(1, 8), resolveAfter: 15, resolvedBy: 'system' },
      { type: 'DEPARTURE_DELAYED', at: day(0, 5), snoozeFor: 24 * 60 },
    ]);
    await dispatch(w.t.app);
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  const card = (page: Page, title: string | RegExp): Locator => page.getByRole('article').filter({ has: page.getByRole('heading', { name: title }) });
  const badge = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Alerts/ });

  it('a dispatcher signs in and opens the alerts feed: nothing open, no badge', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel('Email').fill(dispatcher.email);
    await page.getByLabel('Password').fill('another-good-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await badge(page).click();
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No open alerts' }).waitFor();
    await page.locator('.live-on').waitFor();
    expect(await badge(page).textContent()).toBe('Alerts');
    await screenshot(page, 'alerts-1-empty-feed');
  });

  let routeId = '';
  let driverId = '';

  it('an alert raised by monitoring while the page is open appears at the top without a reload, and the badge counts it', async () => {
    const { page } = b;
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    ({ routeId, driverId } = await createActiveRoute(w.t.app, acme.auth));
    // 30 miles east of the Dallas → Oklahoma City path, then one monitoring pass.
    const pos = await w.t.app.inject({ method: 'POST', url: `/api/v1/routes/${routeId}/positions`, headers: acme.auth, payload: { latitude: 32.95, longitude: -96.3, speedMph: 55 } });
    expect(pos.statusCode).toBe(201);
    // The route was checked at activation (before the position): make it due again, then one pass.
    await w.t.app.deps.db.tenant(acme.tenantId, (tx) => startMonitoring(tx, acme.tenantId, routeId, new Date()));
    await w.t.app.workers.get('monitoring').worker.runOnce(new Date());

    const alert = card(page, /^Off route/);
    await alert.waitFor();
    expect(await alert.textContent()).toContain('New');
    expect(await alert.getByRole('link', { name: 'View route' }).getAttribute('href')).toBe(`/routes/${routeId}`);
    await expect.poll(() => page.getByTestId('alerts-live-region').textContent()).toMatch(/^New (high|medium) priority alert: Off route/);
    await badge(page).filter({ hasText: '1 open alert' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await screenshot(page, 'alerts-2-arrived-live');

    await alert.getByRole('button', { name: 'Acknowledge' }).click();
    await alert.getByText('Acknowledged', { exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: /^Acknowledged: Off route/ }).waitFor();
    await expect.poll(async () => (await badge(page).textContent())?.trim()).toBe('Alerts');
    expect(await alert.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    await screenshot(page, 'alerts-3-acknowledged');
  });

  it('snoozes one alert, resolves another with a resolution, and adds a note in the side panel', async () => {
    const { page } = b;
    await raiseTestAlert(w.t.app, acme.tenantId, { type: 'LOW_FUEL', driverId, routeId });
    await raiseTestAlert(w.t.app, acme.tenantId, { type: 'VEHICLE_FAULT', driverId, routeId });
    const fuel = card(page, 'LOW_FUEL test');
    const fault = card(page, 'VEHICLE_FAULT test');
    await fuel.waitFor();
    await fault.waitFor();
    await badge(page).filter({ hasText: '2 open alerts' }).waitFor();
    // The most urgent first (the off-route alert is High, the two test alerts Medium), newest first within a priority.
    const titles = await page.getByRole('article').getByRole('heading').allTextContents();
    expect(titles.slice(0, 3)).toEqual([expect.stringMatching(/^Off route/), 'VEHICLE_FAULT test', 'LOW_FUEL test']);

    await fuel.getByRole('button', { name: 'Snooze…' }).click();
    const snooze = page.getByRole('dialog', { name: 'Snooze alert' });
    await snooze.getByLabel('Snooze for').selectOption({ label: '30 minutes' });
    await screenshot(page, 'alerts-4-snooze-dialog');
    await snooze.getByRole('button', { name: 'Snooze', exact: true }).click();
    await fuel.getByText('Snoozed', { exact: true }).waitFor();
    await snooze.waitFor({ state: 'hidden' });

    await fault.getByRole('button', { name: 'Resolve…' }).click();
    const resolve = page.getByRole('dialog', { name: 'Resolve alert' });
    await resolve.getByLabel('Resolution').fill('Driver reset the sensor at the truck stop');
    await resolve.getByRole('button', { name: 'Resolve alert' }).click();
    await fault.getByText('Resolved', { exact: true }).waitFor();
    await fault.getByText('Driver reset the sensor at the truck stop').waitFor();
    await expect.poll(async () => (await badge(page).textContent())?.trim()).toBe('Alerts');
    await screenshot(page, 'alerts-5-snoozed-and-resolved');

    const stored = (await w.t.app.inject({ method: 'GET', url: '/api/v1/alerts?status=SNOOZED,RESOLVED&pageSize=100', headers: acme.auth })).json<{ data: Array<{ title: string; status: string; snoozedUntil: string | null; resolution: string | null }> }>().data;
    const fuelStored = stored.find((a) => a.title === 'LOW_FUEL test')!;
    expect(fuelStored.status).toBe('SNOOZED');
    expect(Date.parse(fuelStored.snoozedUntil!) - Date.now()).toBeGreaterThan(25 * 60_000);
    expect(stored.find((a) => a.title === 'VEHICLE_FAULT test')).toMatchObject({ status: 'RESOLVED', resolution: 'Driver reset the sensor at the truck stop' });

    // The side panel: details, then a note.
    const offRoute = card(page, /^Off route/);
    await offRoute.getByRole('button', { name: 'Details & notes' }).click();
    const panel = page.getByRole('dialog', { name: /^Off route/ });
    await panel.getByRole('heading', { name: 'Notes (0)' }).waitFor();
    expect(await panel.textContent()).toMatch(/Off the path by\d+ mi/);
    await panel.getByLabel('Add a note').fill('Called the driver: detour around a closed bridge.');
    await panel.getByRole('button', { name: 'Add note' }).click();
    await panel.getByRole('heading', { name: 'Notes (1)' }).waitFor();
    await panel.getByText('Called the driver: detour around a closed bridge.').waitFor();
    expect(await panel.getByRole('listitem').filter({ hasText: 'Called the driver' }).textContent()).toContain('You');
    await screenshot(page, 'alerts-6-details-and-note');
    await panel.getByRole('button', { name: 'Close alert details' }).click();
    await panel.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).search).toBe('');

    const offRouteId = await offRoute.getAttribute('data-alert-id');
    const notes = (await w.t.app.inject({ method: 'GET', url: `/api/v1/alerts/${offRouteId}/notes`, headers: acme.auth })).json<{ data: Array<{ text: string }> }>().data;
    expect(notes.map((n) => n.text)).toEqual(['Called the driver: detour around a closed bridge.']);
  });

  it('filters the feed (status and priority), and reads the list again after the live connection comes back', async () => {
    const { page } = b;
    await page.getByLabel('Status').selectOption({ label: 'All statuses' });
    await card(page, 'VEHICLE_FAULT test').waitFor();
    await page.getByText(/^All statuses: 11 alerts/).waitFor();
    expect(new URL(page.url()).search).toBe('?status=');
    // Most urgent first by default (the one Critical alert on top); newest first when asked.
    await expect.poll(() => page.getByRole('article').getByRole('heading').first().textContent()).toBe('HOS_VIOLATION title');
    await page.getByLabel('Order').selectOption({ label: 'Newest first' });
    await expect.poll(() => page.getByRole('article').getByRole('heading').first().textContent()).toBe('VEHICLE_FAULT test');
    expect(new URL(page.url()).search).toBe('?status=&sort=newest');
    await page.getByLabel('Order').selectOption({ label: 'Most urgent first' });
    await expect.poll(() => page.getByRole('article').getByRole('heading').first().textContent()).toBe('HOS_VIOLATION title');
    await page.getByLabel('Priority').selectOption({ label: 'Critical' });
    await page.getByText(/^All statuses: 1 alert$/).waitFor();
    expect(await page.getByRole('article').getByRole('heading').allTextContents()).toEqual(['HOS_VIOLATION title']);
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await page.getByRole('heading', { name: 'No open alerts' }).waitFor();

    // Offline: events sent meanwhile are missed; back online, the list is read again and shows them.
    await b.context.setOffline(true);
    await page.locator('.live-off').waitFor();
    await raiseTestAlert(w.t.app, acme.tenantId, { type: 'TELEMETRY_STALE', driverId, routeId });
    await dispatch(w.t.app);
    await b.context.setOffline(false);
    await page.locator('.live-on').waitFor({ timeout: 20_000 });
    await card(page, 'TELEMETRY_STALE test').waitFor();
    await badge(page).filter({ hasText: '1 open alert' }).waitFor();
    await screenshot(page, 'alerts-7-recovered-after-reconnect');
  });

  it('the analytics page draws volume, response, resolution and top types as charts with data tables', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Alert analytics' }).click();
    await page.getByRole('heading', { name: 'Alert analytics', level: 1 }).waitFor();
    const figure = (name: string) => page.getByRole('figure', { name, exact: true });
    for (const name of ['Alert volume', 'Time to acknowledge', 'Resolution rate', 'Resolution time', 'Most common alert types']) {
      await figure(name).getByRole('img').waitFor();
    }
    expect(await figure('Alert volume').locator('rect').count()).toBeGreaterThan(4);
    expect(await figure('Time to acknowledge').locator('path').first().getAttribute('d')).toMatch(/^M/);
    expect(await figure('Most common alert types').textContent()).toContain('Low fuel');
    const stats = page.getByRole('region', { name: 'Statistics for the range' });
    expect(await stats.textContent()).toMatch(/Raised12/);

    // The numbers behind a chart, as a table.
    await figure('Most common alert types').getByText('Data table: Most common alert types').click();
    const table = figure('Most common alert types').getByRole('table');
    await table.waitFor();
    expect(await table.getByRole('row', { name: /Low fuel/ }).textContent()).toMatch(/Low fuelMechanical4/);
    await screenshot(page, 'alerts-8-analytics-week');
    await docsScreenshot(page, 'alerts-analytics');

    // The last 24 hours, by hour.
    await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 24 hours' });
    expect(await page.getByLabel('Group by').inputValue()).toBe('hour');
    await expect.poll(async () => figure('Alert volume').getByRole('paragraph').first().textContent()).toMatch(/^\d+ alerts? raised in the last 24 hours/);
    expect(new URL(page.url()).search).toBe('?range=24h');
    await screenshot(page, 'alerts-9-analytics-day');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
