/**
 * The webhook benchmark's baseline: the least code that does a delivery's network and signing work —
 * the same signed POSTs (the spec's headers and the Standard Webhooks ones, HMAC-SHA256 twice) to the
 * same receiver, with a keep-alive agent and the worker's concurrency (32) — and nothing else: no
 * database, no claims, no attempt log. Reads BENCH_TARGET, BENCH_COUNT, BENCH_CONCURRENCY; prints
 * `{"sent": n, "seconds": s}` when done.
 */
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import http from 'node:http';

const target = new URL(process.env.BENCH_TARGET ?? 'http://127.0.0.1:1/');
const count = Number(process.env.BENCH_COUNT ?? 1000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const secret = `whsec_${randomBytes(32).toString('base64')}`;
// Both HMAC keys as KeyObjects made once (the shortest path: raw bytes cost a check per call; the worker does the same).
const serviceKey = createSecretKey(Buffer.from(secret, 'utf8'));
const key = createSecretKey(Buffer.from(secret.slice(6), 'base64'));
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

function send(i: number): Promise<void> {
  const id = `dlv_baseline${i}`;
  const body = JSON.stringify({ id: `evt_baseline${i}`, event: 'driver.status_changed', timestamp: new Date().toISOString(), webhookId: 'wh_baseline', data: { driverId: `drv_${i}`, oldStatus: 'ACTIVE', newStatus: 'INACTIVE' } });
  const ts = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'x-service-event': 'driver.status_changed',
    'x-service-delivery': id,
    'x-service-timestamp': String(ts),
    'x-service-signature': createHmac('sha256', serviceKey).update(`${ts}.${body}`).digest('hex'),
    'webhook-id': id,
    'webhook-timestamp': String(ts),
    'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`,
    'content-length': String(Buffer.byteLength(body)),
  };
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method: 'POST', headers, agent, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode && res.statusCode < 300 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) await send(next++);
  }),
);
console.log(JSON.stringify({ sent: count, seconds: (performance.now() - started) / 1000 }));
agent.destroy();
