import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenant } from '../helpers/factories.js';
import { describeBrowser, openBrowser, screenshot, startWebApp, type BrowserSession, type WebApp } from './harness.js';

/** The budget: the first load of the dashboard under 300 KB of JavaScript, gzipped. */
const BUDGET_BYTES = 300 * 1024;

describeBrowser('first load of the dashboard', () => {
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

  it('signing in and showing the fleet overview transfers less than 300 KB of gzipped JavaScript', async () => {
    const tenant = await createTenant(w.t.app, { name: 'Budget Freight' });
    const { page } = b;
    // The wire size of each script: the body the server sent (gzipped above 1 KB; Chromium asks for gzip).
    const scripts = new Map<string, { bytes: number; encoding: string }>();
    page.on('response', (res) => {
      const headers = res.headers();
      if (!(headers['content-type'] ?? '').includes('javascript')) return;
      scripts.set(res.url(), { bytes: Number(headers['content-length']), encoding: headers['content-encoding'] ?? 'identity' });
    });
    await page.goto('/');
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.waitForLoadState('networkidle');
    const sizes = [...scripts.values()];
    expect(sizes.every((s) => Number.isFinite(s.bytes) && s.bytes > 0)).toBe(true);
    expect(sizes.filter((s) => s.bytes > 1024).every((s) => s.encoding === 'gzip')).toBe(true);
    const total = sizes.reduce((a, s) => a + s.bytes, 0);
    console.log(`first load: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped`);
    expect(scripts.size).toBeGreaterThan(0);
    expect(total).toBeLessThan(BUDGET_BYTES);
    await screenshot(page, 'first-load-overview');
  });
});
