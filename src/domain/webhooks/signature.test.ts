import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, serviceSignature, standardKey, standardSignature, verifyServiceSignature } from './signature.js';
import { envelope, subscribes } from './events.js';

/**
 * The documented keying rule of webhook-signature, written again from its text as a receiver would,
 * with `atob` as the judge of "valid base64": `whsec_` + base64 of 24–64 bytes → those bytes; any other
 * secret → its UTF-8 bytes as given.
 */
function receiverKey(secret: string): Buffer {
  if (secret.startsWith('whsec_')) {
    try {
      const bytes = Buffer.from(atob(secret.slice(6)), 'latin1');
      if (bytes.length >= 24 && bytes.length <= 64) return bytes;
    } catch {
      // not base64: the secret's own bytes
    }
  }
  return Buffer.from(secret, 'utf8');
}

/** A receiver's check of webhook-signature: any listed v1 signature, compared in constant time. */
function standardVerifies(secret: string, headers: Record<string, string>, body: string): boolean {
  const expected = Buffer.from(createHmac('sha256', receiverKey(secret)).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64'));
  return headers['webhook-signature']!.split(' ').some((listed) => {
    const [version, signature = ''] = listed.split(',');
    const given = Buffer.from(signature);
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const printable = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
/** Any secret a client may register: 16–256 printable ASCII characters, no spaces. */
const anySecret = fc.oneof(
  fc.string({ unit: printable, minLength: 16, maxLength: 256 }),
  fc.string({ unit: printable, minLength: 10, maxLength: 250 }).map((rest) => `whsec_${rest}`),
  fc.uint8Array({ minLength: 1, maxLength: 80 }).map((b) => `whsec_${Buffer.from(b).toString('base64')}`).filter((s) => s.length >= 16),
);
const body = fc.json({ maxDepth: 2 });

describe('webhook signatures', () => {
  it('Standard Webhooks: matches the specification test vector (whsec_ key is the base64 bytes)', () => {
    expect(standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('X-Service-Signature: hex HMAC-SHA256 of "timestamp.body" keyed with the secret text as given', () => {
    const body = '{"a":1}';
    const expected = createHmac('sha256', 'whsec_abc').update(`1700000000.${body}`).digest('hex');
    expect(serviceSignature('whsec_abc', 1700000000, body)).toBe(expected);
    expect(verifyServiceSignature('whsec_abc', 1700000000, body, expected)).toBe(true);
    expect(verifyServiceSignature('whsec_abc', 1700000001, body, expected)).toBe(false);
    expect(verifyServiceSignature('other-secret-0000', 1700000000, body, expected)).toBe(false);
  });

  it('during a rotation: X-Service-Signature with the new secret, webhook-signature with both', () => {
    const h = deliveryHeaders({ deliveryId: 'dlv_1', event: 'alert.created', body: '{}', timestamp: 1700000000, secrets: ['new-secret-0123456789', 'old-secret-0123456789'] });
    expect(h['x-service-signature']).toBe(serviceSignature('new-secret-0123456789', 1700000000, '{}'));
    expect(h['webhook-signature']).toBe(`${standardSignature('new-secret-0123456789', 'dlv_1', 1700000000, '{}')} ${standardSignature('old-secret-0123456789', 'dlv_1', 1700000000, '{}')}`);
    expect(h['x-service-delivery']).toBe('dlv_1');
    expect(h['webhook-id']).toBe('dlv_1');
  });

  it('any printable secret signs, and verifies by the documented rule on both headers; another secret does not verify', () => {
    fc.assert(
      fc.property(anySecret, anySecret, body, fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }), (secret, other, payload, timestamp) => {
        const headers = deliveryHeaders({ deliveryId: 'dlv_prop', event: 'alert.created', body: payload, timestamp, secrets: [secret] });
        expect(verifyServiceSignature(secret, timestamp, payload, headers['x-service-signature']!)).toBe(true);
        expect(standardVerifies(secret, headers, payload)).toBe(true);
        if (!receiverKey(other).equals(receiverKey(secret))) expect(standardVerifies(other, headers, payload)).toBe(false);
        if (other !== secret) expect(verifyServiceSignature(other, timestamp, payload, headers['x-service-signature']!)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the webhook-signature key of a secret (standardKey)', () => {
  it('whsec_ + base64 of 24–64 bytes: the decoded bytes, as Standard Webhooks libraries key them', () => {
    const generated = `whsec_${randomBytes(32).toString('base64')}`;
    expect(standardKey(generated)).toEqual(Buffer.from(generated.slice(6), 'base64'));
    for (const n of [24, 32, 48, 64]) {
      const bytes = randomBytes(n);
      expect(standardKey(`whsec_${bytes.toString('base64')}`), `${n} bytes`).toEqual(bytes);
      // `=` padding is optional.
      expect(standardKey(`whsec_${bytes.toString('base64').replace(/=+$/, '')}`), `${n} bytes, unpadded`).toEqual(bytes);
    }
  });

  it.each([
    ['a plain secret starting with whsec_', 'whsec_my-own-plain-secret-123'],
    ['a whsec_ secret with characters outside base64', 'whsec_not*base64*at*all!!'],
    ['base64url (- and _) is not base64', `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`],
    ['base64 of 23 bytes (too short)', `whsec_${Buffer.alloc(23, 7).toString('base64')}`],
    ['base64 of 65 bytes (too long)', `whsec_${Buffer.alloc(65, 7).toString('base64')}`],
    ['a stray character (length 4n + 1)', `whsec_${Buffer.alloc(33, 7).toString('base64')}A`],
    ['padding where there is none to pad', `whsec_${Buffer.alloc(33, 7).toString('base64')}=`],
    ['padding in the middle', `whsec_AAAA==${Buffer.alloc(30, 7).toString('base64')}`],
    ['an upper-case prefix', `WHSEC_${Buffer.alloc(32, 7).toString('base64')}`],
    ['base64 without the prefix', Buffer.alloc(32, 7).toString('base64')],
    ['any other secret', 'my-own-signing-secret-123'],
  ])('%s: its UTF-8 bytes, the whole string as given', (_name, secret) => {
    expect(standardKey(secret)).toEqual(Buffer.from(secret, 'utf8'));
  });

  it('is the documented rule for any string (atob as the judge of base64)', () => {
    const base64ish = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_*'), minLength: 0, maxLength: 100 });
    fc.assert(
      fc.property(fc.oneof(base64ish.map((rest) => `whsec_${rest}`), fc.uint8Array({ minLength: 20, maxLength: 70 }).map((b) => `whsec_${Buffer.from(b).toString('base64')}`), fc.string({ maxLength: 80 })), (secret) => {
        expect(standardKey(secret)).toEqual(receiverKey(secret));
      }),
      { numRuns: 2000 },
    );
  });

  it('X-Service-Signature stays keyed with the secret as given, whatever its form', () => {
    fc.assert(
      fc.property(anySecret, (secret) => {
        expect(serviceSignature(secret, 1700000000, '{}')).toBe(createHmac('sha256', Buffer.from(secret, 'utf8')).update('1700000000.{}').digest('hex'));
      }),
    );
  });
});

describe('events', () => {
  it('subscriptions: by name or *, never internal events', () => {
    expect(subscribes(['*'], 'alert.created')).toBe(true);
    expect(subscribes(['route.activated'], 'alert.created')).toBe(false);
    expect(subscribes(['*'], 'tenant.registered')).toBe(false);
    expect(JSON.parse(envelope({ eventId: 'evt_1', event: 'alert.created', timestamp: 't', webhookId: 'wh_1', data: { x: 1 } }))).toEqual({
      id: 'evt_1',
      event: 'alert.created',
      timestamp: 't',
      webhookId: 'wh_1',
      data: { x: 1 },
    });
  });
});
