import { listFilter, selectPage, updateFields } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import { iso } from '../../lib/rows.js';

export type VehicleStatus = 'ACTIVE' | 'INACTIVE' | 'IN_MAINTENANCE';

export interface VehicleFields {
  unitNumber: string;
  vin: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  licensePlate: string | null;
  fuelTankGallons: number;
  mpg: number;
  status: VehicleStatus;
  eldExternalId: string | null;
}

export interface VehicleRecord extends VehicleFields {
  id: string;
  createdAt: string;
  updatedAt: string;
}

export function toVehicle(r: Record<string, unknown>): VehicleRecord {
  return {
    id: r.id as string,
    unitNumber: r.unit_number as string,
    vin: (r.vin as string | null) ?? null,
    make: (r.make as string | null) ?? null,
    model: (r.model as string | null) ?? null,
    year: r.year === null || r.year === undefined ? null : Number(r.year),
    licensePlate: (r.license_plate as string | null) ?? null,
    fuelTankGallons: Number(r.fuel_tank_gallons),
    mpg: Number(r.mpg),
    status: r.status as VehicleStatus,
    eldExternalId: (r.eld_external_id as string | null) ?? null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

const COLUMNS: Record<keyof VehicleFields, string> = {
  unitNumber: 'unit_number',
  vin: 'vin',
  make: 'make',
  model: 'model',
  year: 'year',
  licensePlate: 'license_plate',
  fuelTankGallons: 'fuel_tank_gallons',
  mpg: 'mpg',
  status: 'status',
  eldExternalId: 'eld_external_id',
};

export async function insertVehicle(tx: Tx, tenantId: string, id: string, f: VehicleFields, now: Date): Promise<VehicleRecord> {
  const { rows } = await tx.query(
    `INSERT INTO vehicles (tenant_id, id, unit_number, vin, make, model, year, license_plate, fuel_tank_gallons, mpg, status, eld_external_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING *`,
    [tenantId, id, f.unitNumber, f.vin, f.make, f.model, f.year, f.licensePlate, f.fuelTankGallons, f.mpg, f.status, f.eldExternalId, now],
  );
  return toVehicle(rows[0]!);
}

export async function findVehicle(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<VehicleRecord | null> {
  const { rows } = await tx.query(`SELECT * FROM vehicles WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id]);
  return rows[0] ? toVehicle(rows[0]) : null;
}

export interface VehicleFilter {
  status?: VehicleStatus;
  search?: string;
}

export async function listVehicles(tx: Tx, tenantId: string, filter: VehicleFilter, page: number, pageSize: number) {
  const { where, params } = listFilter(tenantId, { status: filter.status }, { text: filter.search, columns: ['unit_number', 'vin', 'license_plate', 'make', 'model'] });
  const { rows, total } = await selectPage(tx, { from: 'vehicles', where, orderBy: 'upper(unit_number), id' }, params, page, pageSize);
  return { total, data: rows.map(toVehicle) };
}

export async function updateVehicleFields(tx: Tx, tenantId: string, id: string, changes: Partial<VehicleFields>, now: Date): Promise<VehicleRecord | null> {
  const row = await updateFields(tx, 'vehicles', COLUMNS, tenantId, id, changes, now);
  return row ? toVehicle(row) : null;
}
