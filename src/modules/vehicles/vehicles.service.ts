import type { Deps } from '../../deps.js';
import { DomainError, invalidState, isUniqueViolation, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import {
  findVehicle,
  insertVehicle,
  listVehicles,
  updateVehicleFields,
  type VehicleFields,
  type VehicleRecord,
  type VehicleStatus,
} from './vehicles.repository.js';

export const DEFAULT_FUEL_TANK_GALLONS = 150;
export const DEFAULT_MPG = 6.5;

type Nullable<T> = { [K in keyof T]?: T[K] | null };
export type CreateVehicleInput = Pick<VehicleFields, 'unitNumber'> &
  Nullable<Pick<VehicleFields, 'vin' | 'make' | 'model' | 'year' | 'licensePlate' | 'eldExternalId'>> &
  Partial<Pick<VehicleFields, 'fuelTankGallons' | 'mpg' | 'status'>>;
export type UpdateVehicleInput = Partial<CreateVehicleInput>;

const OPTIONAL_TEXT = ['vin', 'make', 'model', 'licensePlate', 'eldExternalId'] as const;

/** Trims text, turns blank optional text into null, upper-cases the VIN and checks the model year against the clock. */
function normalize<T extends UpdateVehicleInput>(f: T, now: Date): T {
  const out: Record<string, unknown> = { ...f };
  if (typeof out.unitNumber === 'string') out.unitNumber = out.unitNumber.trim();
  for (const key of OPTIONAL_TEXT) {
    const v = out[key];
    if (typeof v === 'string') out[key] = v.trim() === '' ? null : v.trim();
  }
  if (typeof out.vin === 'string') out.vin = out.vin.toUpperCase();
  const maxYear = now.getUTCFullYear() + 1;
  if (typeof out.year === 'number' && out.year > maxYear) {
    throw new DomainError('VALIDATION', 'Validation failed', [{ field: 'body.year', message: `must be <= ${maxYear}` }]);
  }
  return out as T;
}

function duplicate(err: unknown, f: UpdateVehicleInput): DomainError | null {
  if (isUniqueViolation(err, 'vehicles_unit_key')) return new DomainError('CONFLICT', `A vehicle with unit number ${String(f.unitNumber)} already exists in this organization`);
  if (isUniqueViolation(err, 'vehicles_vin_key')) return new DomainError('CONFLICT', `A vehicle with VIN ${String(f.vin)} already exists in this organization`);
  return null;
}

export function vehiclesService(deps: Deps) {
  const { db, clock } = deps;

  return {
    async create(ctx: TenantContext, input: CreateVehicleInput): Promise<VehicleRecord> {
      const now = clock.now();
      const n = normalize(input, now);
      const f: VehicleFields = {
        unitNumber: n.unitNumber,
        vin: n.vin ?? null,
        make: n.make ?? null,
        model: n.model ?? null,
        year: n.year ?? null,
        licensePlate: n.licensePlate ?? null,
        fuelTankGallons: n.fuelTankGallons ?? DEFAULT_FUEL_TANK_GALLONS,
        mpg: n.mpg ?? DEFAULT_MPG,
        status: n.status ?? 'ACTIVE',
        eldExternalId: n.eldExternalId ?? null,
      };
      try {
        return await db.tenant(ctx.tenantId, (tx) => insertVehicle(tx, ctx.tenantId, newId('vehicle'), f, now));
      } catch (err) {
        throw duplicate(err, f) ?? err;
      }
    },

    async list(ctx: TenantContext, q: { status?: VehicleStatus; search?: string; page: number; pageSize: number }) {
      const filter = { status: q.status, search: q.search?.trim() || undefined };
      const { data, total } = await db.tenant(ctx.tenantId, (tx) => listVehicles(tx, ctx.tenantId, filter, q.page, q.pageSize));
      return { data, total, page: q.page, pageSize: q.pageSize };
    },

    async get(ctx: TenantContext, id: string): Promise<VehicleRecord> {
      const v = await db.tenant(ctx.tenantId, (tx) => findVehicle(tx, ctx.tenantId, id));
      if (!v) throw notFound('Vehicle');
      return v;
    },

    async update(ctx: TenantContext, id: string, changes: UpdateVehicleInput): Promise<VehicleRecord> {
      const now = clock.now();
      const f = normalize(changes, now);
      try {
        const v = await db.tenant(ctx.tenantId, (tx) => updateVehicleFields(tx, ctx.tenantId, id, f as Partial<VehicleFields>, now));
        if (!v) throw notFound('Vehicle');
        return v;
      } catch (err) {
        throw duplicate(err, f) ?? err;
      }
    },

    /** DELETE: a soft delete (status INACTIVE); history that names the vehicle keeps its record. */
    async deactivate(ctx: TenantContext, id: string): Promise<VehicleRecord> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const current = await findVehicle(tx, ctx.tenantId, id, true);
        if (!current) throw notFound('Vehicle');
        if (current.status === 'INACTIVE') throw invalidState('Vehicle is already INACTIVE');
        return (await updateVehicleFields(tx, ctx.tenantId, id, { status: 'INACTIVE' }, now))!;
      });
    },
  };
}
