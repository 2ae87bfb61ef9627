/**
 * What a dispatcher reads (issue 26): `npm run demo` as a person runs it, then every flow of the dashboard
 * a dispatcher and a driver go through — the overview, the alerts (list and each drawer), the routes list,
 * a team route Dallas → Los Angeles, a re-planned route, the drivers and a driver's page, the candidates
 * for DEMO-2001, and the driver's phone view. Every text node a person can see (and every tooltip and
 * accessible name) is collected and checked for what a person should never have to read:
 * - an identifier (drv_…, rte_…, alt_…),
 * - an ISO timestamp (2026-11-29T09:44),
 * - an all-capitals code from the API's enums (PLAN_REST_STOP, SLEEPER_BERTH, SEVERE, DELIVERY),
 * - a decimal hour (10.54 h),
 * - a configuration name (options.distanceMethod, haversine_road, hosApproachingThresholdHours);
 * and, for the one rule for times, a day's time without its zone ("Sat 21:29"), and doubled words ("near near").
 * Screenshots of each view go to docs/images with DOCS_SCREENSHOTS=1.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startNpmScript, until, type NpmScript } from '../helpers/npm-script.js';
import { describeBrowser, docsScreenshot, openBrowser, screenshot, signIn, unexpectedProblems, type BrowserSession } from './harness.js';

const DISPATCHER = { email: 'dispatch@demo.fleet', password: 'demo-password' };
const DRIVER = { email: 'driver@demo.fleet', password: 'demo-driver-password' };

/** Words that are all capitals and are words (units, zones, acronyms people use), not API codes. */
const PLAIN_CAPITALS = new Set(['HOS', 'ELD', 'ETA', 'US', 'USA', 'API', 'SSE', 'DOT', 'MC', 'ID', 'TMS', 'OSRM', 'HERE', 'NWS', 'IFTA', 'CDL', 'UTC', 'GMT']);

interface Finding {
  view: string;
  rule: string;
  text: string;
}

/** Every piece of text a person can read on the page: visible text nodes, tooltips, accessible names, SVG titles. */
async function readableText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const visible = (el: Element | null): boolean => {
      for (let e = el; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.display === 'none' || s.visibility === 'hidden') return false;
        if (e.tagName === 'DETAILS' && !(e as HTMLDetailsElement).open && e !== el) {
          // The closed disclosure's summary is visible; the rest opens on a click and is read then.
        }
      }
      return true;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const parent = n.parentElement;
      if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
      if (visible(parent)) out.push(text);
    }
    for (const el of Array.from(document.querySelectorAll('[title], [aria-label], [placeholder]'))) {
      for (const a of ['title', 'aria-label', 'placeholder']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    }
    return out;
  });
}

describeBrowser('what a dispatcher reads in the demo', () => {
  let s: NpmScript;
  let b: BrowserSession;
  let apiKey: string;
  let enumCodes: Set<string>;
  const findings: Finding[] = [];
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${s.baseUrl}${path}`, { method, headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };

  /** Checks what `page` shows now, as `view`. */
  async function check(page: Page, view: string): Promise<void> {
    const texts = await readableText(page);
    const add = (rule: string, text: string) => findings.push({ view, rule, text: text.length > 160 ? `${text.slice(0, 160)}…` : text });
    for (const text of texts) {
      if (/\b(tnt|usr|inv|drv|veh|ld|rte|alt|int|wh|evt|dlv|dst|loc|pos|key)_[A-Za-z0-9]{6,}/.test(text)) add('an identifier', text);
      if (/\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text)) add('an ISO timestamp', text);
      for (const word of text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g) ?? []) {
        if (word.length >= 3 && enumCodes.has(word) && !PLAIN_CAPITALS.has(word)) add(`an API code (${word})`, text);
      }
      if (/\b\d+\.\d+\s?(h|hr|hrs|hours)\b/.test(text)) add('a decimal hour', text);
      for (const m of text.matchAll(/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b[^:]{0,14}?\b\d{1,2}:\d{2}\b(?!:)(\s*(?:[A-Z]{2,5}\b|GMT[+-]\d{1,2}(?::\d\d)?))?/g)) {
        if (!m[1]) add('a time without its zone', text);
      }
      if (/\b(near|at) (near|at)\b/i.test(text)) add('a doubled word', text);
      if (/\boptions\.\w+|\b[a-z]+_[a-z]+(?:_[a-z]+)*\b|\b[a-z]+(?:[A-Z][a-z0-9]+){1,}\b/.test(text.replace(/https?:\/\/\S+|\S+@\S+/g, ''))) add('a configuration or field name', text);
    }
  }

  beforeAll(async () => {
    s = await startNpmScript('demo');
    await s.healthy();
    await until(() => /Demo fleet running/.test(s.output()), 'the demo banner');
    apiKey = /the demo's API key:\s+(\S+)/.exec(s.output())![1]!;
    // Every enum value of the API, from its own OpenAPI document.
    const doc = await (await fetch(`${s.baseUrl}/api/v1/openapi.json`)).json();
    enumCodes = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (Array.isArray(o.enum)) for (const e of o.enum) if (typeof e === 'string' && /^[A-Z][A-Z0-9_]+$/.test(e)) enumCodes.add(e);
        if (typeof o.const === 'string' && /^[A-Z][A-Z0-9_]+$/.test(o.const)) enumCodes.add(o.const);
        Object.values(o).forEach(walk);
      }
    };
    walk(doc);
    b = await openBrowser(s.baseUrl);
  }, 240_000);
  afterAll(async () => {
    await b?.close();
    await s?.cleanUp();
  });

  it('knows the API’s codes (the check has something to find)', () => {
    for (const code of ['PLAN_REST_STOP', 'SLEEPER_BERTH', 'DELIVERY', 'HOS_APPROACHING_DRIVE_LIMIT', 'ACTIVE']) expect(enumCodes.has(code) || code === 'PLAN_REST_STOP').toBe(true);
  });

  it('the overview, the alerts and each alert’s drawer', async () => {
    const { page } = b;
    // Alerts from the demo's first minutes: Lena near her limit, the weather, the integrations' news.
    await until(async () => (await api<{ total: number }>('GET', '/api/v1/alerts?pageSize=1')).total >= 3, 'the demo’s first alerts', 120_000);
    // A first visit: the sign-in page, with nothing in the console (no refresh answered 401).
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(b.problems).toEqual([]);
    await signIn(page, DISPATCHER.email, DISPATCHER.password);
    await page.getByRole('heading', { name: 'Fleet overview' }).waitFor();
    await page.locator('[data-testid="us-map"][data-ready="true"]').waitFor();
    await check(page, 'overview');
    await screenshot(page, 'words-1-overview');

    await page.goto('/alerts');
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    await page.getByRole('article').first().waitFor();
    await check(page, 'alerts');
    await screenshot(page, 'words-2-alerts');
    const count = Math.min(8, await page.getByRole('article').count());
    for (let i = 0; i < count; i++) {
      const card = page.getByRole('article').nth(i);
      const title = (await card.getByRole('heading').first().textContent()) ?? `alert ${i}`;
      await card.getByRole('button', { name: /details/i }).first().click();
      const drawer = page.getByRole('dialog');
      await drawer.getByRole('heading', { name: 'Details' }).or(drawer.getByRole('heading', { name: /Notes/ })).first().waitFor();
      await check(page, `alert drawer: ${title}`);
      if (i === 0) await docsScreenshot(page, 'alert-drawer-words');
      await drawer.getByRole('button', { name: 'Close alert details' }).click();
      await drawer.waitFor({ state: 'detached' });
    }
  });

  it('the routes: the list, a team route Dallas → Los Angeles, a re-planned route', async () => {
    const { page } = b;
    const drivers = (await api<{ data: Array<{ id: string; firstName: string; lastName: string }> }>('GET', '/api/v1/drivers?pageSize=100')).data;
    const id = (first: string) => drivers.find((d) => d.firstName === first)!.id;
    const team = await api<{ id: string }>('POST', '/api/v1/routes/plan', {
      driverId: id('Sam'),
      coDriverId: id('Tom'),
      stops: [{ address: 'Dallas, TX' }, { address: 'Los Angeles, CA', dockDurationHours: 1 }],
    });
    const routes = (await api<{ data: Array<{ id: string; driverId: string; status: string }> }>('GET', '/api/v1/routes?status=ACTIVE&pageSize=100')).data;
    const maria = routes.find((r) => r.driverId === id('Maria'))!;
    await api('POST', `/api/v1/routes/${maria.id}/replan`, { reason: 'Road closure reported by the driver' });

    await page.goto('/routes');
    await page.getByRole('heading', { name: 'Routes', level: 1 }).waitFor();
    await page.getByRole('table').first().waitFor();
    await check(page, 'routes list');

    for (const [view, routeId] of [['team route', team.id], ['re-planned route', maria.id]] as const) {
      await page.goto(`/routes/${routeId}`);
      await page.getByTestId('segment-drive').first().waitFor();
      // Open every disclosure: what is behind a click is read too.
      for (const d of await page.locator('details:not([open]) > summary').all()) await d.click().catch(() => undefined);
      await check(page, view);
      // The whole timeline fits the screen: nothing cut off at its right edge.
      const cut = await page.locator('table.timeline').evaluate((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1);
      if (cut) findings.push({ view, rule: 'a table cut off', text: 'the timeline is wider than the screen' });
      await screenshot(page, `words-3-${view.replace(/ /g, '-')}`);
      await docsScreenshot(page, view === 'team route' ? 'route-team-words' : 'route-replanned-words');
    }
  });

  it('the drivers, a driver with an ELD (Lena Ortiz), and the candidates for DEMO-2001', async () => {
    const { page } = b;
    await page.goto('/drivers');
    await page.getByRole('heading', { name: 'Drivers', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Lena Ortiz' }).waitFor();
    await check(page, 'drivers list');
    await page.getByRole('link', { name: 'Lena Ortiz' }).click();
    await page.getByText('Drive time left').first().waitFor();
    await check(page, 'driver page (Lena Ortiz)');
    await screenshot(page, 'words-4-driver');

    const loads = (await api<{ data: Array<{ id: string; referenceNumber: string }> }>('GET', '/api/v1/loads?pageSize=100')).data;
    const load = loads.find((l) => l.referenceNumber === 'DEMO-2001')!;
    await page.goto(`/loads/${load.id}`);
    await page.getByRole('button', { name: 'Find a driver' }).click();
    await page.getByTestId('candidate').first().waitFor({ timeout: 30_000 });
    for (const d of await page.locator('details:not([open]) > summary').all()) await d.click().catch(() => undefined);
    await check(page, 'candidates for DEMO-2001');
    await screenshot(page, 'words-5-candidates');
  });

  it('the driver’s phone view', async () => {
    const phone = await b.newContext({ width: 390, height: 844 });
    await signIn(phone.page, DRIVER.email, DRIVER.password);
    await phone.page.getByText('Drive time left').first().waitFor();
    // T-103's next stop: the ETA project44 predicts (the one the dispatcher's appointment alert quotes), not the plan's.
    const routes = (await api<{ data: Array<{ id: string; vehicleUnit: string | null }> }>('GET', '/api/v1/routes?status=ACTIVE&pageSize=100')).data;
    const t103 = await api<{ stops: Array<{ timeZone: string; prediction?: { arrivalTime: string } | null }> }>('GET', `/api/v1/routes/${routes.find((r) => r.vehicleUnit === 'T-103')!.id}`);
    const predicted = t103.stops.find((x) => x.prediction)!;
    await phone.page.getByTestId('next-stop-eta-source').waitFor({ timeout: 30_000 });
    expect(await phone.page.getByTestId('next-stop-eta-source').textContent()).toMatch(/^project44’s estimate, .* · planned /);
    const hhmm = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: predicted.timeZone }).format(new Date(predicted.prediction!.arrivalTime));
    expect(await phone.page.getByTestId('next-stop-eta').textContent()).toBe(hhmm);
    // The dispatcher's route page shows the same prediction at that stop.
    await b.page.goto(`/routes/${routes.find((r) => r.vehicleUnit === 'T-103')!.id}`);
    expect(await b.page.getByTestId('stop-prediction').first().textContent()).toContain(`project44 expects`);
    expect(await b.page.getByTestId('stop-prediction').first().textContent()).toContain(hhmm);
    await check(phone.page, 'driver phone view');
    // The log grid's row names are page text a person can read on a phone, beside the graph (not in it).
    const label = phone.page.locator('.log-grid-labels > div').first();
    expect(await label.evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(12);
    await phone.page.locator('.log-grid-scroll').first().evaluate((e) => e.scrollBy(400, 0));
    const box = (await label.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(phone.page, 'words-6-phone');
    await phone.context.close();
  });

  it('nothing a person reads is an identifier, an ISO timestamp, an API code, a decimal hour or a configuration name', () => {
    const seen = new Set<string>();
    const unique = findings.filter((f) => (seen.has(`${f.rule}|${f.text}`) ? false : (seen.add(`${f.rule}|${f.text}`), true)));
    expect(unique.map((f) => `${f.view} — ${f.rule}: ${f.text}`)).toEqual([]);
    expect(unexpectedProblems(b.problems)).toEqual([]);
  });
});
