import type { Database } from '../db/types.js';
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
 *    event its stream position once (kept if the event is claimed again after a crash), in one statement;
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
    const events = await claim(this.db, now, this.opts);
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

/**
 * Claims due events in the order they were written and gives the new ones stream positions in that order,
 * in one statement (run on its own: one round trip). The positions are drawn from the sequence in whatever
 * order PostgreSQL evaluates `nextval`, then sorted and handed out by `enqueued`, so that the order never
 * rests on evaluation order; an event claimed again after a crash keeps the position it was given.
 */
async function claim(db: Database, now: Date, opts: DispatcherOptions): Promise<StreamEvent[]> {
  const { rows } = await db.systemStatement<{ tenant_id: string; id: string; event_type: string; payload: unknown; created_at: Date | string; stream_seq: string | number }>(
    `WITH due AS (
       SELECT tenant_id, id, enqueued, stream_seq FROM outbox_events
        WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < $1)
        ORDER BY enqueued LIMIT $2 FOR UPDATE SKIP LOCKED
     ), fresh AS (
       SELECT tenant_id, id, row_number() OVER (ORDER BY enqueued) AS k FROM due WHERE stream_seq IS NULL
     ), drawn AS (
       SELECT row_number() OVER (ORDER BY v) AS k, v FROM (SELECT nextval('outbox_stream_seq') AS v FROM fresh) x
     ), numbered AS (
       SELECT d.tenant_id, d.id, coalesce(d.stream_seq, s.v) AS seq
         FROM due d LEFT JOIN fresh f ON f.tenant_id = d.tenant_id AND f.id = d.id LEFT JOIN drawn s ON s.k = f.k
     )
     UPDATE outbox_events o SET claimed_until = $3, stream_seq = n.seq
       FROM numbered n
      WHERE o.tenant_id = n.tenant_id AND o.id = n.id
      RETURNING o.tenant_id, o.id, o.event_type, o.payload, o.created_at, o.stream_seq`,
    [now, opts.batch, new Date(now.getTime() + opts.leaseMs)],
  );
  const events: StreamEvent[] = rows.map((r) => ({
    seq: Number(r.stream_seq),
    id: r.id,
    tenantId: r.tenant_id,
    type: r.event_type,
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    createdAt: new Date(r.created_at).toISOString(),
  }));
  return events.sort((a, b) => a.seq - b.seq);
}
