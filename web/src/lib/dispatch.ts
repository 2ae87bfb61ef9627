/**
 * "Find a driver": the POST /dispatch/candidates request (a load, or the plan form's stops after its
 * first, since each driver starts where they are) and the words of the candidates table (on time or not
 * and why, deadhead, departure, arrival at the last stop, where each driver starts), and the POST
 * /routes/plan body that plans a candidate. Pure; tested in dispatch.test.ts.
 */
import type { Body, Ok } from '../api/client';
import { miles } from './format';
import { inZone } from './local-time';
import { buildPlanRequest, type PlanDraft, type PlanRequest } from './plan-form';

export type CandidatesRequest = Body<'/api/v1/dispatch/candidates'>;
export type CandidatesAnswer = Ok<'/api/v1/dispatch/candidates', 'post'>;
export type Candidate = CandidatesAnswer['data'][number];

export interface DraftCandidates {
  body?: CandidatesRequest;
  /** Fields of the plan form to fix first (the form's own field names). */
  errors: Record<string, string>;
  /** What to do instead, in words, when no request can be made. */
  message?: string;
}

export const NEED_STOPS =
  'Enter the pickup and the delivery after the first stop (each driver starts where they are), or choose a load and leave the stops empty.';

/**
 * The candidates request from the plan-a-route form: the chosen load when every stop is left empty,
 * otherwise the stops after the first (the origin: each driver starts from where they are), with the
 * form's departure as the earliest departure and its planning options. The driver and the HOS typed in
 * are the planner's business, not the ranking's: left out.
 */
export function candidatesRequestFromDraft(d: PlanDraft): DraftCandidates {
  const built = buildPlanRequest({ ...d, driverId: d.driverId || 'any', coDriverId: '', hosMode: 'log' });
  const errors = Object.fromEntries(Object.entries(built.errors).filter(([k]) => k !== 'body.driverId'));
  if (Object.keys(errors).length > 0 || !built.body) return { errors, message: 'Check the fields marked in the form first.' };
  const plan = built.body;
  const common: CandidatesRequest = {};
  if (plan.departureTime) common.departureNotBefore = plan.departureTime;
  if (plan.options) {
    const { optimizeStopOrder: _order, startingFuelGallons: _fuel, ...options } = plan.options;
    if (Object.keys(options).length > 0) common.options = options;
  }
  if (!plan.stops) return { body: { ...common, loadId: d.loadId }, errors: {} };
  const stops = plan.stops.slice(1).map(({ type, ...s }) => (type && type !== 'ORIGIN' ? { ...s, type } : s));
  if (stops.length < 2) return { errors: {}, message: NEED_STOPS };
  return { body: { ...common, stops }, errors: {} };
}

/**
 * The plan request that plans a candidate, as the server gave it, with what the form chose besides
 * (a vehicle; the load when the ranking was for typed stops).
 */
export function planRequestFor(c: Pick<Candidate, 'planRequest'>, extra: { vehicleId?: string; loadId?: string } = {}): PlanRequest | null {
  if (!c.planRequest) return null;
  const body = { ...(c.planRequest as unknown as PlanRequest) };
  if (extra.vehicleId) body.vehicleId = extra.vehicleId;
  if (extra.loadId && !body.loadId) body.loadId = extra.loadId;
  return body;
}

const START_SOURCES: Record<string, string> = {
  CURRENT_ROUTE: 'End of the route they are on',
  POSITION: 'Last position on a route',
  LOCATION_REPORT: 'Last reported location',
  DUTY_STATUS: 'Where they last changed duty status',
  LAST_ROUTE: 'End of their last route',
  HOME_TERMINAL: 'Home terminal',
};

export function startSourceLabel(source: string): string {
  return START_SOURCES[source] ?? 'Known location';
}

export type Verdict = 'On time' | 'Late' | 'Not feasible' | 'Location unknown';

/**
 * On time (every window kept, no HOS violation), late (a window missed), otherwise not feasible; a driver
 * nobody knows the whereabouts of is not planned at all: location unknown, which is not the HOS's verdict.
 */
export function verdict(c: Pick<Candidate, 'feasible' | 'locationKnown' | 'stops'>): Verdict {
  if (c.feasible) return 'On time';
  if (!c.locationKnown) return 'Location unknown';
  return c.stops.some((s) => s.withinWindow === false) ? 'Late' : 'Not feasible';
}

export function verdictTone(v: Verdict): string {
  return v === 'On time' ? 'green' : v === 'Late' ? 'red' : v === 'Location unknown' ? 'grey' : 'amber';
}

/** What places a driver whose location is unknown, said for the dashboard (the API's reason names endpoints). */
export const LOCATION_UNKNOWN_REASON = 'No route, reported location or home terminal: set the driver’s home terminal on their page, or have them report where they are.';

/** The reasons as one sentence or more: "Arrives at the delivery … ." */
export function reasonText(reasons: readonly string[]): string {
  return reasons
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => `${r.charAt(0).toUpperCase()}${r.slice(1)}${/[.!?]$/.test(r) ? '' : '.'}`)
    .join(' ');
}

export interface CandidateRow {
  driverId: string;
  driverName: string;
  feasible: boolean;
  verdict: Verdict;
  reason: string;
  deadhead: string;
  departure: string;
  arrival: string;
  startName: string;
  startSource: string;
}

/** One row of the candidates table; times in the zone of the place they are about (departure: the driver's start's; arrival: the last stop's). */
export function candidateRow(c: Candidate): CandidateRow {
  const first = c.stops[0];
  const last = c.stops[c.stops.length - 1];
  return {
    driverId: c.driverId,
    driverName: c.driverName,
    feasible: c.feasible,
    verdict: verdict(c),
    reason: c.feasible ? '' : c.locationKnown ? reasonText(c.reasons) : LOCATION_UNKNOWN_REASON,
    deadhead: c.deadheadMiles === null ? '—' : miles(c.deadheadMiles),
    departure: c.start ? inZone(c.departureTime, c.start.timeZone ?? first?.timeZone) : '—',
    arrival: c.arrivalTime ? inZone(c.arrivalTime, last?.timeZone) : '—',
    startName: c.start?.name ?? 'Unknown',
    startSource: c.start ? startSourceLabel(c.start.source) : 'Location unknown',
  };
}

/** "3 drivers ranked: 2 can take it on time; 1 location unknown." */
export function candidatesSummary(data: ReadonlyArray<Pick<Candidate, 'feasible' | 'locationKnown'>>): string {
  const n = data.length;
  if (n === 0) return 'No active driver to rank.';
  const ok = data.filter((c) => c.feasible).length;
  const unknown = data.filter((c) => !c.locationKnown).length;
  const drivers = `${n} driver${n === 1 ? '' : 's'} ranked`;
  return `${drivers}: ${ok === 0 ? 'none can take it on time' : `${ok} can take it on time`}${unknown > 0 ? `; ${unknown} location unknown` : ''}.`;
}
