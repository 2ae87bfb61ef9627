/**
 * A local HERE Fuel Prices sandbox: a node:http server on 127.0.0.1 speaking the subset of HERE's
 * `stations` resource the adapter uses (`GET /stations?prox=lat,lng,radiusMetres&fueltype=1&maxresults=
 * &offset=&apiKey=`), seeded with a few dozen truck stops priced in USD per gallon along the I-35 / I-44 /
 * I-55 corridor from Dallas through Oklahoma City and St. Louis to Chicago, answering radius queries
 * nearest first, with apiKey checks and the sandbox kit's fault injection for tests and the demo.
 */
import { haversineMiles, pointAlongPath, cumulativeMiles, type LatLng } from '../../../domain/geo/index.js';
import { startSandboxServer, type SandboxFault, type SandboxRequest } from '../sandbox-kit.js';
import type { HereFuelStation, HereStationsResponse } from './mapping.js';

export type { SandboxFault } from '../sandbox-kit.js';

export const HERE_SANDBOX_API_KEY = 'here_sandbox_apikey_0123456789abcdefghijklmno';

const METRES_PER_MILE = 1609.344;

/** The corridor's turning points: the legs a planner draws from Dallas to Chicago along I-35, I-44, I-55. */
export const CORRIDOR: readonly (LatLng & { name: string })[] = [
  { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 },
  { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164 },
  { name: 'St. Louis, MO', latitude: 38.627, longitude: -90.1994 },
  { name: 'Chicago, IL', latitude: 41.8781, longitude: -87.6298 },
];

/** Interstate towns a station is named after (the nearest one). */
const TOWNS: readonly (LatLng & { city: string; region: string; base: number })[] = [
  { city: 'Denton', region: 'TX', latitude: 33.2148, longitude: -97.1331, base: 3.59 },
  { city: 'Gainesville', region: 'TX', latitude: 33.6259, longitude: -97.1334, base: 3.55 },
  { city: 'Ardmore', region: 'OK', latitude: 34.1743, longitude: -97.1436, base: 3.39 },
  { city: 'Pauls Valley', region: 'OK', latitude: 34.7401, longitude: -97.2222, base: 3.37 },
  { city: 'Norman', region: 'OK', latitude: 35.2226, longitude: -97.4395, base: 3.41 },
  { city: 'Oklahoma City', region: 'OK', latitude: 35.4676, longitude: -97.5164, base: 3.43 },
  { city: 'Stroud', region: 'OK', latitude: 35.7487, longitude: -96.6589, base: 3.35 },
  { city: 'Tulsa', region: 'OK', latitude: 36.154, longitude: -95.9928, base: 3.38 },
  { city: 'Vinita', region: 'OK', latitude: 36.6387, longitude: -95.1541, base: 3.36 },
  { city: 'Joplin', region: 'MO', latitude: 37.0842, longitude: -94.5133, base: 3.49 },
  { city: 'Springfield', region: 'MO', latitude: 37.209, longitude: -93.2923, base: 3.47 },
  { city: 'Lebanon', region: 'MO', latitude: 37.6806, longitude: -92.6638, base: 3.45 },
  { city: 'Rolla', region: 'MO', latitude: 37.9514, longitude: -91.7713, base: 3.48 },
  { city: 'St. Clair', region: 'MO', latitude: 38.3453, longitude: -90.9813, base: 3.52 },
  { city: 'St. Louis', region: 'MO', latitude: 38.627, longitude: -90.1994, base: 3.61 },
  // Across the Mississippi the corridor is in Illinois (stations-test.ts checks every station's state by its coordinates).
  { city: 'Edwardsville', region: 'IL', latitude: 38.8114, longitude: -89.9532, base: 3.85 },
  { city: 'Litchfield', region: 'IL', latitude: 39.1753, longitude: -89.6543, base: 3.89 },
  { city: 'Springfield', region: 'IL', latitude: 39.7817, longitude: -89.6501, base: 3.93 },
  { city: 'Bloomington', region: 'IL', latitude: 40.4842, longitude: -88.9937, base: 3.97 },
  { city: 'Dwight', region: 'IL', latitude: 41.0945, longitude: -88.4256, base: 4.05 },
  { city: 'Joliet', region: 'IL', latitude: 41.525, longitude: -88.0817, base: 4.11 },
  { city: 'Chicago', region: 'IL', latitude: 41.8781, longitude: -87.6298, base: 4.19 },
];

const BRANDS = ['Redbud Travel Center', 'Prairie Diesel', 'Crossroads Fuel', 'Big Rig Fuel Stop', 'Heartland Truck Plaza'] as const;

/** Stations this far apart along the corridor (the first this far from Dallas). */
export const STATION_SPACING_MILES = 25;

export interface HereSandboxState {
  apiKey: string;
  stations: HereFuelStation[];
  /** Every request received, oldest first: tests count attempts. */
  requests: SandboxRequest[];
  /** Default and maximum page size (`maxresults`); small by default so pagination shows. */
  pageSize: number;
}

/**
 * The seeded stations: one every 25 miles along the corridor, a little off the line (within a mile),
 * priced by state (Oklahoma and Missouri cheaper than Texas, Illinois dearest) with every fourth one a
 * discount stop 25 cents below its neighbours; prices updated an hour or two before `now`. One station
 * sells no diesel (HERE lists it only without `fueltype`), so the filter shows.
 */
export function seedHereStations(now: Date): HereFuelStation[] {
  const cum = cumulativeMiles(CORRIDOR);
  const total = cum[cum.length - 1]!;
  const stations: HereFuelStation[] = [];
  for (let i = 0, miles = STATION_SPACING_MILES / 2; miles < total; i++, miles += STATION_SPACING_MILES) {
    const on = pointAlongPath(CORRIDOR, miles, cum).point;
    const offset = ((i % 3) - 1) * 0.008; // about half a mile east or west of the line
    const position = { latitude: round5(on.latitude), longitude: round5(on.longitude + offset) };
    const town = nearestTown(position);
    const discount = i % 4 === 2 ? 0.25 : 0;
    const price = Math.round((town.base + (((i * 7) % 5) - 2) * 0.02 - discount) * 1000) / 1000;
    const id = `840sbx${String(i + 1).padStart(3, '0')}-${town.region.toLowerCase()}${(i * 2654435761) % 1_000_000}`;
    stations.push({
      id,
      name: `${BRANDS[i % BRANDS.length]} #${100 + i}`,
      brand: BRANDS[i % BRANDS.length],
      position,
      address: { street: 'Interstate Frontage Rd', streetNumber: String(1000 + i * 17), city: town.city, region: town.region, postalCode: '00000', country: 'USA' },
      open24x7: true,
      lastUpdateTimestamp: iso(now, -24 * 60),
      fuelPrice: [
        { price, fuelType: '1', unit: 'gal', currency: 'USD', lastUpdateTimestamp: iso(now, -60 - (i % 5) * 15) },
        { price: Math.round((price - 0.45) * 1000) / 1000, fuelType: '2', unit: 'gal', currency: 'USD', lastUpdateTimestamp: iso(now, -90) },
      ],
    });
  }
  // A gasoline-only station beside the first diesel stop.
  const first = stations[0]!;
  stations.push({
    id: '840sbx900-gasonly',
    name: 'Corner Gas',
    position: { latitude: first.position.latitude + 0.01, longitude: first.position.longitude },
    address: { city: first.address!.city, region: first.address!.region, country: 'USA' },
    fuelPrice: [{ price: 3.09, fuelType: '2', unit: 'gal', currency: 'USD', lastUpdateTimestamp: iso(now, -30) }],
  });
  return stations;
}

function nearestTown(p: LatLng): (typeof TOWNS)[number] {
  let best = TOWNS[0]!;
  for (const t of TOWNS) if (haversineMiles(p, t) < haversineMiles(p, best)) best = t;
  return best;
}

const round5 = (n: number): number => Math.round(n * 1e5) / 1e5;
const iso = (base: Date, offsetMinutes: number): string => new Date(base.getTime() + offsetMinutes * 60_000).toISOString();

/** `GET /stations`: the stations within the `prox` circle selling the asked fuel, nearest first, a page at a time. */
function stationsReply(state: HereSandboxState, query: URLSearchParams): { status: number; body: unknown } {
  const prox = (query.get('prox') ?? '').split(',').map(Number);
  if (prox.length !== 3 || prox.some((n) => !Number.isFinite(n)) || Math.abs(prox[0]!) > 90 || Math.abs(prox[1]!) > 180 || prox[2]! <= 0) {
    return { status: 400, body: { error: 'Bad Request', message: 'prox: latitude,longitude,radius (metres) is required' } };
  }
  const [lat, lng, radiusMetres] = prox as [number, number, number];
  const fuelTypes = (query.get('fueltype') ?? '').split(',').filter(Boolean);
  const limit = Math.min(state.pageSize, Math.max(1, Number(query.get('maxresults') ?? state.pageSize) || state.pageSize));
  const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0);
  const centre = { latitude: lat, longitude: lng };
  const within = state.stations
    .map((s) => ({ s, metres: Math.round(haversineMiles(centre, s.position) * METRES_PER_MILE) }))
    .filter(({ metres }) => metres <= radiusMetres)
    .map(({ s, metres }) => ({ ...s, distance: metres, fuelPrice: (s.fuelPrice ?? []).filter((p) => fuelTypes.length === 0 || fuelTypes.includes(String(p.fuelType))) }))
    .filter((s) => fuelTypes.length === 0 || s.fuelPrice.length > 0)
    .sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id));
  const page = within.slice(offset, offset + limit);
  const body: HereStationsResponse = { hasMore: offset + page.length < within.length, fuelStations: { fuelStation: page } };
  return { status: 200, body };
}

export interface HereSandboxOptions {
  apiKey?: string;
  /** Price timestamps are relative to this instant (default: now). */
  now?: Date;
  pageSize?: number;
  port?: number;
}

export interface HereSandbox {
  url: string;
  state: HereSandboxState;
  /** Queue a failure (see SandboxFault). */
  inject(fault: SandboxFault): void;
  close(): Promise<void>;
}

export async function startHereSandbox(options: HereSandboxOptions = {}): Promise<HereSandbox> {
  const state: HereSandboxState = { apiKey: options.apiKey ?? HERE_SANDBOX_API_KEY, stations: seedHereStations(options.now ?? new Date()), requests: [], pageSize: options.pageSize ?? 5 };
  const server = await startSandboxServer({
    port: options.port,
    authorized: ({ url }) => url.searchParams.get('apiKey') === state.apiKey,
    handle: ({ method, url }) => {
      if (method !== 'GET') return { status: 405, body: { error: 'Method Not Allowed', message: 'Only GET is supported' } };
      const key = url.searchParams.get('apiKey');
      // Echoes the presented key, as some services do: the client must never let it into an error.
      if (key !== state.apiKey) return { status: 401, body: { error: 'Unauthorized', message: `apiKey invalid: ${key ?? '(none)'}` } };
      if (url.pathname === '/stations') return stationsReply(state, url.searchParams);
      return { status: 404, body: { error: 'Not Found', message: `No resource ${url.pathname}` } };
    },
  });
  state.requests = server.requests;
  return { url: server.url, state, inject: server.inject, close: server.close };
}
