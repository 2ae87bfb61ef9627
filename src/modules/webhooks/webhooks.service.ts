import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { envelope, PING_EVENT, retryPolicy, STANDARD_PREFIX } from '../../domain/webhooks/index.js';
import { invalid, invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { openSecret, sealSecret } from '../../infra/secrets.js';
import type { TenantContext } from '../../plugins/context.js';
import { DELIVERY_CHANNEL, insertDeliveries, loadForSending, recordOutcomes } from './webhooks.queue.js';
import {
  findDelivery,
  findWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  publicWebhook,
  replaceSecret,
  requeueDelivery,
  updateWebhook,
  type DeliveryRecord,
  type DeliveryStatus,
  type WebhookRecord,
  type WebhookStatus,
} from './webhooks.repository.js';
import { attemptDelivery } from './webhooks.worker.js';

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/**
 * `whsec_` + base64 of 32 random bytes: a Standard Webhooks secret, usable as-is by their libraries. A
 * secret the client gives instead is taken as it is (the schema bounds its length and characters); how
 * each signature is keyed from it is `standardKey`'s rule in the domain.
 */
export function generateSecret(): string {
  return `${STANDARD_PREFIX}${randomBytes(32).toString('base64')}`;
}

export function webhooksService(deps: Deps) {
  const { db, clock } = deps;
  const key = deps.secrets.encryptionKey;

  async function checkUrl(url: string): Promise<void> {
    const check = await deps.webhookHttp.check(url);
    if (!check.ok) throw invalid('Validation failed', [{ field: 'body.url', message: check.reason }]);
  }

  async function getRow(ctx: TenantContext, id: string) {
    const w = await db.tenant(ctx.tenantId, (tx) => findWebhook(tx, ctx.tenantId, id));
    if (!w) throw notFound('Webhook');
    return w;
  }

  return {
    async create(ctx: TenantContext, input: { url: string; events: string[]; secret?: string; description?: string }): Promise<WebhookRecord & { secret?: string }> {
      await checkUrl(input.url);
      const secret = input.secret ?? generateSecret();
      const row = await db.tenant(ctx.tenantId, (tx) =>
        insertWebhook(
          tx,
          ctx.tenantId,
          { id: newId('webhook'), url: input.url, events: input.events, description: input.description?.trim() || null, secretCiphertext: sealSecret(key, secret), createdBy: ctx.userId },
          clock.now(),
        ),
      );
      // A secret the caller chose is never echoed; a generated one is shown this once.
      return input.secret === undefined ? { ...publicWebhook(row), secret } : publicWebhook(row);
    },

    async list(ctx: TenantContext, q: { page: number; pageSize: number }) {
      const { data, total } = await db.tenant(ctx.tenantId, (tx) => listWebhooks(tx, ctx.tenantId, q.page, q.pageSize));
      return { data, total, page: q.page, pageSize: q.pageSize };
    },

    async get(ctx: TenantContext, id: string): Promise<WebhookRecord> {
      return publicWebhook(await getRow(ctx, id));
    },

    async update(ctx: TenantContext, id: string, c: { url?: string; events?: string[]; description?: string | null; status?: WebhookStatus }): Promise<WebhookRecord> {
      if (c.url !== undefined) await checkUrl(c.url);
      const disabledReason = c.status === 'ACTIVE' ? null : c.status === 'DISABLED' ? `Disabled by ${ctx.userId}` : undefined;
      const description = c.description === undefined ? undefined : c.description?.trim() || null;
      const w = await db.tenant(ctx.tenantId, (tx) => updateWebhook(tx, ctx.tenantId, id, { url: c.url, events: c.events, description, status: c.status, disabledReason }, clock.now()));
      if (!w) throw notFound('Webhook');
      return publicWebhook(w);
    },

    /** DELETE disables (deliveries and their log are kept); disabling a disabled webhook changes nothing. */
    async disable(ctx: TenantContext, id: string): Promise<WebhookRecord> {
      const w = await db.tenant(ctx.tenantId, async (tx) => {
        const current = await findWebhook(tx, ctx.tenantId, id, true);
        if (!current) throw notFound('Webhook');
        if (current.status === 'DISABLED') return current;
        return updateWebhook(tx, ctx.tenantId, id, { status: 'DISABLED', disabledReason: `Deleted by ${ctx.userId}` }, clock.now());
      });
      return publicWebhook(w!);
    },

    /** A new secret; the current one keeps signing beside it for 24 hours (a rotation within them drops the older one). */
    async rotateSecret(ctx: TenantContext, id: string, given?: string) {
      const secret = given ?? generateSecret();
      const now = clock.now();
      const expires = new Date(now.getTime() + ROTATION_OVERLAP_MS);
      await db.tenant(ctx.tenantId, async (tx) => {
        const w = await findWebhook(tx, ctx.tenantId, id, true);
        if (!w) throw notFound('Webhook');
        // Re-sealed rather than copied, so that a ciphertext is never stored twice.
        const previous = sealSecret(key, openSecret(key, w.secretCiphertext));
        await replaceSecret(tx, ctx.tenantId, id, { secretCiphertext: sealSecret(key, secret), previousSecretCiphertext: previous, previousSecretExpiresAt: expires }, now);
      });
      return { id, secret, previousSecretExpiresAt: expires.toISOString() };
    },

    /**
     * Sends a `ping` now, through the same signing and guarded client as every delivery, and returns
     * the delivery with its attempt. One attempt only: a ping is not retried.
     */
    async test(ctx: TenantContext, id: string): Promise<DeliveryRecord> {
      const now = clock.now();
      const lease = new Date(now.getTime() + deps.config.webhookLeaseSeconds * 1000);
      const deliveryId = newId('delivery');
      const claimed = await db.tenant(ctx.tenantId, async (tx) => {
        const w = await findWebhook(tx, ctx.tenantId, id);
        if (!w) throw notFound('Webhook');
        const eventId = newId('event');
        const body = envelope({ eventId, event: PING_EVENT, timestamp: now.toISOString(), webhookId: id, data: { webhookId: id, message: 'Test delivery' } });
        await insertDeliveries(tx, [{ tenantId: ctx.tenantId, id: deliveryId, webhookId: id, eventId, event: PING_EVENT, body }], now, { nextAttemptAt: null, lockedUntil: lease });
        return loadForSending(tx, ctx.tenantId, deliveryId, lease);
      });
      const outcome = await attemptDelivery(claimed!, { sender: deps.webhookHttp, encryptionKey: key, clock }, retryPolicy([]), 0);
      await db.system((tx) => recordOutcomes(tx, [outcome], clock.now()));
      return (await db.tenant(ctx.tenantId, (tx) => findDelivery(tx, ctx.tenantId, deliveryId)))!;
    },

    async deliveries(ctx: TenantContext, id: string, q: { status?: DeliveryStatus; page: number; pageSize: number }) {
      return db.tenant(ctx.tenantId, async (tx) => {
        if (!(await findWebhook(tx, ctx.tenantId, id))) throw notFound('Webhook');
        const { data, total } = await listDeliveries(tx, ctx.tenantId, id, q);
        return { data, total, page: q.page, pageSize: q.pageSize };
      });
    },

    async delivery(ctx: TenantContext, deliveryId: string): Promise<DeliveryRecord> {
      const d = await db.tenant(ctx.tenantId, (tx) => findDelivery(tx, ctx.tenantId, deliveryId));
      if (!d) throw notFound('Delivery');
      return d;
    },

    /** A FAILED delivery back in the queue, due now: one more attempt (the full schedule if it never had one). */
    async retry(ctx: TenantContext, deliveryId: string): Promise<DeliveryRecord> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const d = await findDelivery(tx, ctx.tenantId, deliveryId, true);
        if (!d) throw notFound('Delivery');
        if (d.status !== 'FAILED') throw invalidState(`Only a FAILED delivery can be retried; this one is ${d.status}`);
        const w = await findWebhook(tx, ctx.tenantId, d.webhookId);
        if (w?.status !== 'ACTIVE') throw invalidState('The webhook is DISABLED; enable it (PUT status ACTIVE) before retrying its deliveries');
        await requeueDelivery(tx, ctx.tenantId, deliveryId, now);
        await tx.query(`NOTIFY ${DELIVERY_CHANNEL}`);
        return (await findDelivery(tx, ctx.tenantId, deliveryId))!;
      });
    },
  };
}
