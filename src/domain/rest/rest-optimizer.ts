/**
 * Rest optimizer: the internal component behind POST /api/v1/rest/recommend, called by the route
 * planner whenever the hours left may not cover the next segment (spec: "Rest recommendation
 * (internal)"). Pure: no I/O, no clock; the same input always gives the same output.
 *
 * ## What the input means
 * - `driver_state`: the clocks when the driver reaches `current_location` (hours). `on_duty_hours` is the
 *   time elapsed in the 14-hour window, `hours_since_break` the driving since the last qualifying
 *   30-minute period (src/domain/hos/types.ts, HosClocks).
 * - `dock_duration_hours`: time the truck stands here anyway (loading, unloading, waiting for an
 *   appointment). Loading and unloading are on-duty work (49 CFR 395.2), so when no rest is taken the
 *   dock counts as ON_DUTY_NOT_DRIVING: it uses the window and the cycle, and 30 minutes of it satisfy
 *   the break (395.3(a)(3)(ii) as amended in 2020: any 30 consecutive minutes not driving; DESIGN §4).
 *   When a rest is taken here, the driver spends the dock time in the sleeper berth instead, so the rest
 *   overlaps the dock and only `duration_hours - dock_duration_hours` is added to the trip.
 * - `remaining_route_hours`: driving left to the end of the route. `next_segment_hours` (internal,
 *   default = remaining_route_hours): driving to the next stop, the "next segment" of the spec.
 *
 * ## Categories (spec), in priority order
 * 1. Mandatory rest: FULL_REST, confidence 1.0, NOT_FEASIBLE, opportunity_score null, when
 *    - the drive clock or the duty window cannot cover the next segment (window: with the 30-minute
 *      breaks the segment needs) and resting here costs nothing compared with resting later; or
 *    - the cycle approaches its limit: at most `cycle_warning_hours` (default 2 h) of it are left at
 *      departure. Why 2 h: the haversine ETA is only good to 10–15 % and unplanned on-duty time
 *      (inspection, fuelling, paperwork) counts against the cycle, so with under 2 h left one ordinary
 *      delay makes the driver illegal, and unlike the drive clock the cycle does not come back with a
 *      10-hour rest. Set the parameter to 0 to trigger only when the cycle is exhausted.
 *    Duration: 10 h (full rest; resets drive clock and window). When the cycle is what binds, or would
 *    still be short after 10 h, the rest is a 34-hour restart (rest_type full_rest, duration 34): a 10-h
 *    rest there would only move the violation. A 10-h rest suffices when the daily recap during it gives
 *    back enough hours (`cycle_hours_recovered_by_full_rest`, from the HOS engine's
 *    `cycleHoursRecapturedTomorrow`).
 *    "Costs nothing": when the segment is longer than one fresh duty period (11 h of driving) it needs a
 *    rest inside it wherever the first one is taken; if resting here would add one more rest (the driver
 *    still has hours to use), the answer is NO_REST with `next_rest` saying after how many hours of
 *    driving the rest is due. The planner then splits the leg there (DESIGN §4) and asks again with the
 *    clocks exhausted, which is always a mandatory rest. For a segment that fits in one duty period the
 *    rest is always taken here: it costs the same 10 h as later and is taken at a known place.
 * 2. Required 30-minute break: only the 8-hour break rule binds. **Representation**: PARTIAL_REST with
 *    duration_hours 0.5, rest_type "break", category REQUIRED_BREAK, confidence 1.0, feasibility FEASIBLE
 *    (with the break the segment fits every clock), opportunity_score null (the stop is compulsory, not an
 *    opportunity). Not NO_REST, because the driver must stop (NO_REST with a non-zero duration would
 *    contradict itself and a planner keying on NO_REST would drive on illegally); not FULL_REST, because
 *    nothing is reset but the break clock. PARTIAL_REST is the spec's only value for "a rest shorter
 *    than a full rest"; `rest_type` (the rest segment's field) tells a break from a sleeper-berth period.
 *    The same "costs nothing" rule applies: a break is taken here when the segment (up to the next reset)
 *    would need as many breaks if the first were taken later; a fresh driver is not sent on a break.
 * 3. Opportunistic rest: confidence 0.60–0.75, FEASIBLE_BUT_TIGHT, opportunity score 0–100, when no
 *    stop is required, the dock is at least `min_opportunity_dock_hours` (3 h) and either
 *    - a full rest is needed before the route ends anyway and taking it here adds no rest: FULL_REST
 *      10 h, saving the overlapped dock time; or
 *    - the route fits the clocks with a thin margin (less than max(`tight_margin_hours` 1 h, 15 % of the
 *      remaining route), the ETA error): PARTIAL_REST in the sleeper berth, 8 h when the dock covers 8 h,
 *      else 7 h (least added time), to be paired with a 2-h or 3-h period later (8/2 or 7/3 split); the
 *      sleeper period stops the window and, once paired, recalculates the clocks.
 *    A dock of 10 h or more is a full rest at no cost.
 * 4. No rest: NO_REST, confidence 1.0, FEASIBLE, when the hours suffice.
 *
 * Decision factors (spec, descending weight): HOS feasibility, hours remaining, remaining route demand,
 * dock time availability, cost in extra time, opportunity score. They are reported in
 * `decision_factors`; the first three decide whether a stop is required, the last three only shape an
 * optional rest (which is why they cannot override HOS).
 */
import type { ClockSnapshot, LimitKind, NextRest } from '../hos/types.js';
import { RestInputError, type FieldIssue } from './rest-errors.js';

export { RestInputError, isRestInputError, type FieldIssue } from './rest-errors.js';

// ---------------------------------------------------------------------------------------------------
// Types (request/response exactly as the spec, snake_case; extensions marked)

export type RestRecommendationValue = 'FULL_REST' | 'PARTIAL_REST' | 'NO_REST';
export type RestFeasibility = 'NOT_FEASIBLE' | 'FEASIBLE_BUT_TIGHT' | 'FEASIBLE';
/** The rest segment's `rest_type` (spec, Route plan and segments). */
export type RestType = 'full_rest' | 'partial_rest' | 'break';
export type RestCategory = 'MANDATORY_REST' | 'REQUIRED_BREAK' | 'OPPORTUNISTIC_REST' | 'NO_REST';
export type RestLocationType = 'truck_stop' | 'rest_area' | 'customer_dock' | 'yard' | 'fuel_station' | 'en_route';
export type RestClock = Extract<LimitKind, 'DRIVE' | 'WINDOW' | 'BREAK' | 'CYCLE'>;
/** The HOS engine's vocabulary for rests (NextRest.kind). */
export type RestKind = NextRest['kind'];

export const REST_LOCATION_TYPES: readonly RestLocationType[] = ['truck_stop', 'rest_area', 'customer_dock', 'yard', 'fuel_station', 'en_route'];

export interface HosLimits {
  /** Driving hours per duty period (US 11). */
  drive: number;
  /** Duty window hours (US 14). */
  window: number;
  /** Driving hours before a 30-minute break (US 8). */
  break: number;
  /** Cycle on-duty hours (US 70 in 8 days). */
  cycle: number;
}

export const US_HOS_LIMITS: Readonly<HosLimits> = Object.freeze({ drive: 11, window: 14, break: 8, cycle: 70 });

/** Rest durations, hours (spec rest types table; restart from 49 CFR 395.3(c)). */
export const REST_DURATIONS = Object.freeze({ full: 10, sleeperLong: 8, sleeperShort: 7, break: 0.5, restart: 34 });

export const REST_DEFAULTS = Object.freeze({
  cycleWarningHours: 2,
  minOpportunityDockHours: 3,
  tightMarginHours: 1,
  /** The spec's distance error margin (10–15 %): the part of the remaining route that is uncertain. */
  tightMarginFraction: 0.15,
});

/** Physical maxima used by validation. */
export const REST_INPUT_MAXIMA = Object.freeze({
  /** A duty period's clocks: more than a day without a 10-h rest is not a state to plan from. */
  periodHours: 24,
  /** On-duty hours in an 8-day cycle cannot exceed the hours in 8 days. */
  cycleHours: 8 * 24,
  dockHours: 7 * 24,
  routeHours: 1000,
});

export interface RestLocationInput {
  latitude: number;
  longitude: number;
  name: string;
}

export interface RestDriverState {
  hours_driven: number;
  on_duty_hours: number;
  hours_since_break: number;
  cycle_hours_used: number;
}

export interface RestRecommendationRequest {
  current_location: RestLocationInput;
  driver_state: RestDriverState;
  dock_duration_hours: number;
  remaining_route_hours: number;
  is_dedicated_rest_stop: boolean;
  // --- internal inputs the planner may pass (not in the spec's request) ---
  /** Driving hours to the next stop (default: remaining_route_hours). At most remaining_route_hours. */
  next_segment_hours?: number;
  /** HOS limits (default US 11/14/8/70). */
  limits?: Partial<HosLimits>;
  /** The cycle "approaches" its limit when at most this many hours are left (default 2). */
  cycle_warning_hours?: number;
  /** Shortest dock worth extending into a rest (default 3). */
  min_opportunity_dock_hours?: number;
  /** Margin below which a feasible route counts as tight (default 1 h, or 15 % of the remaining route if more). */
  tight_margin_hours?: number;
  /** Cycle hours the daily recap gives back during a 10-hour rest taken now (default 0). */
  cycle_hours_recovered_by_full_rest?: number;
  /** Overrides the inferred rest_location.type. */
  location_type?: RestLocationType;
}

export interface RestLocation {
  name: string;
  latitude: number;
  longitude: number;
  type: RestLocationType;
}

/** Clocks after the recommended rest (or at departure when there is none); spec fields first. */
export interface HosStateAfter {
  hours_driven: number;
  on_duty_hours: number;
  hours_since_break: number;
  drive_hours_remaining: number;
  duty_hours_remaining: number;
  cycle_hours_used: number;
  cycle_hours_remaining: number;
}

export interface DecisionFactor {
  name:
    | 'HOS feasibility'
    | 'Hours remaining'
    | 'Remaining route demand'
    | 'Dock time availability'
    | 'Cost in extra time'
    | 'Opportunity score';
  importance: 'highest' | 'high' | 'medium' | 'low';
  /** Relative weight; the six weights sum to 1 and are listed in descending order. */
  weight: number;
  /** The number the factor looked at (hours, or the score), null when not applicable. */
  value: number | null;
  assessment: string;
}

/** The next stop the clocks will require on the remaining route, counted from departure here. */
export interface NextRequiredRest {
  rest_kind: RestKind;
  rest_type: RestType;
  /** Driving hours from departure here until the rest is required. */
  due_after_driving_hours: number;
  duration_hours: number;
  limited_by: RestClock;
}

export interface RestRecommendation {
  recommendation: RestRecommendationValue;
  duration_hours: number;
  confidence: number;
  feasibility: RestFeasibility;
  reasoning: string;
  opportunity_score: number | null;
  rest_location: RestLocation;
  // --- extensions ---
  category: RestCategory;
  /** The rest segment's rest_type; null for NO_REST. */
  rest_type: RestType | null;
  rest_kind: RestKind | null;
  /** Clocks that cannot cover the next segment as things stand (empty when all can). */
  limited_by: RestClock[];
  /** Hours the stop adds to the trip: the rest minus the dock time it overlaps. */
  added_time_hours: number;
  /** For a sleeper-berth period: the 2-h or 3-h period that completes the split; else null. */
  split_complement_hours: number | null;
  hos_state_after: HosStateAfter;
  next_rest: NextRequiredRest | null;
  decision_factors: DecisionFactor[];
}

// ---------------------------------------------------------------------------------------------------
// Validation

type Validated = Required<Omit<RestRecommendationRequest, 'limits' | 'location_type' | 'next_segment_hours'>> & {
  limits: HosLimits;
  next_segment_hours: number;
  location_type: RestLocationType | undefined;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(v: unknown): string {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  return typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v) : typeof v;
}

class Checker {
  readonly issues: FieldIssue[] = [];

  number(field: string, v: unknown, min: number, max: number, opts: { exclusiveMin?: boolean } = {}): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      this.issues.push({ field, message: `must be a finite number (got ${describe(v)})` });
      return Number.NaN;
    }
    if (opts.exclusiveMin ? v <= min : v < min) {
      this.issues.push({ field, message: `must be ${opts.exclusiveMin ? 'greater than' : 'at least'} ${min} (got ${v})` });
    } else if (v > max) {
      this.issues.push({ field, message: `must be at most ${max} (got ${v})` });
    }
    return v;
  }

  optionalNumber(field: string, v: unknown, fallback: number, min: number, max: number, opts: { exclusiveMin?: boolean } = {}): number {
    return v === undefined ? fallback : this.number(field, v, min, max, opts);
  }

  object(field: string, v: unknown): Record<string, unknown> {
    if (!isObject(v)) {
      this.issues.push({ field, message: `must be an object (got ${describe(v)})` });
      return {};
    }
    return v;
  }
}


/** Checks a request (typically a parsed JSON body) and returns it with defaults applied. Throws RestInputError. */
export function validateRestRequest(input: unknown): Validated {
  const c = new Checker();
  const body = c.object('body', input);
  if (!isObject(input)) throw new RestInputError(c.issues);

  const loc = c.object('current_location', body.current_location);
  const latitude = c.number('current_location.latitude', loc.latitude, -90, 90);
  const longitude = c.number('current_location.longitude', loc.longitude, -180, 180);
  let name = '';
  if (isObject(body.current_location)) {
    if (typeof loc.name !== 'string' || loc.name.trim() === '') {
      c.issues.push({ field: 'current_location.name', message: `must be a non-empty string (got ${describe(loc.name)})` });
    } else if (loc.name.length > 200) {
      c.issues.push({ field: 'current_location.name', message: `must be at most 200 characters (got ${loc.name.length})` });
    } else name = loc.name.trim();
  }

  const ds = c.object('driver_state', body.driver_state);
  const state = {} as RestDriverState;
  for (const key of ['hours_driven', 'on_duty_hours', 'hours_since_break', 'cycle_hours_used'] as const) {
    const max = key === 'cycle_hours_used' ? REST_INPUT_MAXIMA.cycleHours : REST_INPUT_MAXIMA.periodHours;
    state[key] = isObject(body.driver_state) ? c.number(`driver_state.${key}`, ds[key], 0, max) : Number.NaN;
  }

  const dock = c.number('dock_duration_hours', body.dock_duration_hours, 0, REST_INPUT_MAXIMA.dockHours);
  const remaining = c.number('remaining_route_hours', body.remaining_route_hours, 0, REST_INPUT_MAXIMA.routeHours);
  if (typeof body.is_dedicated_rest_stop !== 'boolean') {
    c.issues.push({ field: 'is_dedicated_rest_stop', message: `must be a boolean (got ${describe(body.is_dedicated_rest_stop)})` });
  }
  const nextSegment = c.optionalNumber(
    'next_segment_hours',
    body.next_segment_hours,
    remaining,
    0,
    Number.isFinite(remaining) ? remaining : REST_INPUT_MAXIMA.routeHours,
  );

  const limits: HosLimits = { ...US_HOS_LIMITS };
  if (body.limits !== undefined) {
    const l = c.object('limits', body.limits);
    for (const key of ['drive', 'window', 'break', 'cycle'] as const) {
      const max = key === 'cycle' ? REST_INPUT_MAXIMA.cycleHours : REST_INPUT_MAXIMA.periodHours;
      limits[key] = c.optionalNumber(`limits.${key}`, l[key], US_HOS_LIMITS[key], 0, max, { exclusiveMin: true });
    }
  }
  const cycleWarning = c.optionalNumber('cycle_warning_hours', body.cycle_warning_hours, REST_DEFAULTS.cycleWarningHours, 0, Number.isFinite(limits.cycle) ? limits.cycle : 0);
  const minDock = c.optionalNumber('min_opportunity_dock_hours', body.min_opportunity_dock_hours, REST_DEFAULTS.minOpportunityDockHours, 0, REST_INPUT_MAXIMA.periodHours);
  const tightMargin = c.optionalNumber('tight_margin_hours', body.tight_margin_hours, REST_DEFAULTS.tightMarginHours, 0, REST_INPUT_MAXIMA.periodHours);
  const recovered = c.optionalNumber('cycle_hours_recovered_by_full_rest', body.cycle_hours_recovered_by_full_rest, 0, 0, REST_INPUT_MAXIMA.cycleHours);
  let locationType: RestLocationType | undefined;
  if (body.location_type !== undefined) {
    if (typeof body.location_type === 'string' && (REST_LOCATION_TYPES as readonly string[]).includes(body.location_type)) {
      locationType = body.location_type as RestLocationType;
    } else {
      c.issues.push({ field: 'location_type', message: `must be one of ${REST_LOCATION_TYPES.join(', ')} (got ${describe(body.location_type)})` });
    }
  }

  if (c.issues.length > 0) throw new RestInputError(c.issues);
  return {
    current_location: { latitude, longitude, name },
    driver_state: state,
    dock_duration_hours: dock,
    remaining_route_hours: remaining,
    is_dedicated_rest_stop: body.is_dedicated_rest_stop as boolean,
    next_segment_hours: nextSegment,
    limits,
    cycle_warning_hours: cycleWarning,
    min_opportunity_dock_hours: minDock,
    tight_margin_hours: tightMargin,
    cycle_hours_recovered_by_full_rest: recovered,
    location_type: locationType,
  };
}

/** The HOS engine's ClockSnapshot (camelCase) as the optimizer's driver_state. */
export function toRestDriverState(s: ClockSnapshot): RestDriverState {
  return { hours_driven: s.hoursDriven, on_duty_hours: s.onDutyHours, hours_since_break: s.hoursSinceBreak, cycle_hours_used: s.cycleHoursUsed };
}

// ---------------------------------------------------------------------------------------------------
// Clock arithmetic

const EPS = 1e-9;
const ceilE = (x: number): number => (x <= EPS ? 0 : Math.ceil(x - 1e-9));
const clean = (x: number): number => Math.round(x * 1e6) / 1e6;
const nonNeg = (x: number): number => clean(Math.max(0, x));
const round2 = (x: number): number => Math.round(x * 100) / 100;
/** "11 h", "1.5 h", "0.25 h". */
const h = (x: number): string => `${Math.round(x * 100) / 100} h`;

/** 30-minute breaks needed to drive x hours when the break clock has `breakRem` hours left. */
export function breaksNeeded(x: number, breakRem: number, breakLimit: number): number {
  return x > breakRem + EPS ? ceilE((x - Math.max(0, breakRem)) / breakLimit) : 0;
}

/**
 * Hours of driving possible before a full rest is needed: limited by the drive clock and by the window,
 * taking each 30-minute break when the break clock runs out (breaks use window time).
 */
export function drivingCapacity(driveRem: number, windowRem: number, breakRem: number, breakLimit: number, breakDuration = REST_DURATIONS.break): number {
  if (driveRem <= EPS || windowRem <= EPS) return 0;
  const br = Math.max(0, breakRem);
  let best = 0;
  for (let k = 0; k <= 1000; k++) {
    const x = Math.min(driveRem, windowRem - k * breakDuration, br + k * breakLimit);
    if (x > best) best = x;
    if (br + k * breakLimit >= driveRem - EPS || windowRem - (k + 1) * breakDuration <= EPS) break;
  }
  return best;
}

interface Clocks {
  hd: number;
  od: number;
  hsb: number;
  cu: number;
}

interface ClockView {
  driveRem: number;
  windowRem: number;
  breakRem: number;
  cycleRem: number;
  /** Driving before a full rest (drive clock, window with breaks). */
  capacity: number;
  /** Driving before any reset: min(capacity, cycle). */
  available: number;
}

function view(c: Clocks, L: HosLimits): ClockView {
  const driveRem = Math.max(0, L.drive - c.hd);
  const windowRem = Math.max(0, L.window - c.od);
  const breakRem = Math.max(0, L.break - c.hsb);
  const cycleRem = Math.max(0, L.cycle - c.cu);
  const capacity = drivingCapacity(driveRem, windowRem, breakRem, L.break);
  return { driveRem, windowRem, breakRem, cycleRem, capacity, available: Math.min(capacity, cycleRem) };
}

function stateAfter(c: Clocks, L: HosLimits): HosStateAfter {
  return {
    hours_driven: nonNeg(c.hd),
    on_duty_hours: nonNeg(c.od),
    hours_since_break: nonNeg(c.hsb),
    drive_hours_remaining: nonNeg(L.drive - c.hd),
    duty_hours_remaining: nonNeg(L.window - c.od),
    cycle_hours_used: nonNeg(c.cu),
    cycle_hours_remaining: nonNeg(L.cycle - c.cu),
  };
}

/** The first stop the clocks will require on `routeHours` of driving from state `c`. */
function nextRequired(c: Clocks, L: HosLimits, routeHours: number): NextRequiredRest | null {
  if (routeHours <= EPS) return null;
  const v = view(c, L);
  if (v.breakRem < Math.min(routeHours, v.available) - EPS) {
    return { rest_kind: 'BREAK', rest_type: 'break', due_after_driving_hours: clean(v.breakRem), duration_hours: REST_DURATIONS.break, limited_by: 'BREAK' };
  }
  if (routeHours <= v.available + EPS) return null;
  if (v.cycleRem < v.capacity - EPS) {
    return { rest_kind: 'RESTART', rest_type: 'full_rest', due_after_driving_hours: clean(v.cycleRem), duration_hours: REST_DURATIONS.restart, limited_by: 'CYCLE' };
  }
  return {
    rest_kind: 'FULL_REST',
    rest_type: 'full_rest',
    due_after_driving_hours: clean(v.capacity),
    duration_hours: REST_DURATIONS.full,
    limited_by: v.capacity >= v.driveRem - EPS ? 'DRIVE' : 'WINDOW',
  };
}

// ---------------------------------------------------------------------------------------------------
// The decision

interface Analysis {
  req: Validated;
  L: HosLimits;
  start: Clocks;
  /** Clocks at departure if no rest is taken: the dock is on-duty not-driving time. */
  depart: Clocks;
  v: ClockView;
  /** What one fresh duty period allows. */
  freshCapacity: number;
  seg: number;
  route: number;
  dock: number;
}

function analyse(req: Validated): Analysis {
  const L = req.limits;
  const ds = req.driver_state;
  const dock = req.dock_duration_hours;
  const start: Clocks = { hd: ds.hours_driven, od: ds.on_duty_hours, hsb: ds.hours_since_break, cu: ds.cycle_hours_used };
  const depart: Clocks = {
    hd: start.hd,
    od: start.od + dock,
    hsb: dock >= REST_DURATIONS.break - EPS ? 0 : start.hsb,
    cu: start.cu + dock,
  };
  return {
    req,
    L,
    start,
    depart,
    v: view(depart, L),
    freshCapacity: drivingCapacity(L.drive, L.window, L.break, L.break),
    seg: req.next_segment_hours,
    route: req.remaining_route_hours,
    dock,
  };
}

/** Clocks that cannot cover `x` hours of driving from the departure state. */
function bindingClocks(a: Analysis, x: number, cycleApproach: boolean): RestClock[] {
  const { v, L } = a;
  const out: RestClock[] = [];
  if (x > v.driveRem + EPS) out.push('DRIVE');
  if (x + REST_DURATIONS.break * breaksNeeded(x, v.breakRem, L.break) > v.windowRem + EPS) out.push('WINDOW');
  if (x > v.breakRem + EPS) out.push('BREAK');
  if (cycleApproach || x > v.cycleRem + EPS) out.push('CYCLE');
  return out;
}

/** Resting before `x` hours of driving adds no rest compared with driving `available` hours first. */
function restHereAddsNothing(x: number, available: number, freshCapacity: number): boolean {
  return ceilE(x / freshCapacity) <= ceilE((x - available) / freshCapacity);
}

function locationOf(a: Analysis): RestLocation {
  const { req } = a;
  const type: RestLocationType =
    req.location_type ?? (req.is_dedicated_rest_stop ? 'truck_stop' : a.dock > EPS ? 'customer_dock' : 'en_route');
  return { name: req.current_location.name, latitude: req.current_location.latitude, longitude: req.current_location.longitude, type };
}

function dockWorthExtending(a: Analysis): boolean {
  return a.dock >= a.req.min_opportunity_dock_hours - EPS;
}

function tightMargin(a: Analysis): number {
  return Math.max(a.req.tight_margin_hours, REST_DEFAULTS.tightMarginFraction * a.route);
}

interface Opportunity {
  score: number;
  /** A full rest is needed before the route ends and taking it here adds none. */
  neededAnyway: boolean;
  tight: boolean;
  slack: number;
  parts: string[];
}

/** How good a place and time this is for an optional rest, 0–100. */
function opportunity(a: Analysis): Opportunity {
  const { v, L, route, dock, req } = a;
  const binding = v.cycleRem < v.capacity - EPS ? 'CYCLE' : 'FULL';
  const neededAnyway = route > v.available + EPS && binding === 'FULL' && restHereAddsNothing(route, v.available, a.freshCapacity);
  const slack = v.capacity - route;
  const margin = tightMargin(a);
  const tight = !neededAnyway && route > EPS && route <= v.available + EPS && slack < margin - EPS;

  const dockPart = 35 * Math.min(dock, REST_DURATIONS.full) / REST_DURATIONS.full;
  const needPart = neededAnyway ? 35 : tight ? 20 * (1 - Math.max(0, slack) / margin) : 0;
  const placePart = req.is_dedicated_rest_stop ? 20 : dock >= req.min_opportunity_dock_hours - EPS ? 10 : 0;
  const clockPart = 10 * Math.min(1, Math.max(a.depart.hd / L.drive, a.depart.od / L.window));
  const score = Math.max(0, Math.min(100, Math.round(dockPart + needPart + placePart + clockPart)));
  const parts = [
    `dock ${Math.round(dockPart)}/35`,
    `route need ${Math.round(needPart)}/35`,
    `place ${Math.round(placePart)}/20`,
    `clocks used ${Math.round(clockPart)}/10`,
  ];
  return { score, neededAnyway, tight, slack, parts };
}

interface Decision {
  category: RestCategory;
  recommendation: RestRecommendationValue;
  kind: RestKind | null;
  duration: number;
  feasibility: RestFeasibility;
  confidence: number;
  opportunity: number | null;
  limitedBy: RestClock[];
  after: Clocks;
  reasoning: string;
  splitComplement: number | null;
}

function clocksSummary(a: Analysis): string {
  const { v } = a;
  return `drive ${h(v.driveRem)} left, window ${h(v.windowRem)}, break ${h(v.breakRem)}, cycle ${h(v.cycleRem)}`;
}

function dockNote(a: Analysis): string {
  return a.dock > EPS ? ` after the ${h(a.dock)} dock` : '';
}

function mandatory(a: Analysis, cycleApproach: boolean): Decision {
  const { L, v, seg, start, req } = a;
  const limitedBy = bindingClocks(a, seg, cycleApproach);
  // After a rest taken here the dock time is spent resting, so it is not on duty.
  const recovered = Math.min(start.cu, req.cycle_hours_recovered_by_full_rest);
  const cycleAfterFull = L.cycle - (start.cu - recovered);
  const demandAfter = Math.min(seg, a.freshCapacity);
  const restart = cycleAfterFull <= req.cycle_warning_hours + EPS || cycleAfterFull < demandAfter - EPS;

  const why: string[] = [];
  if (limitedBy.includes('DRIVE')) {
    why.push(`the drive clock has ${h(v.driveRem)} left (${h(start.hd)} of ${h(L.drive)} driven) but the next segment needs ${h(seg)} of driving`);
  }
  if (limitedBy.includes('WINDOW')) {
    const breaks = breaksNeeded(seg, v.breakRem, L.break);
    const need = seg + breaks * REST_DURATIONS.break;
    why.push(
      `the ${h(L.window)} duty window has ${h(v.windowRem)} left${dockNote(a)} (${h(a.depart.od)} used) and expires before the ${h(seg)} segment completes` +
        (breaks > 0 ? ` (${h(need)} including ${breaks} 30-minute break${breaks > 1 ? 's' : ''})` : ''),
    );
  }
  if (limitedBy.includes('CYCLE')) {
    why.push(
      cycleApproach
        ? `${h(a.depart.cu)} of the ${h(L.cycle)} cycle are used${dockNote(a)} (${h(v.cycleRem)} left, within the ${h(req.cycle_warning_hours)} warning margin)`
        : `the cycle has ${h(v.cycleRem)} left${dockNote(a)} but the next segment needs ${h(seg)} on duty`,
    );
  }
  if (limitedBy.includes('BREAK')) why.push(`the break clock has ${h(v.breakRem)} left`);
  const head = restart ? 'Mandatory 34-hour restart' : 'Mandatory 10-hour full rest';
  let effect: string;
  if (restart) {
    effect =
      `A 10-hour rest would leave only ${h(Math.max(0, cycleAfterFull))} of cycle` +
      (recovered > 0 ? ` (with ${h(recovered)} recovered by the daily recap)` : '') +
      `, so the driver takes a 34-hour restart, which resets the cycle, the drive clock and the window (after: 0, 0, 0, ${h(L.drive)} to drive).`;
  } else {
    effect =
      `A 10-hour rest resets the drive clock and the duty window (after: 0, 0, 0, ${h(L.drive)} to drive)` +
      (recovered > 0 ? `; the daily recap gives back ${h(recovered)} of cycle` : '') +
      '.';
  }
  const anyway =
    seg > a.freshCapacity + EPS && !cycleApproach
      ? ` The ${h(seg)} segment needs ${ceilE(seg / a.freshCapacity)} rests whether the first is taken here or after the remaining ${h(v.available)}, so taking it here costs no time.`
      : '';
  const overlap = a.dock > EPS ? ` It overlaps the ${h(a.dock)} dock, adding ${h(Math.max(0, (restart ? REST_DURATIONS.restart : REST_DURATIONS.full) - a.dock))} to the trip.` : '';
  const duration = restart ? REST_DURATIONS.restart : REST_DURATIONS.full;
  return {
    category: 'MANDATORY_REST',
    recommendation: 'FULL_REST',
    kind: restart ? 'RESTART' : 'FULL_REST',
    duration,
    feasibility: 'NOT_FEASIBLE',
    confidence: 1,
    opportunity: null,
    limitedBy,
    after: { hd: 0, od: 0, hsb: 0, cu: restart ? 0 : start.cu - recovered },
    reasoning: `${head}: ${why.join('; ')}. ${effect}${anyway}${overlap}`,
    splitComplement: null,
  };
}

function requiredBreak(a: Analysis, segB: number): Decision {
  const { L, v, start, seg } = a;
  const elapsed = Math.max(a.dock, REST_DURATIONS.break);
  const after: Clocks = { hd: start.hd, od: start.od + elapsed, hsb: 0, cu: start.cu + a.dock };
  const more = breaksNeeded(segB, L.break, L.break);
  return {
    category: 'REQUIRED_BREAK',
    recommendation: 'PARTIAL_REST',
    kind: 'BREAK',
    duration: REST_DURATIONS.break,
    feasibility: 'FEASIBLE',
    confidence: 1,
    opportunity: null,
    limitedBy: ['BREAK'],
    after,
    reasoning:
      `30-minute break required: ${h(a.depart.hsb)} driven since the last break (limit ${h(L.break)}, ${h(v.breakRem)} left) ` +
      `and the next segment needs ${h(seg)} of driving. Only the break rule binds (${clocksSummary(a)}); ` +
      `a 30-minute off-duty break resets the break clock and nothing else.` +
      (v.breakRem > EPS ? ` The break is due within this segment anyway; taking it here adds no break.` : '') +
      (more > 0 ? ` ${more} more break${more > 1 ? 's' : ''} will be due on this segment.` : ''),
    splitComplement: null,
  };
}

function opportunistic(a: Analysis, o: Opportunity): Decision {
  const { L, start, dock, route, v } = a;
  const full = dock >= REST_DURATIONS.full - EPS || o.neededAnyway;
  const duration = full ? REST_DURATIONS.full : dock >= REST_DURATIONS.sleeperLong - EPS ? REST_DURATIONS.sleeperLong : REST_DURATIONS.sleeperShort;
  const added = Math.max(0, duration - dock);
  const confidence = round2(0.6 + (0.15 * o.score) / 100);
  let reasoning: string;
  let after: Clocks;
  if (full) {
    after = { hd: 0, od: 0, hsb: 0, cu: start.cu - Math.min(start.cu, a.req.cycle_hours_recovered_by_full_rest) };
    reasoning = o.neededAnyway
      ? `Opportunistic 10-hour full rest: the driver can drive ${h(v.available)} more${dockNote(a)} but ${h(route)} of route remain, so a full rest is needed before the end anyway; ` +
        `taking it here during the ${h(dock)} dock adds ${h(added)} instead of 10 h later.`
      : `Opportunistic 10-hour full rest: the ${h(dock)} dock already covers a full rest, so it costs no extra time and resets the drive clock and window.`;
  } else {
    after = { hd: start.hd, od: start.od, hsb: 0, cu: start.cu };
    reasoning =
      `Opportunistic ${duration}-hour sleeper-berth rest: the remaining ${h(route)} fit the clocks (${clocksSummary(a)}) ` +
      `with only ${h(Math.max(0, o.slack))} to spare, less than the ${h(tightMargin(a))} ETA margin. ` +
      `Extending the ${h(dock)} dock to ${duration} h in the sleeper berth adds ${h(added)}, stops the ${h(L.window)} window while resting, ` +
      `and pairs with a ${REST_DURATIONS.full - duration}-hour off-duty period later (${duration}/${REST_DURATIONS.full - duration} split) to recalculate the clocks.`;
  }
  return {
    category: 'OPPORTUNISTIC_REST',
    recommendation: full ? 'FULL_REST' : 'PARTIAL_REST',
    kind: full ? 'FULL_REST' : 'SLEEPER_SPLIT',
    duration,
    feasibility: 'FEASIBLE_BUT_TIGHT',
    confidence,
    opportunity: o.score,
    limitedBy: [],
    after,
    reasoning: `${reasoning} Opportunity score ${o.score}/100 (${o.parts.join(', ')}).`,
    splitComplement: full ? null : REST_DURATIONS.full - duration,
  };
}

function noRest(a: Analysis, o: Opportunity, deferred: { reset: boolean; break: boolean }, cycleApproach: boolean): Decision {
  const { seg, route, v, dock, req } = a;
  let reasoning: string;
  if (seg <= EPS) {
    reasoning = route <= EPS ? 'No rest needed: the route is complete.' : 'No rest needed before the next stop: no driving is needed to reach it.';
  } else if (deferred.reset) {
    const fresh = a.freshCapacity;
    const rests = ceilE((seg - v.available) / fresh);
    reasoning =
      `No rest here: the ${h(seg)} segment is longer than one duty period (${h(fresh)} of driving), so it needs ${rests} rest${rests > 1 ? 's' : ''} ` +
      `on the way wherever they are taken, and resting now, with ${h(v.available)} of driving left, would add one. Drive on and rest where the clock runs out.`;
  } else if (deferred.break) {
    reasoning =
      `No break here: the break clock has ${h(v.breakRem)} left, and taking the break now would mean one more break on this ${h(Math.min(seg, v.available))} stretch. ` +
      `Drive on and take it when due.`;
  } else {
    reasoning = `No rest needed: the next ${h(seg)} segment fits every clock (${clocksSummary(a)}).`;
  }
  if (seg > EPS && route > seg + EPS) reasoning += ` ${h(route)} of route remain in total.`;
  if (o.tight && dock < req.min_opportunity_dock_hours - EPS) {
    reasoning += ` The margin is thin (${h(Math.max(0, o.slack))}), but the ${h(dock)} dock is shorter than the ${h(req.min_opportunity_dock_hours)} worth extending into a rest.`;
  } else if (o.neededAnyway && dock < req.min_opportunity_dock_hours - EPS) {
    reasoning += ` A full rest will be needed before the end of the route; the ${h(dock)} dock is too short to take it here at a saving.`;
  }
  return {
    category: 'NO_REST',
    recommendation: 'NO_REST',
    kind: null,
    duration: 0,
    feasibility: 'FEASIBLE',
    confidence: 1,
    opportunity: o.score,
    limitedBy: seg > EPS && (deferred.reset || deferred.break) ? bindingClocks(a, seg, cycleApproach) : [],
    after: a.depart,
    reasoning,
    splitComplement: null,
  };
}

function factors(a: Analysis, d: Decision, o: Opportunity): DecisionFactor[] {
  const { v, seg, route, dock } = a;
  const added = d.duration > 0 ? Math.max(0, d.duration - dock) : 0;
  const feasible = d.category !== 'MANDATORY_REST';
  return [
    {
      name: 'HOS feasibility',
      importance: 'highest',
      weight: 0.3,
      value: null,
      assessment: feasible
        ? d.category === 'REQUIRED_BREAK'
          ? 'feasible after a 30-minute break'
          : d.limitedBy.length > 0
            ? `feasible up to the next required stop (${d.limitedBy.join(', ')} bind later in the segment)`
            : 'the next segment fits every clock'
        : `not feasible without a rest: ${d.limitedBy.join(', ')} cannot cover the next segment`,
    },
    {
      name: 'Hours remaining',
      importance: 'high',
      weight: 0.2,
      value: clean(v.available),
      assessment: `${h(v.available)} of driving before a reset (${clocksSummary(a)})`,
    },
    {
      name: 'Remaining route demand',
      importance: 'high',
      weight: 0.2,
      value: clean(route),
      assessment: `${h(seg)} to the next stop, ${h(route)} to the end of the route`,
    },
    {
      name: 'Dock time availability',
      importance: 'medium',
      weight: 0.12,
      value: clean(dock),
      assessment:
        dock >= a.req.min_opportunity_dock_hours - EPS
          ? `${h(dock)} of dock time can be extended into a rest`
          : `${h(dock)} of dock time, less than the ${h(a.req.min_opportunity_dock_hours)} worth extending`,
    },
    {
      name: 'Cost in extra time',
      importance: 'medium',
      weight: 0.12,
      value: clean(added),
      assessment: d.duration > 0 ? `the ${h(d.duration)} stop adds ${h(added)} beyond the dock time` : 'no time added',
    },
    {
      name: 'Opportunity score',
      importance: 'low',
      weight: 0.06,
      value: d.opportunity,
      assessment: d.opportunity === null ? 'not applicable: the stop is required' : `${o.score}/100 (${o.parts.join(', ')})`,
    },
  ];
}

/**
 * Recommends what the driver should do at `current_location` before driving on: a mandatory full rest
 * (or 34-h restart), a 30-minute break, an optional rest that uses the dock time, or nothing.
 * Throws RestInputError (400) for invalid input.
 */
export function recommendRest(input: RestRecommendationRequest): RestRecommendation {
  const { a, o, d } = decide(input);
  const hosAfter = stateAfter(d.after, a.L);
  return {
    recommendation: d.recommendation,
    duration_hours: d.duration,
    confidence: d.confidence,
    feasibility: d.feasibility,
    reasoning: d.reasoning,
    opportunity_score: d.opportunity,
    rest_location: locationOf(a),
    category: d.category,
    rest_type: d.kind === null ? null : d.kind === 'BREAK' ? 'break' : d.kind === 'SLEEPER_SPLIT' ? 'partial_rest' : 'full_rest',
    rest_kind: d.kind,
    limited_by: d.limitedBy,
    added_time_hours: d.duration > 0 ? clean(Math.max(0, d.duration - a.dock)) : 0,
    split_complement_hours: d.splitComplement,
    hos_state_after: hosAfter,
    next_rest: nextRequired(d.after, a.L, a.route),
    decision_factors: factors(a, d, o),
  };
}

/**
 * Only the `reasoning` of `recommendRest` for the same input (same validation, same decision): for the
 * route planner, which quotes it in the rest segment and needs none of the rest of the answer.
 */
export function restReasoning(input: RestRecommendationRequest): string {
  return decide(input).d.reasoning;
}

function decide(input: RestRecommendationRequest): { a: Analysis; o: Opportunity; d: Decision } {
  const req = validateRestRequest(input);
  const a = analyse(req);
  const { v, seg, freshCapacity } = a;
  const o = opportunity(a);

  const cycleApproach = seg > EPS && v.cycleRem <= req.cycle_warning_hours + EPS;
  const resetInSegment = seg > v.available + EPS;
  const restNow = resetInSegment && restHereAddsNothing(seg, v.available, freshCapacity);

  let d: Decision;
  if (cycleApproach || restNow) {
    d = mandatory(a, cycleApproach);
  } else {
    // Driving until the next reset (the whole segment when none is needed in it).
    const segB = Math.min(seg, v.available);
    const breaksLater = breaksNeeded(segB, v.breakRem, a.L.break);
    const breaksIfNow = 1 + breaksNeeded(segB, a.L.break, a.L.break);
    if (breaksLater > 0 && breaksIfNow <= breaksLater) {
      d = requiredBreak(a, segB);
    } else if (dockWorthExtending(a) && (o.neededAnyway || o.tight)) {
      d = opportunistic(a, o);
    } else {
      d = noRest(a, o, { reset: resetInSegment, break: breaksLater > 0 }, cycleApproach);
    }
  }
  return { a, o, d };
}

