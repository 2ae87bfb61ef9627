/**
 * Fuel-stop optimizer. Pure: no I/O, no clock.
 *
 * Given the route length, the truck's consumption and tank, the fuel on board and the stations along
 * the route, it chooses where to stop and how much to buy so that the fuel never goes below the reserve
 * (default 15 % of the tank) at any point, including arrival.
 *
 * ## Objective (lexicographic)
 * 1. Total cost, where an unknown price counts as `defaultPricePerGallon` and a station's discount
 *    (negotiated fleet price) is subtracted, plus `standaloneStopPenaltyDollars` per stop not merged with
 *    a rest (default 0: pure cost). Costs within 1e-6 $ are ties.
 * 2. Fewest standalone fuel stops: stops the driver makes only to fuel. A station within
 *    `mergeToleranceMiles` (default 25) of a position where the driver stops anyway (`restStopMiles`) is
 *    merged with that rest and costs no extra stop.
 * 3. Fewest stops in all.
 * When every price is equal (all unknown, say) the cost of every plan is the same (each buys exactly the
 * fuel the route consumes beyond what is on board, arriving on the reserve), so the plan is the one with
 * the fewest stops, preferring stops merged with rests: `strategy: 'MIN_STOPS'`. Otherwise
 * `strategy: 'MIN_COST'`.
 *
 * ## Algorithm
 * The classic gas-station problem: there is an optimal plan in which, at every stop, the truck either
 * fills the tank or buys just enough to reach the next stop on the reserve (Khuller, Malekian & Mestre,
 * "To Fill or Not to Fill", 2007); the greedy "buy just enough to reach a cheaper station, else fill up"
 * is one such plan. The greedy alone does not break cost ties by stops, so this runs the exact dynamic
 * program over that structure: states are (station, fuel on arrival), where the fuel on arrival is the
 * reserve, a full tank less the distance from an earlier station, or the starting fuel less the distance
 * from the origin; dominated states (no more fuel, no better on every criterion) are pruned.
 * O(n² · states) time; a few hundred candidate stations plan in milliseconds.
 *
 * ## Gaps
 * When some stretch is longer than the truck's range above the reserve (or the truck starts below the
 * reserve), no plan exists with the stations given. The result is then `status: 'UNCOVERED_GAP'` listing
 * every such stretch, with the farthest point reachable before it; inserting a stop there ("fuel stop
 * near …") and planning again is the caller's job.
 */

// ---------------------------------------------------------------------------------------------------
// Types

export interface FuelStation {
  /** Position along the route, miles from the origin. Stations outside [0, totalRouteMiles] are ignored. */
  milesAlong: number;
  /** Pump price per gallon; null when unknown (then `defaultPricePerGallon` is assumed). */
  pricePerGallon: number | null;
  name: string;
  latitude: number;
  longitude: number;
  /** Negotiated discount per gallon (fleet fuel network), subtracted from the price. */
  discountPerGallon?: number;
  /** Caller's identifier, passed through. */
  id?: string;
}

export interface FuelPlanInput {
  totalRouteMiles: number;
  mpg: number;
  tankGallons: number;
  startingGallons: number;
  /** Fraction of the tank never planned below (default 0.15). */
  reserveFraction?: number;
  stations: readonly FuelStation[];
  /** Price assumed where a station's price is unknown. */
  defaultPricePerGallon: number;
  /** Positions (miles along) where the driver stops anyway, e.g. planned rests. */
  restStopMiles?: readonly number[];
  /** A station this close to a rest is merged with it (default 25 miles). */
  mergeToleranceMiles?: number;
  /** Dollars a standalone fuel stop is worth avoiding (default 0: minimise fuel cost only). */
  standaloneStopPenaltyDollars?: number;
}

export interface FuelStop {
  milesAlong: number;
  station: FuelStation;
  gallons: number;
  /** Price paid per gallon: the pump price (or the default) less the discount. */
  pricePerGallon: number;
  /** Pump price, or the default when unknown. */
  listPricePerGallon: number;
  discountPerGallon: number;
  priceKnown: boolean;
  /** gallons × pricePerGallon, rounded to cents. */
  cost: number;
  fuelOnArrivalGallons: number;
  fuelOnDepartureGallons: number;
  /** The tank is filled (else the truck buys just enough to reach its next stop on the reserve). */
  fillUp: boolean;
  /** The rest position this stop is merged with, or null for a standalone fuel stop. */
  mergedWithRestAtMiles: number | null;
}

export interface FuelGap {
  /** The last point where fuel can be had before the gap (0 = the origin, with the starting fuel). */
  fromMiles: number;
  /** The next station, or the destination. */
  toMiles: number;
  lengthMiles: number;
  /** Where the fuel reaches the reserve after leaving `fromMiles` full (or with the starting fuel). */
  farthestReachableMiles: number;
  shortfallMiles: number;
  /** Stops to insert in the gap, each at most one range apart, for the route to be covered. */
  additionalStopsNeeded: number;
  reason: 'STATION_GAP' | 'START_BELOW_RESERVE';
}

interface FuelPlanBase {
  reserveGallons: number;
  /** Miles a full tank covers down to the reserve. */
  rangeMiles: number;
  /** Candidate stations inside [0, totalRouteMiles]. */
  stationsConsidered: number;
  stationsIgnored: number;
}

export interface FuelPlanned extends FuelPlanBase {
  status: 'PLANNED';
  strategy: 'MIN_COST' | 'MIN_STOPS';
  stops: FuelStop[];
  stopCount: number;
  mergedStopCount: number;
  standaloneStopCount: number;
  totalGallons: number;
  /** Sum of the stops' costs (each rounded to cents). */
  totalCost: number;
  fuelAtArrivalGallons: number;
}

export interface FuelUncovered extends FuelPlanBase {
  status: 'UNCOVERED_GAP';
  gaps: FuelGap[];
  stops: [];
}

export type FuelPlan = FuelPlanned | FuelUncovered;

export const FUEL_DEFAULTS = Object.freeze({ reserveFraction: 0.15, mergeToleranceMiles: 25, standaloneStopPenaltyDollars: 0 });

// ---------------------------------------------------------------------------------------------------
// Validation

export interface FuelFieldIssue {
  field: string;
  message: string;
}

/** Invalid fuel-plan input; same shape as the project's DomainError VALIDATION (400, "Validation failed"). */
export class FuelInputError extends Error {
  readonly code = 'VALIDATION' as const;
  readonly statusCode = 400 as const;
  constructor(readonly details: FuelFieldIssue[]) {
    super('Validation failed');
    this.name = 'FuelInputError';
  }
  get summary(): string {
    return this.details.map((d) => `${d.field} ${d.message}`).join('; ');
  }
}

const show = (v: unknown): string => (typeof v === 'number' ? String(v) : v === null ? 'null' : v === undefined ? 'nothing' : typeof v);

/** What is wrong with a number that must lie in [min, max] (or (min, max]), or null when nothing is. */
function numberIssue(v: unknown, min: number, max: number, exclusiveMin: boolean): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v)) return `must be a finite number (got ${show(v)})`;
  if (exclusiveMin ? v <= min : v < min) return `must be ${exclusiveMin ? 'greater than' : 'at least'} ${min} (got ${v})`;
  if (v > max) return `must be at most ${max} (got ${v})`;
  return null;
}

/** A station's field name ("stations[3].latitude"), built only when it has something to report. */
function stationNumber(issues: FuelFieldIssue[], i: number, key: string, v: unknown, min: number, max: number): void {
  const message = numberIssue(v, min, max, false);
  if (message !== null) issues.push({ field: `stations[${i}].${key}`, message });
}

function validate(input: FuelPlanInput): void {
  const issues: FuelFieldIssue[] = [];
  const num = (field: string, v: unknown, min: number, max: number, exclusiveMin = false): void => {
    const message = numberIssue(v, min, max, exclusiveMin);
    if (message !== null) issues.push({ field, message });
  };
  if (typeof input !== 'object' || input === null) throw new FuelInputError([{ field: 'input', message: 'must be an object' }]);
  num('totalRouteMiles', input.totalRouteMiles, 0, 20_000);
  num('mpg', input.mpg, 0, 200, true);
  num('tankGallons', input.tankGallons, 0, 2_000, true);
  num('startingGallons', input.startingGallons, 0, Number.isFinite(input.tankGallons) ? input.tankGallons : 2_000);
  if (input.reserveFraction !== undefined) num('reserveFraction', input.reserveFraction, 0, 0.99);
  num('defaultPricePerGallon', input.defaultPricePerGallon, 0, 100);
  if (input.mergeToleranceMiles !== undefined) num('mergeToleranceMiles', input.mergeToleranceMiles, 0, 1_000);
  if (input.standaloneStopPenaltyDollars !== undefined) num('standaloneStopPenaltyDollars', input.standaloneStopPenaltyDollars, 0, 100_000);
  if (!Array.isArray(input.stations)) issues.push({ field: 'stations', message: 'must be an array' });
  else {
    input.stations.forEach((s: FuelStation, i: number) => {
      if (typeof s !== 'object' || s === null) {
        issues.push({ field: `stations[${i}]`, message: 'must be an object' });
        return;
      }
      stationNumber(issues, i, 'milesAlong', s.milesAlong, -1e6, 1e6);
      if (s.pricePerGallon !== null) stationNumber(issues, i, 'pricePerGallon', s.pricePerGallon, 0, 100);
      if (s.discountPerGallon !== undefined) stationNumber(issues, i, 'discountPerGallon', s.discountPerGallon, 0, 100);
      stationNumber(issues, i, 'latitude', s.latitude, -90, 90);
      stationNumber(issues, i, 'longitude', s.longitude, -180, 180);
      if (typeof s.name !== 'string' || s.name.trim() === '') issues.push({ field: `stations[${i}].name`, message: 'must be a non-empty string' });
    });
  }
  if (input.restStopMiles !== undefined) {
    if (!Array.isArray(input.restStopMiles)) issues.push({ field: 'restStopMiles', message: 'must be an array' });
    else input.restStopMiles.forEach((m: number, i: number) => num(`restStopMiles[${i}]`, m, -1e6, 1e6));
  }
  if (issues.length > 0) throw new FuelInputError(issues);
}

// ---------------------------------------------------------------------------------------------------
// Planning

const EPS = 1e-9;
const COST_EPS = 1e-6;
const cents = (x: number): number => Math.round(x * 100) / 100;

interface Candidate {
  station: FuelStation;
  miles: number;
  price: number;
  listPrice: number;
  discount: number;
  priceKnown: boolean;
  mergedWith: number | null;
}

/** The lexicographic objective. */
interface Rank {
  /** cost + penalty × standalone stops, the first criterion. */
  obj: number;
  standalone: number;
  stops: number;
}

/** A way of arriving at a station (before buying there), or at the destination. */
interface Label extends Rank {
  /** Fuel above the reserve on arrival, gallons (negative only when starting below the reserve at mile 0). */
  g: number;
  cost: number;
  /** The stop before this arrival and what was bought there; null when coming from the origin. */
  prev: { label: Label; at: number; gallons: number; fill: boolean } | null;
}

function better(a: Rank, b: Rank): boolean {
  if (a.obj < b.obj - COST_EPS) return true;
  if (a.obj > b.obj + COST_EPS) return false;
  if (a.standalone !== b.standalone) return a.standalone < b.standalone;
  return a.stops < b.stops;
}

/*
 * Pruning: an arrival with at least as much fuel and a lexicographically no-worse past beats another
 * (fuel can always be bought less, never costing more or adding stops, and the lexicographic order is
 * kept when the same continuation is added to both). What is left at each station is a staircase: less
 * fuel on arrival, strictly better past.
 */

/** Gallons burned from mile `from` to mile `to` (none going backwards). */
function fuelNeeded(from: number, to: number, mpg: number): number {
  return Math.max(0, to - from) / mpg;
}

/** Appends `src` arriving with `g` gallons above the reserve to the staircase when it beats the last step. */
function keepIfBetter(kept: Label[], src: Label, g: number): void {
  const last = kept[kept.length - 1];
  if (last === undefined || better(src, last)) kept.push(src.g === g ? src : { g, obj: src.obj, cost: src.cost, standalone: src.standalone, stops: src.stops, prev: src.prev });
}

function nearestRest(miles: number, rests: readonly number[], tolerance: number): number | null {
  let best: number | null = null;
  for (const r of rests) {
    const d = Math.abs(r - miles);
    if (d <= tolerance + EPS && (best === null || d < Math.abs(best - miles))) best = r;
  }
  return best;
}

/** Stretches the stations cannot cover even filling up at every one of them. */
function findGaps(cands: Candidate[], total: number, startUsable: number, usable: number, mpg: number): FuelGap[] {
  const range = usable * mpg;
  const tol = EPS * mpg; // the planner's tolerance (gallons), in miles
  const gaps: FuelGap[] = [];
  let lastPoint = 0;
  let reach = Math.max(0, startUsable) * mpg;
  let belowReserve = startUsable < -EPS;
  const gap = (to: number, reason: FuelGap['reason']) => {
    const shortfall = to - reach;
    gaps.push({
      fromMiles: lastPoint,
      toMiles: to,
      lengthMiles: to - lastPoint,
      farthestReachableMiles: reach,
      shortfallMiles: shortfall,
      additionalStopsNeeded: Math.max(1, Math.ceil(shortfall / range - EPS)),
      reason,
    });
  };
  for (const c of cands) {
    if (belowReserve && c.miles <= tol) belowReserve = false; // fuel can be bought before moving
    if (belowReserve) {
      gap(c.miles, 'START_BELOW_RESERVE');
      belowReserve = false;
    } else if (c.miles > reach + tol) {
      gap(c.miles, 'STATION_GAP');
    }
    reach = Math.max(reach, c.miles + range);
    lastPoint = c.miles;
  }
  if (belowReserve && total > tol) gap(total, 'START_BELOW_RESERVE');
  else if (total > reach + tol) gap(total, 'STATION_GAP');
  return gaps;
}

/**
 * Plans the fuel stops of a route. Throws FuelInputError (400) for invalid input; an uncovered stretch
 * is a result (status UNCOVERED_GAP), not an error.
 */
export function planFuelStops(input: FuelPlanInput): FuelPlan {
  validate(input);
  const p = fuelParams(input);
  const cands = candidateStations(input, p.total);
  const base: FuelPlanBase = {
    reserveGallons: p.reserve,
    rangeMiles: p.usable * p.mpg,
    stationsConsidered: cands.length,
    stationsIgnored: input.stations.length - cands.length,
  };
  const gaps = findGaps(cands, p.total, p.startUsable, p.usable, p.mpg);
  if (gaps.length > 0) return { ...base, status: 'UNCOVERED_GAP', gaps, stops: [] };

  const strategy = strategyFor(cands);
  // No stop needed at all (including a route of zero length).
  if (p.total <= EPS || fuelNeeded(0, p.total, p.mpg) <= p.startUsable + EPS) return plannedResult(base, strategy, cands, p, null);
  return plannedResult(base, strategy, cands, p, cheapestArrival(cands, p));
}

/** The input's numbers the search works with, defaults applied; fuel is counted above the reserve. */
interface FuelParams {
  total: number;
  mpg: number;
  reserve: number;
  /** Gallons between the reserve and a full tank. */
  usable: number;
  /** Starting fuel above the reserve (negative when starting below it). */
  startUsable: number;
  /** Dollars per standalone stop (the first criterion adds them to the cost). */
  penalty: number;
}

/** Applies the defaults and measures the tank from the reserve. */
function fuelParams(input: FuelPlanInput): FuelParams {
  const reserve = input.tankGallons * (input.reserveFraction ?? FUEL_DEFAULTS.reserveFraction);
  return {
    total: input.totalRouteMiles,
    mpg: input.mpg,
    reserve,
    usable: input.tankGallons - reserve,
    startUsable: input.startingGallons - reserve,
    penalty: input.standaloneStopPenaltyDollars ?? FUEL_DEFAULTS.standaloneStopPenaltyDollars,
  };
}

/** The stations on the route, by position: priced (the default when unknown, less the discount) and merged with a rest nearby. */
function candidateStations(input: FuelPlanInput, total: number): Candidate[] {
  const tolerance = input.mergeToleranceMiles ?? FUEL_DEFAULTS.mergeToleranceMiles;
  const rests = input.restStopMiles ?? [];
  return input.stations
    .filter((s) => s.milesAlong >= -EPS && s.milesAlong <= total + EPS)
    .map((s) => {
      const priceKnown = s.pricePerGallon !== null;
      const listPrice = s.pricePerGallon ?? input.defaultPricePerGallon;
      const discount = s.discountPerGallon ?? 0;
      const miles = Math.min(total, Math.max(0, s.milesAlong));
      return { station: s, miles, listPrice, discount, priceKnown, price: Math.max(0, listPrice - discount), mergedWith: nearestRest(miles, rests, tolerance) };
    })
    .sort((a, b) => a.miles - b.miles);
}

/** MIN_STOPS when every station sells at one price (every plan then costs the same), else MIN_COST. */
function strategyFor(cands: Candidate[]): FuelPlanned['strategy'] {
  const prices = cands.map((c) => c.price);
  return prices.every((p) => Math.abs(p - (prices[0] ?? 0)) <= EPS) ? 'MIN_STOPS' : 'MIN_COST';
}

/** The planned result ending in the arrival `final` at the destination (null: no stop at all). */
function plannedResult(base: FuelPlanBase, strategy: FuelPlanned['strategy'], cands: Candidate[], p: FuelParams, final: Label | null): FuelPlanned {
  const stops = stopsBefore(final, cands, p.reserve);
  let merged = 0;
  let totalGallons = 0;
  let totalCost = 0;
  for (const x of stops) {
    if (x.mergedWithRestAtMiles !== null) merged++;
    totalGallons += x.gallons;
    totalCost += x.cost;
  }
  // The base fields written out rather than spread (same key order): a spread here was the
  // optimizer's most expensive line.
  return {
    reserveGallons: base.reserveGallons,
    rangeMiles: base.rangeMiles,
    stationsConsidered: base.stationsConsidered,
    stationsIgnored: base.stationsIgnored,
    status: 'PLANNED',
    strategy,
    stops,
    stopCount: stops.length,
    mergedStopCount: merged,
    standaloneStopCount: stops.length - merged,
    totalGallons,
    totalCost: cents(totalCost),
    fuelAtArrivalGallons: p.reserve + (final?.g ?? p.startUsable - fuelNeeded(0, p.total, p.mpg)),
  };
}

/** The stops that led to an arrival, in route order, read back along its chain of labels. */
function stopsBefore(final: Label | null, cands: Candidate[], reserve: number): FuelStop[] {
  const stops: FuelStop[] = [];
  for (let l = final; l?.prev; l = l.prev.label) {
    const { at, gallons, fill, label: before } = l.prev;
    const c = cands[at]!;
    stops.push({
      milesAlong: c.miles,
      station: c.station,
      gallons,
      pricePerGallon: c.price,
      listPricePerGallon: c.listPrice,
      discountPerGallon: c.discount,
      priceKnown: c.priceKnown,
      cost: cents(gallons * c.price),
      fuelOnArrivalGallons: reserve + before.g,
      fuelOnDepartureGallons: reserve + before.g + gallons,
      fillUp: fill,
      mergedWithRestAtMiles: c.mergedWith,
    });
  }
  return stops.reverse();
}

/**
 * The dynamic program's tables, filled station by station. Arrivals at each station are built lazily
 * from three sources, so that only the labels that survive pruning are ever allocated: the origin, the
 * best "just enough" purchase that arrives on the reserve, and the fill-ups at earlier stations within
 * range (one label per station: after filling up, the state is the same whatever the arrival was).
 */
interface Search {
  cands: Candidate[];
  p: FuelParams;
  origin: Label;
  /** Per station: the best way of leaving it with a full tank, or null. */
  fillStop: (Label | null)[];
  /** Per station: the earlier stations whose fill-up reaches it. */
  fillFrom: number[][];
  /** Per station: the best arrival on the reserve after buying just enough at an earlier station. */
  justBest: (Label | null)[];
}

/** The best arrival at the destination, the route being covered (findGaps found no gap) and needing a stop. */
function cheapestArrival(cands: Candidate[], p: FuelParams): Label {
  const search: Search = {
    cands,
    p,
    origin: { g: p.startUsable, obj: 0, cost: 0, standalone: 0, stops: 0, prev: null },
    fillStop: cands.map(() => null),
    fillFrom: cands.map(() => []),
    justBest: cands.map(() => null),
  };
  let best: Label | null = null;
  for (let u = 0; u < cands.length; u++) {
    const here = arrivalsAt(search, u);
    if (here.length === 0) continue;
    best = finishFrom(search, u, here, best);
    search.fillStop[u] = fillUpAt(search, u, here);
    buyOnwardFrom(search, u, here);
  }
  if (best === null) {
    // findGaps proved a plan exists (fill up everywhere); reaching here would be a bug.
    throw new Error('fuel optimizer: no plan found although the route is covered');
  }
  return best;
}

/** The arrival after stopping at station u, coming as `l`, buying `gallons` and leaving `g` above the reserve. */
function stopAt(s: Search, l: Label, u: number, gallons: number, fill: boolean, g: number): Label {
  const c = s.cands[u]!;
  const standalone = l.standalone + (c.mergedWith === null ? 1 : 0);
  const cost = l.cost + gallons * c.price;
  return { g, obj: cost + s.p.penalty * standalone, cost, standalone, stops: l.stops + 1, prev: { label: l, at: u, gallons, fill } };
}

/** The staircase of arrivals at station v, most fuel first (see the pruning note above). */
function arrivalsAt(s: Search, v: number): Label[] {
  const { usable, mpg, startUsable } = s.p;
  const kept: Label[] = [];
  const miles = s.cands[v]!.miles;
  const fromOrigin = fuelNeeded(0, miles, mpg);
  let origin = fromOrigin <= EPS || fromOrigin <= startUsable + EPS ? startUsable - fromOrigin : null;
  const from = s.fillFrom[v]!;
  for (let k = from.length - 1; k >= 0; k--) {
    const w = from[k]!;
    const g = usable - fuelNeeded(s.cands[w]!.miles, miles, mpg);
    if (origin !== null && origin >= g) {
      keepIfBetter(kept, s.origin, origin);
      origin = null;
    }
    keepIfBetter(kept, s.fillStop[w]!, g);
  }
  if (origin !== null && origin >= 0) {
    keepIfBetter(kept, s.origin, origin);
    origin = null;
  }
  const just = s.justBest[v];
  if (just) keepIfBetter(kept, just, 0);
  if (origin !== null) keepIfBetter(kept, s.origin, origin); // below the reserve, at mile 0
  return kept;
}

/** The better of `best` and the arrivals at the destination that buy just enough at station u to arrive on the reserve. */
function finishFrom(s: Search, u: number, here: Label[], best: Label | null): Label | null {
  const toEnd = fuelNeeded(s.cands[u]!.miles, s.p.total, s.p.mpg);
  if (toEnd <= s.p.usable + EPS) {
    for (const l of here) {
      const gallons = toEnd - l.g;
      if (gallons <= EPS) continue;
      const done = stopAt(s, l, u, gallons, gallons >= s.p.usable - l.g - EPS, 0);
      if (best === null || better(done, best)) best = done;
    }
  }
  return best;
}

/** The best way of leaving station u with a full tank, or null when every arrival is already full. */
function fillUpAt(s: Search, u: number, here: Label[]): Label | null {
  const usable = s.p.usable;
  let fill: Label | null = null;
  for (const l of here) {
    if (usable - l.g <= EPS) continue;
    const f = stopAt(s, l, u, usable - l.g, true, usable);
    if (fill === null || better(f, fill)) fill = f;
  }
  return fill;
}

/**
 * For each later station v within range of station u: notes that u's fill-up reaches v, and keeps the
 * best purchase at u of just enough to reach v on the reserve. Among the arrivals that cannot reach v
 * without buying (fuel below the need), the best is the lexicographic minimum of (obj - g × price,
 * standalone, stops); that set grows with v, so one pass over the arrivals by rising fuel suffices.
 */
function buyOnwardFrom(s: Search, u: number, here: Label[]): void {
  const { usable, mpg, penalty } = s.p;
  const cu = s.cands[u]!;
  const filled = s.fillStop[u] !== null;
  const merged = cu.mergedWith === null ? 0 : 1;
  let i = here.length - 1;
  let cheapest: Label | null = null;
  let cheapestKey: Rank | null = null;
  for (let v = u + 1; v < s.cands.length; v++) {
    const n = fuelNeeded(cu.miles, s.cands[v]!.miles, mpg);
    if (n > usable + EPS) break;
    if (filled) s.fillFrom[v]!.push(u);
    while (i >= 0 && here[i]!.g < n - EPS) {
      const l = here[i--]!;
      const key: Rank = { obj: l.obj - l.g * cu.price, standalone: l.standalone, stops: l.stops };
      if (cheapestKey === null || better(key, cheapestKey)) {
        cheapest = l;
        cheapestKey = key;
      }
    }
    if (cheapest === null || n >= usable - EPS) continue;
    const standalone = cheapest.standalone + 1 - merged;
    const cost = cheapest.cost + (n - cheapest.g) * cu.price;
    const rank: Rank = { obj: cost + penalty * standalone, standalone, stops: cheapest.stops + 1 };
    const current = s.justBest[v];
    if (current === null || current === undefined || better(rank, current)) s.justBest[v] = stopAt(s, cheapest, u, n - cheapest.g, false, 0);
  }
}
