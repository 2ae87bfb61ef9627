/**
 * Re-planning an ACTIVE route from the dashboard (issue 19): the truck is far behind plan and monitoring
 * raises LATE_TO_APPOINTMENT; the dispatcher opens the alert, follows "Re-plan from here" to the route,
 * reads the preview (the delivery's old and new ETA side by side, now kept; the 10-hour rest the new plan
 * no longer needs; the rest of the trip before and after; where and with which clocks it starts), applies
 * it with a reason, and the route shows revision 2 and its revisions. A route with no reported position
 * says why it cannot be re-planned.
 *
 * The story is test/e2e/replan.e2e.test.ts's, on a fake clock that ends where the real one is (the
 * browser's relative times read right): Dallas yard → Denton pickup → Wichita DC with a delivery window,
 * planned with 9.5 h driven typed in (a 10-hour rest after the pickup, ~7 h late), while the log says the
 * driver rested; three hours after departure the truck is stuck south of Gainesville.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeClock } from '../helpers/clock.js';
import { createActiveRoute, createApiKey, createTenant, type TenantFixture } from '../helpers/factories.js';
import { axeViolations } from './axe.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

const HOUR = 3_600_000;
// Three hours ago, to the minute: the clock ends at T0 + 3 h, about now.
const T0 = new Date(Math.floor((Date.now() - 3 * HOUR) / 60_000) * 60_000).toISOString();
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR).toISOString();
const DALLAS = { name: 'Dallas yard', latitude: 32.7767, longitude: -96.797 };
const DENTON = { name: 'Denton pickup', latitude: 33.2148, longitude: -97.1331 };
const WICHITA = { name: 'Wichita DC', latitude: 37.6872, longitude: -97.3301 };

describeBrowser('re-plan an active route in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  let auth: Record<string, string>;
  let routeId = '';
  let plannedArrival = '';

  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await w.t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 500)}`).toBeLessThan(300);
    return res.json();
  };

  beforeAll(async () => {
    const clock = new FakeClock(at(-1));
    w = await startWebApp({ realClock: false, clock });
    tenant = await createTenant(w.t.app, { name: 'Replan Freight' });
    // An API key: the fake clock runs past an access token's 15 minutes.
    auth = { 'x-api-key': (await createApiKey(w.t.app, tenant)).key };
    const driver = await api('POST', '/api/v1/drivers', { firstName: 'Rosa', lastName: 'Quintero', licenseNumber: 'REPLAN-B1', licenseState: 'TX' });
    const planned = await api('POST', '/api/v1/routes/plan', {
      driverId: driver.id,
      departureTime: T0,
      stops: [
        { ...DALLAS, type: 'ORIGIN' },
        { ...DENTON, type: 'PICKUP', dockDurationHours: 0.5 },
        { ...WICHITA, type: 'DELIVERY', dockDurationHours: 1, appointment: { latest: at(10) } },
      ],
      driverState: { hoursDriven: 9.5, onDutyHours: 10, hoursSinceBreak: 2, cycleHoursUsed: 40 },
    });
    expect(planned.summary.appointmentsMissed).toBe(1);
    routeId = planned.id;
    plannedArrival = planned.arrivalTime;
    clock.set(T0);
    await api('POST', `/api/v1/routes/${routeId}/activate`);
    // What the driver logged: rested, then driving from T0.
    await api('POST', `/api/v1/drivers/${driver.id}/duty-status`, { status: 'ON_DUTY_DRIVING' });
    const monitoring = w.t.app.workers.get('monitoring').worker;
    for (const [hours, latitude, longitude] of [
      [0.7, DENTON.latitude, DENTON.longitude],
      [1.2, DENTON.latitude + 0.01, DENTON.longitude],
      [3, 33.5, -97.15],
    ] as const) {
      clock.set(at(hours));
      await api('POST', `/api/v1/routes/${routeId}/positions`, { latitude, longitude, speedMph: 20, fuelLevelPercent: 80 });
      await monitoring.runOnce(clock.now());
    }
    const open = (await api('GET', `/api/v1/alerts?routePlanId=${routeId}&status=ACTIVE`)).data as Array<{ type: string }>;
    expect(open.map((a) => a.type)).toContain('LATE_TO_APPOINTMENT');
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  const preview = (page: Page) => page.getByTestId('replan-preview');

  it('opens the LATE alert, follows "Re-plan from here" and sees the preview: old and new ETA side by side, kept', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto('/alerts');
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: /^Late to appointment at Wichita DC/ }) });
    await card.waitFor();
    // In the feed's row and in the alert's panel.
    expect(await card.getByRole('link', { name: 'Re-plan from here' }).getAttribute('href')).toBe(`/routes/${routeId}?replan=1`);
    await card.getByRole('button', { name: 'Details & notes' }).click();
    const panel = page.getByRole('dialog', { name: /^Late to appointment at Wichita DC/ });
    await panel.getByRole('heading', { name: /^Notes/ }).waitFor();
    await panel.getByRole('link', { name: 'Re-plan from here' }).click();

    await page.waitForURL(new RegExp(`/routes/${routeId}\\?replan=1$`));
    const section = page.getByRole('region', { name: 'Re-plan from here' });
    await section.waitFor();
    await preview(page).waitFor();
    // Focus moves to the panel's heading.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Re-plan from here');

    // The delivery: late on the current plan, kept by the new one, hours earlier.
    const rows = preview(page).getByTestId('replan-stop');
    expect(await rows.count()).toBe(1);
    const delivery = rows.first();
    const cells = await delivery.locator('td, th').allTextContents();
    expect(cells[1]).toContain('Wichita DC');
    expect(cells[2]).toMatch(/^any time – \w{3}, \w{3} \d+, \d\d:\d\d C[SD]T$/);
    expect(cells[3]).toMatch(/\d\d:\d\d C[SD]T$/);
    expect(cells[4]).toMatch(/\d\d:\d\d C[SD]T$/);
    expect(cells[3]).not.toBe(cells[4]);
    expect(cells[5]).toMatch(/^\d+:\d\d earlier$/);
    expect(cells.slice(6)).toEqual(['Late', 'Kept']);
    // The 10-hour rest the old plan had ahead of the truck is no longer needed.
    const planStops = await preview(page).getByTestId('replan-plan-stop').allTextContents();
    expect(planStops.some((t) => /^Removed10-hour rest/.test(t))).toBe(true);
    // The rest of the trip before and after, and where it starts from.
    const arrival = preview(page).getByRole('row', { name: /^Arrival/ });
    expect(await arrival.textContent()).toMatch(/earlier$/);
    const starts = await preview(page).locator('.facts').textContent();
    expect(starts).toContain('Stops completed2 of 3');
    expect(starts).toContain('Driven3:00');
    expect(starts).toContain('Clocks fromthe duty-status log');
    // Nothing has changed yet.
    expect((await api('GET', `/api/v1/routes/${routeId}`)).revision).toBe(1);

    expect(await axeViolations(page)).toEqual([]);

    await section.getByLabel('Reason (optional)').fill('Stuck in traffic; the driver had rested');
    await screenshot(page, 'replan-1-preview');
    // The preview, the reason and the buttons, below the route's title.
    await docsScreenshot(page, 'replan-preview', { height: 1250 });
  });

  it('applies the re-plan: the page shows revision 2 and the revisions, the current one marked', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Apply re-plan' }).click();
    await page.getByRole('status').filter({ hasText: 'Re-planned: revision 2 is now the route’s plan.' }).waitFor();
    await page.getByTestId('route-revision-number').filter({ hasText: 'Revision 2' }).waitFor();
    expect(await page.getByRole('region', { name: 'Re-plan from here' }).count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');

    const revisions = page.getByRole('region', { name: 'Revisions' });
    await revisions.waitFor();
    const rows = revisions.getByTestId('route-revision');
    expect(await rows.count()).toBe(2);
    const first = await rows.nth(0).locator('th, td').allTextContents();
    const second = await rows.nth(1).locator('th, td').allTextContents();
    expect(first[0]).toBe('Revision 1 — as planned');
    expect(second[0]).toBe('Revision 2 Current');
    expect(await rows.nth(1).getAttribute('aria-current')).toBe('true');
    expect(second[3]).toBe('Stuck in traffic; the driver had rested');
    expect(second[2]).not.toBe('');

    const route = await api('GET', `/api/v1/routes/${routeId}`);
    expect(route).toMatchObject({ revision: 2, revisionReason: 'Stuck in traffic; the driver had rested', summary: { appointmentsMissed: 0, hosViolations: 0 } });
    expect(Date.parse(route.arrivalTime)).toBeLessThan(Date.parse(plannedArrival));
    // The stop table shows the new plan: the delivery on time.
    const delivery = page.getByTestId('route-stop').filter({ hasText: 'Wichita DC' });
    expect(await delivery.locator('td').last().textContent()).toBe('On time');
    await screenshot(page, 'replan-2-applied');
  });

  it('a route with no reported position says why it cannot be re-planned; Cancel closes the panel', async () => {
    const { page } = b;
    const other = await createActiveRoute(w.t.app, auth);
    await page.goto(`/routes/${other.routeId}?replan=1`);
    const section = page.getByRole('region', { name: 'Re-plan from here' });
    await section.getByRole('alert').filter({ hasText: /^No position has been reported for this route; / }).waitFor();
    expect(await section.getByRole('button', { name: 'Apply re-plan' }).isDisabled()).toBe(true);
    await screenshot(page, 'replan-3-no-position');
    await section.getByRole('button', { name: 'Cancel' }).click();
    await section.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    // The button opens it again.
    await page.getByRole('button', { name: 'Re-plan from here' }).click();
    await page.getByRole('region', { name: 'Re-plan from here' }).getByRole('alert').waitFor();
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
