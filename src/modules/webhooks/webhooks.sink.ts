import type { Tx } from '../../db/types.js';
import { envelope, isWebhookEvent, subscribes } from '../../domain/webhooks/index.js';
import { newId } from '../../lib/ids.js';
import type { OutboxSink, StreamEvent } from '../../db/outbox.js';
import { DELIVERY_CHANNEL, insertDeliveries, type NewDelivery } from './webhooks.queue.js';

/**
 * The webhook fan-out: for each dispatched event, one delivery per ACTIVE webhook of its tenant that
 * subscribes to it (by name or `*`), with the envelope fixed now. It runs in the dispatcher's
 * transaction that marks the events published, and (tenant, webhook, event) is unique, so an event
 * dispatched again after a crash adds no second delivery. The NOTIFY wakes delivery workers at commit.
 */
export class WebhookFanout implements OutboxSink {
  readonly name = 'webhooks';

  async handle(tx: Tx, events: StreamEvent[], now: Date): Promise<void> {
    const relevant = events.filter((e) => isWebhookEvent(e.type));
    if (relevant.length === 0) return;
    const tenants = [...new Set(relevant.map((e) => e.tenantId))];
    const { rows } = await tx.query<{ tenant_id: string; id: string; events: unknown }>(
      `SELECT tenant_id, id, events FROM webhooks WHERE status = 'ACTIVE' AND tenant_id = ANY($1::text[])`,
      [tenants],
    );
    if (rows.length === 0) return;
    const hooks = rows.map((r) => ({ tenantId: r.tenant_id, id: r.id, events: (typeof r.events === 'string' ? JSON.parse(r.events) : r.events) as string[] }));
    const deliveries: NewDelivery[] = [];
    for (const e of relevant) {
      for (const h of hooks) {
        if (h.tenantId !== e.tenantId || !subscribes(h.events, e.type)) continue;
        deliveries.push({
          tenantId: e.tenantId,
          id: newId('delivery'),
          webhookId: h.id,
          eventId: e.id,
          event: e.type,
          body: envelope({ eventId: e.id, event: e.type, timestamp: e.createdAt, webhookId: h.id, data: e.payload }),
        });
      }
    }
    const added = await insertDeliveries(tx, deliveries, now, { nextAttemptAt: now });
    if (added > 0) await tx.query(`NOTIFY ${DELIVERY_CHANNEL}`);
  }
}
