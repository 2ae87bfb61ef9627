import { selectPage } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import { iso, isoOrNull } from '../../lib/rows.js';

export type WebhookStatus = 'ACTIVE' | 'DISABLED';
export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** A webhook as the API shows it: never its secrets. */
export interface WebhookRecord {
  id: string;
  url: string;
  events: string[];
  status: WebhookStatus;
  description: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A webhook with its sealed signing secrets, for signing and rotation only. */
export interface WebhookRow extends WebhookRecord {
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: string | null;
}

function toWebhook(r: Record<string, unknown>): WebhookRow {
  return {
    id: r.id as string,
    url: r.url as string,
    events: (typeof r.events === 'string' ? JSON.parse(r.events) : r.events) as string[],
    status: r.status as WebhookStatus,
    description: (r.description as string | null) ?? null,
    disabledReason: (r.disabled_reason as string | null) ?? null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    secretCiphertext: r.secret_ciphertext as string,
    previousSecretCiphertext: (r.previous_secret_ciphertext as string | null) ?? null,
    previousSecretExpiresAt: isoOrNull(r.previous_secret_expires_at),
  };
}

/** The public view of a row (drops the sealed secrets). */
export function publicWebhook(w: WebhookRow): WebhookRecord {
  const { secretCiphertext: _s, previousSecretCiphertext: _p, previousSecretExpiresAt: _e, ...rest } = w;
  return rest;
}

export async function insertWebhook(
  tx: Tx,
  tenantId: string,
  w: { id: string; url: string; events: string[]; description: string | null; secretCiphertext: string; createdBy: string },
  now: Date,
): Promise<WebhookRow> {
  const { rows } = await tx.query(
    `INSERT INTO webhooks (tenant_id, id, url, events, description, status, secret_ciphertext, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'ACTIVE', $6, $7, $8, $8) RETURNING *`,
    [tenantId, w.id, w.url, JSON.stringify(w.events), w.description, w.secretCiphertext, w.createdBy, now],
  );
  return toWebhook(rows[0]!);
}

export async function findWebhook(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<WebhookRow | null> {
  const { rows } = await tx.query(`SELECT * FROM webhooks WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id]);
  return rows[0] ? toWebhook(rows[0]) : null;
}

export async function listWebhooks(tx: Tx, tenantId: string, page: number, pageSize: number): Promise<{ data: WebhookRecord[]; total: number }> {
  const { rows, total } = await selectPage(tx, { from: 'webhooks', where: 'tenant_id = $1', orderBy: 'created_at DESC, id' }, [tenantId], page, pageSize);
  return { data: rows.map((r) => publicWebhook(toWebhook(r))), total };
}

export interface WebhookChanges {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: WebhookStatus;
  disabledReason?: string | null;
}

export async function updateWebhook(tx: Tx, tenantId: string, id: string, c: WebhookChanges, now: Date): Promise<WebhookRow | null> {
  const sets: string[] = [];
  const params: unknown[] = [tenantId, id, now];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (c.url !== undefined) set('url', c.url);
  if (c.events !== undefined) set('events', JSON.stringify(c.events));
  if (c.description !== undefined) set('description', c.description);
  if (c.status !== undefined) set('status', c.status);
  if (c.disabledReason !== undefined) set('disabled_reason', c.disabledReason);
  const { rows } = await tx.query(`UPDATE webhooks SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE tenant_id = $1 AND id = $2 RETURNING *`, params);
  return rows[0] ? toWebhook(rows[0]) : null;
}

export async function replaceSecret(
  tx: Tx,
  tenantId: string,
  id: string,
  s: { secretCiphertext: string; previousSecretCiphertext: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE webhooks SET secret_ciphertext = $3, previous_secret_ciphertext = $4, previous_secret_expires_at = $5, updated_at = $6
      WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id, s.secretCiphertext, s.previousSecretCiphertext, s.previousSecretExpiresAt, now],
  );
}

// ---- deliveries -------------------------------------------------------------------------------

export interface AttemptRecord {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
  failedAt: string | null;
  attempts: AttemptRecord[];
}

function toDelivery(r: Record<string, unknown>, attempts: AttemptRecord[]): DeliveryRecord {
  return {
    id: r.id as string,
    webhookId: r.webhook_id as string,
    eventId: r.event_id as string,
    event: r.event_type as string,
    status: r.status as DeliveryStatus,
    attemptCount: Number(r.attempts),
    nextAttemptAt: isoOrNull(r.next_attempt_at),
    lastStatusCode: r.last_status_code === null || r.last_status_code === undefined ? null : Number(r.last_status_code),
    lastError: (r.last_error as string | null) ?? null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    deliveredAt: isoOrNull(r.delivered_at),
    failedAt: isoOrNull(r.failed_at),
    attempts,
  };
}

async function attemptsOf(tx: Tx, tenantId: string, deliveryIds: string[]): Promise<Map<string, AttemptRecord[]>> {
  const out = new Map<string, AttemptRecord[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return out;
  const { rows } = await tx.query(
    `SELECT delivery_id, attempt, started_at, duration_ms, status_code, error FROM webhook_attempts
      WHERE tenant_id = $1 AND delivery_id = ANY($2::text[]) ORDER BY delivery_id, attempt`,
    [tenantId, deliveryIds],
  );
  for (const r of rows) {
    out.get(r.delivery_id as string)?.push({
      attempt: Number(r.attempt),
      startedAt: iso(r.started_at),
      durationMs: Number(r.duration_ms),
      statusCode: r.status_code === null ? null : Number(r.status_code),
      error: (r.error as string | null) ?? null,
    });
  }
  return out;
}

export async function listDeliveries(
  tx: Tx,
  tenantId: string,
  webhookId: string,
  q: { status?: DeliveryStatus; page: number; pageSize: number },
): Promise<{ data: DeliveryRecord[]; total: number }> {
  const params: unknown[] = [tenantId, webhookId];
  let where = 'tenant_id = $1 AND webhook_id = $2';
  if (q.status) {
    params.push(q.status);
    where += ` AND status = $${params.length}`;
  }
  const { rows, total } = await selectPage(tx, { from: 'webhook_deliveries', where, orderBy: 'created_at DESC, id DESC', select: 'tenant_id, id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, last_status_code, last_error, created_at, updated_at, delivered_at, failed_at' }, params, q.page, q.pageSize);
  const attempts = await attemptsOf(tx, tenantId, rows.map((r) => r.id as string));
  return { data: rows.map((r) => toDelivery(r, attempts.get(r.id as string) ?? [])), total };
}

export async function findDelivery(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<DeliveryRecord | null> {
  const { rows } = await tx.query(`SELECT * FROM webhook_deliveries WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id]);
  if (!rows[0]) return null;
  return toDelivery(rows[0], (await attemptsOf(tx, tenantId, [id])).get(id) ?? []);
}

/** A FAILED delivery due again now (its next attempt is one more; see the worker). */
export async function requeueDelivery(tx: Tx, tenantId: string, id: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = $3, locked_until = NULL, failed_at = NULL, updated_at = $3
      WHERE tenant_id = $1 AND id = $2 AND status = 'FAILED'`,
    [tenantId, id, now],
  );
}
