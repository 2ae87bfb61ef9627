/**
 * The session across tabs: the refresh cookie is rotated on every use and an already-rotated one revokes
 * the sign-in, so tabs that restore their session at the same moment must not send the same cookie twice
 * (the dashboard serializes its refreshes with a Web Lock). A dispatcher keeps several tabs open all day.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../helpers/factories.js';
import { describeBrowser, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

describeBrowser('the session across tabs', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  beforeAll(async () => {
    w = await startWebApp();
    tenant = await createTenant(w.t.app, { name: 'Many Tabs Freight' });
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  it('four tabs reloaded at the same moment all stay signed in, and stay so after another round', async () => {
    const { page, context } = b;
    await page.goto('/login');
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const tabs = [page, ...(await Promise.all([1, 2, 3].map(() => context.newPage())))];
    for (let round = 0; round < 2; round++) {
      await Promise.all(tabs.map((tab, i) => (round === 0 && i > 0 ? tab.goto('/drivers') : tab.reload())));
      for (const tab of tabs) await tab.getByRole('navigation', { name: 'Main' }).waitFor();
    }
    await screenshot(tabs[3]!, 'session-four-tabs');
    // Every tab still has a working session: one more reload of each, one after the other.
    for (const tab of tabs) {
      await tab.reload();
      await tab.getByRole('navigation', { name: 'Main' }).waitFor();
    }
    expect(await tabs[0]!.getByRole('heading', { name: 'Sign in' }).count()).toBe(0);
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
