/**
 * Dispatch candidates (pure): for one load and every driver who could take it, the trip that driver
 * would drive — from where they are (or where their current route ends), with the clocks they have then
 * — planned by the HOS planner, and whether it keeps every appointment; ranked feasible first, then by
 * arrival at the last stop (or deadhead, or cost). An infeasible driver says why in words a dispatcher
 * reads ("arrives at the delivery at Memphis, TN 3 h 10 min after its window closes: a 10 h rest is due
 * before the pickup at Dallas, TX").
 *
 * Feasible means what the planner's plan shows: every stop with a window is reached by its latest
 * time, and the plan has no HOS violation (the planner audits every plan it returns with the engine's
 * independent auditor and refuses a trip it cannot plan). Nothing here does I/O: the caller gives the
 * legs (road or great-circle) and the drivers' starting points, times and duty histories.
 */
import { PlanningError, planRoute } from '../planning/planner.js';
import type { FuelOptions, PlanInput, PlanLeg, PlanResult, PlanStop, PlanSummary, Point, RestSite, Segment } from '../planning/types.js';
import type { RuleSet } from '../hos/index.js';

/** A driver who might take the load, where and when they become free, and their duty history then. */
export interface CandidateDriver {
  driverId: string;
  /** Where the driver starts: their last position, or the last stop of the route they are on. */
  start: Point & { name: string };
  /** When they can leave from there (ms): now, or that route's arrival. */
  availableAt: number;
  /** Their duty history before availableAt (the planner replays and audits it), or a clock snapshot. */
  history: PlanInput['history'];
  rules: RuleSet;
  fuel: FuelOptions;
  /** The leg from `start` to the load's first stop (its miles are the deadhead). */
  deadhead: PlanLeg;
}

export interface CandidateLoad {
  /** The load's stops in order (pickup first), with their appointment windows. */
  stops: PlanStop[];
  /** legs[i] joins stops[i] to stops[i+1] (the same for every driver). */
  legs: PlanLeg[];
  /** No driver leaves before this (ms). */
  departureNotBefore?: number;
  averageSpeedMph: number;
  restSites: RestSite[];
  nameNear: (point: Point) => string;
}

export type CandidateSort = 'arrival' | 'deadhead' | 'cost';

export interface Candidate {
  driverId: string;
  feasible: boolean;
  /** Why not, in sentences; empty when feasible. */
  reasons: string[];
  deadheadMiles: number;
  /** When the driver leaves from where they are (ISO). */
  departureTime: string;
  /** Arrival at the load's last stop (ISO); null when no trip could be planned. */
  arrivalTime: string | null;
  summary: PlanSummary | null;
  /** The whole plan (null when the planner refused the trip). */
  plan: PlanResult | null;
  /** What was planned: planning it again (POST /routes/plan with the same input) gives the same plan. */
  input: PlanInput;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** "3 h 10 min", "45 min", "10 h". */
export function formatHours(hours: number): string {
  const minutes = Math.round(hours * 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** "the pickup at Dallas, TX", "the delivery at Memphis, TN", "stop 3 (Tulsa yard)". */
function stopLabel(stop: PlanStop, index: number): string {
  if (stop.type === 'PICKUP') return `the pickup at ${stop.name}`;
  if (stop.type === 'DELIVERY') return `the delivery at ${stop.name}`;
  return `stop ${index + 1} (${stop.name})`;
}

/** The trip one driver would drive for the load: from their start, then the load's stops. */
export function candidateInput(load: CandidateLoad, driver: CandidateDriver): PlanInput {
  const departureTime = Math.max(driver.availableAt, load.departureNotBefore ?? driver.availableAt);
  const origin: PlanStop = { name: driver.start.name, latitude: driver.start.latitude, longitude: driver.start.longitude, type: 'ORIGIN', dockDurationHours: 0 };
  return {
    departureTime,
    stops: [origin, ...load.stops],
    legs: [driver.deadhead, ...load.legs],
    rules: driver.rules,
    history: driver.history,
    averageSpeedMph: load.averageSpeedMph,
    fuel: driver.fuel,
    restSites: load.restSites,
    nameNear: load.nameNear,
  };
}

/**
 * Why a stop is missed: the first rest of the trip that ends before the driver reaches it (the cause
 * of the lateness, since driving and docks alone are as short as the trip can be), else the drive.
 */
function lateCause(plan: PlanResult, loadStops: PlanStop[], arrival: number): string {
  const rest = plan.segments.find((s): s is Extract<Segment, { type: 'rest' }> => s.type === 'rest' && s.rest_type !== 'break' && Date.parse(s.end_time) <= arrival);
  if (rest === undefined) return 'the drive alone takes longer than the window allows';
  const restEnd = Date.parse(rest.end_time);
  // The load stop the rest comes before (plan.stops[0] is the driver's start).
  const next = plan.stops.findIndex((s, i) => i > 0 && Date.parse(s.arrivalTime) >= restEnd);
  const before = next > 0 ? ` before ${stopLabel(loadStops[next - 1]!, next - 1)}` : '';
  const kind = rest.restart ? 'a 34-hour restart' : `a ${formatHours(rest.duration_hours)} rest`;
  return `${kind} is due${before}`;
}

/** One driver's candidacy for the load. */
export function evaluateCandidate(load: CandidateLoad, driver: CandidateDriver): Candidate {
  const input = candidateInput(load, driver);
  const base = { driverId: driver.driverId, deadheadMiles: round2(driver.deadhead.distanceMiles), departureTime: new Date(input.departureTime).toISOString(), input };
  let plan: PlanResult;
  try {
    plan = planRoute(input);
  } catch (err) {
    if (err instanceof PlanningError) return { ...base, feasible: false, reasons: [err.message], arrivalTime: null, summary: null, plan: null };
    throw err;
  }
  const reasons: string[] = [];
  load.stops.forEach((stop, i) => {
    const eta = plan.stops[i + 1]!;
    if (eta.withinWindow !== false) return;
    const late = eta.lateByHours;
    reasons.push(`arrives at ${stopLabel(stop, i)} ${formatHours(late)} after its window closes: ${lateCause(plan, load.stops, Date.parse(eta.arrivalTime))}`);
  });
  return { ...base, feasible: reasons.length === 0, reasons, arrivalTime: plan.arrivalTime, summary: plan.summary, plan };
}

const sortKey: Record<CandidateSort, (c: Candidate) => number> = {
  arrival: (c) => (c.arrivalTime === null ? Infinity : Date.parse(c.arrivalTime)),
  deadhead: (c) => c.deadheadMiles,
  cost: (c) => c.summary?.estimatedFuelCost ?? Infinity,
};

/** Every driver's candidacy, feasible first, then by `sort` (arrival at the last stop by default), then by arrival and id. */
export function dispatchCandidates(load: CandidateLoad, drivers: readonly CandidateDriver[], sort: CandidateSort = 'arrival'): Candidate[] {
  if (load.stops.length === 0) throw new RangeError('dispatchCandidates: the load has no stops');
  if (load.legs.length !== load.stops.length - 1) throw new RangeError('dispatchCandidates: a load of n stops needs n - 1 legs');
  const key = sortKey[sort];
  return drivers
    .map((d) => evaluateCandidate(load, d))
    .sort((a, b) => Number(b.feasible) - Number(a.feasible) || key(a) - key(b) || sortKey.arrival(a) - sortKey.arrival(b) || (a.driverId < b.driverId ? -1 : a.driverId > b.driverId ? 1 : 0));
}
