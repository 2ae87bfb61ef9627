/**
 * examples/webhook-receiver.mjs, the receiver docs/webhooks.md shows and the first session runs: Node.js
 * alone; a genuine delivery is answered 204 and printed once (a repeat is not), a wrong signature, a stale
 * timestamp or a missing one 401. The page shows the file as it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, until } from '../helpers/npm-script.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FILE = path.join(ROOT, 'examples/webhook-receiver.mjs');
const SECRET = 'whsec_example_receiver_0123456789';

describe('the example webhook receiver', () => {
  let child: ChildProcess;
  let url = '';
  let out = '';

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/fleet`;
    child = spawn(process.execPath, [FILE, String(port)], { env: { PATH: process.env.PATH, WEBHOOK_SECRET: SECRET }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    await until(() => out.includes('listening on'), 'the receiver to listen', 30_000);
  });
  afterAll(() => {
    child?.kill();
  });

  const deliver = (body: string, headers: Record<string, string>) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const signed = (body: string, timestamp = Math.floor(Date.now() / 1000), secret = SECRET) => ({
    'x-service-timestamp': String(timestamp),
    'x-service-signature': createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'),
    'x-service-delivery': 'dlv_example1',
  });

  it('answers a genuine delivery 204 and prints it once; a repeat of the same delivery is not printed again', async () => {
    const body = JSON.stringify({ id: 'evt_example1', event: 'alert.created', timestamp: new Date().toISOString(), webhookId: 'wh_x', data: { id: 'alt_example1' } });
    expect((await deliver(body, signed(body))).status).toBe(204);
    expect((await deliver(body, signed(body))).status).toBe(204);
    expect(out.match(/verified alert\.created evt_example1 \(delivery dlv_example1\): alt_example1/g)).toHaveLength(1);
  });

  it('refuses a wrong signature, another secret, a changed body, a stale or missing timestamp with 401', async () => {
    const body = JSON.stringify({ id: 'evt_example2', event: 'ping', data: {} });
    const good = signed(body);
    for (const headers of [
      { ...good, 'x-service-signature': 'ab'.repeat(32) },
      signed(body, undefined, 'whsec_another_secret_0000000000'),
      { ...good, 'x-service-timestamp': String(Math.floor(Date.now() / 1000) - 301) },
      { 'x-service-signature': good['x-service-signature'] },
    ]) {
      expect((await deliver(body, headers)).status).toBe(401);
    }
    expect((await deliver(`${body} `, good)).status).toBe(401);
    expect(out).not.toContain('evt_example2');
    expect(out).toMatch(/refused a delivery: signature does not match/);
    expect(out).toMatch(/refused a delivery: timestamp missing or more than 300 s off/);
  });

  it('docs/webhooks.md shows the file as it is', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
    const shown = /<!-- example:examples\/webhook-receiver\.mjs -->\s*\n```js\n([\s\S]*?)```/.exec(page)?.[1];
    expect(shown).toBe(fs.readFileSync(FILE, 'utf8'));
  });
});
