import { Type } from '@sinclair/typebox';
import { NullableTimestamp, Page, PageQuery, Timestamp } from '../../lib/schemas.js';
import { WEBHOOK_EVENTS, WILDCARD } from '../../domain/webhooks/index.js';
import { MAX_URL_LENGTH } from '../../domain/webhooks/address-policy.js';

/** An enum rather than a union of literals, so that a wrong name gives one clear error, not one per name. */
const EVENT_NAMES = [...WEBHOOK_EVENTS, WILDCARD] as const;
const EventName = Type.Unsafe<(typeof EVENT_NAMES)[number]>({
  type: 'string',
  enum: [...EVENT_NAMES],
  description: `One of ${WEBHOOK_EVENTS.join(', ')}, or the wildcard * for all of them`,
});
const Events = Type.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length + 1, uniqueItems: true });
const Url = Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'HTTPS URL that receives the POSTs (public address only)' });
const Description = Type.String({ maxLength: 500 });
/**
 * Any secret the client chooses: 16–256 printable ASCII characters, no spaces, nothing else asked of its
 * form (a `whsec_…` one included). How each signature header is keyed from it: `standardKey` in
 * src/domain/webhooks/signature.ts.
 */
export const SECRET_SIGNING_RULE =
  'X-Service-Signature is keyed with the secret\'s UTF-8 bytes exactly as given. webhook-signature (Standard Webhooks) is keyed with the decoded bytes when the secret is whsec_ followed by valid base64 (padding optional) of 24 to 64 bytes, as Standard Webhooks libraries key their secrets; any other secret, including a whsec_ one whose rest is not such base64, keys it with its UTF-8 bytes exactly as given, prefix included.';
const Secret = Type.String({
  minLength: 16,
  maxLength: 256,
  pattern: '^[\\x21-\\x7e]+$',
  description: `Signing secret of your choice (write-only): 16–256 printable ASCII characters without spaces, any form, whsec_… included. Generated (whsec_ + base64 of 32 random bytes) and returned once when omitted. ${SECRET_SIGNING_RULE}`,
});
const WebhookStatus = Type.Union([Type.Literal('ACTIVE'), Type.Literal('DISABLED')]);

export const CreateWebhookBody = Type.Object(
  { url: Url, events: Events, secret: Type.Optional(Secret), description: Type.Optional(Description) },
  {
    additionalProperties: false,
    examples: [{ url: 'https://dispatch.example.com/hooks/fleet', events: ['route.planned', 'alert.created', 'alert.resolved'], description: 'Dispatch board' }],
  },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    status: Type.Optional(WebhookStatus),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const RotateSecretBody = Type.Union([Type.Object({ secret: Type.Optional(Secret) }, { additionalProperties: false }), Type.Null()]);

export const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: WebhookStatus,
  description: Type.Union([Type.String(), Type.Null()]),
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const WebhookCreated = Type.Intersect([
  Webhook,
  Type.Object({ secret: Type.Optional(Type.String({ description: 'The generated signing secret: shown this once' })) }),
]);

export const SecretRotated = Type.Object({
  id: Type.String(),
  secret: Type.String({ description: 'The new signing secret (the one given, or the generated whsec_…): shown this once' }),
  previousSecretExpiresAt: Timestamp,
});

export const WebhookPage = Page(Webhook);

const Attempt = Type.Object({
  attempt: Type.Integer(),
  startedAt: Timestamp,
  durationMs: Type.Integer(),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const DeliveryStatusSchema = Type.Union([Type.Literal('PENDING'), Type.Literal('DELIVERED'), Type.Literal('FAILED')]);

export const Delivery = Type.Object({
  id: Type.String({ description: 'The X-Service-Delivery id (the same on every attempt)' }),
  webhookId: Type.String(),
  eventId: Type.String(),
  event: Type.String(),
  status: DeliveryStatusSchema,
  attemptCount: Type.Integer(),
  nextAttemptAt: NullableTimestamp,
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deliveredAt: NullableTimestamp,
  failedAt: NullableTimestamp,
  attempts: Type.Array(Attempt),
});

export const DeliveryPage = Page(Delivery);

export const DeliveryListQuery = Type.Object({ status: Type.Optional(DeliveryStatusSchema), ...PageQuery }, { additionalProperties: false });
export const WebhookListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
