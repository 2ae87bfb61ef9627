/**
 * Accessibility of every page, checked by axe-core (the engine behind most accessibility audits) against
 * WCAG 2.1 A and AA — labels, names, roles, contrast, landmarks — on a tenant with data on every page, for
 * each kind of user (signed out, dispatcher, platform administrator, driver on a phone). Keyboard use is
 * checked too: the skip link and the sign-in form work without a mouse.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { createActiveRoute, createTenant, createUser, type TenantFixture } from '../helpers/factories.js';
import { raiseTestAlert } from '../helpers/realtime.js';
import { describeBrowser, openBrowser, screenshot, startWebApp, type BrowserSession, signIn, type WebApp } from './harness.js';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's WCAG 2.1 A/AA violations on the page as it is now. */
async function audit(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}

describeBrowser('accessibility of every page (axe-core, WCAG 2.1 AA)', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  let route: Awaited<ReturnType<typeof createActiveRoute>>;
  let ids: { vehicle: string; load: string; location: string };

  beforeAll(async () => {
    w = await startWebApp({ workers: true, env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    // The browser may evaluate the audit script despite the page's CSP.
    b = await openBrowser(w.baseUrl);
    tenant = await createTenant(w.t.app, { name: 'Accessible Freight' });
    const app = w.t.app;
    const post = async (url: string, payload: unknown) => {
      const res = await app.inject({ method: 'POST', url, headers: tenant.auth, payload: payload as never });
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json<{ id: string }>();
    };
    route = await createActiveRoute(app, tenant.auth);
    ids = {
      vehicle: (await post('/api/v1/vehicles', { unitNumber: 'A11Y-1', make: 'Volvo', model: 'VNL' })).id,
      load: (await post('/api/v1/loads', { referenceNumber: 'A11Y-LOAD', customer: 'Access Co', originAddress: 'Dallas, TX', destinationAddress: 'Tulsa, OK' })).id,
      location: (await post('/api/v1/locations', { name: 'Yard A11Y', type: 'YARD', latitude: 32.8, longitude: -96.8 })).id,
    };
    await post(`/api/v1/routes/${route.routeId}/positions`, { latitude: 33.2, longitude: -97.0, speedMph: 60 });
    await raiseTestAlert(app, tenant.tenantId, { type: 'LOW_FUEL', driverId: route.driverId, routeId: route.routeId });
    // 45 minutes of driving nobody has assumed: the truck is flagged on the Vehicles list and its page.
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    await post(`/api/v1/vehicles/${ids.vehicle}/unassigned-driving`, { start: ago(180), end: ago(135), startLocation: { latitude: 32.78, longitude: -96.8 }, endLocation: { latitude: 33.2, longitude: -97.1 }, miles: 31.2 });
    await post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'], description: 'a11y' });
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  const expectAccessible = async (page: Page, name: string) => {
    const violations = await audit(page);
    await screenshot(page, `a11y-${name}`);
    expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  };

  it('the signed-out pages, and signing in with the keyboard alone', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(page, 'login');
    await page.goto('/register');
    await page.getByRole('heading', { name: 'Register your organization' }).waitFor();
    await expectAccessible(page, 'register');
    await page.goto('/accept-invitation?token=not-a-real-token');
    await page.getByRole('heading').first().waitFor();
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, 'accept-invitation-invalid');

    // Keyboard only: the email field has focus on arrival; Tab to the password, Enter submits.
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.keyboard.type(tenant.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(tenant.password);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // The skip link is the first stop of the keyboard and moves focus to the content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  // One test per page: each has its own time limit, and a failure names the page.
  const dispatcherPages: Array<[string, () => string, (page: Page) => Promise<unknown>]> = [
    ['overview', () => '/', (page) => page.locator('[data-testid="us-map"][data-ready="true"]').waitFor()],
    ['routes', () => '/routes', (page) => page.getByRole('table').waitFor()],
    ['plan-route', () => '/routes/new', (page) => page.getByLabel('Stop 1 place').waitFor()],
    ['route', () => `/routes/${route.routeId}`, (page) => page.getByTestId('log-grid').waitFor()],
    ['alerts', () => '/alerts', (page) => page.getByRole('article').first().waitFor()],
    ['alert-analytics', () => '/alerts/analytics', (page) => page.getByRole('heading', { level: 1 }).waitFor()],
    ['drivers', () => '/drivers', (page) => page.getByRole('table').waitFor()],
    ['driver', () => `/drivers/${route.driverId}`, (page) => page.getByTestId('log-grid').waitFor()],
    ['vehicles', () => '/vehicles', (page) => page.getByRole('table').waitFor()],
    ['vehicle', () => `/vehicles/${ids.vehicle}`, (page) => page.getByRole('heading', { level: 1 }).waitFor()],
    ['loads', () => '/loads', (page) => page.getByRole('table').waitFor()],
    ['load', () => `/loads/${ids.load}`, (page) => page.getByRole('heading', { level: 1 }).waitFor()],
    ['locations', () => '/locations', (page) => page.getByRole('table').waitFor()],
    ['location', () => `/locations/${ids.location}`, (page) => page.getByRole('heading', { level: 1 }).waitFor()],
    ['unassigned-driving', () => '/unassigned-driving', (page) => page.getByRole('button', { name: 'Assign to a driver…' }).waitFor()],
    ['compliance', () => '/compliance', (page) => page.getByTestId('unassigned-by-truck').getByRole('table').waitFor()],
    ['settings-alerts', () => '/settings/alerts', (page) => page.getByRole('heading', { name: 'Alert thresholds' }).waitFor()],
    ['settings-api-keys', () => '/settings/api-keys', (page) => page.getByLabel('Key name').waitFor()],
    ['settings-webhooks', () => '/settings/webhooks', (page) => page.getByRole('row').nth(1).waitFor()],
    ['settings-integrations', () => '/settings/integrations', (page) => page.getByRole('button', { name: /^Connect / }).first().waitFor()],
    ['settings-users', () => '/settings/users', (page) => page.getByRole('region', { name: 'Users', exact: true }).waitFor()],
  ];
  it.each(dispatcherPages)('the dispatcher page %s', async (name, url, ready) => {
    const { page } = b;
    await page.goto(url());
    await ready(page);
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, name);
  });

  it('the platform administrator’s page and the driver view on a phone', async () => {
    const admin = await b.newContext();
    try {
      await signIn(admin.page, ADMIN_EMAIL, ADMIN_PASSWORD);
      await admin.page.getByRole('heading', { name: 'Organizations' }).waitFor();
      await admin.page.waitForLoadState('networkidle');
      await expectAccessible(admin.page, 'admin-organizations');
    } finally {
      await admin.context.close();
    }
    const driverUser = await createUser(w.t.app, w.t.mailer, tenant, 'DRIVER', { driverId: route.driverId });
    const phone = await b.newContext({ width: 390, height: 844 });
    try {
      await signIn(phone.page, driverUser.email, 'another-good-password');
      await phone.page.getByTestId('my-route').waitFor();
      await phone.page.waitForLoadState('networkidle');
      await expectAccessible(phone.page, 'driver-view-phone');
    } finally {
      await phone.context.close();
    }
  });
});
