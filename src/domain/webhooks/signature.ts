import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The two signatures each delivery carries.
 *
 * X-Service-Signature (the spec's, authoritative): hex HMAC-SHA256 over `${timestamp}.${body}`, keyed
 * with the secret's UTF-8 bytes exactly as given (a generated `whsec_…` secret included, prefix and all).
 *
 * webhook-signature (Standard Webhooks): `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`,
 * keyed as Standard Webhooks libraries key it: for a `whsec_` secret, the bytes the base64 after the
 * prefix decodes to; for any other secret, its UTF-8 bytes.
 */
export function serviceSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`).digest('hex');
}

export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export const STANDARD_PREFIX = 'whsec_';

export function standardKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_PREFIX) ? Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** A receiver's check of X-Service-Signature (constant time), as docs/webhooks.md shows it. */
export function verifyServiceSignature(secret: string, timestamp: number, body: string, signature: string): boolean {
  const expected = Buffer.from(serviceSignature(secret, timestamp, body), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The headers of one attempt: the signing secrets are the current one and, during a rotation, the previous one. */
export function deliveryHeaders(d: { deliveryId: string; event: string; body: string; timestamp: number; secrets: readonly string[] }): Record<string, string> {
  const [current] = d.secrets;
  if (current === undefined) throw new Error('a delivery needs a signing secret');
  return {
    'content-type': 'application/json',
    'user-agent': 'FleetHOS-Webhooks/1.0',
    'x-service-event': d.event,
    'x-service-delivery': d.deliveryId,
    'x-service-timestamp': String(d.timestamp),
    'x-service-signature': serviceSignature(current, d.timestamp, d.body),
    'webhook-id': d.deliveryId,
    'webhook-timestamp': String(d.timestamp),
    'webhook-signature': d.secrets.map((s) => standardSignature(s, d.deliveryId, d.timestamp, d.body)).join(' '),
  };
}
