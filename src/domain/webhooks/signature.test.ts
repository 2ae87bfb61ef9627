import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, serviceSignature, standardSignature, verifyServiceSignature } from './signature.js';
import { envelope, subscribes } from './events.js';

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
