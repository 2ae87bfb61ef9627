import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';
import { adminAction } from '../helpers/factories.js';

describeBrowser('onboarding in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  beforeAll(async () => {
    w = await startWebApp();
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  it('a visitor is sent to sign in; a wrong password says so', async () => {
    const { page } = b;
    await page.goto('/drivers');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/invalid|incorrect/i);
    await screenshot(page, 'onboarding-1-login-error');
  });

  it('registers an organization, waits on the pending screen, and enters the dashboard once approved', async () => {
    const { page } = b;
    await page.goto('/register');
    await page.getByLabel('Organization name').fill('Prairie Freight');
    await page.getByLabel('Address').fill('1 Main St, Omaha, NE');
    await page.getByLabel('Phone').fill('+1 402 555 0100');
    await page.getByLabel('Contact email').fill('ops@prairie.test');
    await page.getByLabel('First name').fill('Pat');
    await page.getByLabel('Last name').fill('Owner');
    await page.getByLabel('Your email').fill('pat@prairie.test');
    await page.getByLabel('Password').fill('prairie-password');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
    expect(await page.textContent('main')).toContain('Prairie Freight');
    await screenshot(page, 'onboarding-2-pending');

    // A reload keeps the session (refresh cookie), still pending.
    await page.reload();
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();

    const tenantId = (await w.t.app.inject({ method: 'GET', url: '/api/v1/admin/tenants?status=PENDING_APPROVAL', headers: { authorization: `Bearer ${await adminTokenOf(w)}` } })).json<{ data: Array<{ id: string; name: string }> }>().data.find((x) => x.name === 'Prairie Freight')!.id;
    await adminAction(w.t.app, tenantId, 'approve');
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await screenshot(page, 'onboarding-3-approved');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});

async function adminTokenOf(w: WebApp): Promise<string> {
  const { adminToken } = await import('../helpers/factories.js');
  return adminToken(w.t.app);
}
