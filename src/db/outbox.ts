import { newId } from '../lib/ids.js';
import type { Tx } from './types.js';

/** Writes an event for delivery outside the process, in the caller's transaction: it commits with its cause. */
export async function emitEvent(tx: Tx, tenantId: string, eventType: string, payload: Record<string, unknown>, now: Date): Promise<string> {
  const id = newId('event');
  await tx.query('INSERT INTO outbox_events (tenant_id, id, event_type, payload, created_at) VALUES ($1, $2, $3, $4, $5)', [
    tenantId,
    id,
    eventType,
    JSON.stringify(payload),
    now,
  ]);
  return id;
}
