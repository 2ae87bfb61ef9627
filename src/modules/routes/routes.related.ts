/**
 * What the routes module reads and writes of neighbouring resources (vehicles, loads, locations,
 * positions), kept to the few columns planning needs.
 */
import { timeZoneAt } from '../../domain/planning/local-time.js';
import type { Tx } from '../../db/types.js';
import { emitEvent } from '../../db/outbox.js';
import type { RestSite } from '../../domain/planning/types.js';
import { iso } from '../../lib/rows.js';

export async function findVehicleForPlan(tx: Tx, tenantId: string, id: string) {
  const { rows } = await tx.query<{ id: string; unit_number: string; status: string; fuel_tank_gallons: number; mpg: number }>(
    'SELECT id, unit_number, status, fuel_tank_gallons, mpg FROM vehicles WHERE tenant_id = $1 AND id = $2',
    [tenantId, id],
  );
  const r = rows[0];
  return r ? { id: r.id, unitNumber: r.unit_number, status: r.status, fuelTankGallons: Number(r.fuel_tank_gallons), mpg: Number(r.mpg) } : null;
}

export interface LoadForPlan {
  id: string;
  referenceNumber: string;
  status: string;
  originAddress: string | null;
  destinationAddress: string | null;
  scheduledPickup: number | null;
  scheduledDelivery: number | null;
}

export async function findLoadForPlan(tx: Tx, tenantId: string, id: string): Promise<LoadForPlan | null> {
  const { rows } = await tx.query<Record<string, unknown>>(
    'SELECT id, reference_number, status, origin_address, destination_address, scheduled_pickup, scheduled_delivery FROM loads WHERE tenant_id = $1 AND id = $2',
    [tenantId, id],
  );
  const r = rows[0];
  if (!r) return null;
  const ms = (v: unknown) => (v === null || v === undefined ? null : Date.parse(iso(v)));
  return {
    id: r.id as string,
    referenceNumber: r.reference_number as string,
    status: r.status as string,
    originAddress: (r.origin_address as string | null) ?? null,
    destinationAddress: (r.destination_address as string | null) ?? null,
    scheduledPickup: ms(r.scheduled_pickup),
    scheduledDelivery: ms(r.scheduled_delivery),
  };
}

/** Moves a load along with its route (when it is in one of `from`) and tells the outside world. */
export async function changeLoadStatus(tx: Tx, tenantId: string, loadId: string, from: string[], to: string, actor: string, now: Date): Promise<void> {
  const { rows } = await tx.query<{ status: string; reference_number: string }>(
    'SELECT status, reference_number FROM loads WHERE tenant_id = $1 AND id = $2 FOR UPDATE',
    [tenantId, loadId],
  );
  const load = rows[0];
  if (!load || !from.includes(load.status)) return;
  await tx.query('UPDATE loads SET status = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2', [tenantId, loadId, to, now]);
  await emitEvent(
    tx,
    tenantId,
    'load.status_changed',
    { loadId, referenceNumber: load.reference_number, oldStatus: load.status, newStatus: to, changedBy: actor, changedAt: now.toISOString() },
    now,
  );
}

/** The locations that are rest sites: a truck can rest or fuel there. */
export const REST_SITE_TYPES_SQL = "('TRUCK_STOP', 'REST_AREA', 'FUEL_STATION', 'YARD')";

/** A location row as a rest site (its columns, or the same fields read back from JSON). */
export type RestSiteRow = { name: string; type: RestSite['type']; latitude: number | string; longitude: number | string; amenities: Record<string, boolean> | null; fuel_discount_per_gallon: number | string | null };

export function toRestSite(r: RestSiteRow): RestSite {
  return {
    name: r.name,
    type: r.type,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    diesel: r.amenities?.diesel ?? (r.type === 'FUEL_STATION' || r.type === 'TRUCK_STOP'),
    parking: r.amenities?.parking ?? r.type !== 'FUEL_STATION',
    fuelDiscountPerGallon: r.fuel_discount_per_gallon === null ? null : Number(r.fuel_discount_per_gallon),
  };
}

export type PositionRecord = ReturnType<typeof toPosition>;

export function toPosition(r: Record<string, unknown>) {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: r.id as string,
    routeId: r.route_id as string,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    recordedAt: iso(r.recorded_at),
    speedMph: num(r.speed_mph),
    headingDegrees: num(r.heading_degrees),
    fuelLevelPercent: num(r.fuel_level_percent),
    source: r.source as string,
    createdAt: iso(r.created_at),
    // The zone of the place the truck was, for showing recordedAt on its clocks.
    timeZone: timeZoneAt({ latitude: Number(r.latitude), longitude: Number(r.longitude) }),
  };
}

export async function insertPosition(
  tx: Tx,
  tenantId: string,
  p: { id: string; routeId: string; latitude: number; longitude: number; recordedAt: Date; speedMph?: number; headingDegrees?: number; fuelLevelPercent?: number; source: string },
  now: Date,
) {
  const { rows } = await tx.query(
    `INSERT INTO route_positions (tenant_id, id, route_id, recorded_at, latitude, longitude, speed_mph, heading_degrees, fuel_level_percent, source, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
    [tenantId, p.id, p.routeId, p.recordedAt, p.latitude, p.longitude, p.speedMph ?? null, p.headingDegrees ?? null, p.fuelLevelPercent ?? null, p.source, now],
  );
  return toPosition(rows[0]!);
}

export async function listPositions(tx: Tx, tenantId: string, routeId: string, limit: number) {
  const { rows } = await tx.query(
    `SELECT * FROM route_positions WHERE tenant_id = $1 AND route_id = $2 ORDER BY recorded_at DESC, id LIMIT ${limit}`,
    [tenantId, routeId],
  );
  return rows.map(toPosition);
}

/** The tenant's rest sites and whether it has a fuel price integration to ask (not DISABLED), in one statement. */
export async function restSitesAndFuel(tx: Tx, tenantId: string): Promise<{ sites: RestSite[]; fuelIntegrations: boolean }> {
  const { rows } = await tx.query<{ sites: RestSiteRow[] | string; fuel_integrations: boolean }>(
    `SELECT (SELECT coalesce(json_agg(json_build_object('name', name, 'type', type, 'latitude', latitude, 'longitude', longitude,
                                                      'amenities', amenities, 'fuel_discount_per_gallon', fuel_discount_per_gallon)), '[]'::json)
               FROM locations WHERE tenant_id = $1 AND type IN ${REST_SITE_TYPES_SQL}) AS sites,
            EXISTS (SELECT 1 FROM integrations WHERE tenant_id = $1 AND category = 'FUEL' AND status <> 'DISABLED') AS fuel_integrations`,
    [tenantId],
  );
  const sites = typeof rows[0]!.sites === 'string' ? (JSON.parse(rows[0]!.sites) as RestSiteRow[]) : rows[0]!.sites;
  return { sites: sites.map(toRestSite), fuelIntegrations: rows[0]!.fuel_integrations };
}

/** A visibility provider's predicted arrival at one stop, as the route's reader sees it. */
export interface StopPrediction {
  arrivalTime: string;
  /** The integration's vendor ("project44"), named in words by the reader. */
  source: string;
  /** When the provider computed it. */
  estimatedAt: string;
}

/**
 * The newest predicted arrival per stop index from the route's ETA signals (route_signals, kind ETA,
 * written by the visibility sync: src/modules/integrations/apply/visibility.ts). Monitoring projects
 * arrivals from the same rows (src/domain/alerts/scheduling.ts), so the route page, the driver's view
 * and the appointment alerts quote one figure.
 */
export async function stopPredictions(tx: Tx, tenantId: string, routeId: string): Promise<Map<number, StopPrediction>> {
  const { rows } = await tx.query<{ source: string; data: unknown }>(`SELECT source, data FROM route_signals WHERE tenant_id = $1 AND route_id = $2 AND kind = 'ETA'`, [tenantId, routeId]);
  const out = new Map<number, StopPrediction>();
  for (const r of rows) {
    const data = (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as { predictions?: Array<{ stopIndex: number; predictedArrival: string; at: string }> };
    for (const p of data.predictions ?? []) {
      const seen = out.get(p.stopIndex);
      if (seen === undefined || Date.parse(p.at) > Date.parse(seen.estimatedAt)) out.set(p.stopIndex, { arrivalTime: new Date(p.predictedArrival).toISOString(), source: r.source, estimatedAt: new Date(p.at).toISOString() });
    }
  }
  return out;
}
