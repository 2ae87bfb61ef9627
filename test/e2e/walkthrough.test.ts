/**
 * The first session of docs/getting-started.md, run as a reader pastes it (issue 10, item 8; the README's
 * until issue 17): the shell blocks marked `<!-- walkthrough -->`, concatenated in order, under `bash`
 * with `set -euo pipefail`, against the service listening on a free port, configured as the page's
 * `walkthrough:server` command configures `npm start` (its PLATFORM_ADMIN_EMAIL / PLATFORM_ADMIN_PASSWORD,
 * DATABASE_URL=memory://, so the embedded PGlite only: that is what the reader runs). BASE is set to the
 * server's address; the blocks default it to http://localhost:3000. The script must exit 0 and print
 * every `# →` line of the page.
 *
 * Needs `bash`, `curl` and `jq` on PATH (and GNU `date -d`, as on Linux); without them the suite is
 * skipped and says why.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/npm-script.js';
import { firstMissing, parseWalkthrough } from '../helpers/walkthrough.js';

const PAGE = path.resolve(import.meta.dirname, '../../docs/getting-started.md');
const walkthrough = parseWalkthrough(fs.readFileSync(PAGE, 'utf8'));

const missingTools = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const skipReason = missingTools.length ? `skipped: ${missingTools.join(', ')} not installed (apt install ${missingTools.join(' ')})` : '';
if (skipReason) console.warn(`walkthrough test (docs/getting-started.md) ${skipReason}`);

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the getting-started walkthrough', () => {
  it('has its blocks, its server command and what each step prints', () => {
    expect(walkthrough.blocks.length).toBeGreaterThanOrEqual(5);
    expect(walkthrough.blocks[0]).toMatch(/^BASE=\$\{BASE:-http:\/\/localhost:3000\}$/m);
    expect(walkthrough.serverEnv).toMatchObject({
      DATABASE_URL: 'memory://',
      PLATFORM_ADMIN_EMAIL: expect.any(String),
      PLATFORM_ADMIN_PASSWORD: expect.any(String),
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    });
    expect(walkthrough.expected.length).toBeGreaterThanOrEqual(10);
  });

  it('matches expected lines in order, with … standing for anything', () => {
    const out = '{"id":"drv_abc","status":"ACTIVE"}\nnoise\n["fuel","2026-01-01T00:00:00Z",null]\n';
    expect(firstMissing(out, ['{"id":"drv_…","status":"ACTIVE"}', '["fuel","…",null]'])).toBeUndefined();
    expect(firstMissing(out, ['["fuel","…",null]', '{"id":"drv_…","status":"ACTIVE"}'])).toBe('{"id":"drv_…","status":"ACTIVE"}');
    expect(firstMissing(out, ['{"id":"drv_…","status":"INACTIVE"}'])).toBe('{"id":"drv_…","status":"INACTIVE"}');
    expect(firstMissing(out, ['{"id":"drv_…"'])).toBe('{"id":"drv_…"');
  });
});

describe.skipIf(Boolean(skipReason))(`the getting-started walkthrough pasted into bash against a started server${skipReason ? ` (${skipReason})` : ''}`, () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp('pglite', { realClock: true, env: walkthrough.serverEnv });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  it('runs top to bottom with set -euo pipefail and prints what the page shows', async () => {
    const script = ['set -euo pipefail', ...walkthrough.blocks].join('\n');
    // The example webhook receiver listens on a free port (the page's default, 4000, may be taken here).
    const { code, stdout, stderr } = await runBash(script, { ...process.env, BASE: base, RECEIVER_PORT: String(await freePort()) });
    expect(code, `walkthrough failed:\n--- stdout\n${stdout}\n--- stderr\n${stderr}`).toBe(0);
    const missing = firstMissing(stdout, walkthrough.expected);
    expect(missing, `docs/getting-started.md shows "# → ${missing}" but the walkthrough printed:\n${stdout}`).toBeUndefined();
  });
});
