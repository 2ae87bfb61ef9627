/**
 * The driver's side in the browser: a DRIVER invited through the API opens the e-mail's link, accepts,
 * and lands on a view of their own route only (not a colleague's), with the next stop and its ETA, their
 * clocks and log grid; changes duty status; the same view fits a phone; dispatcher pages and another
 * driver's data stay closed to them; a route change reaches the open view live.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createActiveRoute, createTenant, createUser, login, type TenantFixture } from '../helpers/factories.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

const H = 3_600_000;
const EMAIL = 'alice.able@driver.test';
const PASSWORD = 'alice-driver-password';

describeBrowser('the driver view in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  let a: Awaited<ReturnType<typeof createActiveRoute>>;
  let bRoute: Awaited<ReturnType<typeof createActiveRoute>>;

  beforeAll(async () => {
    // Workers on: route changes reach the open page over Socket.IO, as in production.
    w = await startWebApp({ workers: true });
    b = await openBrowser(w.baseUrl);
    tenant = await createTenant(w.t.app, { name: 'Able Transport' });
    const app = w.t.app;
    // Driver A left Dallas an hour ago for Oklahoma City; driver B runs Memphis → Nashville.
    a = await createActiveRoute(app, tenant.auth, { departureTime: new Date(Date.now() - H).toISOString() });
    bRoute = await createActiveRoute(app, tenant.auth, {
      departureTime: new Date(Date.now() - H).toISOString(),
      stops: [
        { name: 'Memphis, TN', latitude: 35.1495, longitude: -90.049, type: 'ORIGIN' },
        { name: 'Nashville, TN', latitude: 36.1627, longitude: -86.7816, type: 'DELIVERY', dockDurationHours: 1 },
      ],
    });
    for (const [id, firstName, lastName] of [
      [a.driverId, 'Alice', 'Able'],
      [bRoute.driverId, 'Bruno', 'Baker'],
    ] as const) {
      const res = await app.inject({ method: 'PUT', url: `/api/v1/drivers/${id}`, headers: tenant.auth, payload: { firstName, lastName } });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Alice's log: on duty (pre-trip) 90 minutes ago, driving since the departure.
    for (const [status, at] of [
      ['ON_DUTY_NOT_DRIVING', Date.now() - 1.5 * H],
      ['ON_DUTY_DRIVING', Date.now() - H],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: `/api/v1/drivers/${a.driverId}/duty-status`, headers: tenant.auth, payload: { status, at: new Date(at).toISOString() } });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  /** The link of the invitation e-mail to `email`, as a path on this server. */
  function invitationPath(email: string): string {
    const mail = [...w.t.mailer.sent].reverse().find((m) => m.to === email);
    const link = /https?:\/\/\S+\/accept-invitation\?token=\S+/.exec(mail?.text ?? '')?.[0];
    if (!link) throw new Error(`no invitation mail to ${email}`);
    const url = new URL(link);
    return url.pathname + url.search;
  }

  async function expectOnlyAlicesRoute(page: Page) {
    const route = page.getByTestId('my-route');
    await route.waitFor();
    expect(await route.getAttribute('data-route-id')).toBe(a.routeId);
    const text = (await page.textContent('main')) ?? '';
    // The route by its places, never by its id.
    expect(text).toContain('Dallas, TX → Oklahoma City, OK');
    expect(text).not.toContain(a.routeId);
    expect(text).not.toContain(bRoute.routeId);
    expect(text).not.toContain('Memphis');
    expect(text).not.toContain('Nashville');
    expect(text).not.toContain('Bruno');
  }

  it('the invited driver opens the e-mail link, accepts, and sees only their route, next stop and ETA, clocks and log grid', async () => {
    const inv = await w.t.app.inject({ method: 'POST', url: '/api/v1/user-invitations', headers: tenant.auth, payload: { email: EMAIL, role: 'DRIVER', driverId: a.driverId } });
    expect(inv.statusCode, inv.body).toBe(201);

    const { page } = b;
    await page.goto(invitationPath(EMAIL));
    await page.getByRole('heading', { name: 'Join Able Transport' }).waitFor();
    const summary = (await page.getByTestId('invitation-summary').textContent()) ?? '';
    expect(summary).toContain(EMAIL);
    expect(summary).toMatch(/as Driver/);
    expect(await page.getByLabel('Email').inputValue()).toBe(EMAIL);
    await page.getByLabel('First name').fill('Alice');
    await page.getByLabel('Last name').fill('Able');
    await page.getByLabel('Choose a password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await screenshot(page, 'driver-1-accept-invitation');
    await page.getByRole('button', { name: 'Accept and sign in' }).click();

    await page.getByRole('heading', { name: 'Hello, Alice' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await expectOnlyAlicesRoute(page);

    // The next stop is Oklahoma City, its ETA in Central time (the stop's zone).
    const next = page.getByTestId('next-stop');
    expect(await next.getByRole('heading').textContent()).toBe('Next stop');
    expect(await next.textContent()).toContain('Oklahoma City, OK');
    expect(await page.getByTestId('next-stop-eta').textContent()).toMatch(/^\d{2}:\d{2}$/);
    expect(await next.textContent()).toMatch(/C[SD]T/);
    expect(await next.textContent()).toContain('America/Chicago');

    // Clocks: driving for an hour after 30 minutes on duty.
    await page.getByText('Drive time left').waitFor();
    expect(await page.locator('[data-clock="Drive time left"] .clock-value').textContent()).toMatch(/^(10:00|9:59)$/);
    expect(await page.getByTestId('current-duty').textContent()).toBe('On duty driving');
    // The log grid: 8 days on the home terminal's clocks, today's showing the driving line.
    const grids = page.getByTestId('log-grid').getByRole('img');
    await grids.nth(7).waitFor();
    expect(await grids.count()).toBe(8);
    // The hour of driving is today's, or, shortly after midnight in the grid's zone, partly yesterday's.
    const drivingMinutes = async (i: number) => {
      const m = /Driving (\d+):(\d{2})/.exec((await grids.nth(i).getAttribute('aria-label')) ?? '');
      return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
    };
    expect(await grids.first().getAttribute('aria-label')).toMatch(/Driving \d+:\d{2}/);
    // (each day's total is rounded to the minute on its own: split at midnight, they add up to 60 ± 1)
    expect(Math.abs((await drivingMinutes(0)) + (await drivingMinutes(1)) - 60)).toBeLessThanOrEqual(1);
    expect(await page.getByRole('button', { name: /^Driving/ }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'driver-2-home');
  });

  it('changes duty status to Off duty after confirming, and the clocks and log follow', async () => {
    const { page } = b;
    await page.getByRole('button', { name: /^Off duty/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Change to Off duty?' });
    await dialog.waitFor();
    await dialog.getByLabel('Note (optional)').fill('End of shift');
    await screenshot(page, 'driver-3-confirm-off-duty');
    await dialog.getByRole('button', { name: 'Confirm Off duty' }).click();
    await page.getByText(/Duty status changed to Off duty at \d{2}:\d{2}/).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('current-duty').textContent()).toBe('Off duty');
    expect(await page.getByRole('button', { name: /^Off duty/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: /^Off duty/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /^Driving/ }).getAttribute('aria-pressed')).toBe('false');
    // Today's log ends with the off duty just recorded, on the home terminal's clocks, with its note.
    const todaysRemarks = page.getByTestId('log-grid').locator('article').first().locator('[data-testid="remarks"] li');
    expect(await todaysRemarks.last().textContent()).toMatch(/^\d\d:\d\d C[SD]T — Off duty · Entered by the driver · “End of shift”$/);
    await screenshot(page, 'driver-4-off-duty');

    // The server has it, as Alice's own entry.
    const hos = await w.t.app.inject({ method: 'GET', url: `/api/v1/drivers/${a.driverId}/hos`, headers: tenant.auth });
    expect(hos.json().currentDutyStatus).toBe('OFF_DUTY');
    const log = await w.t.app.inject({ method: 'GET', url: `/api/v1/drivers/${a.driverId}/duty-status`, headers: tenant.auth });
    expect(log.json().data[0]).toMatchObject({ status: 'OFF_DUTY', note: 'End of shift' });
  });

  it('fits a phone (390 × 844 and 360 wide) without sideways scrolling, with large touch targets', async () => {
    const { page } = await b.newContext({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Hello, Alice' }).waitFor();
    await expectOnlyAlicesRoute(page);
    await page.getByTestId('log-grid').waitFor();
    await screenshot(page, 'driver-5-phone');
    await docsScreenshot(page, 'driver-view', { width: 390, height: 844 });
    const overflow = () => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    let o = await overflow();
    expect(o.scroll, JSON.stringify(o)).toBeLessThanOrEqual(o.inner);
    for (const name of [/^Off duty/, /^Sleeper berth/, /^Driving/, /^On duty/]) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(48);
      expect(box!.width).toBeGreaterThanOrEqual(120);
    }
    await page.setViewportSize({ width: 360, height: 740 });
    o = await overflow();
    expect(o.scroll, JSON.stringify(o)).toBeLessThanOrEqual(o.inner);
    await screenshot(page, 'driver-6-phone-360');
    await page.context().close();
  });

  it('keeps dispatcher pages and the other driver closed to the driver', async () => {
    const { page } = b;
    await page.goto('/drivers');
    await page.getByRole('heading', { name: 'Hello, Alice' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goto(`/routes/${bRoute.routeId}`);
    await page.getByRole('heading', { name: 'Hello, Alice' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await screenshot(page, 'driver-7-dispatcher-page-redirected');

    // With Alice's own token, Bruno's data is not there; her own is.
    const auth = { authorization: `Bearer ${await login(w.t.app, EMAIL, PASSWORD)}` };
    for (const url of [`/api/v1/drivers/${bRoute.driverId}/hos`, `/api/v1/drivers/${bRoute.driverId}/duty-status`, `/api/v1/drivers/${bRoute.driverId}`, `/api/v1/routes/${bRoute.routeId}`]) {
      const res = await w.t.app.inject({ method: 'GET', url, headers: auth });
      expect([403, 404], `${url}: ${res.statusCode}`).toContain(res.statusCode);
    }
    const refused = await w.t.app.inject({ method: 'POST', url: `/api/v1/drivers/${bRoute.driverId}/duty-status`, headers: auth, payload: { status: 'OFF_DUTY' } });
    expect([403, 404]).toContain(refused.statusCode);
    const theirs = await w.t.app.inject({ method: 'GET', url: `/api/v1/routes?driverId=${bRoute.driverId}`, headers: auth });
    expect(theirs.json().total).toBe(0);
    expect((await w.t.app.inject({ method: 'GET', url: `/api/v1/drivers/${a.driverId}/hos`, headers: auth })).statusCode).toBe(200);
    // Dispatcher-only reads are refused outright.
    expect((await w.t.app.inject({ method: 'GET', url: '/api/v1/vehicles', headers: auth })).statusCode).toBe(403);
  });

  it('a used or unknown invitation link says so; a DRIVER account without a driver profile is told so', async () => {
    const { page, context } = await b.newContext();
    await page.goto(invitationPath(EMAIL));
    await page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('This invitation has already been used');
    await screenshot(page, 'driver-9-invitation-used');
    await page.goto('/accept-invitation?token=not-a-real-token-but-long-enough-0123456789');
    await page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('This invitation link is not valid');

    const unlinked = await createUser(w.t.app, w.t.mailer, tenant, 'DRIVER');
    await page.goto('/login');
    await page.getByLabel('Email').fill(unlinked.email);
    await page.getByLabel('Password').fill('another-good-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your driver view' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'not linked to a driver profile' }).count()).toBe(1);
    expect(await page.textContent('main')).not.toContain(a.routeId);
    await screenshot(page, 'driver-10-not-linked');
    await context.close();
  });

  it('a route change reaches the open view live (Socket.IO route:updated)', async () => {
    const { page } = b;
    await page.getByTestId('my-route').waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    const res = await w.t.app.inject({ method: 'POST', url: `/api/v1/routes/${a.routeId}/cancel`, headers: tenant.auth, payload: { reason: 'Load withdrawn' } });
    expect(res.statusCode, res.body).toBe(200);
    await page.getByText('No route is assigned to you right now.').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('my-route').count()).toBe(0);
    await screenshot(page, 'driver-8-route-cancelled-live');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
