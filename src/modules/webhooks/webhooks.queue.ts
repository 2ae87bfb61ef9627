/**
 * The delivery queue's SQL (cross-tenant, run by the workers as the schema owner): fan-out inserts,
 * claims under a lease, and results fenced by that lease.
 */
import type { Tx } from '../../db/types.js';
import { newId } from '../../lib/ids.js';
import { isoOrNull } from '../../lib/rows.js';

/** Woken when deliveries become due (the fan-out's NOTIFY, delivered at its commit). */
export const DELIVERY_CHANNEL = 'fleet_webhook_deliveries';

export interface NewDelivery {
  tenantId: string;
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
}

/** Inserts deliveries (one per webhook and event: a repeat is ignored); returns how many are new. */
export async function insertDeliveries(tx: Tx, ds: NewDelivery[], now: Date, opts: { nextAttemptAt: Date | null; lockedUntil?: Date }): Promise<number> {
  if (ds.length === 0) return 0;
  const { rowCount } = await tx.query(
    `INSERT INTO webhook_deliveries (tenant_id, id, webhook_id, event_id, event_type, body, status, attempts, next_attempt_at, locked_until, created_at, updated_at)
     SELECT d.tenant_id, d.id, d.webhook_id, d.event_id, d.event_type, d.body, 'PENDING', 0, $6, $7, $8, $8
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $9::text[]) AS d (tenant_id, id, webhook_id, event_id, event_type, body)
     ON CONFLICT (tenant_id, webhook_id, event_id) DO NOTHING`,
    [
      ds.map((d) => d.tenantId),
      ds.map((d) => d.id),
      ds.map((d) => d.webhookId),
      ds.map((d) => d.eventId),
      ds.map((d) => d.event),
      opts.nextAttemptAt,
      opts.lockedUntil ?? null,
      now,
      ds.map((d) => d.body),
    ],
  );
  return rowCount;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  tenantId: string;
  id: string;
  webhookId: string;
  event: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  /** The claim's lease end: the fence its result is recorded under. */
  lockedUntil: Date;
  url: string;
  webhookStatus: 'ACTIVE' | 'DISABLED';
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: string | null;
}

/**
 * Claims up to `limit` due PENDING deliveries of any tenant (FOR UPDATE SKIP LOCKED: workers never
 * take the same one) until `lockedUntil`. A delivery whose lease ran out (its worker died) is due again.
 * One statement: the worker runs it on its own (autocommit), in one round trip.
 */
export async function claimDueDeliveries(tx: Tx, now: Date, limit: number, lockedUntil: Date): Promise<ClaimedDelivery[]> {
  const { rows } = await tx.query(
    `UPDATE webhook_deliveries d SET locked_until = $3
       FROM (SELECT tenant_id, id FROM webhook_deliveries
              WHERE status = 'PENDING' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
              ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED) due,
            webhooks w
      WHERE d.tenant_id = due.tenant_id AND d.id = due.id AND w.tenant_id = d.tenant_id AND w.id = d.webhook_id
      RETURNING d.tenant_id, d.id, d.webhook_id, d.event_type, d.body, d.attempts, w.url, w.status AS webhook_status,
                w.secret_ciphertext, w.previous_secret_ciphertext, w.previous_secret_expires_at`,
    [now, limit, lockedUntil],
  );
  return rows.map((r) => toClaimed(r, lockedUntil));
}

/**
 * Gives claimed deliveries back (a worker shutting down before it sent them, or before it recorded what
 * happened): due again at once for any worker. Only claims still held under their fence are touched.
 */
export async function releaseDeliveries(tx: Tx, claims: { tenantId: string; id: string; fence: Date }[]): Promise<void> {
  if (claims.length === 0) return;
  await tx.query(
    `UPDATE webhook_deliveries d SET locked_until = NULL
       FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS c (tenant_id, id, fence)
      WHERE d.tenant_id = c.tenant_id AND d.id = c.id AND d.locked_until = c.fence AND d.status = 'PENDING'`,
    [claims.map((c) => c.tenantId), claims.map((c) => c.id), claims.map((c) => c.fence)],
  );
}

/** One delivery's claim as the test endpoint makes it (no queue involved). */
export async function loadForSending(tx: Tx, tenantId: string, deliveryId: string, lockedUntil: Date): Promise<ClaimedDelivery | null> {
  const { rows } = await tx.query(
    `SELECT d.tenant_id, d.id, d.webhook_id, d.event_type, d.body, d.attempts, w.url, w.status AS webhook_status,
            w.secret_ciphertext, w.previous_secret_ciphertext, w.previous_secret_expires_at
       FROM webhook_deliveries d JOIN webhooks w ON w.tenant_id = d.tenant_id AND w.id = d.webhook_id
      WHERE d.tenant_id = $1 AND d.id = $2`,
    [tenantId, deliveryId],
  );
  const r = rows[0] as Record<string, unknown> | undefined;
  return r ? toClaimed(r, lockedUntil) : null;
}

/** A delivery row joined with its webhook's target and sealed secrets, as a sender needs it. */
function toClaimed(r: Record<string, unknown>, lockedUntil: Date): ClaimedDelivery {
  return {
    tenantId: r.tenant_id as string,
    id: r.id as string,
    webhookId: r.webhook_id as string,
    event: r.event_type as string,
    body: r.body as string,
    attempts: Number(r.attempts),
    lockedUntil,
    url: r.url as string,
    webhookStatus: r.webhook_status as 'ACTIVE' | 'DISABLED',
    secretCiphertext: r.secret_ciphertext as string,
    previousSecretCiphertext: (r.previous_secret_ciphertext as string | null) ?? null,
    previousSecretExpiresAt: isoOrNull(r.previous_secret_expires_at),
  };
}

/** What became of one attempt, to be written. */
export interface AttemptOutcome {
  tenantId: string;
  deliveryId: string;
  webhookId: string;
  fence: Date;
  /** 0 for a delivery given up without an attempt (its webhook is disabled). */
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  nextAttemptAt: Date | null;
  disableWebhook: string | null;
}

/**
 * Writes attempts and their deliveries' new state, each only while the writer still holds its claim
 * (`locked_until` is the fence): a worker that outlived its lease does not overwrite the new holder's
 * work. One statement (the deliveries' update, the attempts' insert and any 410's disabling of its webhook
 * as data-modifying CTEs): it is atomic without a transaction around it, so the worker runs it on its own,
 * in one round trip. Returns the ids written.
 */
export async function recordOutcomes(tx: Tx, outcomes: AttemptOutcome[], now: Date): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  const { rows } = await tx.query<{ tenant_id: string; id: string }>(
    `WITH r AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::int[], $7::timestamptz[], $8::int[], $9::text[],
                            $10::text[], $11::timestamptz[], $12::int[], $13::text[], $14::text[])
              AS r (tenant_id, id, fence, status, attempt, next_at, status_code, error, attempt_id, started_at, duration_ms, webhook_id, disable_reason)
     ), written AS (
       UPDATE webhook_deliveries d
          SET status = r.status, attempts = greatest(d.attempts, r.attempt), next_attempt_at = r.next_at, locked_until = NULL,
              last_status_code = CASE WHEN r.attempt > 0 THEN r.status_code ELSE d.last_status_code END, last_error = r.error, updated_at = $1,
              delivered_at = CASE WHEN r.status = 'DELIVERED' THEN $1 ELSE d.delivered_at END,
              failed_at = CASE WHEN r.status = 'FAILED' THEN $1 ELSE NULL END
         FROM r
        WHERE d.tenant_id = r.tenant_id AND d.id = r.id AND d.locked_until = r.fence AND d.status = 'PENDING'
        RETURNING d.tenant_id, d.id
     ), attempts AS (
       INSERT INTO webhook_attempts (tenant_id, id, delivery_id, attempt, started_at, duration_ms, status_code, error)
       SELECT r.tenant_id, r.attempt_id, r.id, r.attempt, r.started_at, r.duration_ms, r.status_code, r.error
         FROM r JOIN written w ON w.tenant_id = r.tenant_id AND w.id = r.id
        WHERE r.attempt > 0
     ), disabled AS (
       UPDATE webhooks h SET status = 'DISABLED', disabled_reason = r.disable_reason, updated_at = $1
         FROM r JOIN written w ON w.tenant_id = r.tenant_id AND w.id = r.id
        WHERE r.disable_reason IS NOT NULL AND h.tenant_id = r.tenant_id AND h.id = r.webhook_id AND h.status = 'ACTIVE'
     )
     SELECT tenant_id, id FROM written`,
    [
      now,
      outcomes.map((o) => o.tenantId),
      outcomes.map((o) => o.deliveryId),
      outcomes.map((o) => o.fence),
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.attempt),
      outcomes.map((o) => o.nextAttemptAt),
      outcomes.map((o) => o.statusCode),
      outcomes.map((o) => o.error),
      outcomes.map((o) => (o.attempt > 0 ? newId('attempt') : null)),
      outcomes.map((o) => o.startedAt),
      outcomes.map((o) => o.durationMs),
      outcomes.map((o) => o.webhookId),
      outcomes.map((o) => o.disableWebhook),
    ],
  );
  return new Set(rows.map((r) => `${r.tenant_id}|${r.id}`));
}
