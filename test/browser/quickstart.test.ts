/**
 * The README's quickstart, walked as a newcomer walks it: `npm start` on a fresh data directory (no
 * configuration at all), then the dashboard: register an organization, follow the approval path that the
 * start-up log and the pending page name (the development instance's local platform administrator), then
 * a driver and a route plan. It ends as a person ends it: npm stopped by its process id frees the port.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { portTaken, startNpmScript, until, type NpmScript } from '../helpers/npm-script.js';
import { describeBrowser, openBrowser, screenshot, unexpectedProblems, signIn, type BrowserSession } from './harness.js';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
const OWNER = { email: 'quinn@quickstart.test', password: 'quickstart-owner-password' };

describeBrowser('the README quickstart on a fresh data directory', () => {
  let s: NpmScript;
  let b: BrowserSession;
  let admin: { email: string; password: string };
  const shot = (name: string) => screenshot(b.page, `quickstart-${name}`);

  beforeAll(async () => {
    s = await startNpmScript('start');
    await s.healthy();
    b = await openBrowser(s.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await s?.cleanUp();
  });

  it('the README says: npm install, npm start, open the dashboard and register an organization', () => {
    const start = /## Start\s+```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    expect(start.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean)).toEqual(['npm install', 'npm start']);
    expect(README).toMatch(/Open http:\/\/localhost:3000 and register an organization/);
  });

  it('the start-up log names the local platform administrator and its password, made once in the data directory', async () => {
    const m = /sign in at (\S+) as (\S+) with the password (\S+) \(kept in ([^;]+);/.exec(s.output());
    expect(m, s.output()).not.toBeNull();
    admin = { email: m![2]!, password: m![3]! };
    expect(m![1]).toBe(`http://localhost:${s.port}/login`);
    expect(m![4]).toBe(path.join(s.dataDir, 'platform-admin.json'));
    expect(JSON.parse(fs.readFileSync(m![4]!, 'utf8'))).toEqual(admin);
  });

  it('registers an organization; the pending page says how it gets approved here', async () => {
    const { page } = b;
    await page.goto('/');
    await page.getByRole('link', { name: 'Register your organization' }).click();
    await page.getByLabel('Organization name').fill('Quickstart Freight');
    await page.getByLabel('Address').fill('100 Main St, Dallas, TX 75201');
    await page.getByLabel('Phone').fill('+1 214 555 0142');
    await page.getByLabel('Contact email').fill('ops@quickstart.test');
    await page.getByLabel('First name').fill('Quinn');
    await page.getByLabel('Last name').fill('Owner');
    await page.getByLabel('Your email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
    const hint = (await page.getByTestId('approval-hint').textContent()) ?? '';
    expect(hint).toContain(`sign in as ${admin.email}`);
    expect(hint).toContain('open Organizations and choose Approve');
    expect(hint).not.toContain(admin.password);
    await shot('1-pending');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ state: 'detached' });
  });

  it('the local administrator signs in and approves it', async () => {
    const { page } = b;
    await signIn(page, admin.email, admin.password);
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    await page.getByRole('button', { name: 'Approve Quickstart Freight' }).click();
    await page.getByRole('dialog', { name: 'Approve Quickstart Freight' }).getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Quickstart Freight approved.').waitFor();
    await shot('2-approved');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('the owner adds a driver and plans a route', async () => {
    const { page } = b;
    await signIn(page, OWNER.email, OWNER.password);
    await page.getByRole('heading', { name: 'Fleet overview' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Drivers' }).click();
    await page.getByRole('button', { name: 'New driver' }).first().click();
    const form = page.getByRole('dialog', { name: 'New driver' });
    await form.getByLabel('First name').fill('Sam');
    await form.getByLabel('Last name').fill('Starter');
    await form.getByLabel('License number').fill('Q1234567');
    await form.getByLabel('License state').selectOption('TX');
    await form.getByRole('button', { name: 'Create driver' }).click();
    await page.getByText('Driver Sam Starter created.').waitFor();

    await nav.getByRole('link', { name: 'Routes' }).click();
    await page.getByRole('link', { name: 'Plan a route' }).first().click();
    await page.getByRole('heading', { name: 'Plan a route' }).waitFor();
    await page.getByLabel('Driver', { exact: true }).selectOption({ label: 'Sam Starter (TX Q1234567)' });
    await page.getByLabel('Stop 1 place').fill('Dallas, TX');
    await page.getByLabel('Stop 2 place').fill('Oklahoma City, OK');
    await page.getByRole('button', { name: 'Plan route' }).click();
    await page.waitForURL(/\/routes\/rte_[0-9A-Za-z]+$/);
    await page.locator('[data-testid="us-map"][data-ready="true"]').waitFor();
    expect(await page.getByTestId('map-route').count()).toBe(1);
    expect(await page.textContent('main')).toContain('Oklahoma City, OK');
    await shot('3-plan');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });

  it('npm stopped by its process id frees the port', async () => {
    process.kill(s.child.pid!, 'SIGTERM');
    await s.exited;
    await until(async () => !(await portTaken(s.port)), 'the port to be free', 30_000);
    await s.outputClosed;
    expect(s.output()).toContain('"msg":"shut down"');
  });
});
