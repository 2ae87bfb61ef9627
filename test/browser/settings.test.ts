/**
 * Settings and platform administration in the browser: the platform administrator approves, suspends
 * and reactivates organizations; a tenant owner creates and revokes an API key (used from here with
 * real HTTP), adds a webhook and pings it (a local receiver checks the signature), connects and tests
 * an integration, and invites a driver user linked to a driver profile.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { adminToken, createDriver, createTenant, createUser, invitationTokenFor, type TenantFixture } from '../helpers/factories.js';
import { signedBy, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, signIn, type WebApp } from './harness.js';

/** A loopback URL nothing listens on (a webhook target whose deliveries fail). */
async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/gone`;
}

describeBrowser('settings and platform administration in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    w = await startWebApp({ workers: true, env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
    await receiver?.close();
  });

  const tenantStatus = async (tenantId: string) => {
    const res = await w.t.app.inject({ method: 'GET', url: '/api/v1/admin/tenants?pageSize=100', headers: { authorization: `Bearer ${await adminToken(w.t.app)}` } });
    return res.json<{ data: Array<{ id: string; status: string; statusReason: string | null }> }>().data.find((t) => t.id === tenantId);
  };

  it('the platform administrator approves a pending organization, suspends and reactivates another', async () => {
    const pending = await createTenant(w.t.app, { approve: false, name: 'Pending Haulers' });
    const active = await createTenant(w.t.app, { name: 'Suspendable Freight' });
    const { page } = b;

    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    expect(await page.getByRole('tab', { name: /^Pending approval/ }).getAttribute('aria-selected')).toBe('true');
    const row = page.getByRole('row').filter({ hasText: 'Pending Haulers' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/DOT 1234567.*MC-765432/);
    await screenshot(page, 'settings-1-admin-pending');
    await docsScreenshot(page, 'platform-admin');

    await page.getByRole('button', { name: 'Approve Pending Haulers' }).click();
    const confirm = page.getByRole('dialog', { name: 'Approve Pending Haulers' });
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Pending Haulers approved.').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await tenantStatus(pending.tenantId))?.status).toBe('ACTIVE');
    await screenshot(page, 'settings-2-admin-approved');

    await page.getByRole('tab', { name: /^Active/ }).click();
    expect(new URL(page.url()).search).toBe('?status=ACTIVE');
    await page.getByRole('button', { name: 'Suspend Suspendable Freight' }).click();
    const suspend = page.getByRole('dialog', { name: 'Suspend Suspendable Freight' });
    await suspend.getByLabel(/Reason/).fill('Unpaid invoices');
    await screenshot(page, 'settings-3-admin-suspend-confirm');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await page.getByText('Suspendable Freight suspended.').waitFor();
    expect(await tenantStatus(active.tenantId)).toMatchObject({ status: 'SUSPENDED', statusReason: 'Unpaid invoices' });
    expect((await w.t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers: active.auth })).statusCode).toBe(403);

    await page.getByRole('tab', { name: /^Suspended/ }).click();
    const suspendedRow = page.getByRole('row').filter({ hasText: 'Suspendable Freight' });
    expect(await suspendedRow.textContent()).toContain('Reason: Unpaid invoices');
    await screenshot(page, 'settings-4-admin-suspended');
    await page.getByRole('button', { name: 'Reactivate Suspendable Freight' }).click();
    await page.getByRole('dialog', { name: 'Reactivate Suspendable Freight' }).getByRole('button', { name: 'Reactivate' }).click();
    await page.getByText('Suspendable Freight reactivated.').waitFor();
    expect((await tenantStatus(active.tenantId))?.status).toBe('ACTIVE');
    expect((await w.t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers: active.auth })).statusCode).toBe(200);
    await screenshot(page, 'settings-5-admin-reactivated');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  describeBrowser('as the owner of an organization', () => {
    let owner: TenantFixture;
    let page: Page;
    let driver: { id: string; firstName: string; lastName: string };

    beforeAll(async () => {
      owner = await createTenant(w.t.app, { name: 'Settings Freight' });
      driver = (await createDriver(w.t.app, owner.auth, { firstName: 'Rosa', lastName: 'Linked' })) as never;
      ({ page } = await b.newContext());
      await signIn(page, owner.email, owner.password);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    });

    it('changes an alert threshold, and a value out of range gets the server’s message', async () => {
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Alert thresholds' }).waitFor();
      const deviation = page.getByLabel('Route deviation (miles)');
      expect(await deviation.inputValue()).toBe('5');
      await deviation.fill('250');
      await page.getByRole('button', { name: 'Save alert thresholds' }).click();
      await page.getByText('Must be at most 100.').waitFor();
      expect(await deviation.getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'settings-6-alert-validation');
      await deviation.fill('7.5');
      await page.getByRole('button', { name: 'Save alert thresholds' }).click();
      await page.getByText('Alert thresholds saved.').waitFor();
      const saved = (await w.t.app.inject({ method: 'GET', url: '/api/v1/tenant/settings', headers: owner.auth })).json();
      expect(saved.alerts.routeDeviationThresholdMiles).toBe(7.5);
      expect(await page.getByText('Default: 5 miles.').count()).toBe(1);
    });

    it('creates an API key shown once, which works until it is revoked', async () => {
      await page.getByRole('tab', { name: 'API keys' }).click();
      expect(new URL(page.url()).pathname).toBe('/settings/api-keys');
      await page.getByLabel('Key name').fill('TMS connector');
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByRole('dialog', { name: /API key .TMS connector. created/ });
      await shown.getByText('it will not be shown again').waitFor();
      const key = await shown.getByLabel('API key', { exact: true }).inputValue();
      expect(key).toMatch(/^sk_staging_/);
      await shown.getByRole('button', { name: 'Copy' }).click();
      await shown.getByText(/Copied to the clipboard|Could not copy/).waitFor();
      await screenshot(page, 'settings-7-api-key-shown-once');

      const withKey = () => fetch(`${w.baseUrl}/api/v1/drivers`, { headers: { 'X-API-Key': key } });
      expect((await withKey()).status).toBe(200);
      await shown.getByRole('button', { name: 'I have copied it' }).click();
      const row = page.getByRole('row').filter({ hasText: 'TMS connector' });
      await row.waitFor();
      expect(await row.textContent()).not.toContain(key);

      await page.getByRole('button', { name: 'Revoke TMS connector' }).click();
      await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('TMS connector revoked').waitFor();
      await row.getByText('Revoked').waitFor();
      expect((await withKey()).status).toBe(401);
      await screenshot(page, 'settings-8-api-key-revoked');
    });

    it('adds a webhook, pings it, reads the delivery log and retries a failed delivery', async () => {
      await page.getByRole('tab', { name: 'Webhooks' }).click();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const form = page.getByRole('dialog', { name: 'Add webhook' });
      await form.getByLabel('URL', { exact: true }).fill(receiver.url);
      await form.getByLabel('Description').fill('Dispatch board');
      await form.getByLabel(/alert\.created/).check();
      await form.getByLabel(/route\.planned/).check();
      await screenshot(page, 'settings-9-webhook-form');
      await form.getByRole('button', { name: 'Add webhook' }).click();

      const shown = page.getByRole('dialog', { name: 'Webhook signing secret' });
      const secret = await shown.getByLabel('Signing secret').inputValue();
      expect(secret.length).toBeGreaterThanOrEqual(16);
      await shown.getByRole('button', { name: 'I have copied it' }).click();
      const row = page.getByRole('row').filter({ hasText: receiver.url });
      expect(await row.textContent()).toContain('alert.created, route.planned');

      await page.getByRole('button', { name: `Send a test ping to ${receiver.url}` }).click();
      await page.getByText(/Test ping delivered .*HTTP 204/).waitFor();
      const ping = await receiver.next('ping');
      expect(signedBy(secret, ping)).toBe(true);
      const log = page.getByRole('region', { name: /Delivery log/ });
      const delivery = log.getByRole('row').filter({ hasText: 'ping' });
      await delivery.getByText('Delivered').waitFor();
      expect(await delivery.textContent()).toContain('HTTP 204');
      await screenshot(page, 'settings-10-webhook-delivery-log');
      await docsScreenshot(page, 'settings-webhooks');

      await delivery.getByRole('button', { name: 'Details of the ping delivery' }).click();
      const detail = page.getByRole('dialog', { name: 'Delivery' });
      await detail.getByRole('cell', { name: 'HTTP 204' }).waitFor();
      await screenshot(page, 'settings-11-webhook-delivery-detail');
      await detail.getByRole('button', { name: 'Close' }).click();

      // A webhook whose receiver is gone: the ping fails, and the failed delivery can be retried.
      const gone = await deadUrl();
      const created = await w.t.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: owner.auth, payload: { url: gone, events: ['*'] } });
      expect(created.statusCode).toBe(201);
      await page.reload();
      const goneRow = page.getByRole('row').filter({ hasText: gone });
      expect(await goneRow.textContent()).toContain('All events');
      await page.getByRole('button', { name: `Send a test ping to ${gone}` }).click();
      await page.getByText(/Test ping failed/).waitFor();
      const failed = page.getByRole('region', { name: /Delivery log/ }).getByRole('row').filter({ hasText: 'ping' });
      await failed.getByText('Failed').waitFor();
      await failed.getByRole('button', { name: 'Retry the ping delivery' }).click();
      await page.getByText('Delivery of ping queued again.').waitFor();
      await screenshot(page, 'settings-12-webhook-retry');
    });

    it('connects the fake ELD vendor and tests the connection', async () => {
      await page.getByRole('tab', { name: 'Integrations' }).click();
      await page.getByRole('button', { name: 'Connect Fake ELD' }).click();
      const form = page.getByRole('dialog', { name: 'Connect Fake ELD' });
      expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('Fake ELD');
      await form.getByLabel('Name', { exact: true }).fill('Yard ELD');
      const token = form.getByLabel('API token');
      expect(await token.getAttribute('type')).toBe('password');
      await token.fill('fake-token-123');
      await form.getByLabel('Sync interval (minutes)').fill('30');
      await screenshot(page, 'settings-13-integration-connect');
      await form.getByRole('button', { name: 'Connect' }).click();
      await page.getByText('Yard ELD connected.').waitFor();
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Yard ELD' }) });
      await card.getByText('Configured').waitFor();
      expect(await card.textContent()).toContain('every 30 min');

      await page.getByRole('button', { name: 'Test the connection of Yard ELD' }).click();
      await card.getByText('Connection test passed: Connected').waitFor();
      await card.getByText('Active', { exact: true }).waitFor();
      expect(await card.textContent()).toMatch(/Vehicles\s*2/);
      await screenshot(page, 'settings-14-integration-tested');
      await docsScreenshot(page, 'settings-integrations');
    });

    it('invites a driver user linked to a driver profile', async () => {
      await page.getByRole('tab', { name: 'Users & invitations' }).click();
      const email = 'rosa.linked@settings.test';
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Role', { exact: true }).selectOption('DRIVER');
      const link = page.getByLabel('Driver to link');
      await link.locator('option', { hasText: 'Rosa Linked' }).waitFor({ state: 'attached' });
      await link.selectOption(driver.id);
      expect(await page.getByLabel('First name (optional)').inputValue()).toBe('Rosa');
      await screenshot(page, 'settings-15-invite-driver');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${email}`).waitFor();
      const row = page.getByRole('region', { name: 'Invitations', exact: true }).getByRole('row').filter({ hasText: email });
      await row.getByText('Pending').waitFor();
      expect(await row.textContent()).toContain('linked to a driver profile');
      expect(invitationTokenFor(w.t.mailer, email)).toBeTruthy();
      const invitations = (await w.t.app.inject({ method: 'GET', url: '/api/v1/user-invitations', headers: owner.auth })).json<{ data: Array<{ email: string; driverId: string | null; role: string }> }>();
      expect(invitations.data.find((i) => i.email === email)).toMatchObject({ role: 'DRIVER', driverId: driver.id });
      // The driver profile now has a pending invitation: it is no longer offered.
      await page.getByLabel('Role', { exact: true }).selectOption('DRIVER');
      await page.getByLabel('Driver to link').locator('option').first().waitFor({ state: 'attached' });
      await page.waitForFunction(() => !document.body.textContent?.includes('Loading drivers…'));
      expect(await page.getByLabel('Driver to link').locator('option', { hasText: 'Rosa Linked' }).count()).toBe(0);
      const users = page.getByRole('region', { name: 'Users', exact: true });
      expect(await users.getByRole('row').filter({ hasText: owner.email }).textContent()).toContain('(you)');
      await screenshot(page, 'settings-16-invitation-listed');
      expect(unexpectedProblems(b.problems)).toEqual([]);
    });

    it('a dispatcher sees the settings without the controls', async () => {
      const dispatcher = await createUser(w.t.app, w.t.mailer, owner, 'DISPATCHER');
      const other = await b.newContext();
      try {
        await signIn(other.page, dispatcher.email, 'another-good-password');
        await other.page.getByRole('navigation', { name: 'Main' }).waitFor();
        await other.page.goto('/settings/alerts');
        await other.page.getByText('Only an owner or administrator can change these settings').waitFor();
        expect(await other.page.getByLabel('Route deviation (miles)').isDisabled()).toBe(true);
        expect(await other.page.getByRole('button', { name: 'Save alert thresholds' }).count()).toBe(0);
        await other.page.getByRole('tab', { name: 'Webhooks' }).click();
        await other.page.getByRole('row').filter({ hasText: receiver.url }).waitFor();
        expect(await other.page.getByRole('button', { name: 'Add webhook' }).count()).toBe(0);
        await other.page.getByRole('tab', { name: 'API keys' }).click();
        await other.page.getByText('Only an owner or administrator can see and manage API keys.').waitFor();
        await screenshot(other.page, 'settings-17-dispatcher-read-only');
      } finally {
        await other.context.close();
      }
      expect(unexpectedProblems(b.problems)).toEqual([]);
    });
  });
});
