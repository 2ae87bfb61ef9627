/**
 * "Find a driver" in the browser (issue 19): on a load's page, every active driver ranked for the load
 * from where they are with the hours they have — the near fresh driver and the far one on time, first;
 * the tired one late with the reason beside it; one with no known location last, saying so — and "Plan
 * with this driver" plans the route and opens it. In the plan form, the stops after the first are ranked
 * the same way and the chosen driver's route carries the form's vehicle.
 *
 * Where the drivers are (as in src/modules/dispatch/dispatch.test.ts): Nora reported a position at Fort
 * Worth on a route since completed; Frank's last route ended in Houston; Tess's ended in Dallas, but she
 * has driven 10 h today (1 h of driving left: a 10-hour rest before the delivery); Nils has no route and
 * no position.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDriver, createTenant, type TenantFixture } from '../helpers/factories.js';
import { axeViolations } from './axe.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

const HOUR = 3_600_000;
const FORT_WORTH = { latitude: 32.7555, longitude: -97.3308 };
const HOUSTON = { name: 'Houston, TX', latitude: 29.7604, longitude: -95.3698 };
const DALLAS = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 };
const DENTON = { name: 'Denton, TX', latitude: 33.2148, longitude: -97.1331 };

describeBrowser('find a driver for a load in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  let loadId = '';
  let vehicleId = '';
  const ids = { near: '', far: '', tired: '', nowhere: '' };

  const post = async (url: string, payload?: object) => {
    const res = await w.t.app.inject({ method: 'POST', url, headers: tenant.auth, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 500)}`).toBeLessThan(300);
    return res.json();
  };
  /** A route from `from` to `to`, planned for the driver and activated. */
  const startRoute = async (driverId: string, from: object, to: object): Promise<string> => {
    const route = await post('/api/v1/routes/plan', {
      driverId,
      stops: [
        { ...from, type: 'ORIGIN' },
        { ...to, type: 'DELIVERY' },
      ],
      driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
    });
    await post(`/api/v1/routes/${route.id}/activate`);
    return route.id;
  };

  beforeAll(async () => {
    w = await startWebApp();
    tenant = await createTenant(w.t.app, { name: 'Dispatch Freight' });
    ids.near = (await createDriver(w.t.app, tenant.auth, { firstName: 'Nora', lastName: 'Near' })).id;
    ids.far = (await createDriver(w.t.app, tenant.auth, { firstName: 'Frank', lastName: 'Far' })).id;
    ids.tired = (await createDriver(w.t.app, tenant.auth, { firstName: 'Tess', lastName: 'Tired' })).id;
    ids.nowhere = (await createDriver(w.t.app, tenant.auth, { firstName: 'Nils', lastName: 'Nowhere' })).id;
    const near = await startRoute(ids.near, DENTON, DALLAS);
    const far = await startRoute(ids.far, DALLAS, HOUSTON);
    const tired = await startRoute(ids.tired, DENTON, DALLAS);
    await post(`/api/v1/routes/${near}/positions`, FORT_WORTH);
    for (const id of [near, far, tired]) await post(`/api/v1/routes/${id}/complete`);
    // Tess: 10 h of driving until 2 h ago.
    const now = Date.now();
    await post(`/api/v1/drivers/${ids.tired}/duty-status`, { status: 'ON_DUTY_DRIVING', at: new Date(now - 12 * HOUR).toISOString() });
    await post(`/api/v1/drivers/${ids.tired}/duty-status`, { status: 'ON_DUTY_NOT_DRIVING', at: new Date(now - 2 * HOUR).toISOString() });
    // Picked up in Dallas from half an hour on, delivered in Oklahoma City 9.5 h later.
    const pickup = Math.ceil((now + HOUR / 2) / 60_000) * 60_000;
    loadId = (
      await post('/api/v1/loads', {
        referenceNumber: 'FD-1001',
        customer: 'Prairie Grocers',
        originAddress: 'Dallas, TX',
        destinationAddress: 'Oklahoma City, OK',
        scheduledPickup: new Date(pickup).toISOString(),
        scheduledDelivery: new Date(pickup + 9.5 * HOUR).toISOString(),
      })
    ).id;
    vehicleId = (await post('/api/v1/vehicles', { unitNumber: 'FD-T1', make: 'Volvo', model: 'VNL' })).id;
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  const rows = (page: Page) => page.getByTestId('candidate');
  const row = (page: Page, name: string) => rows(page).filter({ has: page.getByRole('rowheader', { name }) });

  it('ranks the drivers for a load: feasible first, the reason beside each one that is not', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto(`/loads/${loadId}`);
    await page.getByRole('heading', { name: 'Load FD-1001' }).waitFor();
    const section = page.getByRole('region', { name: 'Find a driver' });
    await section.getByRole('button', { name: 'Find a driver' }).click();
    await section.getByRole('status').filter({ hasText: '4 drivers ranked: 2 can take it on time; 1 location unknown.' }).waitFor();

    expect(await rows(page).evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, tr.getAttribute('data-feasible')]))).toEqual([
      ['Nora Near', 'true'],
      ['Frank Far', 'true'],
      ['Tess Tired', 'false'],
      ['Nils Nowhere', 'false'],
    ]);
    const cells = async (name: string) => row(page, name).locator('td').allTextContents();
    const nora = await cells('Nora Near');
    expect(nora.slice(0, 2)).toEqual(['On time', '—']);
    expect(Number.parseInt(nora[2]!, 10)).toBeGreaterThan(20);
    expect(Number.parseInt(nora[2]!, 10)).toBeLessThan(40);
    expect(nora[4]).toMatch(/\d\d:\d\d C[SD]T$/);
    expect(nora[5]).toContain('Last position on a route');
    const frank = await cells('Frank Far');
    expect(frank[0]).toBe('On time');
    expect(frank[5]).toMatch(/^Houston, TXEnd of their last route/);
    const tess = await cells('Tess Tired');
    expect(tess[0]).toBe('Late');
    expect(tess[1]).toMatch(/^Arrives at the delivery at Oklahoma City, OK \d+ h( \d+ min)? after its window closes: a 10 h rest is due before the delivery at Oklahoma City, OK\.$/);
    expect(tess[5]).toContain('1:00 of driving left');
    const nils = await cells('Nils Nowhere');
    expect(nils.slice(0, 3)).toEqual(['Location unknown', 'No route, reported location or home terminal: set the driver’s home terminal on their page, or have them report where they are.', '—']);
    expect(nils[5]).toBe('UnknownLocation unknown');
    // Only a feasible driver can be planned from here.
    expect(await row(page, 'Nora Near').getByRole('button', { name: 'Plan with this driver' }).count()).toBe(1);
    expect(await row(page, 'Tess Tired').getByRole('button').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'find-driver-1-load');
    await docsScreenshot(page, 'find-a-driver', { fullPage: true });
  });

  it('"Plan with this driver" plans the load for Nora and opens the new route', async () => {
    const { page } = b;
    await row(page, 'Nora Near').getByRole('button', { name: 'Plan with this driver' }).click();
    await page.waitForURL(/\/routes\/rte_[0-9A-Za-z]+$/);
    const routeId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { name: /→ Oklahoma City, OK$/ }).waitFor();
    await page.locator('.route-meta').getByRole('link', { name: 'Nora Near' }).waitFor();
    await page.locator('.route-meta').getByRole('link', { name: 'FD-1001' }).waitFor();
    const route = (await w.t.app.inject({ method: 'GET', url: `/api/v1/routes/${routeId}`, headers: tenant.auth })).json<{ driverId: string; loadId: string; status: string; stops: Array<{ name: string; withinWindow: boolean | null }> }>();
    expect(route).toMatchObject({ driverId: ids.near, loadId, status: 'PLANNED' });
    expect(route.stops.slice(1).map((s) => s.withinWindow)).toEqual([true, true]);
    await screenshot(page, 'find-driver-2-planned');
  });

  it('in the plan form: ranks the drivers for the stops after the first, and plans with the form’s vehicle', async () => {
    const { page } = b;
    await page.goto('/routes/new');
    await page.getByLabel('Stop 1 place').fill('Fort Worth, TX');
    const fieldset = page.getByRole('group', { name: 'Find a driver' });
    // A stop left empty is marked in the form.
    await fieldset.getByRole('button', { name: 'Find a driver' }).click();
    await fieldset.getByRole('status').filter({ hasText: 'Check the fields marked in the form first.' }).waitFor();
    expect(await page.getByLabel('Stop 2 place').getAttribute('aria-invalid')).toBe('true');
    // Two stops are needed after the first (each driver starts where they are): one is not enough.
    await page.getByLabel('Stop 2 type').selectOption('PICKUP');
    await page.getByLabel('Stop 2 place').fill('Dallas, TX');
    await fieldset.getByRole('button', { name: 'Find a driver' }).click();
    await fieldset.getByRole('status').filter({ hasText: /^Enter the pickup and the delivery after the first stop/ }).waitFor();

    await page.getByRole('button', { name: 'Add a stop' }).click();
    await page.getByLabel('Stop 3 place').fill('Tulsa, OK');
    await page.getByLabel('Vehicle').selectOption(vehicleId);
    await fieldset.getByRole('button', { name: 'Find a driver' }).click();
    await fieldset.getByRole('status').filter({ hasText: /^4 drivers ranked: \d can take it on time; 1 location unknown\.$/ }).waitFor();
    const first = rows(page).first();
    expect(await first.getAttribute('data-feasible')).toBe('true');
    const name = (await first.locator('th').textContent())!;
    await screenshot(page, 'find-driver-3-plan-form');
    await first.getByRole('button', { name: 'Plan with this driver' }).click();
    await page.waitForURL(/\/routes\/rte_[0-9A-Za-z]+$/);
    await page.getByRole('heading', { name: /→ Tulsa, OK$/ }).waitFor();
    await page.locator('.route-meta').getByRole('link', { name }).waitFor();
    await page.locator('.route-meta').getByRole('link', { name: 'FD-T1' }).waitFor();
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  it('a driver created with a home terminal in Dallas is on time for the Dallas load, starting from the terminal; Nils placed on his page becomes a candidate', async () => {
    const { page } = b;
    await page.goto('/drivers');
    await page.getByRole('button', { name: 'New driver' }).first().click();
    const form = page.getByRole('dialog', { name: 'New driver' });
    await form.getByLabel('First name').fill('Hana');
    await form.getByLabel('Last name').fill('Home');
    await form.getByLabel('License number').fill('H7654321');
    await form.getByLabel('License state').selectOption('TX');
    await form.getByLabel('Home terminal', { exact: true }).fill('Dallas, TX');
    await form.getByLabel('Home terminal name').fill('Dallas yard');
    await form.getByRole('button', { name: 'Create driver' }).click();
    await page.getByText('Driver Hana Home created.').waitFor();

    await page.goto(`/loads/${loadId}`);
    const section = page.getByRole('region', { name: 'Find a driver' });
    await section.getByRole('button', { name: 'Find a driver' }).click();
    await section.getByRole('status').filter({ hasText: /^5 drivers ranked: / }).waitFor();
    const hana = await row(page, 'Hana Home').locator('td').allTextContents();
    expect(hana[0]).toBe('On time');
    expect(hana[2]).toBe('0 mi');
    expect(hana[5]).toMatch(/^Dallas yardHome terminal/);

    // Nils gets a home terminal on his page (Edit): no longer "location unknown".
    await page.goto(`/drivers/${ids.nowhere}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Nils Nowhere' });
    await edit.getByLabel('Home terminal', { exact: true }).fill('Fort Worth, TX');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    const facts = (await page.getByRole('region', { name: 'Details' }).textContent()) ?? '';
    expect(facts).toContain('Home terminalFort Worth, TX');
    expect(facts).toContain('Last known locationUnknown');
    await screenshot(page, 'find-driver-4-home-terminal');
    await page.goto(`/loads/${loadId}`);
    await section.getByRole('button', { name: 'Find a driver' }).click();
    await section.getByRole('status').filter({ hasText: /^5 drivers ranked: \d can take it on time\.$/ }).waitFor();
    const nils = await row(page, 'Nils Nowhere').locator('td').allTextContents();
    expect(nils[0]).toBe('On time');
    expect(nils[5]).toMatch(/^Fort Worth, TXHome terminal/);
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
