/**
 * The soak's webhook receiver: records every delivery (event id, delivery id, signature check) and, like
 * receivers in the wild, answers 500 now and then and sometimes slowly.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  eventId: string;
  webhookId: string;
  event: string;
  deliveryId: string;
  status: number;
  at: number;
  body: string;
  timestamp: string;
  signature: string;
}

export interface SoakReceiver {
  url: string;
  deliveries: Delivery[];
  /** Secrets by webhook id (set once the webhooks are registered), to verify signatures. */
  secrets: Map<string, string>;
  /** The spec's check: hex HMAC-SHA256 of `${timestamp}.${body}` with the webhook's secret. */
  verify(d: Delivery): boolean;
  close(): Promise<void>;
}

export async function startSoakReceiver(opts: { failureRate: number; slowRate: number; slowMs: number; random: () => number }): Promise<SoakReceiver> {
  const deliveries: Delivery[] = [];
  const secrets = new Map<string, string>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      let envelope: { id?: string; event?: string; webhookId?: string } = {};
      try {
        envelope = JSON.parse(body) as typeof envelope;
      } catch {
        // fails verification
      }
      const roll = opts.random();
      const status = roll < opts.failureRate ? 500 : 204;
      const answer = () => {
        deliveries.push({
          eventId: envelope.id ?? '',
          webhookId: envelope.webhookId ?? '',
          event: String(req.headers['x-service-event'] ?? ''),
          deliveryId: String(req.headers['x-service-delivery'] ?? ''),
          status,
          at: Date.now(),
          body,
          timestamp: String(req.headers['x-service-timestamp'] ?? ''),
          signature: String(req.headers['x-service-signature'] ?? ''),
        });
        res.writeHead(status).end();
      };
      if (roll >= opts.failureRate && roll < opts.failureRate + opts.slowRate) setTimeout(answer, opts.slowMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/soak-events`,
    deliveries,
    secrets,
    verify(d) {
      const secret = secrets.get(d.webhookId);
      return secret !== undefined && createHmac('sha256', secret).update(`${d.timestamp}.${d.body}`).digest('hex') === d.signature;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
