/**
 * Which US state a point falls in, from the Census Bureau's state boundaries (us-atlas, 1:10,000,000,
 * decoded with topojson-client): an independent check of place data, which names states from the nearest
 * town. Ray casting over each state's rings (holes included: a point inside a hole is outside).
 */
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);
type Topology = Parameters<typeof feature>[0];

const CODES: Record<string, string> = {
  Alabama: 'AL', Alaska: 'AK', Arizona: 'AZ', Arkansas: 'AR', California: 'CA', Colorado: 'CO', Connecticut: 'CT', Delaware: 'DE',
  'District of Columbia': 'DC', Florida: 'FL', Georgia: 'GA', Hawaii: 'HI', Idaho: 'ID', Illinois: 'IL', Indiana: 'IN', Iowa: 'IA',
  Kansas: 'KS', Kentucky: 'KY', Louisiana: 'LA', Maine: 'ME', Maryland: 'MD', Massachusetts: 'MA', Michigan: 'MI', Minnesota: 'MN',
  Mississippi: 'MS', Missouri: 'MO', Montana: 'MT', Nebraska: 'NE', Nevada: 'NV', 'New Hampshire': 'NH', 'New Jersey': 'NJ',
  'New Mexico': 'NM', 'New York': 'NY', 'North Carolina': 'NC', 'North Dakota': 'ND', Ohio: 'OH', Oklahoma: 'OK', Oregon: 'OR',
  Pennsylvania: 'PA', 'Rhode Island': 'RI', 'South Carolina': 'SC', 'South Dakota': 'SD', Tennessee: 'TN', Texas: 'TX', Utah: 'UT',
  Vermont: 'VT', Virginia: 'VA', Washington: 'WA', 'West Virginia': 'WV', Wisconsin: 'WI', Wyoming: 'WY', 'Puerto Rico': 'PR',
};

type Ring = number[][];
interface State {
  code: string;
  polygons: Ring[][];
  box: [number, number, number, number];
}

let states: State[] | null = null;

function load(): State[] {
  const topology = require('us-atlas/states-10m.json') as Topology;
  const fc = feature(topology, topology.objects['states']!) as unknown as { features: Array<{ properties: { name: string }; geometry: { type: string; coordinates: unknown } }> };
  return fc.features.flatMap((f) => {
    const code = CODES[f.properties.name];
    if (!code || !f.geometry) return [];
    const polygons = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Ring[][];
    let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const poly of polygons) for (const [x, y] of poly[0]!) [w, s, e, n] = [Math.min(w, x!), Math.min(s, y!), Math.max(e, x!), Math.max(n, y!)];
    return [{ code, polygons, box: [w, s, e, n] as [number, number, number, number] }];
  });
}

function inRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) inside = !inside;
  }
  return inside;
}

/** The two-letter code of the state the point falls in; null outside every state (at sea, abroad). */
export function stateAt(p: { latitude: number; longitude: number }): string | null {
  states ??= load();
  const [x, y] = [p.longitude, p.latitude];
  for (const s of states) {
    const [w, so, e, n] = s.box;
    if (x < w || x > e || y < so || y > n) continue;
    for (const poly of s.polygons) if (inRing(x, y, poly[0]!) && !poly.slice(1).some((hole) => inRing(x, y, hole))) return s.code;
  }
  return null;
}

/**
 * The states within `miles` of a point (the point's own, and those of eight points around it): for a point
 * the coarse boundaries put a little offshore (a lakeshore, a sound), the states of the shore.
 */
export function statesNear(p: { latitude: number; longitude: number }, miles: number): Set<string> {
  const out = new Set<string>();
  const own = stateAt(p);
  if (own) out.add(own);
  const dLat = miles / 69;
  const dLng = miles / (69 * Math.cos((p.latitude * Math.PI) / 180));
  for (let k = 0; k < 8; k++) {
    const a = (k * Math.PI) / 4;
    const s = stateAt({ latitude: p.latitude + dLat * Math.sin(a), longitude: p.longitude + dLng * Math.cos(a) });
    if (s) out.add(s);
  }
  return out;
}
