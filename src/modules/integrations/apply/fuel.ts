/**
 * A fuel vendor's station prices into `fuel_station_prices`, keyed by (tenant, integration, station id):
 * a station is written only when its name, position or diesel price (with the price's time) changed,
 * so a second sync of the same answer writes nothing. Stations the vendor no longer reports stay: they
 * age out of use (the planner reads only recent prices) and go with the integration.
 * Also used by the planner's live price look-up, which stores what the vendor answered the same way.
 */
import type { FuelStationPrice, FuelSyncResult } from '../../../adapters/integrations/port.js';
import type { Tx } from '../../../db/types.js';
import { iso } from '../../../lib/rows.js';
import type { ApplyCounts, ApplyTarget } from './types.js';

interface StoredStation {
  external_id: string;
  name: string;
  latitude: number;
  longitude: number;
  diesel_price: number;
  currency: string;
  price_updated_at: unknown;
}

/** Positions closer than this (degrees, about a metre) are the same place. */
const SAME_PLACE = 1e-5;

function changed(row: StoredStation, s: FuelStationPrice): boolean {
  return (
    row.name !== s.name ||
    Math.abs(Number(row.latitude) - s.latitude) > SAME_PLACE ||
    Math.abs(Number(row.longitude) - s.longitude) > SAME_PLACE ||
    Math.abs(Number(row.diesel_price) - s.dieselPrice) > 1e-9 ||
    row.currency !== s.currency ||
    Date.parse(iso(row.price_updated_at)) !== Date.parse(s.updatedAt)
  );
}

export async function upsertFuelStations(tx: Tx, target: ApplyTarget, stations: readonly FuelStationPrice[], now: Date): Promise<{ created: number; updated: number; unchanged: number }> {
  const counts = { created: 0, updated: 0, unchanged: 0 };
  if (stations.length === 0) return counts;
  const { rows } = await tx.query<StoredStation>(
    `SELECT external_id, name, latitude, longitude, diesel_price, currency, price_updated_at
       FROM fuel_station_prices WHERE tenant_id = $1 AND integration_id = $2 AND external_id = ANY($3::text[])`,
    [target.tenantId, target.integrationId, stations.map((s) => s.externalId)],
  );
  const stored = new Map(rows.map((r) => [r.external_id, r]));
  for (const s of stations) {
    const row = stored.get(s.externalId);
    if (row && !changed(row, s)) {
      counts.unchanged++;
      continue;
    }
    await tx.query(
      `INSERT INTO fuel_station_prices (tenant_id, integration_id, external_id, name, latitude, longitude, diesel_price, currency, price_updated_at, synced_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (tenant_id, integration_id, external_id) DO UPDATE SET
         name = EXCLUDED.name, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude, diesel_price = EXCLUDED.diesel_price,
         currency = EXCLUDED.currency, price_updated_at = EXCLUDED.price_updated_at, synced_at = EXCLUDED.synced_at`,
      [target.tenantId, target.integrationId, s.externalId, s.name, s.latitude, s.longitude, s.dieselPrice, s.currency, new Date(s.updatedAt), now],
    );
    if (row) counts.updated++;
    else counts.created++;
    stored.set(s.externalId, { external_id: s.externalId, name: s.name, latitude: s.latitude, longitude: s.longitude, diesel_price: s.dieselPrice, currency: s.currency, price_updated_at: s.updatedAt });
  }
  return counts;
}

export async function applyFuel(tx: Tx, target: ApplyTarget, result: FuelSyncResult, now: Date): Promise<ApplyCounts> {
  const c = await upsertFuelStations(tx, target, result.stations, now);
  return { stationsCreated: c.created, stationsUpdated: c.updated, stationsUnchanged: c.unchanged };
}
