import { listFilter, selectPage, updateFields } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import { iso, isoOrNull } from '../../lib/rows.js';

export type LoadStatus = 'PENDING' | 'ASSIGNED' | 'IN_TRANSIT' | 'DELIVERED' | 'CANCELLED';

export interface LoadFields {
  referenceNumber: string;
  customer: string | null;
  originAddress: string | null;
  destinationAddress: string | null;
  scheduledPickup: string | null;
  scheduledDelivery: string | null;
  weight: number | null;
  commodity: string | null;
  externalId: string | null;
}

export interface LoadRecord extends LoadFields {
  id: string;
  status: LoadStatus;
  source: string;
  createdAt: string;
  updatedAt: string;
}

export function toLoad(r: Record<string, unknown>): LoadRecord {
  return {
    id: r.id as string,
    referenceNumber: r.reference_number as string,
    customer: (r.customer as string | null) ?? null,
    originAddress: (r.origin_address as string | null) ?? null,
    destinationAddress: (r.destination_address as string | null) ?? null,
    scheduledPickup: isoOrNull(r.scheduled_pickup),
    scheduledDelivery: isoOrNull(r.scheduled_delivery),
    weight: r.weight === null || r.weight === undefined ? null : Number(r.weight),
    commodity: (r.commodity as string | null) ?? null,
    status: r.status as LoadStatus,
    source: r.source as string,
    externalId: (r.external_id as string | null) ?? null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

const COLUMNS: Record<keyof LoadFields, string> = {
  referenceNumber: 'reference_number',
  customer: 'customer',
  originAddress: 'origin_address',
  destinationAddress: 'destination_address',
  scheduledPickup: 'scheduled_pickup',
  scheduledDelivery: 'scheduled_delivery',
  weight: 'weight',
  commodity: 'commodity',
  externalId: 'external_id',
};

export async function insertLoad(tx: Tx, tenantId: string, id: string, f: LoadFields, source: string, now: Date): Promise<LoadRecord> {
  const { rows } = await tx.query(
    `INSERT INTO loads (tenant_id, id, reference_number, customer, origin_address, destination_address, scheduled_pickup, scheduled_delivery,
                        weight, commodity, status, source, external_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'PENDING', $11, $12, $13, $13) RETURNING *`,
    [tenantId, id, f.referenceNumber, f.customer, f.originAddress, f.destinationAddress, f.scheduledPickup, f.scheduledDelivery, f.weight, f.commodity, source, f.externalId, now],
  );
  return toLoad(rows[0]!);
}

export async function findLoad(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<LoadRecord | null> {
  const { rows } = await tx.query(`SELECT * FROM loads WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id]);
  return rows[0] ? toLoad(rows[0]) : null;
}

export interface LoadFilter {
  status?: LoadStatus;
  search?: string;
}

export async function listLoads(tx: Tx, tenantId: string, filter: LoadFilter, page: number, pageSize: number) {
  const { where, params } = listFilter(tenantId, { status: filter.status }, { text: filter.search, columns: ['reference_number', 'customer'] });
  const { rows, total } = await selectPage(tx, { from: 'loads', where, orderBy: 'created_at DESC, id' }, params, page, pageSize);
  return { total, data: rows.map(toLoad) };
}

export async function updateLoadFields(tx: Tx, tenantId: string, id: string, changes: Partial<LoadFields>, now: Date): Promise<LoadRecord | null> {
  const row = await updateFields(tx, 'loads', COLUMNS, tenantId, id, changes, now);
  return row ? toLoad(row) : null;
}

export async function setLoadStatus(tx: Tx, tenantId: string, id: string, status: LoadStatus, now: Date): Promise<LoadRecord> {
  const { rows } = await tx.query('UPDATE loads SET status = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2 RETURNING *', [tenantId, id, status, now]);
  return toLoad(rows[0]!);
}
