/**
 * Is a point in the service area (United States incl. Alaska, Hawaii, Puerto Rico and the US Virgin
 * Islands; Canada; Mexico)? A coarse outline, not a border: it follows the coasts with a margin of a few
 * miles and the land borders with Greenland, Belize, Guatemala and Russia, and deliberately includes the
 * enclosed waters (Gulf of Mexico, Hudson Bay, Gulf of California, Bering Sea shelf). Its job is to reject
 * coordinates that are clearly elsewhere (Europe, open ocean, swapped latitude/longitude), not to settle
 * which side of the Rio Grande a truck is on.
 */
import type { LatLng } from './geodesy.js';

type Vertex = readonly [longitude: number, latitude: number];

/** Mainland outline, clockwise from the Bering Strait: Arctic, Atlantic, Gulf, Central America, Pacific, Aleutians, Bering Sea. */
const MAINLAND: readonly Vertex[] = [
  [-168.98, 65.6], [-167.5, 68.6], [-166.5, 69.3], [-160.0, 71.2], [-156.5, 71.6], [-152.0, 71.2], [-141.0, 70.3],
  [-135.0, 69.9], [-128.0, 71.0], [-126.5, 72.0], [-126.0, 74.5], [-121.0, 76.6], [-116.0, 78.0], [-105.0, 79.5],
  [-92.0, 81.5], [-76.0, 83.3], [-62.0, 82.7],
  // Nares Strait and Baffin Bay, along the middle of the water between Canada and Greenland.
  [-61.0, 82.2], [-65.5, 81.0], [-69.5, 79.8], [-73.5, 78.3], [-73.5, 76.5], [-66.0, 73.5], [-60.5, 69.5],
  [-58.3, 66.5], [-60.5, 63.0], [-62.5, 60.5],
  // Labrador, Newfoundland, Nova Scotia.
  [-60.8, 58.0], [-58.5, 55.5], [-55.2, 53.2], [-55.0, 51.8], [-53.0, 50.0], [-52.4, 47.6], [-52.9, 46.4],
  [-59.5, 46.1], [-61.0, 45.1], [-63.5, 44.4], [-65.7, 43.25],
  // US Atlantic coast.
  [-69.8, 41.1], [-72.0, 40.8], [-73.9, 40.35], [-74.0, 39.3], [-74.8, 38.5], [-75.0, 37.9], [-75.6, 36.9],
  [-75.3, 35.4], [-76.4, 34.45], [-77.8, 33.7], [-80.5, 31.8], [-80.9, 30.3], [-80.3, 28.4], [-79.8, 26.8],
  [-79.9, 25.5], [-80.2, 24.9], [-81.7, 24.35], [-83.2, 24.45],
  // Across the Gulf to Yucatán, then the borders with Belize and Guatemala.
  [-86.5, 21.7], [-86.6, 20.1], [-87.7, 18.15], [-88.1, 18.2], [-88.3, 18.48], [-89.15, 17.85], [-90.98, 17.82],
  [-90.98, 17.25], [-91.44, 17.25], [-90.44, 16.08], [-91.73, 16.07], [-92.21, 15.26], [-92.25, 14.5],
  // Mexican Pacific coast, Islas Marías, Baja California.
  [-92.4, 14.2], [-96.5, 15.5], [-99.9, 16.55], [-101.6, 17.4], [-103.5, 18.1], [-104.4, 18.8], [-105.8, 20.2],
  [-106.9, 21.3], [-106.9, 21.9], [-109.9, 22.7], [-110.4, 23.2], [-112.4, 24.6], [-113.9, 26.5], [-115.4, 27.6],
  [-115.6, 28.5], [-116.4, 30.3], [-117.0, 31.6], [-117.4, 32.3],
  // US Pacific coast incl. the Channel Islands, British Columbia, Southeast Alaska.
  [-118.7, 32.75], [-119.7, 33.15], [-120.6, 33.9], [-120.75, 34.5], [-121.6, 35.6], [-122.1, 36.4], [-122.6, 37.1],
  [-123.2, 37.6], [-123.3, 38.0], [-124.0, 38.9], [-124.7, 40.4], [-124.8, 42.8], [-124.9, 48.4], [-128.7, 50.7],
  [-131.2, 51.8], [-133.3, 53.4], [-133.3, 54.4], [-134.0, 55.5], [-136.0, 57.0], [-136.9, 58.1], [-140.0, 59.4],
  // Gulf of Alaska, Kodiak, the Alaska Peninsula and the Aleutians east of the antimeridian.
  [-144.8, 59.7], [-147.5, 59.6], [-151.0, 59.0], [-152.3, 58.7], [-151.7, 57.4], [-154.0, 56.4], [-155.9, 55.6],
  [-159.3, 54.7], [-162.8, 54.2], [-165.0, 54.0], [-167.0, 53.2], [-169.0, 52.6], [-172.5, 52.0], [-174.5, 51.8],
  [-177.0, 51.5], [-180.0, 51.2],
  // Bering Sea: Pribilofs, St. Matthew, St. Lawrence Island; west of it is Russia.
  [-180.0, 53.0], [-171.0, 57.6], [-173.3, 60.6], [-172.3, 63.0], [-172.0, 64.0],
];

interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

const ISLANDS: readonly Box[] = [
  { south: 18.5, north: 22.6, west: -160.6, east: -154.5 }, // Hawaii (main islands)
  { south: 17.5, north: 18.7, west: -67.5, east: -64.3 }, // Puerto Rico and the US Virgin Islands
  { south: 51.0, north: 53.2, west: 172.0, east: 180.0 }, // Aleutians west of the antimeridian
];

/** Flat [lon0, lat0, lon1, lat1, …] for a tight loop: this runs for every place at start-up. */
const MAINLAND_FLAT = Float64Array.from(MAINLAND.flat());

function insideMainland(longitude: number, latitude: number): boolean {
  const v = MAINLAND_FLAT;
  const n = v.length;
  let inside = false;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const xi = v[i]!;
    const yi = v[i + 1]!;
    const xj = v[j]!;
    const yj = v[j + 1]!;
    if (yi > latitude !== yj > latitude && longitude < ((xj - xi) * (latitude - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

const inBox = (p: LatLng, b: Box): boolean =>
  p.latitude >= b.south && p.latitude <= b.north && p.longitude >= b.west && p.longitude <= b.east;

export function isInNorthAmerica(point: LatLng): boolean {
  if (!Number.isFinite(point.latitude) || !Number.isFinite(point.longitude)) return false;
  for (const box of ISLANDS) if (inBox(point, box)) return true;
  // Quick reject outside the mainland outline's bounding box.
  if (point.latitude < 14 || point.latitude > 84 || point.longitude > -52 || point.longitude < -180) return false;
  return insideMainland(point.longitude, point.latitude);
}

/**
 * Which road network a point belongs to: a truck cannot drive between them. Used by the OSRM sandbox to
 * answer NoRoute the way a real router does for Honolulu → Dallas.
 */
export type LandMass = 'MAINLAND' | 'HAWAII' | 'CARIBBEAN' | null;

export function landMassOf(point: LatLng): LandMass {
  if (inBox(point, ISLANDS[0]!)) return 'HAWAII';
  if (inBox(point, ISLANDS[1]!)) return 'CARIBBEAN';
  return isInNorthAmerica(point) ? 'MAINLAND' : null;
}
