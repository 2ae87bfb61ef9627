import type { Tx } from '../../db/types.js';
import { sseMessage, SSE_EVENT_TYPES, type RealtimeMessage } from './realtime.events.js';

export interface ReplayQuery {
  tenantId: string;
  /** The client's Last-Event-ID: events after this stream position. */
  after: number;
  /** Not older than this (the replay window). */
  since: Date;
  /** A DRIVER user's driver (null: linked to none, so nothing); undefined: the whole tenant. */
  driverScope: string | null | undefined;
  /** At most this many: the most recent ones (an older gap is for GET /alerts to fill). */
  limit: number;
}

/**
 * The tenant's alert events a reconnecting SSE client missed, from the outbox (every dispatched event
 * keeps its stream position there until it is pruned), oldest first.
 */
export async function missedAlertEvents(tx: Tx, q: ReplayQuery): Promise<RealtimeMessage[]> {
  if (q.driverScope === null) return [];
  const { rows } = await tx.query<{ stream_seq: string | number; event_type: string; payload: unknown }>(
    `SELECT stream_seq, event_type, payload FROM outbox_events
      WHERE tenant_id = $1 AND stream_seq > $2 AND event_type = ANY($3::text[]) AND created_at >= $4
        AND ($5::text IS NULL OR payload->>'driverId' = $5)
      ORDER BY stream_seq DESC LIMIT $6`,
    [q.tenantId, q.after, SSE_EVENT_TYPES, q.since, q.driverScope ?? null, q.limit],
  );
  return rows
    .reverse()
    .map((r) =>
      sseMessage({
        seq: Number(r.stream_seq),
        tenantId: q.tenantId,
        type: r.event_type,
        payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
      }),
    )
    .filter((m): m is RealtimeMessage => m !== null);
}
