/**
 * The planner's diesel prices for one tenant, from its fuel integration (issue 9):
 * (a) an ACTIVE fuel integration is asked now for the stations near points sampled along the path
 *     (every ~50 miles, within its searchRadiusMiles), with a short time limit; what it answers is
 *     stored like a sync's result and used;
 * (b) when it fails or does not answer in time (or the integration is in ERROR), the prices stored by
 *     earlier syncs near the path that are still recent are used, and the plan says so;
 * (c) without a fuel integration (or with it disabled), no prices: the planner's default price.
 */
import { isFuelAdapter, type FuelStationPrice } from '../../adapters/integrations/port.js';
import type { Deps } from '../../deps.js';
import { haversineMiles, nearestPointOnPath } from '../../domain/geo/index.js';
import { samplePath } from '../../domain/geo/route-sample.js';
import type { FuelPricePoint, Point } from '../../domain/planning/types.js';
import { iso, isoOrNull } from '../../lib/rows.js';
import type { FuelPriceAnswer, FuelPriceSource } from '../routes/planning-ports.js';
import { upsertFuelStations } from './apply/fuel.js';
import { failureOf, openConfig } from './integrations.service.js';

export interface FuelPriceOptions {
  /** How long the planner waits for the vendor. */
  liveTimeoutMs: number;
  /** Stored prices older than this are not used. */
  staleAfterMs: number;
  /** Points asked about along the path, at most this far apart (closer when the search radius is small). */
  spacingMiles: number;
  maxPoints: number;
}

export const DEFAULT_FUEL_PRICE_OPTIONS: FuelPriceOptions = { liveTimeoutMs: 5_000, staleAfterMs: 48 * 3_600_000, spacingMiles: 50, maxPoints: 60 };

/** The integration's search radius when its config has none (the HERE adapter's default). */
const DEFAULT_RADIUS_MILES = 30;

interface FuelIntegration {
  id: string;
  vendor: string;
  status: string;
  lastSyncAt: string | null;
  config: Record<string, unknown>;
  radiusMiles: number;
}

type LiveOutcome = { ok: true; stations: FuelStationPrice[] } | { ok: false; code: string };

export function integrationFuelPrices(deps: Pick<Deps, 'db' | 'clock' | 'log' | 'integrations' | 'secrets'>, options: Partial<FuelPriceOptions> = {}): FuelPriceSource {
  const opts = { ...DEFAULT_FUEL_PRICE_OPTIONS, ...options };

  async function fuelIntegrations(tenantId: string): Promise<FuelIntegration[]> {
    const { rows } = await deps.db.tenant(tenantId, (tx) =>
      tx.query<{ id: string; vendor: string; status: string; last_sync_at: unknown; config_ciphertext: string }>(
        `SELECT id, vendor, status, last_sync_at, config_ciphertext FROM integrations
          WHERE tenant_id = $1 AND category = 'FUEL' AND status <> 'DISABLED' ORDER BY created_at, id`,
        [tenantId],
      ),
    );
    return rows.map((r) => {
      const config = openConfig(deps.secrets.encryptionKey, r.config_ciphertext);
      const radius = typeof config.searchRadiusMiles === 'number' && config.searchRadiusMiles > 0 ? config.searchRadiusMiles : DEFAULT_RADIUS_MILES;
      return { id: r.id, vendor: r.vendor, status: r.status, lastSyncAt: isoOrNull(r.last_sync_at), config, radiusMiles: radius };
    });
  }

  async function askLive(tenantId: string, integration: FuelIntegration, path: Point[]): Promise<LiveOutcome> {
    const adapter = deps.integrations.get(integration.vendor);
    if (!isFuelAdapter(adapter)) return { ok: false, code: 'NO_ADAPTER' };
    const spacing = Math.min(opts.spacingMiles, integration.radiusMiles * 1.6);
    const points = samplePath(path, { spacingMiles: spacing, maxPoints: opts.maxPoints });
    let stations: FuelStationPrice[];
    try {
      stations = await adapter.stationsNear(integration.config, points, AbortSignal.timeout(opts.liveTimeoutMs));
    } catch (err) {
      const { code } = failureOf(err, integration.config);
      deps.log.warn({ tenantId, integrationId: integration.id, vendor: integration.vendor, code }, 'live fuel prices unavailable; planning with stored prices');
      return { ok: false, code };
    }
    try {
      await deps.db.tenant(tenantId, (tx) => upsertFuelStations(tx, { tenantId, integrationId: integration.id, vendor: integration.vendor }, stations, deps.clock.now()));
    } catch (err) {
      // The prices are good for this plan even if keeping them failed (the integration was deleted meanwhile, say).
      deps.log.warn({ tenantId, integrationId: integration.id, errorName: err instanceof Error ? err.name : typeof err }, 'could not store live fuel prices');
    }
    return { ok: true, stations };
  }

  async function storedNear(tenantId: string, integrations: FuelIntegration[], path: Point[]): Promise<{ prices: FuelPricePoint[]; newestSync: string | null }> {
    const radius = Math.max(...integrations.map((i) => i.radiusMiles));
    const box = boundingBox(path, radius);
    const since = new Date(deps.clock.now().getTime() - opts.staleAfterMs);
    const { rows } = await deps.db.tenant(tenantId, (tx) =>
      tx.query<{ integration_id: string; name: string; latitude: number; longitude: number; diesel_price: number; synced_at: unknown }>(
        `SELECT integration_id, name, latitude, longitude, diesel_price, synced_at FROM fuel_station_prices
          WHERE tenant_id = $1 AND integration_id = ANY($2::text[]) AND price_updated_at >= $3
            AND latitude BETWEEN $4 AND $5 AND longitude BETWEEN $6 AND $7
          ORDER BY integration_id, external_id`,
        [tenantId, integrations.map((i) => i.id), since, box.south, box.north, box.west, box.east],
      ),
    );
    const radiusOf = new Map(integrations.map((i) => [i.id, i.radiusMiles]));
    const near = rows.filter((r) => {
      const p = { latitude: Number(r.latitude), longitude: Number(r.longitude) };
      return haversineMiles(p, nearestPointOnPath(path, p).point) <= radiusOf.get(r.integration_id)!;
    });
    const used = new Set(near.map((r) => r.integration_id));
    const syncs = integrations.filter((i) => used.has(i.id)).map((i) => i.lastSyncAt ?? newest(near.filter((r) => r.integration_id === i.id).map((r) => iso(r.synced_at))));
    return { prices: near.map((r) => ({ latitude: Number(r.latitude), longitude: Number(r.longitude), name: r.name, pricePerGallon: Number(r.diesel_price) })), newestSync: newest(syncs) };
  }

  return {
    async pricesAlong(tenantId: string, path: Point[]): Promise<FuelPriceAnswer> {
      if (path.length === 0) return { prices: [] };
      const integrations = await fuelIntegrations(tenantId);
      if (integrations.length === 0) return { prices: [] };
      const live = integrations.filter((i) => (i.status === 'ACTIVE' || i.status === 'SYNCING') && isFuelAdapter(deps.integrations.get(i.vendor)));
      const outcomes = await Promise.all(live.map((i) => askLive(tenantId, i, path)));
      const answered = outcomes.flatMap((o) => (o.ok ? o.stations : []));
      if (outcomes.some((o) => o.ok)) return { prices: answered.map(toPricePoint) };

      const why = outcomes.length > 0 ? `the fuel price service did not answer (${[...new Set(outcomes.map((o) => (o.ok ? '' : o.code)))].join(', ')})` : 'no active fuel integration can be asked';
      const stored = await storedNear(tenantId, integrations, path);
      if (stored.prices.length === 0) return { prices: [], warning: `Live fuel prices are unavailable: ${why}, and no recent prices are stored; fuel costs use the default price` };
      return { prices: stored.prices, warning: `Fuel prices are from the last sync (${stored.newestSync}): ${why}` };
    },
  };
}

const toPricePoint = (s: FuelStationPrice): FuelPricePoint => ({ latitude: s.latitude, longitude: s.longitude, name: s.name, pricePerGallon: s.dieselPrice });

function newest(times: (string | null)[]): string | null {
  const known = times.filter((t): t is string => t !== null).sort();
  return known.length > 0 ? known[known.length - 1]! : null;
}

/** The path's extent widened by `miles` on every side (degrees). */
function boundingBox(path: Point[], miles: number): { south: number; north: number; west: number; east: number } {
  let south = 90;
  let north = -90;
  let west = 180;
  let east = -180;
  for (const p of path) {
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
  }
  const dLat = miles / 69;
  const dLng = miles / (69 * Math.cos((Math.min(89, Math.max(Math.abs(south), Math.abs(north)) + dLat) * Math.PI) / 180));
  return { south: south - dLat, north: north + dLat, west: west - dLng, east: east + dLng };
}
