import type { Tx } from '../../db/types.js';
import type { StreamEvent } from '../../db/outbox.js';
import type { RealtimeMessage } from './realtime.events.js';

export interface ReplayQuery {
  tenantId: string;
  /** The client's last position (SSE Last-Event-ID, Socket.IO offset): events after this stream position. */
  after: number;
  /** Not older than this (the replay window). */
  since: Date;
  /** A DRIVER user's driver (null: linked to none, so nothing); undefined: the whole tenant. */
  driverScope: string | null | undefined;
  /** At most this many: the most recent ones (an older gap is for GET /alerts to fill). */
  limit: number;
}

/** What a channel carries: the outbox event types it reads back, and each one's message (sseMessage, socketMessage). */
export interface Channel {
  types: readonly string[];
  message: (event: Pick<StreamEvent, 'seq' | 'tenantId' | 'type' | 'payload'>) => RealtimeMessage | null;
}

/**
 * The tenant's events a reconnecting client missed on one channel, from the outbox (every dispatched event
 * keeps its stream position there until it is pruned), oldest first.
 */
export async function missedEvents(tx: Tx, q: ReplayQuery, channel: Channel): Promise<RealtimeMessage[]> {
  if (q.driverScope === null) return [];
  const { rows } = await tx.query<{ stream_seq: string | number; event_type: string; payload: unknown }>(
    `SELECT stream_seq, event_type, payload FROM outbox_events
      WHERE tenant_id = $1 AND stream_seq > $2 AND event_type = ANY($3::text[]) AND created_at >= $4
        AND ($5::text IS NULL OR payload->>'driverId' = $5)
      ORDER BY stream_seq DESC LIMIT $6`,
    [q.tenantId, q.after, channel.types, q.since, q.driverScope ?? null, q.limit],
  );
  return rows
    .reverse()
    .map((r) =>
      channel.message({
        seq: Number(r.stream_seq),
        tenantId: q.tenantId,
        type: r.event_type,
        payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
      }),
    )
    .filter((m): m is RealtimeMessage => m !== null);
}

/**
 * The tenant's stream position now: the highest position its dispatched events have reached (0 before the
 * first). A client that connects without one is given it, so that after a disconnection it can ask for what
 * came after, even when nothing reached it in between.
 */
export async function streamPosition(tx: Tx, tenantId: string): Promise<number> {
  const { rows } = await tx.query<{ seq: string | number | null }>('SELECT max(stream_seq) AS seq FROM outbox_events WHERE tenant_id = $1 AND stream_seq IS NOT NULL', [tenantId]);
  return Number(rows[0]?.seq ?? 0);
}
