import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';
import { createDriver, createTenant, type TenantFixture } from '../helpers/factories.js';

/** h:mm → minutes. */
const minutes = (hm: string) => {
  const [h, m] = hm.trim().split(':').map(Number);
  return h! * 60 + m!;
};

/** The value of a datetime-local input for `ms` in the zone (the browser context runs in America/Chicago). */
function localInput(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

/** The total of one log-grid row over every day shown, in minutes. */
async function rowTotal(page: Page, status: string): Promise<number> {
  const texts = await page.locator(`[data-row-total="${status}"]`).allTextContents();
  return texts.reduce((sum, t) => sum + minutes(t), 0);
}

async function clock(page: Page, label: string): Promise<string> {
  return (await page.locator(`[data-clock="${label}"] .clock-value`).textContent())!.trim();
}

describeBrowser('drivers, vehicles, loads and locations in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let owner: TenantFixture;
  let other: TenantFixture;
  let otherDriverId: string;
  let danaId: string;

  beforeAll(async () => {
    w = await startWebApp();
    owner = await createTenant(w.t.app, { name: 'Lone Star Freight' });
    other = await createTenant(w.t.app, { name: 'Other Carrier' });
    otherDriverId = (await createDriver(w.t.app, other.auth, { firstName: 'Secret', lastName: 'Elsewhere' })).id;
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  it('signs in as the owner, creates a driver and a vehicle through the forms, and finds them in the lists', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();

    await nav.getByRole('link', { name: 'Drivers' }).click();
    await page.getByRole('heading', { name: 'Drivers', level: 1 }).waitFor();
    await page.getByText('No drivers yet.').waitFor();
    await screenshot(page, 'fleet-01-drivers-empty');

    await page.getByRole('button', { name: 'New driver' }).first().click();
    const form = page.getByRole('dialog', { name: 'New driver' });
    await form.getByLabel('First name').fill('Dana');
    await form.getByLabel('Last name').fill('Rivera');
    // A license number the server refuses: its message appears on the field.
    await form.getByLabel('License number').fill('D#1234567');
    await form.getByLabel('License state').selectOption('TX');
    await form.getByLabel('Truck number').fill('T-104');
    await form.getByLabel('Phone').fill('+1 214 555 0142');
    await form.getByLabel('Email').fill('dana.rivera@lonestar.test');
    await form.getByRole('button', { name: 'Create driver' }).click();
    await form.getByText('is not in the expected format').waitFor();
    expect(await form.getByRole('alert').textContent()).toMatch(/Validation failed/);
    expect(await form.getByLabel('License number').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'fleet-02-driver-form-server-error');

    await form.getByLabel('License number').fill('D1234567');
    await form.getByRole('button', { name: 'Create driver' }).click();
    await page.getByText('Driver Dana Rivera created.').waitFor();
    await page.getByRole('link', { name: 'Dana Rivera' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Another driver (made through the API), then a search that finds only Dana; kept in the address.
    await createDriver(w.t.app, owner.auth, { firstName: 'Sam', lastName: 'Okafor' });
    await page.reload();
    await page.getByRole('link', { name: 'Sam Okafor' }).waitFor();
    await page.getByRole('searchbox', { name: /Search drivers/ }).fill('Rivera');
    await page.waitForURL(/q=Rivera/);
    await page.getByRole('link', { name: 'Sam Okafor' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Dana Rivera' }).waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'Dana Rivera' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sam Okafor' }).count()).toBe(0);
    expect(await page.getByRole('searchbox', { name: /Search drivers/ }).inputValue()).toBe('Rivera');
    await page.getByRole('searchbox', { name: /Search drivers/ }).fill('nobody-like-this');
    await page.getByText('No drivers match “nobody-like-this”.').waitFor();
    await page.getByLabel('Status').selectOption('INACTIVE');
    await page.waitForURL(/status=INACTIVE/);
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await page.getByRole('link', { name: 'Sam Okafor' }).waitFor();
    expect(await page.getByRole('searchbox', { name: /Search drivers/ }).inputValue()).toBe('');
    expect(await page.getByLabel('Status').inputValue()).toBe('');
    // Back: the empty, filtered list again, its search shown in the box.
    await page.goBack();
    await page.getByText('No drivers match “nobody-like-this” with these filters.').waitFor();
    expect(await page.getByRole('searchbox', { name: /Search drivers/ }).inputValue()).toBe('nobody-like-this');
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await page.getByRole('link', { name: 'Sam Okafor' }).waitFor();
    await page.getByRole('searchbox', { name: /Search drivers/ }).fill('Rivera');
    await page.getByRole('link', { name: 'Sam Okafor' }).waitFor({ state: 'detached' });
    await screenshot(page, 'fleet-03-drivers-search');

    await nav.getByRole('link', { name: 'Vehicles' }).click();
    await page.getByRole('heading', { name: 'Vehicles', level: 1 }).waitFor();
    await page.getByText('No vehicles yet.').waitFor();
    await page.getByRole('button', { name: 'New vehicle' }).first().click();
    const vform = page.getByRole('dialog', { name: 'New vehicle' });
    await vform.getByLabel('Unit number').fill('T-104');
    await vform.getByLabel('VIN').fill('1FUJGLDR9CSBM1234');
    await vform.getByLabel('Make').fill('Freightliner');
    await vform.getByLabel('Model', { exact: true }).fill('Cascadia');
    await vform.getByLabel('Model year').fill('2021');
    await vform.getByLabel('Fuel tank (gallons)').fill('200');
    await vform.getByLabel('Miles per gallon').fill('7.2');
    await screenshot(page, 'fleet-04-vehicle-form');
    await vform.getByRole('button', { name: 'Create vehicle' }).click();
    await page.getByText('Vehicle T-104 created.').waitFor();
    const row = page.getByRole('row', { name: /T-104/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('2021 Freightliner Cascadia');
    await page.getByRole('searchbox', { name: /Search by unit/ }).fill('cascadia');
    await page.waitForURL(/q=cascadia/);
    await page.getByRole('link', { name: 'T-104' }).waitFor();
    await page.getByRole('searchbox', { name: /Search by unit/ }).fill('kenworth');
    await page.getByText('No vehicles match “kenworth”.').waitFor();
    await screenshot(page, 'fleet-05-vehicles-search');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  it("shows a driver's clocks and 8 days of logs, records a duty status change, and deactivates / reactivates", async () => {
    const { page } = b;
    await page.goto('/drivers');
    await page.getByRole('link', { name: 'Dana Rivera' }).click();
    await page.getByRole('heading', { name: 'Dana Rivera', level: 1 }).waitFor();
    danaId = new URL(page.url()).pathname.split('/').pop()!;

    await page.getByRole('region', { name: 'HOS clocks' }).waitFor();
    expect(await clock(page, 'Drive time left')).toBe('11:00');
    const grid = page.getByTestId('log-grid');
    await grid.waitFor();
    expect(await grid.getByRole('img', { name: /^Duty status on/ }).count()).toBe(8);
    expect(await rowTotal(page, 'ON_DUTY_DRIVING')).toBe(0);
    expect(await page.getByText('No routes for this driver yet.').count()).toBe(1);
    await screenshot(page, 'fleet-06-driver-page');

    // Driving since two hours ago (in the browser's zone, America/Chicago).
    await page.getByLabel('New duty status').selectOption('ON_DUTY_DRIVING');
    await page.getByLabel('Starting at').fill(localInput(Date.now() - 2 * 3_600_000, 'America/Chicago'));
    await page.getByLabel('Note').fill('Left the Dallas yard');
    await page.getByRole('button', { name: 'Record status' }).click();
    await page.getByText(/^Recorded Driving from/).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-clock="Drive time left"] .clock-value')?.textContent !== '11:00');
    expect(['8:59', '9:00']).toContain(await clock(page, 'Drive time left'));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-row-total="ON_DUTY_DRIVING"]')].some((e) => e.textContent !== '0:00'));
    expect(Math.abs((await rowTotal(page, 'ON_DUTY_DRIVING')) - 120)).toBeLessThanOrEqual(1);
    expect(await page.getByRole('region', { name: 'HOS clocks' }).textContent()).toContain('Now: Driving');
    await screenshot(page, 'fleet-07-duty-recorded');
    await docsScreenshot(page, 'driver-page');

    // The same log in another zone: the days are New York's.
    await page.getByLabel('Time zone').selectOption('America/New_York');
    await grid.getByText('(America/New_York)').first().waitFor();
    expect(await grid.getByRole('img', { name: /^Duty status on/ }).count()).toBe(8);
    expect(Math.abs((await rowTotal(page, 'ON_DUTY_DRIVING')) - 120)).toBeLessThanOrEqual(1);

    // The driver's routes, with links to them.
    const plan = await w.t.app.inject({
      method: 'POST',
      url: '/api/v1/routes/plan',
      headers: owner.auth,
      payload: {
        driverId: danaId,
        departureTime: new Date(Date.now() + 3_600_000).toISOString(),
        stops: [
          { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
          { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 },
        ],
      },
    });
    expect(plan.statusCode).toBe(201);
    const routeId = plan.json<{ id: string }>().id;
    await page.reload();
    const routeLink = page.getByRole('region', { name: 'Routes' }).getByRole('link', { name: 'Dallas, TX → Oklahoma City, OK' });
    await routeLink.waitFor();
    expect(await routeLink.getAttribute('href')).toBe(`/routes/${routeId}`);

    await page.getByRole('button', { name: 'Deactivate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate Dana Rivera?' });
    await confirm.getByRole('button', { name: 'Deactivate driver' }).click();
    await page.getByText('Dana Rivera is deactivated.').waitFor();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    expect(await page.locator('.subtitle .badge').textContent()).toBe('Inactive');
    expect(await page.getByRole('button', { name: 'Record status' }).count()).toBe(0);
    await screenshot(page, 'fleet-08-driver-deactivated');

    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('dialog', { name: 'Reactivate Dana Rivera?' }).getByRole('button', { name: 'Reactivate driver' }).click();
    await page.getByText('Dana Rivera is active again.').waitFor();
    expect(await page.locator('.subtitle .badge').textContent()).toBe('Active');
    await page.getByRole('button', { name: 'Record status' }).waitFor();
    await screenshot(page, 'fleet-09-driver-reactivated');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  it("edits a driver, and says not found for another organization's driver or a missing vehicle", async () => {
    const { page } = b;
    await page.goto(`/drivers/${danaId}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog', { name: 'Edit Dana Rivera' });
    expect(await form.getByLabel('License number').inputValue()).toBe('D1234567');
    await form.getByLabel('Truck number').fill('T-200');
    await form.getByLabel('Phone').fill('');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('T-200').waitFor();
    const driver = (await w.t.app.inject({ method: 'GET', url: `/api/v1/drivers/${danaId}`, headers: owner.auth })).json<{ truckNumber: string; phoneNumber: string | null }>();
    expect(driver).toMatchObject({ truckNumber: 'T-200', phoneNumber: null });

    await page.goto(`/drivers/${otherDriverId}`);
    await page.getByRole('heading', { name: 'Driver not found' }).waitFor();
    expect(await page.textContent('main')).not.toContain('Secret');
    await screenshot(page, 'fleet-10-other-tenant-driver-not-found');
    await page.getByRole('link', { name: 'Back to drivers' }).click();
    await page.getByRole('heading', { name: 'Drivers', level: 1 }).waitFor();

    await page.goto('/vehicles');
    await page.getByRole('link', { name: 'T-104' }).click();
    await page.getByRole('heading', { name: 'Unit T-104' }).waitFor();
    await page.getByRole('button', { name: 'Send to maintenance' }).click();
    await page.getByText('Vehicle T-104 is in maintenance').waitFor();
    expect(await page.locator('.subtitle .badge').textContent()).toBe('In maintenance');
    await screenshot(page, 'fleet-11-vehicle-in-maintenance');
    await page.getByRole('button', { name: 'Return to service' }).click();
    await page.getByText('Vehicle T-104 is back in service.').waitFor();
    expect(await page.locator('.subtitle .badge').textContent()).toBe('Active');

    await page.goto('/vehicles/not-a-vehicle');
    await page.getByRole('heading', { name: 'Vehicle not found' }).waitFor();
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  it('creates a load and moves it along its lifecycle; creates, imports and deletes locations', async () => {
    const { page } = b;
    await page.goto('/loads');
    await page.getByRole('button', { name: 'New load' }).first().click();
    const form = page.getByRole('dialog', { name: 'New load' });
    await form.getByLabel('Reference number').fill('LS-1001');
    await form.getByLabel('Customer').fill('Acme Grocers');
    await form.getByLabel('Scheduled pickup').fill('2030-05-01T08:00');
    await form.getByLabel('Scheduled delivery').fill('2030-04-30T08:00');
    await form.getByRole('button', { name: 'Create load' }).click();
    await form.getByText('must not be before scheduledPickup').waitFor();
    expect(await form.getByLabel('Scheduled delivery').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Scheduled delivery').fill('2030-05-02T17:00');
    await form.getByRole('button', { name: 'Create load' }).click();
    await page.getByText('Load LS-1001 created.').waitFor();
    await page.getByRole('link', { name: 'LS-1001' }).click();
    await page.getByRole('heading', { name: 'Load LS-1001' }).waitFor();
    await screenshot(page, 'fleet-12-load-detail');
    await page.getByLabel('New status').selectOption('ASSIGNED');
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByText('Load LS-1001 is now assigned.').waitFor();
    await page.getByLabel('New status').selectOption('CANCELLED');
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByRole('dialog', { name: 'Cancel load LS-1001?' }).getByRole('button', { name: 'Cancel load' }).click();
    await page.getByText('Load LS-1001 is now cancelled.').waitFor();
    await page.getByText('its status no longer changes').waitFor();
    await screenshot(page, 'fleet-13-load-cancelled');

    await page.goto('/locations');
    await page.getByRole('button', { name: 'New location' }).first().click();
    const lform = page.getByRole('dialog', { name: 'New location' });
    await lform.getByLabel('Name').fill('Dallas South Yard');
    await lform.getByLabel('Type').selectOption('YARD');
    await lform.getByLabel('Latitude').fill('32.6869');
    await lform.getByLabel('Longitude').fill('-96.8064');
    await lform.getByLabel('Truck parking').check();
    await lform.getByRole('button', { name: 'Create location' }).click();
    await page.getByText('Location Dallas South Yard created.').waitFor();

    // Until the list has reloaded, the empty list's own "Import CSV" is on the page beside the header's.
    await page.getByRole('button', { name: 'Import CSV' }).first().click();
    const imp = page.getByRole('dialog', { name: 'Import locations from CSV' });
    await imp.getByLabel('CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('name,type,latitude,longitude\nBad Stop,TRUCK_STOP,abc,-97\n') });
    await imp.getByRole('button', { name: 'Import' }).click();
    await imp.getByRole('list', { name: 'Problems in the file' }).waitFor();
    expect(await imp.getByRole('list', { name: 'Problems in the file' }).textContent()).toMatch(/Row 2, latitude/);
    await imp.getByLabel('CSV file').setInputFiles({
      name: 'stops.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,type,latitude,longitude,parking,diesel\nAmarillo Stop,TRUCK_STOP,35.222,-101.8313,yes,yes\nWaco Fuel,FUEL_STATION,31.5493,-97.1467,no,yes\n'),
    });
    await imp.getByRole('button', { name: 'Import' }).click();
    await page.getByText('Import done: 2 locations created, 0 updated.').waitFor();
    await page.getByRole('link', { name: 'Waco Fuel' }).waitFor();
    await page.getByLabel('Type').selectOption('TRUCK_STOP');
    await page.waitForURL(/type=TRUCK_STOP/);
    await page.getByRole('link', { name: 'Waco Fuel' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Amarillo Stop' }).waitFor();
    await page.getByLabel('Type').selectOption('');
    await page.getByLabel('Near (latitude, longitude)').fill('32.78, -96.80');
    await page.getByLabel('Within').selectOption('100');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/near=/);
    await page.getByRole('columnheader', { name: 'Distance' }).waitFor();
    await page.getByRole('link', { name: 'Amarillo Stop' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('row', { name: /Waco Fuel/ }).textContent()).toMatch(/\d+\.\d mi/);
    await screenshot(page, 'fleet-14-locations-near');

    await page.getByRole('link', { name: 'Dallas South Yard' }).click();
    await page.getByRole('heading', { name: 'Dallas South Yard' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Dallas South Yard?' }).getByRole('button', { name: 'Delete location' }).click();
    await page.getByRole('heading', { name: 'Locations', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Waco Fuel' }).waitFor();
    expect(await page.getByRole('link', { name: 'Dallas South Yard' }).count()).toBe(0);
    await screenshot(page, 'fleet-15-locations');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  it('a driver whose ELD and log disagree: the same clocks on the list and the page, their source named, the disagreement stated', async () => {
    const { page } = b;
    const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await w.t.app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
      return res.json();
    };
    const lena = await createDriver(w.t.app, owner.auth, { firstName: 'Lena', lastName: 'Ortiz' });
    // Her log: driving for 7:23 (3:37 left by the log); her ELD, synced 28 seconds ago: none left.
    const now = Date.now();
    await api('POST', `/api/v1/drivers/${lena.id}/duty-status`, { status: 'ON_DUTY_DRIVING', at: new Date(now - (7 * 60 + 23) * 60_000).toISOString() });
    const integration = await api('POST', '/api/v1/integrations', { vendor: 'fake_eld', name: 'ELD', config: { apiToken: 'browser-one-truth' } });
    await w.t.db.system((tx) =>
      tx.query(
        `INSERT INTO driver_eld_clocks (tenant_id, driver_id, integration_id, source, vendor_driver_id, current_status, drive_remaining_ms, shift_remaining_ms, cycle_remaining_ms, break_remaining_ms, synced_at)
         SELECT tenant_id, $1, $2, 'samsara', 'v-lena', 'ON_DUTY_DRIVING', 0, $3, $4, $5, $6 FROM drivers WHERE id = $1`,
        [lena.id, integration.id, (6 * 60 + 37) * 60_000, (62 * 60 + 37) * 60_000, 37 * 60_000, new Date(now - 28_000)],
      ),
    );
    const hos = await api('GET', `/api/v1/drivers/${lena.id}/hos`);
    expect(hos.disagreement?.message).toMatch(/^Samsara and the duty-status log disagree: 0:00 of driving left by Samsara, 3:3\d by the log/);

    await page.goto('/drivers?search=Ortiz');
    const row = page.getByRole('row', { name: /Lena Ortiz/ });
    await row.getByTestId('disagreement-flag').waitFor();
    expect(await row.textContent()).toMatch(/0:00.*from Samsara, \d+ seconds? ago/);
    expect(await row.getByTestId('disagreement-flag').getAttribute('title')).toBe(hos.disagreement.message);
    await screenshot(page, 'fleet-16-drivers-disagreement');

    await row.getByRole('link', { name: 'Lena Ortiz' }).click();
    await page.getByTestId('hos-disagreement').waitFor();
    expect(await clock(page, 'Drive time left')).toBe('0:00');
    expect(await page.getByTestId('hos-disagreement').textContent()).toBe(hos.disagreement.message);
    expect(await page.locator('main').textContent()).toMatch(/Clocks from Samsara, \d+ seconds? ago/);
    await screenshot(page, 'fleet-17-driver-disagreement');
    await docsScreenshot(page, 'driver-hours-disagree');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
