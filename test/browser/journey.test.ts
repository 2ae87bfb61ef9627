/**
 * The whole journey in one browser session per role, on each database kind: an organization
 * registers → the platform administrator approves it → the owner creates a driver and a vehicle → plans a
 * route and sees its rests on the map and the log grid → activates it → an alert arrives live → is
 * acknowledged → an API key is created → a webhook is created → the driver is invited → the driver signs in
 * through the invitation and sees only their route. Every step saves a screenshot.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMonitoring } from '../../src/modules/monitoring/monitoring.repository.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { createActiveRoute, login } from '../helpers/factories.js';
import { signedBy, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { describeBrowser, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, signIn, type WebApp } from './harness.js';

const OWNER = { email: 'olivia@journey.test', password: 'journey-owner-password' };
const DRIVER = { email: 'dana.rivera@journey.test', password: 'journey-driver-password' };

describeBrowser.each(DB_KINDS)('the dispatcher journey in the browser (%s)', (kind) => {
  let w: WebApp;
  let b: BrowserSession;
  let receiver: Receiver;
  let owner: Page;
  let tenantId = '';
  let driverId = '';
  let planId = '';
  let otherRouteId = '';
  const shot = (page: Page, name: string) => screenshot(page, `journey-${kind}-${name}`);
  const ownerAuth = async () => ({ authorization: `Bearer ${await login(w.t.app, OWNER.email, OWNER.password)}` });

  beforeAll(async () => {
    receiver = await startReceiver();
    w = await startWebApp({ kind, workers: true, env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    b = await openBrowser(w.baseUrl);
    owner = b.page;
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
    await receiver?.close();
  });

  it('1. registers an organization and waits for approval', async () => {
    await owner.goto('/');
    await owner.getByRole('link', { name: 'Register your organization' }).click();
    await owner.getByLabel('Organization name').fill('Journey Freight');
    await owner.getByLabel('Address').fill('500 Elm St, Dallas, TX 75202');
    await owner.getByLabel('Phone').fill('+1 214 555 0199');
    await owner.getByLabel('Contact email').fill('ops@journey.test');
    await owner.getByLabel('DOT number (optional)').fill('2718281');
    await owner.getByLabel('First name').fill('Olivia');
    await owner.getByLabel('Last name').fill('Owner');
    await owner.getByLabel('Your email').fill(OWNER.email);
    await owner.getByLabel('Password').fill(OWNER.password);
    await owner.getByRole('button', { name: 'Register' }).click();
    await owner.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
    await shot(owner, '01-pending');
  });

  it('2. the platform administrator approves it; the owner enters the dashboard', async () => {
    const admin = await b.newContext();
    try {
      await signIn(admin.page, ADMIN_EMAIL, ADMIN_PASSWORD);
      await admin.page.getByRole('heading', { name: 'Organizations' }).waitFor();
      await admin.page.getByRole('row').filter({ hasText: 'Journey Freight' }).waitFor();
      await shot(admin.page, '02-admin-pending');
      await admin.page.getByRole('button', { name: 'Approve Journey Freight' }).click();
      await admin.page.getByRole('dialog', { name: 'Approve Journey Freight' }).getByRole('button', { name: 'Approve' }).click();
      await admin.page.getByText('Journey Freight approved.').waitFor();
      await shot(admin.page, '03-admin-approved');
    } finally {
      await admin.context.close();
    }
    await owner.getByRole('button', { name: 'Check again' }).click();
    await owner.getByRole('heading', { name: 'Fleet overview' }).waitFor();
    tenantId = (await w.t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: await ownerAuth() })).json<{ tenantId: string }>().tenantId;
    await shot(owner, '04-overview-empty');
  });

  it('3. creates a driver and a vehicle', async () => {
    const nav = owner.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Drivers' }).click();
    await owner.getByRole('button', { name: 'New driver' }).first().click();
    const form = owner.getByRole('dialog', { name: 'New driver' });
    await form.getByLabel('First name').fill('Dana');
    await form.getByLabel('Last name').fill('Rivera');
    await form.getByLabel('License number').fill('D7654321');
    await form.getByLabel('License state').selectOption('TX');
    await form.getByLabel('Truck number').fill('T-104');
    await form.getByRole('button', { name: 'Create driver' }).click();
    await owner.getByText('Driver Dana Rivera created.').waitFor();
    await shot(owner, '05-driver-created');

    await nav.getByRole('link', { name: 'Vehicles' }).click();
    await owner.getByRole('button', { name: 'New vehicle' }).first().click();
    const vform = owner.getByRole('dialog', { name: 'New vehicle' });
    await vform.getByLabel('Unit number').fill('T-104');
    await vform.getByLabel('Make').fill('Freightliner');
    await vform.getByLabel('Model', { exact: true }).fill('Cascadia');
    await vform.getByRole('button', { name: 'Create vehicle' }).click();
    await owner.getByText('Vehicle T-104 created.').waitFor();
    await shot(owner, '06-vehicle-created');

    const drivers = (await w.t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers: await ownerAuth() })).json<{ data: Array<{ id: string; firstName: string }> }>();
    driverId = drivers.data.find((d) => d.firstName === 'Dana')!.id;
    // A colleague with a route of their own (made through the API), which Dana must never see.
    otherRouteId = (await createActiveRoute(w.t.app, await ownerAuth(), {
      stops: [
        { name: 'Memphis, TN', latitude: 35.1495, longitude: -90.049, type: 'ORIGIN' },
        { name: 'Nashville, TN', latitude: 36.1627, longitude: -86.7816, type: 'DELIVERY', dockDurationHours: 1 },
      ],
    })).routeId;
  });

  it('4. plans Dallas → Chicago: rests on the map and the log grid', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Routes' }).click();
    await owner.getByRole('link', { name: 'Plan a route' }).first().click();
    await owner.getByRole('heading', { name: 'Plan a route' }).waitFor();
    await owner.getByLabel('Driver', { exact: true }).selectOption({ label: 'Dana Rivera (TX D7654321)' });
    const vehicle = owner.getByLabel('Vehicle').locator('option', { hasText: 'T-104' });
    await vehicle.waitFor({ state: 'attached' });
    await owner.getByLabel('Vehicle').selectOption((await vehicle.getAttribute('value'))!);
    await owner.getByLabel('Stop 1 place').fill('Dallas, TX');
    await owner.getByLabel('Stop 2 place').fill('Chicago, IL');
    await shot(owner, '07-plan-form');
    await owner.getByRole('button', { name: 'Plan route' }).click();
    await owner.waitForURL(/\/routes\/rte_[0-9A-Za-z]+$/);
    planId = new URL(owner.url()).pathname.split('/').pop()!;
    await owner.locator('[data-testid="us-map"][data-ready="true"]').waitFor();
    expect(await owner.getByTestId('map-rest').count()).toBeGreaterThan(0);
    expect(await owner.getByTestId('map-route').count()).toBe(1);
    const grid = owner.getByTestId('log-grid');
    await grid.waitFor();
    const driving = await grid.locator('[data-row-total="ON_DUTY_DRIVING"]').allTextContents();
    expect(driving.some((t) => t !== '0:00')).toBe(true);
    await shot(owner, '08-plan-rests-and-log-grid');
  });

  it('5. activates the route', async () => {
    await owner.getByRole('button', { name: 'Activate route' }).click();
    await owner.getByText('Route activated: monitoring has started.').waitFor();
    await owner.locator('.page-header .badge', { hasText: 'Active' }).waitFor();
    await shot(owner, '09-activated');
  });

  it('6. an alert arrives live on the open alerts page, and is acknowledged', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Alerts/ }).click();
    await owner.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    await owner.locator('.live-on').waitFor();
    // The truck reports 35 miles east of its path; the monitoring worker finds it on its next pass.
    const pos = await w.t.app.inject({ method: 'POST', url: `/api/v1/routes/${planId}/positions`, headers: await ownerAuth(), payload: { latitude: 32.95, longitude: -96.15, speedMph: 55 } });
    expect(pos.statusCode, pos.body).toBe(201);
    await w.t.app.deps.db.tenant(tenantId, (tx) => startMonitoring(tx, tenantId, planId, new Date()));
    await w.t.app.workers.get('monitoring').worker.runOnce(new Date());
    const alert = owner.getByRole('article').filter({ has: owner.getByRole('heading', { name: /^Off route/ }) });
    await alert.waitFor();
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /1 open alert/ }).waitFor();
    await shot(owner, '10-alert-live');
    await alert.getByRole('button', { name: 'Acknowledge' }).click();
    await alert.getByText('Acknowledged', { exact: true }).waitFor();
    const stored = (await w.t.app.inject({ method: 'GET', url: '/api/v1/alerts?status=ACKNOWLEDGED', headers: await ownerAuth() })).json<{ data: Array<{ type: string; routePlanId: string }> }>();
    expect(stored.data).toEqual([expect.objectContaining({ type: 'ROUTE_DEVIATION', routePlanId: planId })]);
    await shot(owner, '11-alert-acknowledged');
  });

  it('7. creates an API key (shown once, working)', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await owner.getByRole('tab', { name: 'API keys' }).click();
    await owner.getByLabel('Key name').fill('Journey TMS');
    await owner.getByRole('button', { name: 'Create key' }).click();
    const shown = owner.getByRole('dialog', { name: /API key .Journey TMS. created/ });
    const key = await shown.getByLabel('API key', { exact: true }).inputValue();
    expect(key).toMatch(/^sk_staging_[0-9A-Za-z]{32}$/);
    const res = await fetch(`${w.baseUrl}/api/v1/routes/${planId}`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
    await shot(owner, '12-api-key');
    await shown.getByRole('button', { name: 'I have copied it' }).click();
  });

  it('8. creates a webhook, which receives a signed test ping', async () => {
    await owner.getByRole('tab', { name: 'Webhooks' }).click();
    await owner.getByRole('button', { name: 'Add webhook' }).click();
    const form = owner.getByRole('dialog', { name: 'Add webhook' });
    await form.getByLabel('URL', { exact: true }).fill(receiver.url);
    await form.getByLabel(/alert\.created/).check();
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const shown = owner.getByRole('dialog', { name: 'Webhook signing secret' });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await owner.getByRole('button', { name: `Send a test ping to ${receiver.url}` }).click();
    await owner.getByText(/Test ping delivered/).waitFor();
    expect(signedBy(secret, await receiver.next('ping'))).toBe(true);
    await shot(owner, '13-webhook');
  });

  it('9. invites the driver as a DRIVER user linked to Dana Rivera', async () => {
    await owner.getByRole('tab', { name: 'Users & invitations' }).click();
    await owner.getByLabel('Email').fill(DRIVER.email);
    await owner.getByLabel('Role', { exact: true }).selectOption('DRIVER');
    const link = owner.getByLabel('Driver to link');
    await link.locator('option', { hasText: 'Dana Rivera' }).waitFor({ state: 'attached' });
    await link.selectOption(driverId);
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(`Invitation sent to ${DRIVER.email}`).waitFor();
    await shot(owner, '14-driver-invited');
  });

  it('10. the driver accepts, signs in and sees only their own route', async () => {
    const mail = [...w.t.mailer.sent].reverse().find((m) => m.to === DRIVER.email);
    const link = new URL(/https?:\/\/\S+\/accept-invitation\?token=\S+/.exec(mail?.text ?? '')![0]);
    const phone = await b.newContext({ width: 390, height: 844 });
    try {
      const page = phone.page;
      await page.goto(link.pathname + link.search);
      await page.getByRole('heading', { name: 'Join Journey Freight' }).waitFor();
      await page.getByLabel('Choose a password').fill(DRIVER.password);
      await page.getByLabel('Repeat the password').fill(DRIVER.password);
      await page.getByRole('button', { name: 'Accept and sign in' }).click();
      await page.getByRole('heading', { name: 'Hello, Dana' }).waitFor();
      const route = page.getByTestId('my-route');
      await route.waitFor();
      expect(await route.getAttribute('data-route-id')).toBe(planId);
      const text = (await page.textContent('main')) ?? '';
      expect(text).toContain('Chicago, IL');
      expect(text).not.toContain(otherRouteId);
      expect(text).not.toContain('Nashville');
      // Their first duty status (the pre-trip inspection) starts their log grid.
      await page.getByRole('button', { name: /^On duty/ }).click();
      await page.getByRole('dialog', { name: 'Change to On duty?' }).getByRole('button', { name: 'Confirm On duty' }).click();
      await page.getByText(/Duty status changed to On duty at \d{2}:\d{2}/).waitFor();
      await page.getByTestId('log-grid').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, '15-driver-view');
      // The dispatcher's pages are not theirs.
      await page.goto('/drivers');
      await page.getByRole('heading', { name: 'Hello, Dana' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
    } finally {
      await phone.context.close();
    }
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
