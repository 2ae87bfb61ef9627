/**
 * Browser tests: the whole service (real clock, in-memory PGlite unless a database kind is given) listening
 * on a loopback port and serving the built dashboard, driven by playwright-core through the system's
 * Chromium (Debian's `chromium` package, which .ci/run installs). Every test saves a screenshot in
 * test/.screenshots/; with DOCS_SCREENSHOTS=1 (`npm run docs:screenshots`) the tests also save the docs'
 * pictures in docs/images/ (docsScreenshot). Without a Chromium (or with SKIP_BROWSER_TESTS=1) the
 * browser suites are skipped and say so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { buildTestApp, type TestApp, type TestAppOptions } from '../helpers/app.js';
import type { DbKind } from '../helpers/db.js';
import { listen } from '../helpers/realtime.js';

export const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../.screenshots');
export const DOCS_IMAGES = path.resolve(import.meta.dirname, '../../docs/images');

/** The Chromium to drive: CHROMIUM_PATH, or the system's. */
export function chromiumPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter((p): p is string => Boolean(p));
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

const skipReason = process.env.SKIP_BROWSER_TESTS === '1' ? 'SKIP_BROWSER_TESTS=1' : chromiumPath() ? null : 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (skipReason) console.warn(`browser tests skipped: ${skipReason}`);

/** `describe` for browser suites: skipped (visibly) when no browser can run here. */
export const describeBrowser = skipReason ? describe.skip : describe;

export interface WebApp {
  t: TestApp;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The service with the dashboard, listening. Background workers (event dispatch to Socket.IO and SSE,
 * monitoring, webhooks) run when `workers` is set, as in production.
 */
export async function startWebApp(opts: { kind?: DbKind; workers?: boolean; env?: Record<string, string> } & Omit<TestAppOptions, 'env'> = {}): Promise<WebApp> {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('web/dist is missing: the global setup builds it (npm run build)');
  const { kind = 'pglite', workers = false, env = {}, ...rest } = opts;
  const t = await buildTestApp(kind, { realClock: true, ...rest, env: { WEB_DIST_DIR: WEB_DIST, ...env } });
  const baseUrl = await listen(t.app);
  if (workers) await t.app.workers.start();
  return {
    t,
    baseUrl,
    async close() {
      await t.close();
    },
  };
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and failed page loads seen so far (a test asserts there are none). */
  problems: string[];
  /** A second, independent browser context (another user at another computer). */
  newContext(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-extensions'];

export async function openBrowser(baseUrl: string, viewport = { width: 1360, height: 900 }): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: ARGS });
  const problems: string[] = [];
  const newContext = async (vp = viewport) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: vp, locale: 'en-US', timezoneId: 'America/Chicago' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    return { context, page };
  };
  const { context, page } = await newContext();
  return {
    browser,
    context,
    page,
    problems,
    newContext,
    async close() {
      await browser.close();
    },
  };
}

/** Saves a full-page screenshot as test/.screenshots/<name>.png and answers its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Two animation frames and a moment: the layout (the maps redraw on resize) has settled. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await page.waitForTimeout(250);
}

/**
 * A picture for the docs (README.md, docs/dashboard.md), taken where a test shows an area of the
 * dashboard: only with DOCS_SCREENSHOTS=1 (`npm run docs:screenshots`), otherwise nothing happens. Saves
 * docs/images/<name>.png of the viewport at 1280 × 800 (or the size given; `fullPage` for the whole
 * page at that width), scrolled to the top — or, with `target`, of that part of the page alone (an area
 * further down) laid out at that size — then gives the page back its own size and scroll position.
 */
export async function docsScreenshot(page: Page, name: string, opts: { width?: number; height?: number; fullPage?: boolean; target?: Locator } = {}): Promise<string | null> {
  if (process.env.DOCS_SCREENSHOTS !== '1') return null;
  const size = { width: opts.width ?? 1280, height: opts.height ?? 800 };
  const before = page.viewportSize();
  const resize = !before || before.width !== size.width || before.height !== size.height;
  const scrollY = await page.evaluate(() => window.scrollY);
  fs.mkdirSync(DOCS_IMAGES, { recursive: true });
  const file = path.join(DOCS_IMAGES, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  try {
    if (resize) await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    if (opts.target) await opts.target.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
    else await page.screenshot({ path: file, fullPage: opts.fullPage ?? false, animations: 'disabled', caret: 'hide' });
  } finally {
    if (resize && before) await page.setViewportSize(before);
    await page.evaluate((y) => window.scrollTo(0, y), scrollY);
    await settle(page);
  }
  return file;
}

/** Signs in through the sign-in page (what to expect next is the caller's to wait for). */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Problems the page reported, minus the expected ones (a 401 the session refresh answers, …). */
export function unexpectedProblems(problems: string[], allowed: RegExp[] = []): string[] {
  const expected = [/Failed to load resource: the server responded with a status of 40[0134]/, ...allowed];
  return problems.filter((p) => !expected.some((re) => re.test(p)));
}
