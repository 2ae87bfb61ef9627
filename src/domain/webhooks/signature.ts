import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * The two signatures each delivery carries.
 *
 * X-Service-Signature (the spec's, authoritative): hex HMAC-SHA256 over `${timestamp}.${body}`, keyed
 * with the secret's UTF-8 bytes exactly as given, whatever the secret (a `whsec_…` one included,
 * prefix and all).
 *
 * webhook-signature (Standard Webhooks): `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`,
 * keyed by {@link standardKey}.
 */
export function serviceSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', hmacKey('service', secret)).update(`${timestamp}.${body}`).digest('hex');
}

export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', hmacKey('standard', secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Each secret's HMAC keys as KeyObjects, made once: given raw bytes, `createHmac` spends ~40 µs a call
 * checking whether they are a KeyObject or a CryptoKey (two thrown and caught errors on Node 24, dearer the
 * deeper the stack) — most of a webhook worker's signing cost (bench/README.md, issue 28). At most
 * HMAC_KEYS_KEPT secrets are kept (a worker signs for the webhooks it delivers to); then the map starts over.
 */
const HMAC_KEYS_KEPT = 1024;
const hmacKeys = new Map<string, KeyObject>();
function hmacKey(kind: 'service' | 'standard', secret: string): KeyObject {
  const id = `${kind}:${secret}`;
  let key = hmacKeys.get(id);
  if (key === undefined) {
    if (hmacKeys.size >= HMAC_KEYS_KEPT) hmacKeys.clear();
    key = createSecretKey(kind === 'service' ? Buffer.from(secret, 'utf8') : standardKey(secret));
    hmacKeys.set(id, key);
  }
  return key;
}

export const STANDARD_PREFIX = 'whsec_';

/** The decoded lengths of a Standard Webhooks secret this service treats as one (its own are 32 bytes). */
export const STANDARD_KEY_BYTES = { min: 24, max: 64 } as const;

/**
 * Base64 as `atob()` (WHATWG forgiving-base64) accepts it, without whitespace: the standard alphabet
 * (A–Z, a–z, 0–9, +, /) in whole groups of four, the last group possibly of two or three characters,
 * padded with `=` to four or not padded at all.
 */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/**
 * The HMAC key of the Standard Webhooks signature (`webhook-signature`) for a webhook's secret. A secret
 * is any 16–256 printable characters its owner chose (or the generated `whsec_` + base64 of 32 bytes),
 * and the rule is:
 *
 * - `whsec_` followed by valid base64 (see {@link BASE64}: what `atob()` accepts, `=` padding optional)
 *   that decodes to 24–64 bytes: the decoded bytes. This is how Standard Webhooks libraries key their
 *   own secrets, so `new Webhook(secret)` verifies such a delivery as is; every generated secret is one.
 * - Any other secret, including a `whsec_…` one whose rest is not such base64 (for example
 *   `whsec_my-own-plain-secret-123`): the UTF-8 bytes of the whole secret exactly as given, prefix
 *   included, the same key as X-Service-Signature's. (A Standard Webhooks library verifies it with the
 *   secret as raw bytes, e.g. `new Webhook(secret, { format: 'raw' })` in JavaScript.)
 *
 * Pure and total: every string has exactly one key, and no secret is refused for its form.
 */
export function standardKey(secret: string): Buffer {
  if (secret.startsWith(STANDARD_PREFIX)) {
    const rest = secret.slice(STANDARD_PREFIX.length);
    if (BASE64.test(rest)) {
      const bytes = Buffer.from(rest, 'base64');
      if (bytes.length >= STANDARD_KEY_BYTES.min && bytes.length <= STANDARD_KEY_BYTES.max) return bytes;
    }
  }
  return Buffer.from(secret, 'utf8');
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
