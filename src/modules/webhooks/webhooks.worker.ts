import { Counter, Histogram, type Registry } from 'prom-client';
import type { Database, Tx } from '../../db/types.js';
import { decide, deliveryHeaders, parseRetryAfter, type AttemptResult, type RetryPolicy } from '../../domain/webhooks/index.js';
import { openSecret } from '../../infra/secrets.js';
import type { SendOutcome } from '../../infra/webhook-http.js';
import type { Clock } from '../../lib/time.js';
import type { Worker } from '../../lib/worker.js';
import { claimDueDeliveries, recordOutcomes, releaseDeliveries, type AttemptOutcome, type ClaimedDelivery } from './webhooks.queue.js';

/** Sends one signed POST (the SSRF-guarded client in production). */
export interface WebhookSender {
  post(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome>;
}

export interface DeliveryOptions {
  /** The most deliveries one claim takes. */
  batch: number;
  /** Requests in flight at most. A pass keeps this many going: each finished request frees a slot that the next claim fills, so one slow receiver holds one slot, not a batch. */
  concurrency: number;
  /** A pass stops claiming after this many (the loop runs the next one at once while there is work). */
  maxPerPass: number;
  /** How long a claim holds (longer than an attempt's timeout): a crashed worker's deliveries are retaken after it. */
  leaseMs: number;
  policy: RetryPolicy;
  /** In [0, 1): the retry jitter (tests fix it). */
  random: () => number;
}

/**
 * At most 64 requests in flight per worker process, claimed 32 at most at a time (bigger claims cost less
 * database work per delivery, which matters most on the embedded PGlite); finished attempts are recorded
 * 16 at a time, or at once when the pool runs low (bench/events.ts measures it).
 */
export const DEFAULT_DELIVERY_OPTIONS = { batch: 32, concurrency: 64, maxPerPass: 1024 } as const;

/** Finished attempts recorded together (one statement), unless the pool is draining. */
const RECORD_EVERY = 16;

/** Prometheus counters of delivery work: attempts by outcome, and their durations (registered once per registry). */
export function deliveryMetrics(registry: Registry) {
  const attempts =
    (registry.getSingleMetric('webhook_delivery_attempts_total') as Counter<'outcome'> | undefined) ??
    new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered, retried (failed, another attempt scheduled), failed (given up)',
      labelNames: ['outcome'],
      registers: [registry],
    });
  const duration =
    (registry.getSingleMetric('webhook_delivery_attempt_duration_seconds') as Histogram | undefined) ??
    new Histogram({
      name: 'webhook_delivery_attempt_duration_seconds',
      help: 'Time from connecting to the last byte of the answer, per attempt',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  return {
    record(o: AttemptOutcome): void {
      if (o.attempt === 0) return;
      attempts.inc({ outcome: o.status === 'DELIVERED' ? 'delivered' : o.status === 'PENDING' ? 'retried' : 'failed' });
      duration.observe(o.durationMs / 1000);
    },
  };
}
export type DeliveryMetrics = ReturnType<typeof deliveryMetrics>;

/** Sends one attempt of a claimed delivery and decides what follows (delivered, retry at, failed). */
export async function attemptDelivery(
  d: ClaimedDelivery,
  io: { sender: WebhookSender; encryptionKey: Buffer; clock: Clock },
  policy: RetryPolicy,
  random: number,
): Promise<AttemptOutcome> {
  const startedAt = io.clock.now();
  let sent: SendOutcome;
  try {
    const secrets = [openSecret(io.encryptionKey, d.secretCiphertext)];
    if (d.previousSecretCiphertext && d.previousSecretExpiresAt && Date.parse(d.previousSecretExpiresAt) > startedAt.getTime()) {
      secrets.push(openSecret(io.encryptionKey, d.previousSecretCiphertext));
    }
    const headers = deliveryHeaders({ deliveryId: d.id, event: d.event, body: d.body, timestamp: Math.floor(startedAt.getTime() / 1000), secrets });
    sent = await io.sender.post(d.url, headers, d.body);
  } catch {
    // Only a signing secret sealed under another ENCRYPTION_KEY gets here; the attempt fails and is retried.
    sent = { statusCode: null, error: 'the signing secret could not be decrypted (ENCRYPTION_KEY changed?)', retryAfter: undefined, durationMs: 0 };
  }
  const endedAt = io.clock.now();
  const code = sent.statusCode;
  const result: AttemptResult =
    code !== null && code >= 200 && code < 300
      ? { kind: 'delivered' }
      : code === 410
        ? { kind: 'gone' }
        : { kind: 'failed', retryAfterSeconds: parseRetryAfter(sent.retryAfter, endedAt) };
  const attempt = d.attempts + 1;
  const next = decide(result, attempt, endedAt, policy, random);
  return {
    tenantId: d.tenantId,
    deliveryId: d.id,
    webhookId: d.webhookId,
    fence: d.lockedUntil,
    attempt,
    startedAt,
    durationMs: sent.durationMs,
    statusCode: code,
    error: sent.error,
    status: next.kind === 'delivered' ? 'DELIVERED' : next.kind === 'retry' ? 'PENDING' : 'FAILED',
    nextAttemptAt: next.kind === 'retry' ? next.at : null,
    disableWebhook: next.kind === 'failed' && next.disableWebhook ? `The endpoint answered 410 Gone at ${endedAt.toISOString()}` : null,
  };
}

/**
 * Delivers due webhook deliveries of every tenant. A pass keeps up to `concurrency` requests in flight:
 * it claims due deliveries under a lease (FOR UPDATE SKIP LOCKED: any number of workers share the
 * queue) to fill the free slots, sends each outside any transaction, and records finished attempts and
 * the deliveries' next state in small groups, each in one statement fenced by the lease; until nothing
 * is due or the pass has claimed `maxPerPass`. A receiver that hangs until the timeout holds one slot,
 * never the others' deliveries. A worker killed mid-pass has not recorded its attempts in flight: when
 * their lease runs out another worker sends them again, with the same X-Service-Delivery id (at least once).
 */
export class WebhookDeliveryWorker implements Worker {
  readonly name = 'webhooks';
  /** Deliveries claimed and not yet recorded, by tenant|id: what a shutdown gives back. */
  private readonly held = new Map<string, { tenantId: string; id: string; fence: Date }>();
  /** The claim and the record are one statement each, run on their own: one round trip instead of three on PostgreSQL. */
  private readonly statement: Tx = { query: (sql, params, options) => this.db.systemStatement(sql, params, options) };

  constructor(
    private readonly db: Database,
    private readonly io: { sender: WebhookSender; encryptionKey: Buffer; clock: Clock },
    private readonly opts: DeliveryOptions,
    private readonly metrics?: DeliveryMetrics,
  ) {}

  async release(): Promise<void> {
    const claims = [...this.held.values()];
    this.held.clear();
    await this.db.system((tx) => releaseDeliveries(tx, claims));
  }

  /** A shutdown (`stopping`) ends the claiming; the attempts in flight finish and are recorded. */
  async runOnce(now: Date, stopping?: AbortSignal): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    const finished: AttemptOutcome[] = [];
    let claimedTotal = 0;
    let drained = false;
    // Finished attempts are recorded one group after another, beside the claiming and the sending (the
    // pool is refilled while a group is written, not after: bench/events.ts). A group that cannot be
    // written ends the claiming; runOnce throws that error once the attempts in flight are done, and the
    // deliveries not recorded are sent again when their lease runs out (at least once).
    let recording: Promise<void> = Promise.resolve();
    let recordFailed = false;
    const record = (): Promise<void> => {
      if (finished.length === 0) return recording;
      const outcomes = finished.splice(0);
      recording = recording.then(async () => {
        const written = await recordOutcomes(this.statement, outcomes, this.io.clock.now());
        for (const o of outcomes) this.held.delete(`${o.tenantId}|${o.deliveryId}`);
        for (const o of outcomes) if (written.has(`${o.tenantId}|${o.deliveryId}`)) this.metrics?.record(o);
      });
      recording.catch(() => {
        recordFailed = true;
      });
      return recording;
    };
    const start = (work: Promise<AttemptOutcome>) => {
      const p: Promise<void> = work.then(
        (o) => void finished.push(o),
        () => undefined, // attemptDelivery does not throw; a bug here leaves the delivery to its lease
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    while (true) {
      const free = this.opts.concurrency - inFlight.size;
      if (stopping?.aborted || recordFailed) drained = true;
      if (!drained && free > 0 && claimedTotal < this.opts.maxPerPass) {
        const take = Math.min(free, this.opts.batch, this.opts.maxPerPass - claimedTotal);
        const lease = new Date(now.getTime() + this.opts.leaseMs);
        const claimed = await claimDueDeliveries(this.statement, now, take, lease);
        claimedTotal += claimed.length;
        if (claimed.length < take) drained = true;
        for (const d of claimed) {
          this.held.set(`${d.tenantId}|${d.id}`, { tenantId: d.tenantId, id: d.id, fence: d.lockedUntil });
          // Deliveries of a webhook disabled since they were queued are given up without an attempt
          // (manually retryable once it is enabled again).
          start(d.webhookStatus === 'ACTIVE' ? attemptDelivery(d, this.io, this.opts.policy, this.opts.random()) : Promise.resolve(givenUp(d, now)));
        }
      }
      if (claimedTotal >= this.opts.maxPerPass) drained = true;
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
      // Record in groups while the pool is busy; at once when it runs low (nothing more to claim).
      if (finished.length >= RECORD_EVERY || drained) void record();
    }
    await record();
    return claimedTotal;
  }
}

function givenUp(d: ClaimedDelivery, now: Date): AttemptOutcome {
  return {
    tenantId: d.tenantId,
    deliveryId: d.id,
    webhookId: d.webhookId,
    fence: d.lockedUntil,
    attempt: 0,
    startedAt: now,
    durationMs: 0,
    statusCode: null,
    error: 'webhook disabled',
    status: 'FAILED',
    nextAttemptAt: null,
    disableWebhook: null,
  };
}
