/**
 * Applies a dispatch TMS's active loads to the tenant's `loads`, keyed by (source = vendor key,
 * external_id): a new one is inserted (ASSIGNED or IN_TRANSIT), a known one is updated only when a
 * mapped field differs, otherwise left alone — so a repeated sync changes nothing.
 *
 * - Status moves forward only (PENDING → ASSIGNED → IN_TRANSIT); a load our own routes already moved on
 *   (IN_TRANSIT, DELIVERED, CANCELLED) is never moved back by the TMS. A move emits load.status_changed.
 * - A reference number already used by another load of the tenant (a manually created one, or another
 *   TMS order with the same number) is a conflict: that order is skipped and counted as
 *   `loadsConflicting`; the other load is untouched and the sync goes on.
 * - A synced load whose order is no longer active (completed, voided, deleted in the TMS) is left as it
 *   is: the TMS search returns active orders only, so absence says nothing about what happened to it.
 * - Manual edits of a synced load's mapped fields are overwritten by the next sync that sees the order
 *   changed; the TMS is the source of those fields.
 */
import type { TmsLoadsSyncResult } from '../../../adapters/integrations/port.js';
import { emitEvent } from '../../../db/outbox.js';
import type { Tx } from '../../../db/types.js';
import { newId } from '../../../lib/ids.js';
import { toLoad, updateLoadFields, type LoadFields, type LoadRecord, type LoadStatus } from '../../loads/loads.repository.js';
import type { ApplyCounts, ApplyTarget } from './types.js';

type TmsLoad = TmsLoadsSyncResult['loads'][number];

const RANK: Record<LoadStatus, number> = { PENDING: 0, ASSIGNED: 1, IN_TRANSIT: 2, DELIVERED: 3, CANCELLED: 3 };

const FIELDS = ['referenceNumber', 'customer', 'originAddress', 'destinationAddress', 'scheduledPickup', 'scheduledDelivery', 'weight', 'commodity'] as const;
type Field = (typeof FIELDS)[number];

const sameValue = (field: Field, a: unknown, b: unknown): boolean => {
  if (a === null || b === null) return a === b;
  if (field === 'scheduledPickup' || field === 'scheduledDelivery') return Date.parse(String(a)) === Date.parse(String(b));
  return a === b;
};

/** The mapped fields of `incoming` that differ from `current`. */
function changedFields(current: LoadRecord, incoming: TmsLoad): Partial<LoadFields> {
  const changes: Partial<Record<Field, unknown>> = {};
  for (const field of FIELDS) if (!sameValue(field, current[field], incoming[field])) changes[field] = incoming[field];
  return changes as Partial<LoadFields>;
}

async function findSynced(tx: Tx, tenantId: string, source: string, externalId: string): Promise<LoadRecord | null> {
  const { rows } = await tx.query('SELECT * FROM loads WHERE tenant_id = $1 AND source = $2 AND external_id = $3 FOR UPDATE', [tenantId, source, externalId]);
  return rows[0] ? toLoad(rows[0]) : null;
}

async function referenceTaken(tx: Tx, tenantId: string, referenceNumber: string, exceptId: string): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM loads WHERE tenant_id = $1 AND upper(reference_number) = upper($2) AND id <> $3', [tenantId, referenceNumber, exceptId]);
  return rows.length > 0;
}

/** Inserts unless a unique key (reference number, or the external key in a race) is taken: true when inserted. */
async function insertSynced(tx: Tx, tenantId: string, source: string, l: TmsLoad, now: Date): Promise<boolean> {
  const { rows } = await tx.query(
    `INSERT INTO loads (tenant_id, id, reference_number, customer, origin_address, destination_address, scheduled_pickup, scheduled_delivery,
                        weight, commodity, status, source, external_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
     ON CONFLICT DO NOTHING RETURNING id`,
    [tenantId, newId('load'), l.referenceNumber, l.customer, l.originAddress, l.destinationAddress, l.scheduledPickup, l.scheduledDelivery, l.weight, l.commodity, l.status, source, l.externalId, now],
  );
  return rows.length > 0;
}

export async function applyLoads(tx: Tx, target: ApplyTarget, result: TmsLoadsSyncResult, now: Date): Promise<ApplyCounts> {
  const counts = { loadsCreated: 0, loadsUpdated: 0, loadsUnchanged: 0, loadsConflicting: 0 };
  const { tenantId, vendor } = target;
  for (const incoming of result.loads) {
    const current = await findSynced(tx, tenantId, vendor, incoming.externalId);
    if (!current) {
      if (await insertSynced(tx, tenantId, vendor, incoming, now)) counts.loadsCreated++;
      else counts.loadsConflicting++;
      continue;
    }
    const changes = changedFields(current, incoming);
    const advance = RANK[incoming.status] > RANK[current.status];
    if (Object.keys(changes).length === 0 && !advance) {
      counts.loadsUnchanged++;
      continue;
    }
    if (changes.referenceNumber !== undefined && (await referenceTaken(tx, tenantId, incoming.referenceNumber, current.id))) {
      counts.loadsConflicting++;
      continue;
    }
    if (Object.keys(changes).length > 0) await updateLoadFields(tx, tenantId, current.id, changes, now);
    if (advance) {
      await tx.query('UPDATE loads SET status = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2', [tenantId, current.id, incoming.status, now]);
      await emitEvent(
        tx,
        tenantId,
        'load.status_changed',
        {
          loadId: current.id,
          referenceNumber: incoming.referenceNumber,
          oldStatus: current.status,
          newStatus: incoming.status,
          changedBy: `integration:${target.integrationId}`,
          changedAt: now.toISOString(),
          note: `Synced from ${vendor}`,
        },
        now,
      );
    }
    counts.loadsUpdated++;
  }
  return counts;
}
