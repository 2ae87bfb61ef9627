/**
 * Records of duty status in the browser (issue 27, the dashboard's logs): a dispatcher opens a driver's
 * daily log — yesterday on the home terminal's clocks (America/Denver, while the browser is in Chicago) —
 * reads it (grid and totals, the violation marked and in words, remarks with places, the certification),
 * downloads its PDF, and suggests a correction (the driver forgot to go off duty after unloading: on duty
 * 18:00–19:00, then off duty) with the preview of the day after it; the driver, on a phone, sees the
 * request with the day before and after, accepts it, and certifies the day again; the dispatcher's page
 * shows the corrected day as certified and the original record as replaced. Then the form's checks in
 * words, and a request withdrawn.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDriver, createTenant, createUser, invitationTokenFor, type TenantFixture } from '../helpers/factories.js';
import { axeViolations } from './axe.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, signIn, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

const ZONE = 'America/Denver';
const DRIVER_EMAIL = 'rosa.diaz@driver.test';
const DRIVER_PASSWORD = 'rosa-driver-password';

/** The instant Denver's clocks read `hhmm` on `date` (Mountain time is UTC−7, or UTC−6 in summer). */
function denver(date: string, hhmm: string): number {
  const wall = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  const at = [6, 7].map((h) => Date.parse(`${date}T${hhmm}:00Z`) + h * 3_600_000).find((ms) => wall(ms) === `${date}, ${hhmm}`);
  if (at === undefined) throw new Error(`${date} ${hhmm} is no time in ${ZONE}`);
  return at;
}

/** YYYY-MM-DD `days` from `date`. */
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** "Sunday, Nov 1, 2026" and "Sunday, Nov 1", as the pages name a day. */
const longDay = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const shortDay = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** What a person must never read: an identifier, an ISO timestamp, an API code. */
async function expectWords(page: Page, where: string) {
  const texts = await page.evaluate(() => [document.querySelector('main')?.innerText ?? '', ...Array.from(document.querySelectorAll('main [aria-label]')).map((e) => e.getAttribute('aria-label') ?? '')]);
  for (const text of texts) {
    expect(text, where).not.toMatch(/\b[a-z]{2,4}_[A-Za-z0-9]{6,}/);
    expect(text, where).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(text, where).not.toMatch(/\b[A-Z]{2,}(?:_[A-Z]+)+\b/);
  }
}

describeBrowser('daily logs, corrections and certification in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  let driverId: string;
  let driverAuth: { authorization: string };
  let dispatcher: Awaited<ReturnType<typeof createUser>>;
  let yesterday: string;

  beforeAll(async () => {
    // Workers on: the driver's answer and certification reach the dispatcher's open page over Socket.IO.
    w = await startWebApp({ workers: true });
    b = await openBrowser(w.baseUrl);
    const app = w.t.app;
    tenant = await createTenant(app, { name: 'Mesa Freight' });
    // The home terminal keeps Mountain time; the browsers are in Chicago: the log must show Denver's clocks.
    const hos = await app.inject({ method: 'PUT', url: '/api/v1/tenant/settings/hos', headers: tenant.auth, payload: { homeTerminalTimeZone: ZONE } });
    expect(hos.statusCode, hos.body).toBe(200);
    driverId = (await createDriver(app, tenant.auth, { firstName: 'Rosa', lastName: 'Diaz' })).id;
    const inv = await app.inject({ method: 'POST', url: '/api/v1/user-invitations', headers: tenant.auth, payload: { email: DRIVER_EMAIL, role: 'DRIVER', driverId, firstName: 'Rosa', lastName: 'Diaz' } });
    expect(inv.statusCode, inv.body).toBe(201);
    const accepted = await app.inject({ method: 'POST', url: '/api/v1/user-invitations/accept', payload: { token: invitationTokenFor(w.t.mailer, DRIVER_EMAIL), password: DRIVER_PASSWORD } });
    expect(accepted.statusCode, accepted.body).toBe(201);
    driverAuth = { authorization: `Bearer ${accepted.json<{ accessToken: string }>().accessToken}` };
    dispatcher = await createUser(app, w.t.mailer, tenant, 'DISPATCHER');

    // Yesterday, entered by Rosa herself: Denver → Cheyenne → Rapid City, 11:30 of driving (0:30 past the
    // 11-hour limit), unloading from 18:00 — and off duty logged only at 23:30.
    yesterday = addDays(new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date()), -1);
    const records: Array<[string, string, [number, number] | null, string | null]> = [
      ['05:30', 'ON_DUTY_NOT_DRIVING', [39.7392, -104.9903], 'Pre-trip inspection'],
      ['06:00', 'ON_DUTY_DRIVING', [39.7392, -104.9903], null],
      ['11:00', 'ON_DUTY_NOT_DRIVING', [41.14, -104.8202], 'Fuel and lunch'],
      ['11:30', 'ON_DUTY_DRIVING', [41.14, -104.8202], null],
      ['18:00', 'ON_DUTY_NOT_DRIVING', [44.0805, -103.231], 'Unloading'],
      ['23:30', 'OFF_DUTY', [44.0805, -103.231], null],
    ];
    for (const [time, status, place, note] of records) {
      const payload = { status, at: new Date(denver(yesterday, time)).toISOString(), ...(place ? { latitude: place[0], longitude: place[1] } : {}), ...(note ? { note } : {}) };
      const res = await app.inject({ method: 'POST', url: `/api/v1/drivers/${driverId}/duty-status`, headers: driverAuth, payload });
      expect(res.statusCode, res.body).toBe(201);
    }
    // She certified the day this morning.
    const cert = await app.inject({ method: 'POST', url: `/api/v1/drivers/${driverId}/logs/${yesterday}/certify`, headers: driverAuth });
    expect(cert.statusCode, cert.body).toBe(201);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  const section = (page: Page) => page.getByTestId('daily-log');
  const dayGrid = (page: Page) => section(page).getByTestId('daily-log-grid').getByRole('img');

  it('the dispatcher reads yesterday’s log on the home terminal’s clocks and downloads its PDF', async () => {
    const { page } = b;
    await signIn(page, dispatcher.email, 'another-good-password');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto(`/drivers/${driverId}`);
    await page.getByRole('heading', { name: 'Rosa Diaz', level: 1 }).waitFor();
    // Today first, then the day before.
    const today = addDays(yesterday, 1);
    await section(page).getByRole('heading', { name: `Daily log: ${longDay(today)}` }).waitFor();
    expect(await section(page).getByRole('button', { name: 'Next day ›' }).isDisabled()).toBe(true);
    await section(page).getByRole('button', { name: '‹ Previous day' }).click();
    await section(page).getByRole('heading', { name: `Daily log: ${longDay(yesterday)}` }).waitFor();
    expect(await section(page).getByLabel('Day', { exact: true }).inputValue()).toBe(yesterday);

    // The grid and its totals (24 hours; 23 or 25 on a daylight-saving day: the off-duty night absorbs it).
    const label = (await dayGrid(page).getAttribute('aria-label')) ?? '';
    expect(label).toMatch(new RegExp(`^Duty status on ${longDay(yesterday)}: Off duty \\d+:00, Sleeper berth 0:00, Driving 11:30, On duty 6:30; marked: violation, Driving limit`));
    expect(await section(page).getByText(/From 00:00 M[SD]T to 00:00 M[SD]T the next day, on the home terminal’s clocks \(America\/Denver\)/).count()).toBe(1);
    // The 30 minutes past the 11-hour limit: marked on the grid and said in words, in Mountain time.
    expect(await section(page).locator('.grid-mark').count()).toBe(1);
    expect(await section(page).getByTestId('violations').textContent()).toMatch(/^Driving limit: 0:30 past it, from 17:30 M[SD]T to 18:00 M[SD]T \(.*11-hour/);
    // Remarks: each change with its time, place and who entered it.
    const remarks = section(page).getByTestId('remarks').getByRole('listitem');
    expect(await remarks.count()).toBe(6);
    expect(await remarks.nth(0).textContent()).toMatch(/^05:30 M[SD]T — On duty · .+, CO · Entered by the driver · “Pre-trip inspection”$/);
    expect(await remarks.nth(4).textContent()).toMatch(/^18:00 M[SD]T — On duty · .+, SD · Entered by the driver · “Unloading”$/);
    // Certified by Rosa this morning; the recap in h:mm.
    expect(await section(page).getByTestId('certification').textContent()).toMatch(/Certified by the driver at \w{3}, \w{3} \d+, \d\d:\d\d M[SD]T$/);
    expect(await section(page).locator('.log-facts').textContent()).toContain('On duty today18:00');
    expect(await section(page).getByTestId('record-history').getByRole('row').count()).toBe(7);
    await expectWords(page, 'the daily log');
    await screenshot(page, 'logs-1-dispatcher-day');
    await docsScreenshot(page, 'logs-dispatcher-day', { target: section(page) });

    // The printable log of that day.
    const [download] = await Promise.all([page.waitForEvent('download'), section(page).getByRole('button', { name: `Download PDF of ${longDay(yesterday)}` }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const pdf = fs.readFileSync((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('the dispatcher suggests a correction, sees the day as it would be, and sends it: pending, with Cancel', async () => {
    const { page } = b;
    await section(page).getByRole('button', { name: 'Suggest a correction' }).click();
    const form = page.getByTestId('suggest-correction');
    await form.getByRole('heading', { name: `Suggest a correction of ${longDay(yesterday)}` }).waitFor();
    await form.getByLabel('From', { exact: true }).fill('18:00');
    await form.getByLabel('To', { exact: true }).fill('23:30');
    await form.getByLabel('Status 1', { exact: true }).selectOption({ label: 'On duty' });
    await form.getByLabel('Note for status 1').fill('Unloading at the dock');
    await form.getByRole('button', { name: 'Add a status' }).click();
    await form.getByLabel('Status 2', { exact: true }).selectOption({ label: 'Off duty' });
    await form.getByLabel('Status 2 starts').fill('19:00');
    // Too short a reason: said in words, nothing sent.
    await form.getByLabel('Why (annotation)').fill('ab');
    await form.getByRole('button', { name: 'Send to Rosa Diaz for approval' }).click();
    await form.getByText('Say why in 4 to 60 characters (now 2).').waitFor();
    await form.getByLabel('Why (annotation)').fill('Forgot to go off duty after unloading');
    await form.getByLabel('Why (annotation)').blur();

    // The preview: on duty 18:00–19:00, off duty after; the rows still make the day.
    const preview = form.getByTestId('correction-preview').getByRole('img');
    await preview.waitFor();
    expect(await preview.getAttribute('aria-label')).toMatch(/: Off duty \d+:30, Sleeper berth 0:00, Driving 11:30, On duty 2:00$/);
    await expectWords(page, 'the correction form');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'logs-2-dispatcher-suggest');
    await docsScreenshot(page, 'logs-dispatcher-suggest', { target: form });

    await form.getByRole('button', { name: 'Send to Rosa Diaz for approval' }).click();
    await section(page).getByText(/^Correction request sent to Rosa Diaz: it changes nothing until they accept it/).waitFor();
    const request = section(page).getByTestId('correction-request');
    await request.waitFor();
    expect(await request.textContent()).toContain('Waiting for the driver');
    expect(await request.getByTestId('request-annotation').textContent()).toBe('“Forgot to go off duty after unloading”');
    expect(await request.textContent()).toMatch(/From 18:00 M[SD]T to 23:30 M[SD]T: On duty from 18:00 M[SD]T; Off duty from 19:00 M[SD]T/);
    expect(await request.textContent()).toMatch(/You asked/);
    await request.getByRole('button', { name: 'Cancel request' }).waitFor();
    // Nothing changed yet: the log is as it was; the proposed records wait in the history.
    expect(await dayGrid(page).getAttribute('aria-label')).toContain('On duty 6:30');
    const history = section(page).getByTestId('record-history');
    await history.getByRole('cell', { name: 'Correction requested' }).first().waitFor();
    expect(await history.getByRole('cell', { name: 'Correction requested' }).count()).toBe(2);
    await screenshot(page, 'logs-3-dispatcher-pending');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  it('the driver, on a phone, sees the request before and after, accepts it and certifies the day again; the dispatcher sees it at once', async () => {
    const phone = await b.newContext({ width: 390, height: 844 });
    try {
      const { page } = phone;
      await signIn(page, DRIVER_EMAIL, DRIVER_PASSWORD);
      await page.getByRole('heading', { name: 'Hello, Rosa' }).waitFor();
      const requests = page.getByTestId('my-log-requests');
      await requests.getByRole('heading', { name: 'A correction waits for your answer' }).waitFor();
      const request = requests.getByTestId('correction-request');
      expect(await request.getByTestId('request-annotation').textContent()).toBe('“Forgot to go off duty after unloading”');
      expect(await request.textContent()).toContain('Test DISPATCHER asked');
      expect(await request.getByTestId('request-before').getByRole('img').getAttribute('aria-label')).toMatch(/Driving 11:30, On duty 6:30/);
      expect(await request.getByTestId('request-after').getByRole('img').getAttribute('aria-label')).toMatch(/Driving 11:30, On duty 2:00/);
      expect(await request.getByTestId('request-before').textContent()).toContain(`Before — ${longDay(yesterday)}`);
      // A phone: nothing wider than the screen (the grids scroll inside their boxes).
      const o = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect(o.scroll, JSON.stringify(o)).toBeLessThanOrEqual(o.inner);
      for (const name of ['Accept', 'Reject']) expect((await request.getByRole('button', { name, exact: true }).boundingBox())!.height).toBeGreaterThanOrEqual(48);
      await expectWords(page, 'the driver’s request');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'logs-4-driver-request');
      await docsScreenshot(page, 'logs-driver-request', { width: 390, height: 844, target: requests });

      await request.getByRole('button', { name: 'Accept', exact: true }).click();
      const accept = page.getByRole('dialog', { name: 'Accept this correction?' });
      await accept.getByRole('button', { name: 'Accept correction' }).click();
      await page.getByText(/^Correction accepted: your log of .* is changed\. Certify the day again below\./).waitFor();
      await accept.waitFor({ state: 'hidden' });
      expect(await page.getByTestId('my-log-requests').count()).toBe(0);

      // Yesterday, changed after its certification: certify again, after reading the statement.
      const day = page.locator(`article[data-date="${yesterday}"]`);
      expect(await day.getByTestId('certification').textContent()).toMatch(/^!Changed after certification — to certify again \(last certified .* M[SD]T\)$/);
      expect(await day.getByRole('img').getAttribute('aria-label')).toMatch(/Driving 11:30, On duty 2:00/);
      await day.getByRole('button', { name: `Certify ${shortDay(yesterday)} again` }).click();
      const certify = page.getByRole('dialog', { name: `Certify ${shortDay(yesterday)}?` });
      expect(await certify.getByTestId('certification-statement').textContent()).toBe(
        'I hereby certify that my data entries and my record of duty status for this 24-hour period are true and correct.',
      );
      await screenshot(page, 'logs-5-driver-certify');
      await certify.getByRole('button', { name: 'Agree and certify' }).click();
      await page.getByText(`${shortDay(yesterday)} is certified.`).waitFor();
      expect(await day.getByTestId('certification').textContent()).toMatch(/^✓Certified by the driver at .* M[SD]T \(certified 2 times\)$/);
      expect(await day.getByRole('button', { name: /^Certify/ }).count()).toBe(0);
      await screenshot(page, 'logs-6-driver-certified');
      await docsScreenshot(page, 'logs-driver-certified', { width: 390, height: 844, target: day });
    } finally {
      await phone.context.close();
    }

    // The dispatcher's open page follows (Socket.IO log:edit_accepted, log:certified).
    const { page } = b;
    await section(page).getByTestId('certification').getByText(/\(certified 2 times\)/).waitFor({ timeout: 20_000 });
    expect(await section(page).getByTestId('certification').textContent()).toMatch(/^✓Certified by the driver at .* M[SD]T \(certified 2 times\)$/);
    expect(await dayGrid(page).getAttribute('aria-label')).toMatch(/Driving 11:30, On duty 2:00/);
    expect(await section(page).getByTestId('correction-request').count()).toBe(0);
    // The original record is kept, replaced; the accepted ones are in the log, with the annotation.
    const history = section(page).getByTestId('record-history');
    const replaced = history.getByRole('row').filter({ hasText: 'Replaced by a correction' });
    expect(await replaced.count()).toBe(1);
    expect(await replaced.textContent()).toMatch(/18:00 M[SD]T.*On duty.*Entered by the driver \(Rosa Diaz\).*“Unloading”/);
    expect(await history.getByRole('row').filter({ hasText: 'Forgot to go off duty after unloading' }).filter({ hasText: 'In the log' }).count()).toBe(2);
    const remarks = await section(page).getByTestId('remarks').textContent();
    expect(remarks).toMatch(/19:00 M[SD]T — Off duty · .*Entered by another user.*Annotation: “Forgot to go off duty after unloading”/);
    await expectWords(page, 'the corrected day');
    await screenshot(page, 'logs-7-dispatcher-corrected');
    await docsScreenshot(page, 'logs-dispatcher-corrected', { target: section(page) });
  });

  it('checks the form in words, and withdraws a request', async () => {
    const { page } = b;
    // Today: a correction may not reach past now.
    await section(page).getByRole('button', { name: 'Next day ›' }).click();
    await section(page).getByRole('heading', { name: `Daily log: ${longDay(addDays(yesterday, 1))}` }).waitFor();
    await section(page).getByRole('button', { name: 'Suggest a correction' }).click();
    const form = page.getByTestId('suggest-correction');
    await form.getByLabel('From', { exact: true }).fill('00:00');
    await form.getByLabel('To', { exact: true }).fill('23:59');
    await form.getByLabel('Why (annotation)').fill('Checking the form');
    await form.getByRole('button', { name: /^Send to Rosa Diaz/ }).click();
    const late = form.getByText(/^Must not be later than now \(\d\d:\d\d M[SD]T\)\.$/);
    // (in the last minute of the day 23:59 is not later than now: then the form sends)
    await late.or(section(page).getByTestId('correction-request')).first().waitFor();
    if ((await late.count()) === 1) {
      await screenshot(page, 'logs-8-dispatcher-form-checked');
      await form.getByRole('button', { name: 'Close without sending' }).click();
    }

    // Back to yesterday: a request the carrier withdraws leaves the log as it was, its records "withdrawn".
    await section(page).getByLabel('Day', { exact: true }).fill(yesterday);
    await section(page).getByRole('heading', { name: `Daily log: ${longDay(yesterday)}` }).waitFor();
    const from = new Date(denver(yesterday, '05:00')).toISOString();
    const res = await w.t.app.inject({
      method: 'POST',
      url: `/api/v1/drivers/${driverId}/log-edits`,
      headers: dispatcher.auth,
      payload: { from, to: new Date(denver(yesterday, '05:30')).toISOString(), entries: [{ status: 'SLEEPER_BERTH', at: from }], annotation: 'Slept in the berth first' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const request = section(page).getByTestId('correction-request');
    await request.waitFor({ timeout: 20_000 });
    await request.getByRole('button', { name: 'Cancel request' }).click();
    await section(page).getByText('The correction request is withdrawn: the log stays as it was.').waitFor();
    await section(page).getByTestId('record-history').getByRole('cell', { name: 'Correction withdrawn' }).waitFor();
    expect(await section(page).getByTestId('correction-request').count()).toBe(0);
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
