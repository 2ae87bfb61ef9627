import { listFilter, updateFields } from '../../db/sql.js';
import { hoursSourceColumns, type HoursSourceRow, type StoredHosSettings } from '../hos/hos.repository.js';
import type { Tx } from '../../db/types.js';
import { iso, isoOrNull } from '../../lib/rows.js';

export type DriverStatus = 'PENDING' | 'ACTIVE' | 'INACTIVE';

/** The terminal or yard a driver is based at. */
export interface HomeTerminal {
  name: string;
  address: string | null;
  latitude: number;
  longitude: number;
  timeZone: string;
}

export interface DriverRecord {
  id: string;
  firstName: string;
  lastName: string;
  licenseNumber: string;
  licenseState: string;
  truckNumber: string | null;
  phoneNumber: string | null;
  email: string | null;
  externalId: string | null;
  status: DriverStatus;
  userId: string | null;
  currentHoursDriven: number;
  currentOnDutyTime: number;
  currentCycleUsed: number;
  lastRestartDate: string | null;
  createdAt: string;
  updatedAt: string;
  deactivatedAt: string | null;
  reactivatedAt: string | null;
  homeTerminal: HomeTerminal | null;
}

/** The columns a driver list shows, from a drivers row. */
function toListDriver(r: Record<string, unknown>) {
  return {
    id: r.id as string,
    firstName: r.first_name as string,
    lastName: r.last_name as string,
    licenseNumber: r.license_number as string,
    licenseState: r.license_state as string,
    truckNumber: (r.truck_number as string | null) ?? null,
    status: r.status as DriverStatus,
  };
}

export function toDriver(r: Record<string, unknown>): DriverRecord {
  return {
    ...toListDriver(r),
    phoneNumber: (r.phone_number as string | null) ?? null,
    email: (r.email as string | null) ?? null,
    externalId: (r.external_id as string | null) ?? null,
    userId: (r.user_id as string | null) ?? null,
    currentHoursDriven: Number(r.current_hours_driven),
    currentOnDutyTime: Number(r.current_on_duty_time),
    currentCycleUsed: Number(r.current_cycle_used),
    lastRestartDate: isoOrNull(r.last_restart_date),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    deactivatedAt: isoOrNull(r.deactivated_at),
    reactivatedAt: isoOrNull(r.reactivated_at),
    homeTerminal: r.home_terminal === null || r.home_terminal === undefined ? null : ((typeof r.home_terminal === 'string' ? JSON.parse(r.home_terminal) : r.home_terminal) as HomeTerminal),
  };
}

export interface DriverFields {
  firstName: string;
  lastName: string;
  licenseNumber: string;
  licenseState: string;
  truckNumber: string | null;
  phoneNumber: string | null;
  email: string | null;
  externalId: string | null;
  homeTerminal: HomeTerminal | null;
}

const COLUMNS: Record<keyof DriverFields, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  licenseNumber: 'license_number',
  licenseState: 'license_state',
  truckNumber: 'truck_number',
  phoneNumber: 'phone_number',
  email: 'email',
  externalId: 'external_id',
  homeTerminal: 'home_terminal',
};

/** jsonb columns go to the database as JSON text (the same on PGlite and PostgreSQL). */
const jsonb = (v: HomeTerminal | null | undefined) => (v === undefined || v === null ? v : JSON.stringify(v));

export async function insertDriver(tx: Tx, tenantId: string, id: string, f: DriverFields, now: Date): Promise<DriverRecord> {
  const { rows } = await tx.query(
    `INSERT INTO drivers (tenant_id, id, first_name, last_name, license_number, license_state, truck_number, phone_number, email, external_id, home_terminal, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'ACTIVE', $12, $12) RETURNING *`,
    [tenantId, id, f.firstName, f.lastName, f.licenseNumber, f.licenseState, f.truckNumber, f.phoneNumber, f.email, f.externalId, jsonb(f.homeTerminal), now],
  );
  return toDriver(rows[0]!);
}

export async function findDriver(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<DriverRecord | null> {
  const { rows } = await tx.query(`SELECT * FROM drivers WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id]);
  return rows[0] ? toDriver(rows[0]) : null;
}

export interface DriverFilter {
  status?: DriverStatus;
  search?: string;
  /** Only the driver profile linked to this user (DRIVER role). */
  userId?: string;
}

/** listDrivers' statement for each filter combination (a handful: status, user, search), built once. */
const pageStatements = new Map<string, string>();

/**
 * A page of drivers (and the total) with what each one's hours now are computed from (hoursSourceColumns)
 * and the tenant's stored HOS settings, in one statement: the list shows every driver's live hours.
 */
export async function listDrivers(tx: Tx, tenantId: string, filter: DriverFilter, page: number, pageSize: number, hoursParams: [Date, Date]) {
  const { where, params } = listFilter(
    tenantId,
    { status: filter.status, user_id: filter.userId },
    { text: filter.search, columns: ['first_name', 'last_name', "(first_name || ' ' || last_name)", 'license_number', 'truck_number'] },
  );
  if (!Number.isInteger(page) || !Number.isInteger(pageSize) || page < 1 || pageSize < 1) throw new RangeError('invalid page');
  const n = params.length;
  let sql = pageStatements.get(where);
  if (sql === undefined) {
    sql = `WITH page AS (
       SELECT id, first_name, last_name, license_number, license_state, truck_number, status, count(*) OVER () AS total
         FROM drivers WHERE ${where} ORDER BY last_name, first_name, id LIMIT $${n + 3} OFFSET $${n + 4})
     SELECT p.*, (SELECT hos FROM tenant_settings WHERE tenant_id = $1) AS hos, ${hoursSourceColumns('$1', 'p.id', `$${n + 1}`, `$${n + 2}`)}
       FROM page p ORDER BY p.last_name, p.first_name, p.id`;
    pageStatements.set(where, sql);
  }
  const { rows } = await tx.query<Record<string, unknown> & HoursSourceRow & { hos: StoredHosSettings | null }>(
    sql,
    [...params, ...hoursParams, pageSize, (page - 1) * pageSize],
    // Planned once per connection for each filter combination (the driver list is the busiest read).
    { prepare: 'drivers_page' },
  );
  let total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  // A page past the end has no row to carry the count.
  if (rows.length === 0 && page > 1) total = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM drivers WHERE ${where}`, params)).rows[0]?.n ?? 0;
  return {
    total,
    hos: rows[0]?.hos ?? null,
    data: rows.map((r) => ({
      driver: toListDriver(r),
      hours: { hours_log: r.hours_log, hours_eld: r.hours_eld, hours_team: r.hours_team },
    })),
  };
}

export async function updateDriverFields(tx: Tx, tenantId: string, id: string, changes: Partial<DriverFields>, now: Date): Promise<DriverRecord | null> {
  const row = await updateFields(tx, 'drivers', COLUMNS, tenantId, id, { ...changes, homeTerminal: jsonb(changes.homeTerminal) }, now);
  return row ? toDriver(row) : null;
}

export async function setDriverStatus(tx: Tx, tenantId: string, id: string, status: DriverStatus, now: Date): Promise<DriverRecord> {
  const stamp = status === 'INACTIVE' ? 'deactivated_at' : 'reactivated_at';
  const { rows } = await tx.query(
    `UPDATE drivers SET status = $3, ${stamp} = $4, updated_at = $4 WHERE tenant_id = $1 AND id = $2 RETURNING *`,
    [tenantId, id, status, now],
  );
  return toDriver(rows[0]!);
}

export async function linkDriverToUser(tx: Tx, tenantId: string, driverId: string, userId: string, now: Date): Promise<void> {
  await tx.query('UPDATE drivers SET user_id = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2', [tenantId, driverId, userId, now]);
}
