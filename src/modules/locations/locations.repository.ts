import type { Tx } from '../../db/types.js';
import { iso, likePattern } from '../../lib/rows.js';

export type LocationType = 'TRUCK_STOP' | 'REST_AREA' | 'CUSTOMER' | 'YARD' | 'FUEL_STATION';

export interface Amenities {
  parking: boolean;
  showers: boolean;
  diesel: boolean;
}

export interface LocationFields {
  name: string;
  type: LocationType;
  address: string | null;
  latitude: number;
  longitude: number;
  amenities: Amenities;
  fuelDiscountPerGallon: number | null;
  externalId: string | null;
}

export interface LocationRecord extends LocationFields {
  id: string;
  createdAt: string;
  updatedAt: string;
}

export const EARTH_RADIUS_MILES = 3958.7613;

function toAmenities(value: unknown): Amenities {
  const a = (typeof value === 'string' ? JSON.parse(value) : (value ?? {})) as Record<string, unknown>;
  return { parking: a.parking === true, showers: a.showers === true, diesel: a.diesel === true };
}

export function toLocation(r: Record<string, unknown>): LocationRecord {
  return {
    id: r.id as string,
    name: r.name as string,
    type: r.type as LocationType,
    address: (r.address as string | null) ?? null,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    amenities: toAmenities(r.amenities),
    fuelDiscountPerGallon: r.fuel_discount_per_gallon === null || r.fuel_discount_per_gallon === undefined ? null : Number(r.fuel_discount_per_gallon),
    externalId: (r.external_id as string | null) ?? null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

export async function insertLocation(tx: Tx, tenantId: string, id: string, f: LocationFields, now: Date): Promise<LocationRecord> {
  const { rows } = await tx.query(
    `INSERT INTO locations (tenant_id, id, name, type, address, latitude, longitude, amenities, fuel_discount_per_gallon, external_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $11) RETURNING *`,
    [tenantId, id, f.name, f.type, f.address, f.latitude, f.longitude, JSON.stringify(f.amenities), f.fuelDiscountPerGallon, f.externalId, now],
  );
  return toLocation(rows[0]!);
}

export async function findLocation(tx: Tx, tenantId: string, id: string): Promise<LocationRecord | null> {
  const { rows } = await tx.query('SELECT * FROM locations WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  return rows[0] ? toLocation(rows[0]) : null;
}

export interface NearFilter {
  latitude: number;
  longitude: number;
  radiusMiles: number;
}

export interface LocationFilter {
  type?: LocationType;
  search?: string;
  near?: NearFilter;
}

/**
 * The latitude/longitude box that holds every point within the radius (on a sphere), used as a cheap
 * pre-filter before the exact haversine distance. Longitude is unbounded when the circle reaches a pole,
 * and split in two ranges when it crosses the antimeridian.
 */
export function boundingBox(near: NearFilter): { minLat: number; maxLat: number; lng: Array<[number, number]> | null } {
  // Angular radius in radians, widened a hair so rounding never drops a point on the circle itself.
  const delta = (near.radiusMiles / EARTH_RADIUS_MILES) * (1 + 1e-9);
  const deg = 180 / Math.PI;
  const phi = near.latitude / deg;
  const minLat = Math.max(-90, near.latitude - delta * deg);
  const maxLat = Math.min(90, near.latitude + delta * deg);
  if (Math.sin(delta) >= Math.cos(phi) || maxLat >= 90 || minLat <= -90) return { minLat, maxLat, lng: null };
  const dLng = Math.asin(Math.sin(delta) / Math.cos(phi)) * deg;
  const lo = near.longitude - dLng;
  const hi = near.longitude + dLng;
  if (lo < -180) return { minLat, maxLat, lng: [[lo + 360, 180], [-180, hi]] };
  if (hi > 180) return { minLat, maxLat, lng: [[lo, 180], [-180, hi - 360]] };
  return { minLat, maxLat, lng: [[lo, hi]] };
}

export async function listLocations(tx: Tx, tenantId: string, filter: LocationFilter, page: number, pageSize: number) {
  const where = ['tenant_id = $1'];
  const params: unknown[] = [tenantId];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.type) where.push(`type = ${param(filter.type)}`);
  if (filter.search) {
    const p = param(likePattern(filter.search));
    where.push(`(name ILIKE ${p} OR address ILIKE ${p})`);
  }
  let distance = 'NULL::double precision';
  let outer = 'TRUE';
  let order = 'lower(name), id';
  if (filter.near) {
    const box = boundingBox(filter.near);
    where.push(`latitude BETWEEN ${param(box.minLat)} AND ${param(box.maxLat)}`);
    if (box.lng) where.push(`(${box.lng.map(([lo, hi]) => `longitude BETWEEN ${param(lo)} AND ${param(hi)}`).join(' OR ')})`);
    const lat = param(filter.near.latitude);
    const lng = param(filter.near.longitude);
    distance = `${EARTH_RADIUS_MILES} * 2 * asin(least(1.0, sqrt(
        power(sin(radians(latitude - ${lat}) / 2), 2)
        + cos(radians(${lat})) * cos(radians(latitude)) * power(sin(radians(longitude - ${lng}) / 2), 2))))`;
    outer = `distance_miles <= ${param(filter.near.radiusMiles)}`;
    order = 'distance_miles, id';
  }
  const clause = where.join(' AND ');
  const inner = `SELECT *, ${distance} AS distance_miles FROM locations WHERE ${clause}`;
  const { rows } = await tx.query(
    `SELECT *, count(*) OVER () AS total FROM (${inner}) l WHERE ${outer}
      ORDER BY ${order}
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    params,
  );
  let total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  if (rows.length === 0 && page > 1) {
    const c = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${inner}) l WHERE ${outer}`, params);
    total = c.rows[0]?.n ?? 0;
  }
  return {
    total,
    data: rows.map((r) => {
      const loc = toLocation(r);
      return filter.near ? { ...loc, distanceMiles: Math.round(Number(r.distance_miles) * 100) / 100 } : loc;
    }),
  };
}

export type LocationChanges = Partial<Omit<LocationFields, 'amenities'>> & { amenities?: Partial<Amenities> };

const COLUMNS: Record<Exclude<keyof LocationFields, 'amenities'>, string> = {
  name: 'name',
  type: 'type',
  address: 'address',
  latitude: 'latitude',
  longitude: 'longitude',
  fuelDiscountPerGallon: 'fuel_discount_per_gallon',
  externalId: 'external_id',
};

/** Updates the given fields; amenities given in part are merged into the stored ones. */
export async function updateLocationFields(tx: Tx, tenantId: string, id: string, changes: LocationChanges, now: Date): Promise<LocationRecord | null> {
  const sets: string[] = [];
  const params: unknown[] = [tenantId, id, now];
  for (const [key, value] of Object.entries(changes) as [keyof LocationFields, unknown][]) {
    if (value === undefined) continue;
    params.push(key === 'amenities' ? JSON.stringify(value) : value);
    sets.push(key === 'amenities' ? `amenities = amenities || $${params.length}::jsonb` : `${COLUMNS[key]} = $${params.length}`);
  }
  const { rows } = await tx.query(
    `UPDATE locations SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE tenant_id = $1 AND id = $2 RETURNING *`,
    params,
  );
  return rows[0] ? toLocation(rows[0]) : null;
}

export async function deleteLocation(tx: Tx, tenantId: string, id: string): Promise<LocationRecord | null> {
  const { rows } = await tx.query('DELETE FROM locations WHERE tenant_id = $1 AND id = $2 RETURNING *', [tenantId, id]);
  return rows[0] ? toLocation(rows[0]) : null;
}

/** How many of these external ids already name a location of the tenant. */
export async function countExistingExternalIds(tx: Tx, tenantId: string, externalIds: string[]): Promise<number> {
  if (externalIds.length === 0) return 0;
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM locations l
       JOIN jsonb_array_elements_text($2::jsonb) AS e(external_id) ON l.external_id = e.external_id
      WHERE l.tenant_id = $1`,
    [tenantId, JSON.stringify(externalIds)],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Writes imported rows in one statement: a row whose externalId names an existing location replaces
 * it (keeping its id and createdAt); every other row is inserted. Returns the number of rows written.
 */
export async function upsertLocations(tx: Tx, tenantId: string, rows: Array<LocationFields & { id: string }>, now: Date): Promise<number> {
  if (rows.length === 0) return 0;
  const json = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      address: r.address,
      latitude: r.latitude,
      longitude: r.longitude,
      amenities: r.amenities,
      fuel_discount_per_gallon: r.fuelDiscountPerGallon,
      external_id: r.externalId,
    })),
  );
  const res = await tx.query(
    `INSERT INTO locations (tenant_id, id, name, type, address, latitude, longitude, amenities, fuel_discount_per_gallon, external_id, created_at, updated_at)
     SELECT $1, r.id, r.name, r.type, r.address, r.latitude, r.longitude, r.amenities, r.fuel_discount_per_gallon, r.external_id, $3, $3
       FROM jsonb_to_recordset($2::jsonb) AS r(id text, name text, type text, address text, latitude double precision, longitude double precision,
                                               amenities jsonb, fuel_discount_per_gallon double precision, external_id text)
     ON CONFLICT (tenant_id, external_id) WHERE external_id IS NOT NULL DO UPDATE SET
       name = EXCLUDED.name, type = EXCLUDED.type, address = EXCLUDED.address, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude,
       amenities = EXCLUDED.amenities, fuel_discount_per_gallon = EXCLUDED.fuel_discount_per_gallon, updated_at = EXCLUDED.updated_at`,
    [tenantId, json, now],
  );
  return res.rowCount;
}
