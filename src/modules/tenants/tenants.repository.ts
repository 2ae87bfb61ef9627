import type { Tx } from '../../db/types.js';
import { iso } from '../../lib/rows.js';
import type { TenantStatus } from '../../plugins/context.js';

export interface TenantRecord {
  id: string;
  name: string;
  address: string;
  phone: string;
  contactEmail: string;
  dotNumber: string | null;
  mcNumber: string | null;
  status: TenantStatus;
  statusReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toTenant(r: Record<string, unknown>): TenantRecord {
  return {
    id: r.id as string,
    name: r.name as string,
    address: r.address as string,
    phone: r.phone as string,
    contactEmail: r.contact_email as string,
    dotNumber: (r.dot_number as string | null) ?? null,
    mcNumber: (r.mc_number as string | null) ?? null,
    status: r.status as TenantStatus,
    statusReason: (r.status_reason as string | null) ?? null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** Reads the caller's own tenant inside a tenant transaction (RLS narrows tenants to its own row). */
export async function findOwnTenant(tx: Tx, tenantId: string): Promise<TenantRecord | null> {
  const { rows } = await tx.query('SELECT * FROM tenants WHERE id = $1', [tenantId]);
  return rows[0] ? toTenant(rows[0]) : null;
}

export async function insertTenant(
  tx: Tx,
  t: { id: string; name: string; address: string; phone: string; contactEmail: string; dotNumber: string | null; mcNumber: string | null },
  now: Date,
): Promise<TenantRecord> {
  const { rows } = await tx.query(
    `INSERT INTO tenants (id, name, address, phone, contact_email, dot_number, mc_number, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING_APPROVAL', $8, $8) RETURNING *`,
    [t.id, t.name, t.address, t.phone, t.contactEmail, t.dotNumber, t.mcNumber, now],
  );
  return toTenant(rows[0]!);
}
