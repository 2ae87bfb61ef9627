import type { Deps } from '../../deps.js';
import { DomainError, isUniqueViolation, notFound, type ErrorDetail } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import { readLocationsCsv, type ImportRowError } from './locations.import.js';
import {
  countExistingExternalIds,
  deleteLocation,
  findLocation,
  insertLocation,
  listLocations,
  updateLocationFields,
  upsertLocations,
  type Amenities,
  type LocationChanges,
  type LocationFields,
  type LocationRecord,
  type LocationType,
  type NearFilter,
} from './locations.repository.js';
import { DEFAULT_RADIUS_MILES, MAX_IMPORT_ROWS } from './locations.schemas.js';

/** At most this many row problems are listed in a failed import's answer (the message gives the total). */
export const MAX_REPORTED_IMPORT_ERRORS = 100;

export type CreateLocationInput = Pick<LocationFields, 'name' | 'type' | 'latitude' | 'longitude'> & {
  address?: string | null;
  amenities?: Partial<Amenities>;
  fuelDiscountPerGallon?: number | null;
  externalId?: string | null;
};
export type UpdateLocationInput = Partial<CreateLocationInput>;

export interface ImportOutcome {
  imported: number;
  updated: number;
  errors: ImportRowError[];
}

const validation = (details: ErrorDetail[]) => new DomainError('VALIDATION', 'Validation failed', details);

function normalize<T extends UpdateLocationInput>(f: T): T {
  const out: Record<string, unknown> = { ...f };
  if (typeof out.name === 'string') out.name = out.name.trim();
  for (const key of ['address', 'externalId'] as const) {
    const v = out[key];
    if (typeof v === 'string') out[key] = v.trim() === '' ? null : v.trim();
  }
  return out as T;
}

function duplicate(err: unknown, f: UpdateLocationInput): DomainError | null {
  if (isUniqueViolation(err, 'locations_external_key')) {
    return new DomainError('CONFLICT', `A location with external id ${String(f.externalId)} already exists in this organization`);
  }
  return null;
}

/** Parses `near=lat,lng` (the schema has checked its shape) and checks the ranges. */
function nearFilter(near: string | undefined, radiusMiles: number | undefined): NearFilter | undefined {
  if (near === undefined) {
    if (radiusMiles !== undefined) throw validation([{ field: 'querystring.radiusMiles', message: 'is only allowed together with near' }]);
    return undefined;
  }
  const [lat, lng] = near.split(',').map((s) => Number(s.trim())) as [number, number];
  const details: ErrorDetail[] = [];
  if (!(lat >= -90 && lat <= 90)) details.push({ field: 'querystring.near', message: 'latitude must be between -90 and 90' });
  if (!(lng >= -180 && lng <= 180)) details.push({ field: 'querystring.near', message: 'longitude must be between -180 and 180' });
  if (details.length) throw validation(details);
  return { latitude: lat, longitude: lng, radiusMiles: radiusMiles ?? DEFAULT_RADIUS_MILES };
}

export function locationsService(deps: Deps) {
  const { db, clock } = deps;

  return {
    async create(ctx: TenantContext, input: CreateLocationInput): Promise<LocationRecord> {
      const n = normalize(input);
      const f: LocationFields = {
        name: n.name,
        type: n.type,
        address: n.address ?? null,
        latitude: n.latitude,
        longitude: n.longitude,
        amenities: { parking: n.amenities?.parking ?? false, showers: n.amenities?.showers ?? false, diesel: n.amenities?.diesel ?? false },
        fuelDiscountPerGallon: n.fuelDiscountPerGallon ?? null,
        externalId: n.externalId ?? null,
      };
      try {
        return await db.tenant(ctx.tenantId, (tx) => insertLocation(tx, ctx.tenantId, newId('location'), f, clock.now()));
      } catch (err) {
        throw duplicate(err, f) ?? err;
      }
    },

    async list(ctx: TenantContext, q: { type?: LocationType; search?: string; near?: string; radiusMiles?: number; page: number; pageSize: number }) {
      const filter = { type: q.type, search: q.search?.trim() || undefined, near: nearFilter(q.near, q.radiusMiles) };
      const { data, total } = await db.tenant(ctx.tenantId, (tx) => listLocations(tx, ctx.tenantId, filter, q.page, q.pageSize));
      return { data, total, page: q.page, pageSize: q.pageSize };
    },

    async get(ctx: TenantContext, id: string): Promise<LocationRecord> {
      const l = await db.tenant(ctx.tenantId, (tx) => findLocation(tx, ctx.tenantId, id));
      if (!l) throw notFound('Location');
      return l;
    },

    /** Updates the given fields; amenities given in part are merged into the stored ones. */
    async update(ctx: TenantContext, id: string, changes: UpdateLocationInput): Promise<LocationRecord> {
      const f = normalize(changes);
      try {
        const l = await db.tenant(ctx.tenantId, (tx) => updateLocationFields(tx, ctx.tenantId, id, f as LocationChanges, clock.now()));
        if (!l) throw notFound('Location');
        return l;
      } catch (err) {
        throw duplicate(err, f) ?? err;
      }
    },

    /** A hard delete: nothing refers to a location by id (plans copy the place into their stops). */
    async remove(ctx: TenantContext, id: string): Promise<LocationRecord> {
      const l = await db.tenant(ctx.tenantId, (tx) => deleteLocation(tx, ctx.tenantId, id));
      if (!l) throw notFound('Location');
      return l;
    },

    /**
     * Imports a CSV file all-or-nothing: every row is validated first; with any invalid row nothing is
     * written and the problems come back as details ({row, field, message}). A row whose externalId names
     * an existing location replaces that location's fields; every other row creates one.
     */
    async importCsv(ctx: TenantContext, csv: string): Promise<ImportOutcome> {
      const read = readLocationsCsv(csv, MAX_IMPORT_ROWS);
      if (read.kind === 'too-many-rows') {
        throw new DomainError('VALIDATION', `CSV has more than ${MAX_IMPORT_ROWS} data rows; split it into files of at most ${MAX_IMPORT_ROWS} rows`, [
          { field: 'body', message: `must have at most ${MAX_IMPORT_ROWS} data rows` },
        ]);
      }
      if (read.kind === 'invalid') {
        const shown = read.errors.slice(0, MAX_REPORTED_IMPORT_ERRORS);
        const more = read.errors.length > shown.length ? ` (first ${shown.length} of ${read.errors.length} problems listed)` : '';
        const rows = read.invalidRows === 1 ? '1 row has' : `${read.invalidRows} rows have`;
        throw new DomainError('VALIDATION', `CSV import failed: ${rows} errors; nothing was imported${more}`, shown);
      }
      const now = clock.now();
      const rows = read.rows.map((r) => ({ ...r.fields, id: newId('location') }));
      const externalIds = rows.flatMap((r) => (r.externalId === null ? [] : [r.externalId]));
      return db.tenant(ctx.tenantId, async (tx) => {
        const updated = await countExistingExternalIds(tx, ctx.tenantId, externalIds);
        const written = await upsertLocations(tx, ctx.tenantId, rows, now);
        return { imported: written - updated, updated, errors: [] };
      });
    },
  };
}
