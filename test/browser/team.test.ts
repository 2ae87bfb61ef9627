/**
 * Team driving in the browser (issue 20): a dispatcher plans Dallas → Los Angeles for two drivers
 * through the form (the co-driver select leaves out the driver, and drops a co-driver who becomes the
 * driver); the route page names both drivers, who drives each drive, the driver changes, and shows one
 * planned log grid per driver whose driving adds up to that driver's drives. The co-driver, signed in as
 * a DRIVER, sees whom they drive with and whose turn at the wheel is next — or that it is theirs now.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDriver, createTenant, createUser, type TenantFixture } from '../helpers/factories.js';
import { axeViolations } from './axe.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

const H = 3_600_000;

interface Segment {
  type: string;
  start_time: string;
  end_time: string;
  driver_id?: string;
  reason?: string;
}

/** "21:30" as minutes. */
const minutes = (t: string) => {
  const [h, m] = t.trim().split(':').map(Number);
  return h! * 60 + m!;
};

describeBrowser('team driving in the browser', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  const d = { rosa: '', omar: '', sam: '' };
  let planId: string;
  let segments: Segment[];

  beforeAll(async () => {
    w = await startWebApp();
    tenant = await createTenant(w.t.app, { name: 'Team Freight' });
    d.rosa = (await createDriver(w.t.app, tenant.auth, { firstName: 'Rosa', lastName: 'Diaz' })).id;
    d.omar = (await createDriver(w.t.app, tenant.auth, { firstName: 'Omar', lastName: 'Haddad' })).id;
    d.sam = (await createDriver(w.t.app, tenant.auth, { firstName: 'Sam', lastName: 'Solo' })).id;
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  it('plans Dallas → Los Angeles for a team through the form', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto('/routes/new');
    const driver = page.getByLabel('Driver', { exact: true });
    const coDriver = page.getByLabel('Co-driver (team driving)');
    await driver.locator(`option[value="${d.rosa}"]`).waitFor({ state: 'attached' });

    // The co-driver select offers every active driver but the chosen one.
    await driver.selectOption(d.rosa);
    const offered = async () => coDriver.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect((await offered()).sort()).toEqual(['', d.omar, d.sam].sort());
    await coDriver.selectOption(d.omar);
    // Omar becomes the driver: he can no longer be the co-driver too.
    await driver.selectOption(d.omar);
    expect(await coDriver.inputValue()).toBe('');
    expect(await offered()).not.toContain(d.omar);
    await driver.selectOption(d.rosa);
    await coDriver.selectOption(d.omar);
    // The co-driver's HOS comes from their log, shown as the driver's is.
    await page.getByTestId('co-driver-hos').waitFor();
    expect(await page.getByTestId('co-driver-hos').textContent()).toMatch(/^From the co-driver’s log now: \d+:\d{2} driving left/);

    // Tomorrow 08:00 in the browser's zone: the driver view below then tells a turn to come.
    const tomorrow = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(Date.now() + 24 * H);
    await page.getByLabel('Departure', { exact: true }).fill(`${tomorrow}T08:00`);
    await page.getByLabel('Stop 1 place').fill('Dallas, TX');
    await page.getByLabel('Stop 2 place').fill('Los Angeles, CA');
    await page.getByLabel('Stop 2 hours at the dock').fill('1');
    await screenshot(page, 'team-1-plan-form');
    await page.getByRole('button', { name: 'Plan route' }).click();

    await page.waitForURL(/\/routes\/rte_[0-9A-Za-z]+$/);
    planId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { name: /Dallas.*→.*Los Angeles/ }).waitFor();
    const plan = (await w.t.app.inject({ method: 'GET', url: `/api/v1/routes/${planId}`, headers: tenant.auth })).json<{ driverId: string; coDriverId: string | null; segments: Segment[] }>();
    expect(plan).toMatchObject({ driverId: d.rosa, coDriverId: d.omar });
    segments = plan.segments;
  });

  it('the route page names both drivers, who drives each drive, the driver changes, and one log grid per driver', async () => {
    const { page } = b;
    const drivers = page.getByTestId('route-drivers');
    await drivers.filter({ hasText: 'Omar Haddad' }).waitFor();
    expect(await drivers.textContent()).toBe('Drivers: Rosa Diaz and Omar Haddad (team)');
    expect(await drivers.getByRole('link', { name: 'Omar Haddad' }).getAttribute('href')).toBe(`/drivers/${d.omar}`);

    // Each drive row names its driver, in the plan's order.
    const name: Record<string, string> = { [d.rosa]: 'Rosa Diaz', [d.omar]: 'Omar Haddad' };
    const drives = segments.filter((s) => s.type === 'drive');
    expect(new Set(drives.map((s) => s.driver_id))).toEqual(new Set([d.rosa, d.omar]));
    const shown = await page.getByTestId('segment-drive').getByTestId('segment-driver').allTextContents();
    expect(shown).toEqual(drives.map((s) => `, at the wheel: ${name[s.driver_id!]}`));
    expect(await page.getByTestId('segment-drive').first().getByRole('rowheader').textContent()).toBe('Drive, at the wheel: Rosa Diaz');

    // The driver changes: named as such, with the drivers' names rather than their ids.
    const changes = segments.filter((s) => s.type === 'wait' && s.reason?.startsWith('Driver change'));
    expect(changes.length).toBeGreaterThan(0);
    const changeRows = page.locator('tr.seg-change');
    expect(await changeRows.count()).toBe(changes.length);
    expect(await changeRows.first().getByRole('rowheader').textContent()).toBe('Driver change');
    const firstChange = changeRows.first().locator('details');
    expect(await firstChange.locator('summary').textContent()).toBe('Omar Haddad takes the wheel');
    await firstChange.locator('summary').click();
    expect(await firstChange.locator('p').textContent()).toMatch(/^Rosa Diaz goes to the sleeper berth: .+\.$/);
    expect(await page.locator('table.timeline').textContent()).not.toMatch(/drv_/);

    // Two planned log grids, one per driver, each one's driving the sum of their drive segments.
    const headings = page.getByRole('heading', { name: /^Planned log grid of / });
    expect(await headings.allTextContents()).toEqual(['Planned log grid of Rosa Diaz', 'Planned log grid of Omar Haddad']);
    expect(await page.getByRole('heading', { name: 'HOS log of the trip' }).count()).toBe(0);
    for (const id of [d.rosa, d.omar]) {
      const grid = page.getByRole('region', { name: `Planned log grid of ${name[id]}` });
      const totals = await grid.locator('[data-row-total="ON_DUTY_DRIVING"]').allTextContents();
      expect(totals.length).toBeGreaterThan(0);
      const planned = drives.filter((s) => s.driver_id === id).reduce((sum, s) => sum + (Date.parse(s.end_time) - Date.parse(s.start_time)) / 60_000, 0);
      expect(planned).toBeGreaterThan(60);
      // Each day's total is rounded to the minute.
      expect(Math.abs(totals.map(minutes).reduce((a, x) => a + x, 0) - planned)).toBeLessThanOrEqual(totals.length);
    }

    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'team-2-route');
    await docsScreenshot(page, 'team-route', { fullPage: true });
  });

  it('the route list marks the team route', async () => {
    const { page } = b;
    await page.goto('/routes');
    const row = page.getByRole('row').filter({ has: page.locator(`a[href="/routes/${planId}"]`).first() });
    await row.waitFor();
    expect(await row.textContent()).toContain('Rosa Diaz and Omar Haddad (team)');
    // The last column names where the route goes, not its id.
    expect(await row.getByRole('link', { name: 'Dallas, TX → Los Angeles, CA' }).count()).toBe(1);
    expect(await row.textContent()).not.toContain(planId);
  });

  it('the co-driver, signed in as a DRIVER, sees whom they drive with and whose turn at the wheel is next — then theirs', async () => {
    const omar = await createUser(w.t.app, w.t.mailer, tenant, 'DRIVER', { driverId: d.omar });
    const { page, context } = await b.newContext({ width: 390, height: 844 });
    await page.goto('/login');
    await page.getByLabel('Email').fill(omar.email);
    await page.getByLabel('Password').fill('another-good-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Hello, / }).waitFor();

    const team = page.getByTestId('driver-team');
    await team.waitFor();
    expect(await page.getByTestId('my-route').getAttribute('data-route-id')).toBe(planId);
    expect(await team.getByRole('heading').textContent()).toBe('Team driving');
    expect(await page.getByTestId('teammate-name').textContent()).toBe('Rosa Diaz');
    expect(await team.textContent()).toContain('You share the truck with Rosa Diaz (the route’s driver)');
    // Rosa starts tomorrow at 08:00 (another day: the date too).
    expect(await page.getByTestId('wheel-next').textContent()).toMatch(/^Next at the wheel: Rosa Diaz, from \w{3}, \w{3} \d{1,2}, 08:00 C[SD]T$/);
    expect(await page.getByTestId('wheel-now').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'team-3-co-driver-view');

    // A team trip that left an hour ago with Rosa near her driving limit: Omar took the wheel first.
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/api/v1/routes/plan',
      headers: tenant.auth,
      payload: {
        driverId: d.rosa,
        coDriverId: d.omar,
        departureTime: new Date(Date.now() - H).toISOString(),
        driverState: { hoursDriven: 9, onDutyHours: 9.5, hoursSinceBreak: 1.5, cycleHoursUsed: 30 },
        stops: [
          { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
          { name: 'Los Angeles, CA', latitude: 34.0522, longitude: -118.2437, type: 'DELIVERY' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const now = res.json<{ id: string; segments: Segment[] }>();
    expect(now.segments.find((s) => s.type === 'drive')!.driver_id).toBe(d.omar);
    await page.reload();
    await page.locator(`[data-testid="my-route"][data-route-id="${now.id}"]`).waitFor();
    expect(await page.getByTestId('wheel-now').textContent()).toMatch(/^You are at the wheel until \d{2}:\d{2}$|^You are at the wheel until \w{3}, \w{3} \d{1,2}, \d{2}:\d{2} [A-Z]{3,4}$/);
    expect(await page.getByTestId('wheel-next').textContent()).toMatch(/^Next at the wheel: (Rosa Diaz|you), from /);
    await screenshot(page, 'team-4-co-driver-at-the-wheel');
    await context.close();
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
