/**
 * HERE Fuel Prices payloads (the `stations` resource) and their normalisation into our station prices:
 * pure functions, tested against recorded-shape fixtures. Field names follow HERE's documented
 * FuelStationType / FuelPriceType (see adapter.ts for what is verified and what is assumed).
 */
import type { FuelStationPrice } from '../port.js';

/** HERE's fuel type code for diesel (documented: 1 = Diesel, 2 = Regular, 3 = Mid-grade, 4 = Premium). */
export const HERE_DIESEL = '1';

export const LITRES_PER_US_GALLON = 3.785411784;

export interface HereFuelPrice {
  /** Absent when HERE only knows the fuel is sold there (an estimated price). */
  price?: number;
  fuelType: string | number;
  /** 'l' in HERE's European examples; for US stations assumed 'gal' (see adapter.ts). */
  unit?: string;
  currency?: string;
  lastUpdateTimestamp?: string;
  deltaPrice?: number;
  indexScore?: number;
}

export interface HereFuelStation {
  id: string;
  name?: string;
  brand?: string;
  position: { latitude: number; longitude: number };
  /** Metres from the `prox` centre. */
  distance?: number;
  address?: { street?: string; streetNumber?: string; city?: string; region?: string; postalCode?: string; country?: string };
  fuelPrice?: HereFuelPrice[];
  open24x7?: boolean;
  lastUpdateTimestamp?: string;
}

export interface HereStationsResponse {
  hasMore?: boolean;
  fuelStations?: { fuelStation?: HereFuelStation[] };
}

/** Why a station reported by HERE gives us no diesel price. */
export type SkipReason = 'NO_DIESEL_PRICE' | 'NOT_USD' | 'UNKNOWN_UNIT' | 'NO_POSITION';

const GALLON_UNITS = new Set(['gal', 'gallon', 'gallons', 'usg', 'us_gal']);
const LITRE_UNITS = new Set(['l', 'ltr', 'litre', 'liter', 'litres', 'liters']);

/** Price per US gallon from a price in `unit`; undefined for a unit we do not know. */
export function perGallon(price: number, unit: string | undefined): number | undefined {
  const u = (unit ?? 'gal').trim().toLowerCase();
  if (GALLON_UNITS.has(u)) return round3(price);
  if (LITRE_UNITS.has(u)) return round3(price * LITRES_PER_US_GALLON);
  return undefined;
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** "Name, City, ST": what a fuel stop is called in a plan. */
export function stationName(s: HereFuelStation): string {
  const base = s.name?.trim() || s.brand?.trim() || 'Fuel station';
  const place = [s.address?.city, s.address?.region].filter((x): x is string => typeof x === 'string' && x.trim() !== '').join(', ');
  return place && !base.includes(place) ? `${base}, ${place}` : base;
}

/** One HERE station as our diesel price, or why not. Throws on a payload without HERE's documented shape. */
export function mapStation(s: HereFuelStation): FuelStationPrice | SkipReason {
  if (typeof s.id !== 'string' || s.id === '') throw new TypeError('station without id');
  const lat = s.position?.latitude;
  const lng = s.position?.longitude;
  if (typeof lat !== 'number' || typeof lng !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lng)) return 'NO_POSITION';
  const diesel = (s.fuelPrice ?? []).find((p) => String(p.fuelType) === HERE_DIESEL && typeof p.price === 'number' && Number.isFinite(p.price) && p.price > 0);
  if (!diesel) return 'NO_DIESEL_PRICE';
  if ((diesel.currency ?? 'USD').toUpperCase() !== 'USD') return 'NOT_USD';
  const price = perGallon(diesel.price!, diesel.unit);
  if (price === undefined) return 'UNKNOWN_UNIT';
  const stamp = diesel.lastUpdateTimestamp ?? s.lastUpdateTimestamp;
  const updatedAt = stamp !== undefined && !Number.isNaN(Date.parse(stamp)) ? new Date(stamp).toISOString() : undefined;
  if (updatedAt === undefined) return 'NO_DIESEL_PRICE';
  return { externalId: s.id, name: stationName(s), latitude: lat, longitude: lng, dieselPrice: price, currency: 'USD', updatedAt };
}

/** Every station's diesel price, each station once (the first answer wins), with what was skipped. */
export function mapStations(stations: readonly HereFuelStation[]): { stations: FuelStationPrice[]; skipped: Partial<Record<SkipReason, number>> } {
  const byId = new Map<string, FuelStationPrice>();
  const skipped: Partial<Record<SkipReason, number>> = {};
  const seen = new Set<string>();
  for (const s of stations) {
    if (seen.has(s.id)) continue;
    const mapped = mapStation(s);
    seen.add(s.id);
    if (typeof mapped === 'string') skipped[mapped] = (skipped[mapped] ?? 0) + 1;
    else byId.set(mapped.externalId, mapped);
  }
  return { stations: [...byId.values()], skipped };
}
