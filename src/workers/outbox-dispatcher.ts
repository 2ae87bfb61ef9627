import type { Database, Tx } from '../db/types.js';
import type { Broadcast } from '../infra/broadcast.js';
import { EVENTS_CHANNEL, type OutboxSink, type StreamEvent } from '../db/outbox.js';
import type { Worker } from '../lib/worker.js';

export interface DispatcherOptions {
  /** Events claimed per pass. */
  batch: number;
  /** How long a claim holds before another dispatcher may take the events over (a crashed one's). */
  leaseMs: number;
  /** Published events older than this are deleted (the SSE replay window is far shorter). */
  retentionMs: number;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = { batch: 200, leaseMs: 30_000, retentionMs: 7 * 24 * 3_600_000 };

const PRUNE_EVERY_PASSES = 200;

/**
 * Hands committed outbox events on, in three steps, so that none is lost and none is fanned out twice:
 * 1. claim a batch (FOR UPDATE SKIP LOCKED, any number of dispatchers) under a lease, and give each
 *    event its stream position once (kept if the event is claimed again after a crash);
 * 2. publish them to the API processes' realtime clients (outside any transaction; at least once);
 * 3. in one transaction, run the sinks (the webhook fan-out creates its deliveries) and mark the events
 *    published: exactly once.
 * A dispatcher that dies between 1 and 3 leaves the lease to expire; another repeats 2 (realtime
 * clients deduplicate on ids) and does 3.
 */
export class OutboxDispatcher implements Worker {
  readonly name = 'outbox';
  private passes = 0;
  /** Events claimed by the pass under way and not yet marked published: what a shutdown gives back. */
  private held: StreamEvent[] = [];

  constructor(
    private readonly db: Database,
    private readonly broadcast: Broadcast,
    private readonly sinks: readonly OutboxSink[],
    private readonly opts: DispatcherOptions = DEFAULT_DISPATCHER_OPTIONS,
  ) {}

  async runOnce(now: Date): Promise<number> {
    if (++this.passes % PRUNE_EVERY_PASSES === 1) await this.prune(now);
    const events = await this.db.system((tx) => claim(tx, now, this.opts));
    if (events.length === 0) return 0;
    this.held = events;
    try {
      await this.handOn(events, now);
    } catch (err) {
      // Redis or the database failed us midway: give the events back now, not when the lease runs out, so
      // that the next pass (this dispatcher's after its pause, or another's) takes them again at once.
      await this.release().catch(() => undefined);
      throw err;
    }
    this.held = [];
    return events.length;
  }

  private async handOn(events: StreamEvent[], now: Date): Promise<void> {
    for (const event of events) await this.broadcast.publish(EVENTS_CHANNEL, JSON.stringify(event));
    await this.db.system(async (tx) => {
      for (const sink of this.sinks) await sink.handle(tx, events, now);
      await tx.query(
        `UPDATE outbox_events o SET published_at = $1, claimed_until = NULL
           FROM unnest($2::text[], $3::text[]) AS e (tenant_id, id)
          WHERE o.tenant_id = e.tenant_id AND o.id = e.id`,
        [now, events.map((e) => e.tenantId), events.map((e) => e.id)],
      );
    });
  }

  /** Unpublished events of an interrupted pass are due again at once (they keep their stream positions). */
  async release(): Promise<void> {
    const events = this.held;
    this.held = [];
    if (events.length === 0) return;
    await this.db.system((tx) =>
      tx.query(
        `UPDATE outbox_events o SET claimed_until = NULL
           FROM unnest($1::text[], $2::text[]) AS e (tenant_id, id)
          WHERE o.tenant_id = e.tenant_id AND o.id = e.id AND o.published_at IS NULL`,
        [events.map((e) => e.tenantId), events.map((e) => e.id)],
      ),
    );
  }

  /** Unpublished events (the backlog), for the metrics. */
  async depth(): Promise<number> {
    const { rows } = await this.db.system((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL'));
    return rows[0]?.n ?? 0;
  }

  private async prune(now: Date): Promise<void> {
    const before = new Date(now.getTime() - this.opts.retentionMs);
    await this.db.system((tx) =>
      tx.query(
        `DELETE FROM outbox_events WHERE (tenant_id, id) IN (
           SELECT tenant_id, id FROM outbox_events WHERE published_at IS NOT NULL AND published_at < $1 LIMIT 5000)`,
        [before],
      ),
    );
  }
}

/** Claims due events in the order they were written and gives the new ones stream positions in that order. */
async function claim(tx: Tx, now: Date, opts: DispatcherOptions): Promise<StreamEvent[]> {
  const { rows } = await tx.query<{ tenant_id: string; id: string; event_type: string; payload: unknown; created_at: Date | string; stream_seq: string | number | null }>(
    `SELECT tenant_id, id, event_type, payload, created_at, stream_seq FROM outbox_events
      WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < $1)
      ORDER BY enqueued LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, opts.batch],
  );
  if (rows.length === 0) return [];
  const fresh = rows.filter((r) => r.stream_seq === null).length;
  const seqs =
    fresh === 0 ? [] : (await tx.query<{ seq: string }>(`SELECT nextval('outbox_stream_seq')::text AS seq FROM generate_series(1, $1)`, [fresh])).rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
  let next = 0;
  const events: StreamEvent[] = rows.map((r) => ({
    seq: r.stream_seq === null ? seqs[next++]! : Number(r.stream_seq),
    id: r.id,
    tenantId: r.tenant_id,
    type: r.event_type,
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    createdAt: new Date(r.created_at).toISOString(),
  }));
  await tx.query(
    `UPDATE outbox_events o SET claimed_until = $1, stream_seq = e.seq
       FROM unnest($2::text[], $3::text[], $4::bigint[]) AS e (tenant_id, id, seq)
      WHERE o.tenant_id = e.tenant_id AND o.id = e.id`,
    [new Date(now.getTime() + opts.leaseMs), events.map((e) => e.tenantId), events.map((e) => e.id), events.map((e) => e.seq)],
  );
  return events.sort((a, b) => a.seq - b.seq);
}
