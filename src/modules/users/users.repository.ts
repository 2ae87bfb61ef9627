import { selectPage } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import { iso, isoOrNull } from '../../lib/rows.js';
import type { TenantRole } from '../../plugins/policies.js';

export interface UserRecord {
  id: string;
  userId: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: TenantRole;
  status: 'ACTIVE' | 'DEACTIVATED';
  driverId: string | null;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
  deactivatedAt: string | null;
}

const SELECT = `SELECT u.*, d.id AS driver_id FROM users u
  LEFT JOIN drivers d ON d.tenant_id = u.tenant_id AND d.user_id = u.id`;

export function toUser(r: Record<string, unknown>): UserRecord {
  return {
    id: r.id as string,
    userId: r.id as string,
    tenantId: r.tenant_id as string,
    email: r.email as string,
    firstName: r.first_name as string,
    lastName: r.last_name as string,
    role: r.role as TenantRole,
    status: r.status as 'ACTIVE' | 'DEACTIVATED',
    driverId: (r.driver_id as string | null) ?? null,
    lastLoginAt: isoOrNull(r.last_login_at),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    deactivatedAt: isoOrNull(r.deactivated_at),
  };
}

export interface NewUser {
  tenantId: string;
  id: string;
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  role: TenantRole;
}

export async function insertUser(tx: Tx, u: NewUser, now: Date): Promise<UserRecord> {
  const { rows } = await tx.query(
    `INSERT INTO users (tenant_id, id, email, password_hash, first_name, last_name, role, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING *, NULL::text AS driver_id`,
    [u.tenantId, u.id, u.email, u.passwordHash, u.firstName, u.lastName, u.role, now],
  );
  return toUser(rows[0]!);
}

export async function findUser(tx: Tx, tenantId: string, id: string): Promise<UserRecord | null> {
  const { rows } = await tx.query(`${SELECT} WHERE u.tenant_id = $1 AND u.id = $2`, [tenantId, id]);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function listUsers(tx: Tx, tenantId: string, page: number, pageSize: number): Promise<{ rows: UserRecord[]; total: number }> {
  const { rows, total } = await selectPage(
    tx,
    {
      select: 'u.*, d.id AS driver_id',
      from: 'users u LEFT JOIN drivers d ON d.tenant_id = u.tenant_id AND d.user_id = u.id',
      where: 'u.tenant_id = $1',
      orderBy: 'u.created_at, u.id',
    },
    [tenantId],
    page,
    pageSize,
  );
  return { rows: rows.map(toUser), total };
}

/** Is this e-mail address already used by any account, in any tenant or as platform administrator? (system tx) */
export async function emailTaken(tx: Tx, email: string): Promise<boolean> {
  const { rows } = await tx.query(
    'SELECT 1 FROM users WHERE lower(email) = lower($1) UNION ALL SELECT 1 FROM platform_admins WHERE lower(email) = lower($1) LIMIT 1',
    [email],
  );
  return rows.length > 0;
}

/**
 * Counts the tenant's active OWNERs and locks their rows until the transaction ends, so that two
 * concurrent demotions or deactivations cannot both see "another OWNER remains" and leave none.
 */
export async function countActiveOwners(tx: Tx, tenantId: string): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM (SELECT id FROM users WHERE tenant_id = $1 AND role = 'OWNER' AND status = 'ACTIVE' ORDER BY id FOR UPDATE) owners",
    [tenantId],
  );
  return rows[0]?.n ?? 0;
}
