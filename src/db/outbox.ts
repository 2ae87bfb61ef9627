import { newId } from '../lib/ids.js';
import type { Tx } from './types.js';

/** Woken when events are committed: the dispatchers LISTEN on it (db.listen). */
export const OUTBOX_CHANNEL = 'fleet_outbox';

/**
 * Writes an event for delivery outside the process, in the caller's transaction: it commits with its
 * cause, and the NOTIFY that wakes the dispatchers is delivered by PostgreSQL at that commit (never
 * for a rolled-back one; repeated NOTIFYs in one transaction are folded into one).
 */
export async function emitEvent(tx: Tx, tenantId: string, eventType: string, payload: Record<string, unknown>, now: Date): Promise<string> {
  const id = newId('event');
  await tx.query('INSERT INTO outbox_events (tenant_id, id, event_type, payload, created_at) VALUES ($1, $2, $3, $4, $5)', [
    tenantId,
    id,
    eventType,
    JSON.stringify(payload),
    now,
  ]);
  await tx.query(`NOTIFY ${OUTBOX_CHANNEL}`);
  return id;
}
