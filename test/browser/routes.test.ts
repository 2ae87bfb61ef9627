/**
 * Route planning in the browser: sign in, plan Dallas → Chicago through the form (long enough for a
 * 10-hour rest and a 30-minute break), see the rests on the map and the log grid, activate, see the
 * route on the fleet overview with its truck once a position is reported; a misspelt city offers a
 * "did you mean" choice that fixes it. A short route (Seattle → Portland) gets a map zoomed to it, and
 * its summary and timeline agree to the minute.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDriver, createTenant, type TenantFixture } from '../helpers/factories.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

describeBrowser('route planning in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  let vehicleUnit: string;
  let driverId: string;
  let vehicleId: string;
  let planId: string;

  beforeAll(async () => {
    w = await startWebApp({ workers: true });
    tenant = await createTenant(w.t.app, { name: 'Lone Star Haulers' });
    driverId = (await createDriver(w.t.app, tenant.auth, { firstName: 'Rosa', lastName: 'Diaz' })).id;
    vehicleUnit = `LS-${Math.floor(Math.random() * 1e6)}`;
    const vehicle = await w.t.app.inject({ method: 'POST', url: '/api/v1/vehicles', headers: tenant.auth, payload: { unitNumber: vehicleUnit, make: 'Freightliner', model: 'Cascadia' } });
    expect(vehicle.statusCode, vehicle.body).toBe(201);
    vehicleId = vehicle.json<{ id: string }>().id;
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  const fillStops = async (page: Page, origin: string, destination: string) => {
    await page.getByLabel('Driver', { exact: true }).selectOption(driverId);
    await page.getByLabel('Stop 1 place').fill(origin);
    await page.getByLabel('Stop 2 place').fill(destination);
  };

  it('signs in and sees an empty fleet overview that leads to planning', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Fleet overview' }).waitFor();
    await page.getByText('No route is active right now.').waitFor();
    await page.locator('[data-testid="us-map"][data-ready="true"]').waitFor();
    // The overview keeps the whole country in view.
    expect(await page.getByTestId('us-map').getAttribute('viewBox')).toBe('0 0 975 610');
    await screenshot(page, 'routes-1-overview-empty');
    await page.getByRole('link', { name: 'Plan a route' }).first().click();
    await page.getByRole('heading', { name: 'Plan a route' }).waitFor();
  });

  it('plans Dallas → Chicago through the form: rests and breaks on the map, the log grid with its driving', async () => {
    const { page } = b;
    await fillStops(page, 'Dallas, TX', 'Chicago, IL');
    await page.getByLabel('Vehicle').selectOption(vehicleId);
    await page.getByLabel('Stop 2 hours at the dock').fill('1');
    await screenshot(page, 'routes-2-plan-form');
    await docsScreenshot(page, 'route-planning');
    await page.getByRole('button', { name: 'Plan route' }).click();

    await page.waitForURL(/\/routes\/rte_[0-9A-Za-z]+$/);
    planId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { name: /Dallas.*→.*Chicago/ }).waitFor();
    await page.locator('[data-testid="us-map"][data-ready="true"]').waitFor();

    const rests = await page.getByTestId('map-rest').count();
    const breaks = await page.getByTestId('map-break').count();
    expect(rests).toBeGreaterThan(0);
    expect(breaks).toBeGreaterThan(0);
    expect(await page.getByTestId('map-stop').count()).toBe(2);
    expect(await page.getByTestId('map-route').count()).toBe(1);
    const mapName = await page.getByTestId('us-map').getAttribute('aria-label');
    expect(mapName).toMatch(new RegExp(`${rests} rests?, ${breaks} breaks?`));

    // The plan as the API has it agrees with the page.
    const plan = (await w.t.app.inject({ method: 'GET', url: `/api/v1/routes/${planId}`, headers: tenant.auth })).json<{ summary: { restStops: number; breaks: number; totalDriveHours: number }; segments: Array<{ type: string; rest_type?: string }> }>();
    expect(rests).toBe(plan.segments.filter((s) => s.type === 'rest' && s.rest_type !== 'break').length);
    expect(breaks).toBe(plan.segments.filter((s) => s.rest_type === 'break').length);
    expect(plan.segments.some((s) => s.rest_type === 'full_rest')).toBe(true);

    // The log grid: one graph per day of the trip, the driving totals adding up to the plan's driving.
    const grid = page.getByTestId('log-grid');
    await grid.waitFor();
    const totals = await grid.locator('[data-row-total="ON_DUTY_DRIVING"]').allTextContents();
    expect(totals.length).toBeGreaterThan(0);
    const minutes = totals.map((t) => {
      const [h, m] = t.split(':').map(Number);
      return h! * 60 + m!;
    });
    expect(minutes.reduce((a, x) => a + x, 0)).toBeGreaterThan(0);
    expect(Math.abs(minutes.reduce((a, x) => a + x, 0) - plan.summary.totalDriveHours * 60)).toBeLessThanOrEqual(totals.length);

    // Times are shown in the stops' zone (Dallas and Chicago are both on Central time).
    const firstStop = page.getByTestId('route-stop').first();
    expect(await firstStop.textContent()).toMatch(/C[SD]T/);
    expect(await firstStop.textContent()).toContain('America/Chicago');
    expect(await page.getByTestId('segment-rest').count()).toBe(plan.segments.filter((s) => s.type === 'rest').length);
    await screenshot(page, 'routes-3-plan');
    await docsScreenshot(page, 'route-view');
  });

  it('activates the plan and finds it on the fleet overview, its truck appearing once it reports', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Activate route' }).click();
    await page.getByText('Route activated: monitoring has started.').waitFor();
    await page.locator('.page-header .badge', { hasText: 'Active' }).waitFor();
    await page.getByRole('button', { name: 'Cancel route' }).waitFor();
    expect(await page.getByRole('button', { name: 'Activate route' }).count()).toBe(0);
    await screenshot(page, 'routes-4-activated');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Fleet overview' }).waitFor();
    const list = page.getByRole('list', { name: 'Active routes' });
    await list.getByRole('link', { name: 'Rosa Diaz' }).waitFor();
    expect(await list.textContent()).toContain(vehicleUnit);
    await page.locator('[data-testid="us-map"][data-ready="true"]').waitFor();
    await page.getByTestId('map-route').first().waitFor();
    expect(await page.getByTestId('map-rest').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('map-truck').count()).toBe(0);

    // A position reported by the truck shows up with the next poll (every 10 s).
    const report = await w.t.app.inject({ method: 'POST', url: `/api/v1/routes/${planId}/positions`, headers: tenant.auth, payload: { latitude: 33.9, longitude: -96.6, speedMph: 62, headingDegrees: 15 } });
    expect(report.statusCode, report.body).toBe(201);
    await page.getByTestId('map-truck').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('map-truck').count()).toBe(1);
    await page.getByText('1 of 1').waitFor();
    await screenshot(page, 'routes-5-overview-active');

    // The route list shows it as active too.
    await page.goto('/routes?status=ACTIVE');
    await page.getByRole('table').getByRole('link', { name: 'Rosa Diaz', exact: true }).waitFor();
  });

  it('a misspelt city offers "did you mean", and the choice plans the route; cancelling asks first', async () => {
    const { page } = b;
    await page.goto('/routes/new');
    await page.getByRole('heading', { name: 'Plan a route' }).waitFor();
    await fillStops(page, 'Dallas, TX', 'Chicgo, IL');
    // Rosa drives the route activated above: the form says so before planning, and links it.
    const notice = page.getByRole('status').filter({ hasText: /^Rosa Diaz is on the active route Dallas, TX → Chicago, IL, .* C[SD]T to .* C[SD]T: a route for the same time cannot be activated/ });
    await notice.waitFor();
    expect(await notice.getByRole('link', { name: 'Open that route' }).getAttribute('href')).toBe(`/routes/${planId}`);
    await page.getByRole('button', { name: 'Plan route' }).click();
    const choice = page.getByRole('button', { name: 'Use Chicago, IL for stop 2' });
    await choice.waitFor();
    expect(await page.getByRole('group', { name: 'Stop 2: did you mean?' }).textContent()).toContain('Chicago, IL');
    expect(await page.getByLabel('Stop 2 place').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'routes-6-did-you-mean');
    await choice.click();
    await page.waitForURL(/\/routes\/rte_[0-9A-Za-z]+$/);
    expect(new URL(page.url()).pathname).not.toBe(`/routes/${planId}`);
    await page.getByRole('heading', { name: /Dallas.*→.*Chicago/ }).waitFor();
    await page.locator('[data-testid="us-map"][data-ready="true"]').waitFor();
    expect(await page.getByTestId('map-rest').count()).toBeGreaterThan(0);
    await screenshot(page, 'routes-7-fixed-plan');
    // The plan's warnings say it too; Activate refuses, naming Rosa and linking the route in the way.
    expect(await page.locator('main').textContent()).toMatch(/Rosa Diaz is already on the active route Dallas, TX → Chicago, IL/);
    await page.getByRole('button', { name: 'Activate route' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Rosa Diaz is already driving the active route Dallas, TX → Chicago, IL; complete or cancel it first' });
    await refusal.waitFor();
    expect(await refusal.getByRole('link', { name: 'Open that route' }).getAttribute('href')).toBe(`/routes/${planId}`);

    // This second plan is not wanted: cancelling asks first, with an optional reason.
    await page.getByRole('button', { name: 'Cancel route' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this route?' });
    await dialog.waitFor();
    await dialog.getByLabel('Reason (optional)').fill('Duplicate plan');
    await screenshot(page, 'routes-8-cancel-confirm');
    await dialog.getByRole('button', { name: 'Yes, cancel the route' }).click();
    await page.getByText('Route cancelled.').waitFor();
    await page.getByText(/Cancelled .*: Duplicate plan/).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel route' }).count()).toBe(0);
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  it('plans Seattle → Portland: the map zooms to the route, and the summary adds up the timeline to the minute', async () => {
    const { page } = b;
    await page.goto('/routes/new');
    await page.getByRole('heading', { name: 'Plan a route' }).waitFor();
    await fillStops(page, 'Seattle, WA', 'Portland, OR');
    await page.getByRole('button', { name: 'Plan route' }).click();
    await page.waitForURL(/\/routes\/rte_[0-9A-Za-z]+$/);
    await page.getByRole('heading', { name: /Seattle.*→.*Portland/ }).waitFor();
    const map = page.locator('[data-testid="us-map"][data-ready="true"]');
    await map.waitFor();

    // The drawn route fills most of the map's height or width (on the whole-country map it is a
    // stroke about a tenth of the height), and its stops are inside the visible map.
    const mapBox = (await map.boundingBox())!;
    const routeBox = (await page.getByTestId('map-route').locator('.map-route').boundingBox())!;
    expect(Math.max(routeBox.width / mapBox.width, routeBox.height / mapBox.height)).toBeGreaterThan(0.5);
    for (const stop of await page.getByTestId('map-stop').all()) {
      const box = (await stop.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(mapBox.x);
      expect(box.y).toBeGreaterThanOrEqual(mapBox.y);
      expect(box.x + box.width).toBeLessThanOrEqual(mapBox.x + mapBox.width);
      expect(box.y + box.height).toBeLessThanOrEqual(mapBox.y + mapBox.height);
      // Markers keep their size on screen (a 16-unit glyph at 1.25, give or take the page's scale).
      expect(box.width).toBeLessThan(40);
    }
    expect(await map.getAttribute('viewBox')).not.toBe('0 0 975 610');

    // The summary's driving is the timeline's drive rows added up.
    const minutes = (t: string | null) => {
      const [h, m] = (t ?? '').trim().split(':').map(Number);
      return h! * 60 + m!;
    };
    const driving = minutes(await page.locator('.facts div', { has: page.locator('dt', { hasText: /^Driving$/ }) }).locator('dd').textContent());
    const driveRows = await page.getByTestId('segment-drive').locator('td:nth-of-type(5)').allTextContents();
    expect(driveRows.length).toBeGreaterThan(0);
    expect(driveRows.map(minutes).reduce((a, x) => a + x, 0)).toBe(driving);
    expect(driving).toBeGreaterThan(60);
    await screenshot(page, 'routes-9-short-route-map');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
