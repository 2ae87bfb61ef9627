import type { Deps } from '../../deps.js';
import { emitEvent } from '../../db/outbox.js';
import { DomainError, invalidState, isUniqueViolation, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { LICENSE_REGIONS } from '../../lib/regions.js';
import type { TenantContext } from '../../plugins/context.js';
import {
  findDriver,
  insertDriver,
  listDrivers,
  setDriverStatus,
  updateDriverFields,
  type DriverFields,
  type DriverRecord,
  type DriverStatus,
} from './drivers.repository.js';

type CreateInput = Pick<DriverFields, 'firstName' | 'lastName' | 'licenseNumber' | 'licenseState'> &
  Partial<Pick<DriverFields, 'truckNumber' | 'phoneNumber' | 'email' | 'externalId'>>;

function normalize<T extends Partial<DriverFields>>(f: T): T {
  const out = { ...f };
  for (const key of Object.keys(out) as (keyof DriverFields)[]) {
    const v = out[key];
    if (typeof v === 'string') (out as Record<string, unknown>)[key] = v.trim() === '' ? null : v.trim();
  }
  if (typeof out.licenseState === 'string') {
    out.licenseState = out.licenseState.toUpperCase();
    if (!(LICENSE_REGIONS as readonly string[]).includes(out.licenseState)) {
      throw new DomainError('VALIDATION', 'Validation failed', [{ field: 'body.licenseState', message: `${out.licenseState} is not a US state or Canadian province code` }]);
    }
  }
  if (typeof out.licenseNumber === 'string') out.licenseNumber = out.licenseNumber.toUpperCase();
  return out;
}

const duplicateLicense = (n: string) => new DomainError('CONFLICT', `A driver with license number ${n} already exists in this organization`);
const duplicateExternalId = (n: string) => new DomainError('CONFLICT', `A driver with external id ${n} already exists in this organization`);

/** A DRIVER user sees only the driver profile linked to them; everyone else in the tenant sees all. */
function visible(ctx: TenantContext, d: DriverRecord | null): DriverRecord | null {
  if (!d) return null;
  return ctx.role === 'DRIVER' && d.userId !== ctx.userId ? null : d;
}

export function driversService(deps: Deps) {
  const { db, clock } = deps;

  async function changeStatus(ctx: TenantContext, id: string, to: DriverStatus) {
    const now = clock.now();
    return db.tenant(ctx.tenantId, async (tx) => {
      const current = await findDriver(tx, ctx.tenantId, id, true);
      if (!current) throw notFound('Driver');
      if (current.status === to) throw invalidState(`Driver is already ${to}`);
      const updated = await setDriverStatus(tx, ctx.tenantId, id, to, now);
      await emitEvent(
        tx,
        ctx.tenantId,
        'driver.status_changed',
        { driverId: id, oldStatus: current.status, newStatus: to, changedBy: ctx.userId, changedAt: now.toISOString() },
        now,
      );
      return updated;
    });
  }

  return {
    async create(ctx: TenantContext, input: CreateInput): Promise<DriverRecord> {
      const f = normalize({ truckNumber: null, phoneNumber: null, email: null, externalId: null, ...input });
      try {
        return await db.tenant(ctx.tenantId, (tx) => insertDriver(tx, ctx.tenantId, newId('driver'), f, clock.now()));
      } catch (err) {
        if (isUniqueViolation(err, 'drivers_license_key')) throw duplicateLicense(f.licenseNumber);
        if (isUniqueViolation(err, 'drivers_external_key')) throw duplicateExternalId(String(f.externalId));
        throw err;
      }
    },

    async list(ctx: TenantContext, q: { status?: DriverStatus; search?: string; page: number; pageSize: number }) {
      const filter = { status: q.status, search: q.search?.trim() || undefined, userId: ctx.role === 'DRIVER' ? ctx.userId : undefined };
      const { data, total } = await db.tenant(ctx.tenantId, (tx) => listDrivers(tx, ctx.tenantId, filter, q.page, q.pageSize));
      return { data, total, page: q.page, pageSize: q.pageSize };
    },

    async get(ctx: TenantContext, id: string): Promise<DriverRecord> {
      const d = visible(ctx, await db.tenant(ctx.tenantId, (tx) => findDriver(tx, ctx.tenantId, id)));
      if (!d) throw notFound('Driver');
      return d;
    },

    async update(ctx: TenantContext, id: string, changes: Partial<DriverFields>) {
      const f = normalize(changes);
      for (const required of ['firstName', 'lastName', 'licenseNumber', 'licenseState'] as const) {
        if (required in f && f[required] === null) {
          throw new DomainError('VALIDATION', 'Validation failed', [{ field: `body.${required}`, message: 'must not be empty' }]);
        }
      }
      try {
        const d = await db.tenant(ctx.tenantId, (tx) => updateDriverFields(tx, ctx.tenantId, id, f, clock.now()));
        if (!d) throw notFound('Driver');
        return d;
      } catch (err) {
        if (isUniqueViolation(err, 'drivers_license_key')) throw duplicateLicense(String(f.licenseNumber));
        if (isUniqueViolation(err, 'drivers_external_key')) throw duplicateExternalId(String(f.externalId));
        throw err;
      }
    },

    async deactivate(ctx: TenantContext, id: string) {
      const d = await changeStatus(ctx, id, 'INACTIVE');
      return { id: d.id, firstName: d.firstName, lastName: d.lastName, status: d.status, deactivatedAt: d.deactivatedAt! };
    },

    async reactivate(ctx: TenantContext, id: string) {
      const d = await changeStatus(ctx, id, 'ACTIVE');
      return { id: d.id, firstName: d.firstName, lastName: d.lastName, status: d.status, reactivatedAt: d.reactivatedAt! };
    },
  };
}
