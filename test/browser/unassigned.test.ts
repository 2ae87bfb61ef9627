/**
 * Unassigned driving and the fleet's compliance in the browser (49 CFR 395.32; docs/logs.md): truck T-105
 * drove 45 minutes with nobody logged in, T-106 ten minutes in the yard. The dispatcher sees T-105
 * flagged on the Vehicles list, follows the flag to the Unassigned driving page (the flag as a sentence,
 * times in the zone of the start place), assigns the 45 minutes to Lena Ortiz ("Waiting for the driver")
 * and annotates the yard move; Lena accepts on her side and the dispatcher's open page shows "Assigned"
 * at once. The Compliance page lists both trucks under "Unassigned driving by truck" and Lena's day not
 * certified as a link to her log of that day; the range is checked in words. A VIEWER reads without the
 * actions.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDriver, createTenant, createUser, type TenantFixture } from '../helpers/factories.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, signIn, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

const H = 3_600_000;
const MIN = 60_000;
const ZONE = 'America/Chicago'; // the organization's address (Dallas, TX): Lena's logs keep Central time
const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const DENTON = { latitude: 33.2148, longitude: -97.1331 };
const FLAG_SENTENCE = 'T-105: 45 min of driving nobody has assumed in the last 24 hours — more than the 30 minutes an inspector looks for';

const iso = (ms: number) => new Date(ms).toISOString();
/** The date (YYYY-MM-DD) of an instant on Central clocks. */
const centralDate = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(ms);

/** What a person must never read: an identifier, an ISO timestamp, an API code. */
async function expectWords(page: Page, where: string) {
  const text = (await page.locator('main').innerText()) ?? '';
  expect(text, where).not.toMatch(/\b[a-z]{2,4}_[A-Za-z0-9]{6,}/);
  expect(text, where).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  expect(text, where).not.toMatch(/\b[A-Z]{2,}(?:_[A-Z]+)+\b/);
  expect(text, where).not.toMatch(/\b(?:UNASSIGNED|ANNOTATED|ASSIGNED|samsara|motive)\b/);
}

describeBrowser('unassigned driving and the fleet’s compliance in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  let dispatcher: Awaited<ReturnType<typeof createUser>>;
  let lena: { id: string; auth: Record<string, string> };
  let truck: string;
  let yardTruck: string;
  const now = Date.now();
  const lenaDayAt = now - 30 * H;

  beforeAll(async () => {
    // Workers on: the driver's answer reaches the dispatcher's open page over Socket.IO.
    w = await startWebApp({ workers: true });
    b = await openBrowser(w.baseUrl);
    const app = w.t.app;
    tenant = await createTenant(app, { name: 'Unassigned Freight' });
    const post = async (url: string, payload: unknown, auth: Record<string, string> = tenant.auth) => {
      const res = await app.inject({ method: 'POST', url, headers: auth, payload: payload as never });
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
      return res.json<{ id: string }>();
    };
    dispatcher = await createUser(app, w.t.mailer, tenant, 'DISPATCHER');
    const driver = await createDriver(app, tenant.auth, { firstName: 'Lena', lastName: 'Ortiz', truckNumber: undefined });
    lena = { id: driver.id, auth: (await createUser(app, w.t.mailer, tenant, 'DRIVER', { driverId: driver.id })).auth };
    truck = (await post('/api/v1/vehicles', { unitNumber: 'T-105', make: 'Freightliner', model: 'Cascadia' })).id;
    yardTruck = (await post('/api/v1/vehicles', { unitNumber: 'T-106' })).id;
    // A day of Lena's, a day and a bit ago: an hour on duty, then off duty. Not certified.
    await post(`/api/v1/drivers/${lena.id}/duty-status`, { status: 'ON_DUTY_NOT_DRIVING', at: iso(lenaDayAt) });
    await post(`/api/v1/drivers/${lena.id}/duty-status`, { status: 'OFF_DUTY', at: iso(lenaDayAt + H) });
    // Telematics report: T-105 drove 45 minutes from Dallas to Denton with nobody logged in; T-106 ten minutes in the yard.
    await post(`/api/v1/vehicles/${truck}/unassigned-driving`, { start: iso(now - 4 * H), end: iso(now - 4 * H + 45 * MIN), startLocation: DALLAS, endLocation: DENTON, miles: 31.2, externalId: 'tele-1' });
    await post(`/api/v1/vehicles/${yardTruck}/unassigned-driving`, { start: iso(now - 2 * H), end: iso(now - 2 * H + 10 * MIN), startLocation: DALLAS, miles: 0.4 });
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

  it('the dispatcher sees T-105 flagged on the Vehicles list and follows the flag to its unassigned driving', async () => {
    const { page } = b;
    await signIn(page, dispatcher.email, 'another-good-password');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vehicles' }).click();
    await page.getByRole('heading', { name: 'Vehicles', level: 1 }).waitFor();
    const flag = row(page, 'T-105').getByRole('link', { name: 'Unassigned driving 0:45' });
    await flag.waitFor();
    // Ten minutes are not a flag.
    expect(await row(page, 'T-106').getByRole('link', { name: /Unassigned driving/ }).count()).toBe(0);
    expect(await page.getByText('Truck T-105 has more than 30 minutes of driving nobody has assumed in the last 24 hours.').count()).toBe(1);
    await screenshot(page, 'unassigned-1-vehicles-flag');

    await flag.click();
    await page.getByRole('heading', { name: 'Unassigned driving', level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get('vehicleId')).toBe(truck);
    expect(await page.getByTestId('unassigned-flags').innerText()).toBe(FLAG_SENTENCE);
    await page.getByText('Truck T-105 only.').waitFor();
    const rows = page.getByRole('table').getByRole('row');
    expect(await rows.count()).toBe(2); // the header and T-105's segment
    const cells = await rows.nth(1).getByRole('cell').allInnerTexts();
    // Truck, when (in Dallas's zone: Central), duration, from, to, miles, source, status, driver, annotation.
    expect(cells[0]).toBe('T-105');
    expect(cells[1]).toMatch(/^\w{3}, \w{3} \d+, \d\d:\d\d(–\d\d:\d\d C[SD]T| C[SD]T – \w{3}, \w{3} \d+, \d\d:\d\d C[SD]T)$/);
    expect(cells.slice(2)).toEqual(['0:45', expect.stringMatching(/TX$/), expect.stringMatching(/TX$/), '31 mi', 'Reported through the API', 'Unassigned', '—', '—', expect.stringContaining('Assign to a driver…')]);
    await expectWords(page, 'the unassigned driving of T-105');

    // Every truck: both segments, newest first.
    await page.getByRole('link', { name: 'Show every truck' }).click();
    await row(page, 'T-106').waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(await row(page, 'T-106').getByRole('cell').nth(5).innerText()).toBe('0.4 mi');
    expect(await row(page, 'T-106').getByRole('cell').nth(4).innerText()).toBe('Not reported');
    await screenshot(page, 'unassigned-list');
    await docsScreenshot(page, 'unassigned-list');
  });

  it('assigns T-105’s driving to Lena: the form checks its fields in words, then the segment waits for her', async () => {
    const { page } = b;
    await row(page, 'T-105').getByRole('button', { name: 'Assign to a driver…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign to a driver' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('only once they accept it in their app');
    // Nothing chosen, an annotation too short: said in words, nothing sent.
    await dialog.getByLabel('Annotation (optional)').fill('ok');
    await dialog.getByRole('button', { name: 'Send to the driver' }).click();
    await dialog.getByText('Choose the driver who drove').waitFor();
    await dialog.getByText('At least 4 characters (2 so far)').waitFor();

    await dialog.getByLabel('Driver').selectOption({ label: 'Lena Ortiz' });
    await dialog.getByLabel('Annotation (optional)').fill('Moved T-105 to the shop');
    await screenshot(page, 'unassigned-assign');
    await docsScreenshot(page, 'unassigned-assign');
    await dialog.getByRole('button', { name: 'Send to the driver' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Sent to Lena Ortiz: the driving of T-105 enters their log once they accept it in their app.').waitFor();
    const t105 = row(page, 'T-105');
    await t105.getByText('Waiting for the driver').waitFor();
    expect(await t105.getByRole('link', { name: 'Lena Ortiz' }).count()).toBe(1);
    expect(await t105.getByRole('button').count()).toBe(0);
    // Waiting for the driver still counts as unresolved: the flag stays until she accepts.
    expect(await page.getByTestId('unassigned-flags').innerText()).toBe(`${FLAG_SENTENCE} Show T-105 only`);

    // The status filter, in words, kept in the address.
    await page.getByLabel('Status').selectOption({ label: 'Waiting for the driver' });
    await page.waitForURL(/status=ASSIGNMENT_PENDING/);
    await row(page, 'T-106').waitFor({ state: 'detached' });
    expect(await page.getByRole('table').getByRole('row').count()).toBe(2);
    await page.getByLabel('Status').selectOption({ label: 'All statuses' });
    await row(page, 'T-106').waitFor();
  });

  it('annotates the yard move: 4 to 60 characters, checked before sending', async () => {
    const { page } = b;
    await row(page, 'T-106').getByRole('button', { name: 'Annotate…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Annotate unassigned driving' });
    await dialog.waitFor();
    await dialog.getByLabel('Reason').fill('ok');
    await dialog.getByRole('button', { name: 'Save annotation' }).click();
    await dialog.getByText('At least 4 characters (2 so far)').waitFor();
    await dialog.getByLabel('Reason').fill('x'.repeat(61));
    await dialog.getByRole('button', { name: 'Save annotation' }).click();
    await dialog.getByText('At most 60 characters (61 now)').waitFor();
    await dialog.getByLabel('Reason').fill('Yard move');
    await dialog.getByRole('button', { name: 'Save annotation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const t106 = row(page, 'T-106');
    await t106.getByText('Annotated', { exact: true }).waitFor();
    expect(await t106.getByRole('cell').nth(9).innerText()).toBe('Yard move');
    expect(await t106.getByRole('button').count()).toBe(0);
    await expectWords(page, 'the unassigned driving list');
  });

  it('Lena accepts on her side: the dispatcher’s open page shows it assigned, and the flag is gone', async () => {
    const { page } = b;
    const segment = (await w.t.app.inject({ method: 'GET', url: `/api/v1/unassigned-driving?vehicleId=${truck}`, headers: tenant.auth })).json<{ data: Array<{ editId: string | null }> }>().data[0]!;
    expect(segment.editId).toBeTruthy();
    const accepted = await w.t.app.inject({ method: 'POST', url: `/api/v1/log-edits/${segment.editId}/accept`, headers: lena.auth });
    expect(accepted.statusCode, accepted.body).toBe(200);
    // No reload: the answer arrives over Socket.IO.
    await row(page, 'T-105').getByText('Assigned', { exact: true }).waitFor();
    await page.getByTestId('unassigned-flags').waitFor({ state: 'detached' });
    await screenshot(page, 'unassigned-2-assigned');

    // The truck's own page lists its unassigned driving.
    await page.goto(`/vehicles/${truck}`);
    const section = page.getByTestId('vehicle-unassigned');
    await section.getByRole('heading', { name: 'Unassigned driving' }).waitFor();
    await section.getByText('Assigned', { exact: true }).waitFor();
    expect(await section.getByRole('link', { name: 'Lena Ortiz' }).count()).toBe(1);
    expect(await section.getByRole('button').count()).toBe(0);
  });

  it('the Compliance page: the trucks’ unassigned driving, and Lena’s day not certified linking to her log of that day', async () => {
    const { page } = b;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compliance' }).click();
    await page.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
    const trucks = page.getByTestId('unassigned-by-truck');
    await trucks.getByRole('row').nth(2).waitFor();
    const t105 = trucks.getByRole('row').filter({ hasText: 'T-105' });
    expect(await t105.getByRole('cell').allInnerTexts()).toEqual(['1', '0:45', 'None', 'Not flagged']);
    expect(await t105.getByRole('link', { name: 'T-105' }).getAttribute('href')).toBe(`/unassigned-driving?vehicleId=${truck}`);
    expect(await trucks.getByRole('row').filter({ hasText: 'T-106' }).getByRole('cell').allInnerTexts()).toEqual(['1', '0:10', 'None', 'Not flagged']);

    // Lena's row: her day not certified, a link to her log of that day.
    const lenaRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Lena Ortiz', exact: true }) });
    const days = lenaRow.getByTestId('days-not-certified').getByRole('link');
    await days.first().waitFor();
    const hrefs = await days.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const day = centralDate(lenaDayAt);
    expect(hrefs).toContain(`/drivers/${lena.id}?logDate=${day}`);
    expect(await lenaRow.innerText()).not.toContain(day); // the date in words, not YYYY-MM-DD
    await expectWords(page, 'the compliance page');
    await screenshot(page, 'compliance');
    await docsScreenshot(page, 'compliance', { fullPage: true });

    await days.nth(hrefs.indexOf(`/drivers/${lena.id}?logDate=${day}`)).click();
    await page.getByRole('heading', { name: 'Lena Ortiz', level: 1 }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/drivers/${lena.id}`);
    expect(url.searchParams.get('logDate')).toBe(day);
    // The daily log opens at that day, not today.
    const title = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    await page.getByTestId('daily-log').getByRole('heading', { name: `Daily log: ${title}` }).waitFor();
  });

  it('the range: at most 31 days, said in words; a VIEWER reads without the actions', async () => {
    const { page } = b;
    await page.goto('/compliance');
    await page.getByTestId('compliance-summary').waitFor();
    const to = await page.getByLabel('To', { exact: true }).inputValue();
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(new Date(Date.parse(`${to}T00:00:00Z`) - 7 * 24 * H).toISOString().slice(0, 10));
    await page.getByLabel('From', { exact: true }).fill(new Date(Date.parse(`${to}T00:00:00Z`) - 40 * 24 * H).toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(/^At most 31 days at a time \(this range has 41\)/).waitFor();
    expect(new URL(page.url()).searchParams.get('from')).toBeNull();
    await page.getByLabel('From', { exact: true }).fill(new Date(Date.parse(`${to}T00:00:00Z`) - 30 * 24 * H).toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/from=/);
    await page.getByTestId('unassigned-by-truck').getByRole('row').nth(2).waitFor();

    const viewer = await createUser(w.t.app, w.t.mailer, tenant, 'VIEWER');
    const other = await b.newContext();
    try {
      await signIn(other.page, viewer.email, 'another-good-password');
      await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compliance' }).click();
      await other.page.getByRole('main').getByRole('link', { name: 'Unassigned driving', exact: true }).click();
      await other.page.getByRole('table').getByRole('row').nth(2).waitFor();
      expect((await other.page.getByRole('table').getByRole('columnheader').allInnerTexts()).map((h) => h.toLowerCase())).not.toContain('actions');
      expect(await other.page.getByRole('button', { name: /Assign to a driver|Annotate/ }).count()).toBe(0);
    } finally {
      await other.context.close();
    }
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
