import type { IntegrationCategory, IntegrationErrorCode } from '../../adapters/integrations/port.js';
import type { Tx } from '../../db/types.js';
import { iso, isoOrNull } from '../../lib/rows.js';

export type IntegrationStatus = 'CONFIGURED' | 'TESTING' | 'ACTIVE' | 'SYNCING' | 'DISABLED' | 'ERROR';

export interface LastTest {
  testResult: 'SUCCESS' | 'FAILED';
  message: string;
  testedAt: string;
}

export interface LastError {
  code: IntegrationErrorCode;
  details: string;
  at: string;
}

/** An integration as the API shows it: never its config. */
export interface IntegrationRecord {
  id: string;
  vendor: string;
  category: IntegrationCategory;
  name: string;
  status: IntegrationStatus;
  syncIntervalMinutes: number;
  lastSyncAt: string | null;
  nextSyncAt: string | null;
  syncStartedAt: string | null;
  lastTest: LastTest | null;
  lastError: LastError | null;
  /** How many records of each kind the last successful sync returned. */
  lastSyncCounts: Record<string, number> | null;
  createdAt: string;
  updatedAt: string;
}

/** A row with its sealed config and lease, for the service and the worker only. */
export interface IntegrationRow extends IntegrationRecord {
  configCiphertext: string;
  lockedUntil: Date | null;
  /** While SYNCING: a one-off manual sync of a DISABLED integration, which goes back to DISABLED when it ends. */
  returnToDisabled: boolean;
}

const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : ((typeof v === 'string' ? JSON.parse(v) : v) as T));

export function toIntegration(r: Record<string, unknown>): IntegrationRow {
  return {
    id: r.id as string,
    vendor: r.vendor as string,
    category: r.category as IntegrationCategory,
    name: r.name as string,
    status: r.status as IntegrationStatus,
    syncIntervalMinutes: Number(r.sync_interval_minutes),
    lastSyncAt: isoOrNull(r.last_sync_at),
    nextSyncAt: isoOrNull(r.next_sync_at),
    syncStartedAt: isoOrNull(r.sync_started_at),
    lastTest: json<LastTest>(r.last_test),
    lastError: json<LastError>(r.last_error),
    lastSyncCounts: json<Record<string, number>>(r.last_sync_counts),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    configCiphertext: r.config_ciphertext as string,
    lockedUntil: r.locked_until === null || r.locked_until === undefined ? null : new Date(iso(r.locked_until)),
    returnToDisabled: r.return_to_disabled === true,
  };
}

/** The public view of a row (drops the sealed config, the lease and where a sync returns to). */
export function publicIntegration(row: IntegrationRow): IntegrationRecord {
  const { configCiphertext: _c, lockedUntil: _l, returnToDisabled: _r, ...rest } = row;
  return rest;
}

export async function insertIntegration(
  tx: Tx,
  tenantId: string,
  i: { id: string; vendor: string; category: IntegrationCategory; name: string; configCiphertext: string; syncIntervalMinutes: number; createdBy: string },
  now: Date,
): Promise<IntegrationRow> {
  const { rows } = await tx.query(
    `INSERT INTO integrations (tenant_id, id, vendor, category, name, status, config_ciphertext, sync_interval_minutes, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'CONFIGURED', $6, $7, $8, $9, $9) RETURNING *`,
    [tenantId, i.id, i.vendor, i.category, i.name, i.configCiphertext, i.syncIntervalMinutes, i.createdBy, now],
  );
  return toIntegration(rows[0]!);
}

export async function findIntegration(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<IntegrationRow | null> {
  const { rows } = await tx.query(`SELECT * FROM integrations WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id]);
  return rows[0] ? toIntegration(rows[0]) : null;
}

/** A tenant has a handful of integrations: all of them, newest first. */
export async function listIntegrations(tx: Tx, tenantId: string): Promise<IntegrationRecord[]> {
  const { rows } = await tx.query(`SELECT * FROM integrations WHERE tenant_id = $1 ORDER BY created_at DESC, id LIMIT 1000`, [tenantId]);
  return rows.map((r) => publicIntegration(toIntegration(r)));
}

/** Column values to set (snake_case column → value; jsonb values as objects). */
export type IntegrationChanges = Partial<{
  name: string;
  status: IntegrationStatus;
  config_ciphertext: string;
  sync_interval_minutes: number;
  last_sync_at: Date | null;
  next_sync_at: Date | null;
  last_test: LastTest | null;
  last_error: LastError | null;
  last_sync_counts: Record<string, number> | null;
  sync_started_at: Date | null;
  locked_until: Date | null;
  return_to_disabled: boolean;
}>;

const JSON_COLUMNS = new Set(['last_test', 'last_error', 'last_sync_counts']);

/**
 * Updates one integration; `fence` adds conditions (column = value) so that a result is written only
 * if nothing changed the row since its work began. Returns the row, or null when it is gone or fenced off.
 */
export async function updateIntegration(
  tx: Tx,
  tenantId: string,
  id: string,
  c: IntegrationChanges,
  now: Date,
  fence: { status?: IntegrationStatus; configCiphertext?: string; lockedUntil?: Date } = {},
): Promise<IntegrationRow | null> {
  const params: unknown[] = [tenantId, id, now];
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const sets = Object.entries(c)
    .filter(([, v]) => v !== undefined)
    .map(([column, v]) => `${column} = ${add(JSON_COLUMNS.has(column) && v !== null ? JSON.stringify(v) : v)}`);
  const where = ['tenant_id = $1', 'id = $2'];
  if (fence.status !== undefined) where.push(`status = ${add(fence.status)}`);
  if (fence.configCiphertext !== undefined) where.push(`config_ciphertext = ${add(fence.configCiphertext)}`);
  if (fence.lockedUntil !== undefined) where.push(`locked_until = ${add(fence.lockedUntil)}`);
  const { rows } = await tx.query(`UPDATE integrations SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE ${where.join(' AND ')} RETURNING *`, params);
  return rows[0] ? toIntegration(rows[0]) : null;
}

export async function deleteIntegration(tx: Tx, tenantId: string, id: string): Promise<boolean> {
  const { rowCount } = await tx.query('DELETE FROM integrations WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  return rowCount > 0;
}

/** A claimed sync: the row (status SYNCING) under a lease that fences its result. */
export interface ClaimedSync {
  tenantId: string;
  row: IntegrationRow;
  lease: Date;
}

/**
 * Gives claimed syncs back (a worker shutting down mid-sync): they stay SYNCING and due, for any worker
 * to take at once. Only claims still held under their lease are touched.
 */
export async function releaseSyncs(tx: Tx, claims: ClaimedSync[]): Promise<void> {
  if (claims.length === 0) return;
  await tx.query(
    `UPDATE integrations i SET locked_until = NULL
       FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS c (tenant_id, id, lease)
      WHERE i.tenant_id = c.tenant_id AND i.id = c.id AND i.locked_until = c.lease AND i.status = 'SYNCING'`,
    [claims.map((c) => c.tenantId), claims.map((c) => c.row.id), claims.map((c) => c.lease)],
  );
}

/**
 * Claims up to `limit` integrations of any tenant whose sync is due: ACTIVE with next_sync_at reached,
 * or SYNCING (requested by hand, or left by a worker whose lease ran out). FOR UPDATE SKIP LOCKED: no two
 * workers take the same one. A scheduled sync (from ACTIVE) returns to ACTIVE; a requested one keeps
 * where it returns to. Run as the schema owner (db.system).
 */
export async function claimDueSyncs(tx: Tx, now: Date, limit: number, lease: Date): Promise<ClaimedSync[]> {
  const { rows } = await tx.query(
    `UPDATE integrations i
        SET status = 'SYNCING', locked_until = $3,
            sync_started_at = CASE WHEN i.status = 'SYNCING' AND i.sync_started_at IS NOT NULL THEN i.sync_started_at ELSE $1 END,
            return_to_disabled = i.status = 'SYNCING' AND i.return_to_disabled
       FROM (SELECT tenant_id, id FROM integrations
              WHERE status IN ('ACTIVE','SYNCING') AND next_sync_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
              ORDER BY next_sync_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
      WHERE i.tenant_id = due.tenant_id AND i.id = due.id
      RETURNING i.*`,
    [now, limit, lease],
  );
  return rows.map((r) => ({ tenantId: r.tenant_id as string, row: toIntegration(r), lease }));
}
