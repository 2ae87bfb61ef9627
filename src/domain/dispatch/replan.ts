/**
 * Re-planning an active route from its live state (pure). Three steps, each its own function:
 *
 * 1. `progressOn(plan, position)`: where the truck is on the current plan — how far along its path,
 *    which stops it has got to (the same rule monitoring uses: at or past a stop's place on the path),
 *    and the plan time that corresponds to the position.
 * 2. `remainingStops(plan, completed)`: the stops still to drive to, as the planner takes them (their
 *    places, windows and dock times read back from the plan).
 * 3. `mergeReplan(plan, completed, fresh)`: the route's new plan — the completed stops and the driven
 *    part (every segment up to the departure from the last completed stop) as they were, then the fresh
 *    plan from the truck's position — and `replanChanges(...)`: what the re-plan changed, per remaining
 *    stop (old and new ETA, window kept or missed), rests and fuel stops added or removed, distance and
 *    drive time of the rest of the trip before and after.
 *
 * The fresh plan comes from the HOS planner (which audits it with the driver's history); nothing here
 * does I/O or reads the clock.
 */
import { exactHours, planMinutes } from '../planning/minutes.js';
import { AT_PLACE_MILES, locateOnPath, plannedMilesAt, plannedPathOf, planTimesAtMiles } from '../alerts/planned-path.js';
import { haversineMiles, type LatLng } from '../geo/geodesy.js';
import type { PlanResult, PlanStop, PlanSummary, Segment, StopEta } from '../planning/types.js';

/** The parts of a stored plan a re-plan reads. */
export interface CurrentPlan {
  departureTime: string;
  arrivalTime: string;
  summary: PlanSummary;
  stops: StopEta[];
  segments: Segment[];
}

export interface Progress {
  /** How many stops (from the first) are completed: at least 1 (the origin is left behind). */
  completed: number;
  /** Miles along the planned path of the truck's position. */
  milesAlong: number;
  /** How far the position is from the planned path. */
  offPathMiles: number;
  /** The plan time at which the truck should have been where it is (ms). */
  plannedAt: number;
}

const HOUR_MS = 3_600_000;
const round2 = (n: number) => Math.round(n * 100) / 100;
const ms = (iso: string) => Date.parse(iso);

/**
 * Where the truck is on the plan. A stop counts as completed when the position is at or past it along
 * the path (within a mile), like monitoring's "arrived"; `nextStop` (the index of the first stop not yet
 * completed) overrides that when the caller knows better (a truck still unloading at a stop).
 */
export function progressOn(plan: CurrentPlan, position: LatLng & { at: number }, nextStop?: number): Progress {
  const path = plannedPathOf(plan.segments, plan.stops);
  const location = locateOnPath(path, position, plannedMilesAt(path, position.at)) ?? { distanceMiles: 0, milesAlong: 0 };
  const stopMiles = plan.stops.map((s) => plannedMilesAt(path, ms(s.arrivalTime)));
  let completed = 1;
  if (nextStop !== undefined) completed = Math.max(1, Math.min(nextStop, plan.stops.length));
  else while (completed < plan.stops.length && location.milesAlong >= stopMiles[completed]! - AT_PLACE_MILES) completed++;
  const times = planTimesAtMiles(path, location.milesAlong);
  return { completed, milesAlong: location.milesAlong, offPathMiles: location.distanceMiles, plannedAt: times?.first ?? ms(plan.departureTime) };
}

/** The segment a dock at this stop would be: at the stop's place. */
const atPlace = (s: Segment, p: LatLng) => s.type !== 'drive' && haversineMiles({ latitude: s.latitude, longitude: s.longitude }, p) < 0.05;

/**
 * The stops from `completed` on, as planner stops: place, type, window (from the plan's ETAs), and dock
 * time (the plan's dock segment at the stop; none: 0).
 */
export function remainingStops(plan: CurrentPlan, completed: number): PlanStop[] {
  // Each stop's dock, found in order along the segments (a route may visit the same place twice).
  const docks = new Map<number, number>();
  let cursor = 0;
  for (const seg of plan.segments) {
    if (seg.type !== 'dock') continue;
    for (let i = cursor; i < plan.stops.length; i++) {
      if (atPlace(seg, plan.stops[i]!)) {
        docks.set(i, (docks.get(i) ?? 0) + seg.duration_hours);
        cursor = i;
        break;
      }
    }
  }
  return plan.stops.slice(completed).map((s, j) => {
    const i = completed + j;
    const earliest = s.appointment?.earliest ? ms(s.appointment.earliest) : undefined;
    const latest = s.appointment?.latest ? ms(s.appointment.latest) : undefined;
    return {
      name: s.name,
      latitude: s.latitude,
      longitude: s.longitude,
      type: s.type as PlanStop['type'],
      ...(earliest !== undefined || latest !== undefined ? { appointment: { earliest, latest } } : {}),
      dockDurationHours: round2(docks.get(i) ?? 0),
      ...(s.resolution ? { resolution: s.resolution } : {}),
    };
  });
}

/** The segments of the driven part: everything up to the departure from the last completed stop. */
function drivenPart(plan: CurrentPlan, completed: number): Segment[] {
  const leftAt = ms(plan.stops[completed - 1]!.departureTime);
  return plan.segments.filter((s) => ms(s.end_time) <= leftAt);
}

function totals(segments: Segment[]) {
  let miles = 0;
  let drive = 0;
  let onDuty = 0;
  let rest = 0;
  let restStops = 0;
  let breaks = 0;
  let fuelStops = 0;
  let fuelGallons = 0;
  let fuelCost = 0;
  for (const s of segments) {
    if (s.type === 'drive') {
      drive += s.duration_hours;
      miles += s.distance_miles;
    }
    if (s.type === 'drive' || s.type === 'dock' || s.type === 'fuel') onDuty += s.duration_hours;
    if (s.type === 'rest' || s.type === 'wait') rest += s.duration_hours;
    if (s.type === 'rest' && s.rest_type === 'break') breaks++;
    else if (s.type === 'rest') restStops++;
    if (s.type === 'fuel') {
      fuelStops++;
      fuelGallons += s.gallons;
      fuelCost += s.cost;
    }
  }
  return { miles, drive, onDuty, rest, restStops, breaks, fuelStops, fuelGallons, fuelCost };
}

/** The route's plan after the re-plan: the completed stops and driven part as they were, then the fresh plan. */
export function mergeReplan(plan: CurrentPlan, completed: number, fresh: PlanResult): CurrentPlan {
  const kept = drivenPart(plan, completed);
  const stops: StopEta[] = [
    ...plan.stops.slice(0, completed),
    ...fresh.stops.slice(1).map((s, j) => {
      const old = plan.stops[completed + j]!;
      return { ...s, sequence: completed + j + 1, ...(old.resolution ? { resolution: old.resolution } : {}) };
    }),
  ];
  const segments: Segment[] = [...kept, ...fresh.segments].map((s, i) => ({ ...s, sequence: i + 1 }));
  const k = totals(kept);
  const f = fresh.summary;
  // The driven part's share of the fuel the old plan burned, by its miles.
  const share = plan.summary.totalDistanceMiles > 0 ? k.miles / plan.summary.totalDistanceMiles : 0;
  const summary: PlanSummary = {
    totalDistanceMiles: round2(k.miles + f.totalDistanceMiles),
    totalDriveHours: exactHours(k.drive + f.totalDriveHours),
    totalOnDutyHours: exactHours(k.onDuty + f.totalOnDutyHours),
    totalRestHours: exactHours(k.rest + f.totalRestHours),
    totalTripHours: exactHours((ms(fresh.arrivalTime) - ms(plan.departureTime)) / HOUR_MS),
    minutes: planMinutes(plan.departureTime, fresh.arrivalTime, segments),
    restStops: k.restStops + f.restStops,
    breaks: k.breaks + f.breaks,
    fuelStops: k.fuelStops + f.fuelStops,
    estimatedFuelCost: round2(plan.summary.estimatedFuelCost * share + f.estimatedFuelCost),
    fuelBurnedGallons: round2((plan.summary.fuelBurnedGallons ?? 0) * share + f.fuelBurnedGallons),
    fuelPurchasedGallons: round2(k.fuelGallons + f.fuelPurchasedGallons),
    fuelPurchasedCost: round2(k.fuelCost + f.fuelPurchasedCost),
    hosViolations: f.hosViolations,
    appointmentsMissed: stops.filter((s) => s.withinWindow === false).length,
  };
  return { departureTime: plan.departureTime, arrivalTime: fresh.arrivalTime, summary, stops, segments };
}

export type StopOutcome = 'KEPT' | 'MISSED' | 'NO_WINDOW';

export interface StopChange {
  index: number;
  sequence: number;
  name: string;
  type: string;
  appointment: StopEta['appointment'];
  oldArrivalTime: string;
  newArrivalTime: string;
  /** New minus old ETA, hours (positive: later). */
  changeHours: number;
  oldWithinWindow: boolean | null;
  newWithinWindow: boolean | null;
  outcome: StopOutcome;
}

export interface StopOnPlan {
  kind: 'rest' | 'break' | 'restart' | 'fuel';
  location: string;
  latitude: number;
  longitude: number;
  startTime: string;
  durationHours: number;
}

export interface ReplanChanges {
  stops: StopChange[];
  added: StopOnPlan[];
  removed: StopOnPlan[];
  /** The rest of the trip (from the truck's position) on the old plan and on the new one. */
  before: { distanceMiles: number; driveHours: number; arrivalTime: string; restStops: number; fuelStops: number };
  after: { distanceMiles: number; driveHours: number; arrivalTime: string; restStops: number; fuelStops: number };
}

/** A rest or fuel stop of a plan, or null for drives, docks and waits. */
function stopOnPlan(s: Segment): StopOnPlan | null {
  if (s.type !== 'rest' && s.type !== 'fuel') return null;
  const kind = s.type === 'fuel' ? 'fuel' : s.rest_type === 'break' ? 'break' : s.restart ? 'restart' : 'rest';
  return { kind, location: s.location, latitude: s.latitude, longitude: s.longitude, startTime: s.start_time, durationHours: s.duration_hours };
}

/** Rests and fuel stops this close (and of the same kind) are the same stop, moved. */
const SAME_STOP_MILES = 25;

/** The drive miles and hours of a plan after `from` (ms), the drive under way then counted pro rata. */
function driveAfter(segments: Segment[], from: number) {
  let miles = 0;
  let hours = 0;
  for (const s of segments) {
    if (s.type !== 'drive') continue;
    const start = ms(s.start_time);
    const end = ms(s.end_time);
    if (end <= from) continue;
    const part = start >= from || end === start ? 1 : (end - from) / (end - start);
    miles += s.distance_miles * part;
    hours += s.duration_hours * part;
  }
  return { miles: round2(miles), hours: round2(hours) };
}

export function replanChanges(plan: CurrentPlan, progress: Progress, fresh: PlanResult): ReplanChanges {
  const stops = fresh.stops.slice(1).map((s, j): StopChange => {
    const i = progress.completed + j;
    const old = plan.stops[i]!;
    return {
      index: i,
      sequence: i + 1,
      name: old.name,
      type: old.type,
      appointment: old.appointment,
      oldArrivalTime: old.arrivalTime,
      newArrivalTime: s.arrivalTime,
      changeHours: round2((ms(s.arrivalTime) - ms(old.arrivalTime)) / HOUR_MS),
      oldWithinWindow: old.withinWindow,
      newWithinWindow: s.withinWindow,
      outcome: s.withinWindow === null ? 'NO_WINDOW' : s.withinWindow ? 'KEPT' : 'MISSED',
    };
  });
  const oldAhead = plan.segments.filter((s) => ms(s.start_time) >= progress.plannedAt).flatMap((s) => stopOnPlan(s) ?? []);
  const newAhead = fresh.segments.flatMap((s) => stopOnPlan(s) ?? []);
  const unmatchedOld = [...oldAhead];
  const added: StopOnPlan[] = [];
  for (const n of newAhead) {
    const match = unmatchedOld.findIndex((o) => o.kind === n.kind && haversineMiles(o, n) <= SAME_STOP_MILES);
    if (match >= 0) unmatchedOld.splice(match, 1);
    else added.push(n);
  }
  const before = driveAfter(plan.segments, progress.plannedAt);
  const count = (list: StopOnPlan[], kinds: StopOnPlan['kind'][]) => list.filter((s) => kinds.includes(s.kind)).length;
  return {
    stops,
    added,
    removed: unmatchedOld,
    before: { distanceMiles: before.miles, driveHours: before.hours, arrivalTime: plan.arrivalTime, restStops: count(oldAhead, ['rest', 'restart']), fuelStops: count(oldAhead, ['fuel']) },
    after: { distanceMiles: fresh.summary.totalDistanceMiles, driveHours: fresh.summary.totalDriveHours, arrivalTime: fresh.arrivalTime, restStops: fresh.summary.restStops, fuelStops: fresh.summary.fuelStops },
  };
}
