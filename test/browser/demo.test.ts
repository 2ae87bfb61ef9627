/**
 * `npm run demo` opens on a live fleet: the demo's own fleet and simulator (src/demo) against the service
 * with its workers, watched in the dashboard — the trucks are on the map and move with the simulator's
 * next reports, and alerts arrive while the dispatcher looks (the misbehaving trucks).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HttpApi } from '../../src/demo/api.js';
import { driveFleet } from '../../src/demo/drive.js';
import { seedFleet, type Truck } from '../../src/demo/fleet.js';
import { MISBEHAVE_FROM } from '../../src/demo/simulator.js';
import { startMonitoring } from '../../src/modules/monitoring/monitoring.repository.js';
import { createApiKey, createTenant, type TenantFixture } from '../helpers/factories.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, startWebApp, unexpectedProblems, type BrowserSession, type WebApp } from './harness.js';

const SPEED = 10;
const CYCLE_MS = 10 * 60_000;

describeBrowser('the demo fleet in the dashboard', () => {
  let w: WebApp;
  let b: BrowserSession;
  let tenant: TenantFixture;
  let owner: HttpApi;
  let trucks: Truck[];
  const startedAt = Date.now();
  const drive = (now: number) => driveFleet(owner, trucks, { startedAt, now, speed: SPEED, cycleMs: CYCLE_MS });

  beforeAll(async () => {
    w = await startWebApp({ workers: true });
    tenant = await createTenant(w.t.app, { name: 'Demo Freight Lines' });
    owner = new HttpApi(w.baseUrl).as({ 'x-api-key': (await createApiKey(w.t.app, tenant, 'demo simulator')).key });
    trucks = await seedFleet(owner, startedAt);
    await drive(startedAt);
    b = await openBrowser(w.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await w?.close();
  });

  const truckBoxes = async () => {
    const boxes = await b.page.getByTestId('map-truck').evaluateAll((els) => els.map((e) => (e as SVGGraphicsElement).getBoundingClientRect()).map((r) => `${Math.round(r.x)},${Math.round(r.y)}`));
    return boxes.sort();
  };

  it('opens on the fleet: every truck on the road on the map, its route listed', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Fleet overview' }).waitFor();
    await page.locator('[data-testid="us-map"][data-ready="true"]').waitFor();
    const onTheRoad = trucks.filter((t) => !t.spec.planned);
    await expect.poll(() => page.getByTestId('map-truck').count(), { timeout: 20_000 }).toBe(onTheRoad.length);
    // Each route's path is drawn once its plan has loaded, which may come after the trucks.
    await expect.poll(() => page.getByTestId('map-route').count(), { timeout: 20_000 }).toBe(onTheRoad.length);
    const list = (await page.getByRole('list', { name: 'Active routes' }).textContent()) ?? '';
    for (const t of onTheRoad) expect(list).toContain(`${t.spec.driver.firstName} ${t.spec.driver.lastName}`);
    await screenshot(page, 'demo-1-live-fleet');
    await docsScreenshot(page, 'fleet-overview');
  });

  it('the trucks move on the map with the simulator’s next reports', async () => {
    const before = await truckBoxes();
    // A minute later on the clock: ten minutes further along the plans.
    await drive(startedAt + 60_000);
    await expect.poll(truckBoxes, { timeout: 25_000, interval: 500 }).not.toEqual(before);
    await screenshot(b.page, 'demo-2-trucks-moved');
  });

  it('alerts arrive while the dispatcher watches: the badge counts them, the feed shows them', async () => {
    const { page } = b;
    // Into the misbehaving part of the cycle: T-102 leaves its route, T-103 stops where no stop is planned.
    const later = startedAt + MISBEHAVE_FROM * CYCLE_MS + 30_000;
    await drive(later);
    for (const t of trucks.filter((x) => !x.spec.planned)) {
      await w.t.app.deps.db.tenant(tenant.tenantId, (tx) => startMonitoring(tx, tenant.tenantId, t.routeId, new Date()));
    }
    await w.t.app.workers.get('monitoring').worker.runOnce(new Date());
    const badge = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /open alerts?/ });
    await badge.waitFor();
    await screenshot(page, 'demo-3-alert-badge');
    await badge.click();
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    await page.getByRole('article').filter({ has: page.getByRole('heading', { name: /^Off route/ }) }).first().waitFor();
    await screenshot(page, 'demo-4-alerts');
    await docsScreenshot(page, 'alerts-feed');
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
