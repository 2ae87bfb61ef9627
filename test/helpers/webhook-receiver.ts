import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  /** Every request, in arrival order. */
  received: Received[];
  /** The first request of this event (X-Service-Event), already here or the next to come; rejects after `timeoutMs`. */
  next(event: string, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

/** A webhook receiver on a loopback port that records every request and answers 204. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiting: { event: string; resolve: (r: Received) => void }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const r = { headers: req.headers, body };
      received.push(r);
      for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i]!.event === req.headers['x-service-event']) waiting.splice(i, 1)[0]!.resolve(r);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/fleet-events`,
    received,
    next: (event, timeoutMs = 30_000) => {
      const already = received.find((r) => r.headers['x-service-event'] === event);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${event} delivery within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({ event, resolve: (r) => (clearTimeout(timer), resolve(r)) });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The receiver's check, written from the spec alone: hex HMAC-SHA256 of `${timestamp}.${body}` keyed with the secret, timestamp within 300 s. */
export function signedBy(secret: string, r: Received, nowSeconds = Date.now() / 1000): boolean {
  const timestamp = Number(r.headers['x-service-timestamp']);
  const expected = createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex');
  return r.headers['x-service-signature'] === expected && Math.abs(nowSeconds - timestamp) <= 300;
}

/**
 * The key of webhook-signature, written from the documented rule as a receiver would (atob judges
 * "valid base64"): `whsec_` + base64 of 24–64 bytes → the decoded bytes; any other secret, a `whsec_…`
 * one included, → its UTF-8 bytes exactly as given.
 */
export function standardWebhooksKey(secret: string): Buffer {
  if (secret.startsWith('whsec_')) {
    try {
      const bytes = Buffer.from(atob(secret.slice('whsec_'.length)), 'latin1');
      if (bytes.length >= 24 && bytes.length <= 64) return bytes;
    } catch {
      // not base64: keyed with the secret as given
    }
  }
  return Buffer.from(secret, 'utf8');
}

/** The Standard Webhooks check: `v1,` base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`, any listed signature matching. */
export function standardSignedBy(key: Buffer | string, r: Received): boolean {
  const k = typeof key === 'string' ? standardWebhooksKey(key) : key;
  const expected = `v1,${createHmac('sha256', k).update(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`).digest('base64')}`;
  return String(r.headers['webhook-signature']).split(' ').includes(expected);
}
