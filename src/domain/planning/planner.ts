/**
 * The HOS-compliant route planner (pure). It simulates the trip segment by segment with the HOS
 * engine's clocks: a leg is driven until a clock runs out, then the rest that gets the load there
 * soonest is inserted (break, full rest, sleeper-berth split or 34-hour restart), placed at one of the
 * tenant's own sites when one lies shortly before that point. Appointment windows make the driver wait
 * (off duty, so the wait can count toward a split rest), docks are on-duty time, fuel stops come from
 * the fuel optimizer and are merged with rests where in range. The finished timeline is replayed
 * through the engine's independent auditor; a plan with a violation is never returned.
 */
import { hm } from '../words.js';
import { exactHours, planMinutes } from './minutes.js';
import {
  advance,
  audit,
  availability,
  clocksOf,
  initialState,
  snapshotTimeline,
  type HosState,
} from '../hos/index.js';
import { HOUR_MS, type DutyPeriod, type DutyStatus, type LimitKind } from '../hos/types.js';
import { restReasoning } from '../rest/rest-optimizer.js';
import { legAt, planFuel, type FuelPlanStop } from './fuel-plan.js';
import { formatIso } from './iso.js';
import { localIso, timeZoneAt } from './local-time.js';
import { RoutePath, type SiteOnRoute } from './route-path.js';
import type { HosStateAfter, NamedPoint, PlanInput, PlanResult, PlanStop, Point, Segment, StopEta } from './types.js';

const EPS_H = 1 / 3600;
const MIN_DRIVE_H = 0.05;
/**
 * A leg shorter than this is no drive a plan lists (it would read "0 mi, 0:00": a driver already at the
 * pickup, a few hundred feet across a yard); the truck is taken to be at the next stop.
 */
const MIN_DRIVE_MILES = 0.5;
const MIN_HOP_MILES = 0.05;
export const BREAK_HOURS = 0.5;
export const FULL_REST_HOURS = 10;
export const RESTART_HOURS = 34;
export const FUEL_STOP_HOURS = 0.25;
/** A team's driver change: the truck stops this long (both drivers off duty), then the other drives. */
export const SWAP_HOURS = 0.1;
/** A team changes drivers only when the other can drive at least this long (or to the end of the trip). */
const SWAP_MIN_DRIVE_H = 1;
/** How far back from the point where a clock runs out a known site may be used instead. */
const REST_PULLBACK_MILES = 75;
const BREAK_PULLBACK_MILES = 30;

export class PlanningError extends Error {
  constructor(
    readonly code: 'AUDIT_FAILED' | 'UNPLANNABLE',
    message: string,
  ) {
    super(message);
    this.name = 'PlanningError';
  }
}

type RestChoice = { kind: 'break' | 'full' | 'split' | 'restart'; hours: number; status: DutyStatus };

const round2 = (n: number) => Math.round(n * 100) / 100;
const iso = formatIso;

/**
 * Plan times are integer milliseconds. A duration computed in hours (miles / speed, a dock time) is
 * rounded to whole seconds once, here, and the clock only ever adds integers: every segment ends
 * exactly where the next begins, and a 2-hour drive from 13:00 ends at 15:00:00.000.
 */
export const durationMs = (hours: number): number => Math.round(hours * 3600) * 1000;
/**
 * A segment's duration_hours: its exact span, rounded to 7 decimals (0.36 ms), so that
 * round(duration_hours × 3,600,000) is end − start to the millisecond.
 */
const spanHours = (ms: number): number => Math.round((ms / HOUR_MS) * 1e7) / 1e7;

function hosAfter(state: HosState): HosStateAfter {
  const c = clocksOf(state);
  return {
    hours_driven: round2(c.hoursDriven),
    on_duty_hours: round2(c.onDutyHours),
    hours_since_break: round2(c.hoursSinceBreak),
    drive_hours_remaining: round2(c.driveRemaining),
    duty_hours_remaining: round2(c.windowRemaining),
    cycle_hours_used: round2(c.cycleHoursUsed),
    cycle_hours_remaining: round2(c.cycleRemaining),
  };
}

/** The state at departure: the driver's history replayed, or a snapshot turned into an equivalent history. */
export function startState(input: Pick<PlanInput, 'history' | 'rules' | 'departureTime'>): { state: HosState; history: DutyPeriod[] } {
  const history = 'timeline' in input.history ? input.history.timeline : snapshotTimeline(input.history.snapshot, input.departureTime, input.rules);
  let state = initialState(input.rules, history[0]?.start ?? input.departureTime);
  let t = history[0]?.start ?? input.departureTime;
  for (const p of history) {
    state = advance(state, p.status, (p.end - p.start) / HOUR_MS);
    t = p.end;
  }
  if (t < input.departureTime) state = advance(state, 'OFF_DUTY', (input.departureTime - t) / HOUR_MS);
  return { state, history: t < input.departureTime ? [...history, { status: 'OFF_DUTY', start: t, end: input.departureTime }] : history };
}

/** The rest that resolves a binding limit, before the lookahead compares alternatives. */
function restFor(limit: LimitKind, state: HosState): RestChoice {
  if (limit === 'BREAK') return { kind: 'break', hours: BREAK_HOURS, status: 'OFF_DUTY' };
  if (limit === 'CYCLE') {
    // The daily recap may give enough hours back after an ordinary rest; otherwise restart.
    const after = advance(state, 'SLEEPER_BERTH', FULL_REST_HOURS);
    return availability(after).driveHours >= 1 ? { kind: 'full', hours: FULL_REST_HOURS, status: 'SLEEPER_BERTH' } : { kind: 'restart', hours: RESTART_HOURS, status: 'OFF_DUTY' };
  }
  return { kind: 'full', hours: FULL_REST_HOURS, status: 'SLEEPER_BERTH' };
}

/** Driving hours still to do from a point: what the lookahead and the rest optimizer weigh. */
function remainingDriveHours(path: RoutePath, leg: number, milesIntoLeg: number, speed: number): number {
  return Math.max(0, path.totalMiles - path.legStart[leg]! - milesIntoLeg) / speed;
}

/**
 * Shorter rests that complete a sleeper-berth split with an earlier qualifying period. They are valid
 * only when they restore driving time, and validity is monotone in length (whatever pairs with a 2-hour
 * period pairs with a 3-hour one; whatever pairs with 7 hours in the sleeper pairs with 8), so the
 * longer of each pair is checked first and the shorter only when the longer works.
 */
const SPLIT_PAIRS: [RestChoice, RestChoice][] = [
  [
    { kind: 'split', hours: 3, status: 'OFF_DUTY' },
    { kind: 'split', hours: 2, status: 'OFF_DUTY' },
  ],
  [
    { kind: 'split', hours: 8, status: 'SLEEPER_BERTH' },
    { kind: 'split', hours: 7, status: 'SLEEPER_BERTH' },
  ],
];

const restores = (state: HosState, c: RestChoice) => availability(advance(state, c.status, c.hours)).driveHours >= MIN_DRIVE_H;

/** The split rests available from this state, shortest first. */
function validSplits(state: HosState): RestChoice[] {
  const out: RestChoice[] = [];
  for (const [longer, shorter] of SPLIT_PAIRS) {
    if (!restores(state, longer)) continue;
    if (restores(state, shorter)) out.push(shorter);
    out.push(longer);
  }
  return out;
}

/** The shortest legal rest that lets the driver drive again (the lookahead's policy). */
function shortestRest(limit: LimitKind, state: HosState): RestChoice {
  const standard = restFor(limit, state);
  if (standard.kind !== 'full') return standard;
  return validSplits(state)[0] ?? standard;
}

/**
 * Time to finish the trip's driving (and docks) from `state` after taking `choice`, then resting as
 * briefly as the rules allow. Used to pick the rest that gets the load there soonest.
 */
function finishHours(state: HosState, choice: RestChoice, driveHours: number, dockHours: number): number {
  let s = advance(state, choice.status, choice.hours);
  let elapsed = choice.hours;
  let left = driveHours;
  for (let guard = 0; left > EPS_H && guard < 200; guard++) {
    const a = availability(s);
    if (a.driveHours < MIN_DRIVE_H) {
      const r = shortestRest(a.limitedBy, s);
      s = advance(s, r.status, r.hours);
      elapsed += r.hours;
      continue;
    }
    const d = Math.min(a.driveHours, left);
    s = advance(s, 'ON_DUTY_DRIVING', d);
    elapsed += d;
    left -= d;
  }
  return elapsed + dockHours;
}

class Trip {
  t: number;
  state: HosState;
  leg = 0;
  milesIntoLeg = 0;
  fuelGallons: number;
  readonly periods: DutyPeriod[] = [];
  readonly segments: Segment[] = [];
  readonly stops: StopEta[] = [];
  readonly warnings: string[] = [];
  /** Bought at the planned fuel stops. */
  fuelPurchasedCost = 0;
  fuelPurchasedGallons = 0;
  /**
   * The fuel burned, priced as it went: the tank holds fuel at a running weighted-average price (what
   * it started with at the default price, each purchase at its price), and each mile burns at that price.
   */
  fuelBurnedGallons = 0;
  fuelBurnedCost = 0;
  private tankPricePerGallon: number;
  private fuelIndex = 0;

  /** Trip miles of each rest, in order (what the fuel plan is fitted to). */
  readonly restMiles: number[] = [];

  /**
   * Team driving: the other driver's clocks (`state` is always the driver at the wheel), which of the
   * two drives (0: the route's driver, 1: the co-driver), and each driver's own timeline of the trip.
   */
  readonly team: { coState: HosState; active: 0 | 1; periods: [DutyPeriod[], DutyPeriod[]]; ids: [string, string]; names: [string, string]; solo: boolean } | null;

  constructor(
    readonly input: PlanInput,
    readonly path: RoutePath,
    readonly sites: SiteOnRoute[],
    readonly fuelPlan: FuelPlanStop[],
    start: HosState,
    /**
     * A light trip only finds where the rests fall: it keeps the clocks and `restMiles`, writes no
     * segments, names no places, has no fuel plan and does not weigh splits.
     */
    readonly light = false,
    /** Team driving: the co-driver's state at departure. */
    coStart?: HosState,
    /** Team driving: 'alternate' (the drivers change over), or one of them drives it all (0, 1) while the other rides. */
    teamMode: TeamMode = 'alternate',
  ) {
    this.t = input.departureTime;
    this.state = start;
    this.team = null;
    if (input.team && coStart) {
      // Alternating, the one who can drive longer starts (the route's driver on a tie).
      const coFirst = teamMode === 'alternate' ? availability(coStart).driveHours > availability(start).driveHours + 1e-9 : teamMode === 1;
      this.team = { coState: coFirst ? start : coStart, active: coFirst ? 1 : 0, periods: [[], []], ids: input.team.driverIds, names: input.team.driverNames, solo: teamMode !== 'alternate' };
      if (coFirst) this.state = coStart;
      if (coFirst && teamMode === 'alternate' && !light) {
        // The form named the other as the driver: say why this one takes the wheel first.
        const [driver, co] = input.team.driverNames;
        this.warnings.push(`${co} starts at the wheel: ${hm(availability(coStart).driveHours)} of driving before a break or rest, against ${hm(availability(start).driveHours)} for ${driver}.`);
      }
    }
    this.fuelGallons = input.fuel.startingGallons;
    this.tankPricePerGallon = input.fuel.defaultPricePerGallon;
  }

  get tripMiles(): number {
    return this.path.legStart[this.leg]! + this.milesIntoLeg;
  }

  here(): Point {
    return this.path.pointInLeg(this.leg, this.milesIntoLeg);
  }

  /** `ms` (an integer) in `status` from now; returns when it started (it ends at the new `t`). */
  private record(status: DutyStatus, ms: number, coStatus: DutyStatus = teammateStatus(status)): number {
    const start = this.t;
    this.state = advance(this.state, status, ms / HOUR_MS);
    this.t += ms;
    if (this.team) {
      const team = this.team;
      team.coState = advance(team.coState, coStatus, ms / HOUR_MS);
      appendPeriod(team.periods[team.active], status, start, this.t);
      appendPeriod(team.periods[team.active === 0 ? 1 : 0], coStatus, start, this.t);
      return start;
    }
    appendPeriod(this.periods, status, start, this.t);
    return start;
  }

  /** The driver at the wheel (team plans), for the drive segments. */
  private driverAtWheel(): { driver_id: string } | Record<string, never> {
    return this.team ? { driver_id: this.team.ids[this.team.active] } : {};
  }

  /**
   * Team plans: the drivers change over. The truck stops for SWAP_HOURS (both off duty), then the
   * other drives while this one goes to the sleeper berth.
   */
  swapDrivers(limit: LimitKind, place: NamedPoint | null): void {
    const team = this.team!;
    const from = team.names[team.active];
    const start = this.record('OFF_DUTY', durationMs(SWAP_HOURS), 'OFF_DUTY');
    const s = this.state;
    this.state = team.coState;
    team.coState = s;
    team.active = team.active === 0 ? 1 : 0;
    if (this.light || !place) return;
    this.segments.push({
      sequence: this.segments.length + 1,
      start_time: iso(start),
      end_time: iso(this.t),
      duration_hours: spanHours(this.t - start),
      hos_state_after: hosAfter(this.state),
      type: 'wait',
      location: place.name,
      latitude: round6(place.latitude),
      longitude: round6(place.longitude),
      reason: `Driver change: ${team.names[team.active]} takes the wheel, ${from} goes to the sleeper berth (${why[limit]})`,
      ...placeTimes(place, start, this.t),
      driver_id: team.ids[team.active],
    });
  }

  /*
   * Each segment is written as one object literal, the common fields first (sequence, times, duration,
   * clocks after): that is the order the plan's JSON has always had. Spreading a shared base object
   * into each was the single most expensive line of the planner.
   */

  drive(miles: number, fromName: string, toName: string): void {
    const from = this.here();
    const start = this.record('ON_DUTY_DRIVING', durationMs(miles / this.input.averageSpeedMph));
    this.milesIntoLeg += miles;
    const burned = miles / this.input.fuel.mpg;
    this.fuelGallons -= burned;
    this.fuelBurnedGallons += burned;
    this.fuelBurnedCost += burned * this.tankPricePerGallon;
    const to = this.here();
    const fromZone = timeZoneAt(from);
    const toZone = timeZoneAt(to);
    this.segments.push({
      sequence: this.segments.length + 1,
      start_time: iso(start),
      end_time: iso(this.t),
      duration_hours: spanHours(this.t - start),
      hos_state_after: hosAfter(this.state),
      type: 'drive',
      from: { ...namedPoint(from, fromName), time_zone: fromZone },
      to: { ...namedPoint(to, toName), time_zone: toZone },
      distance_miles: round2(miles),
      local_start_time: localIso(start, fromZone),
      local_end_time: localIso(this.t, toZone),
      ...this.driverAtWheel(),
    });
  }

  rest(choice: RestChoice, place: NamedPoint, reason: string): void {
    const start = this.record(choice.status, durationMs(choice.hours));
    this.restMiles.push(this.tripMiles);
    const restType = choice.kind === 'break' ? 'break' : choice.kind === 'split' ? 'partial_rest' : 'full_rest';
    this.segments.push({
      sequence: this.segments.length + 1,
      start_time: iso(start),
      end_time: iso(this.t),
      duration_hours: spanHours(this.t - start),
      hos_state_after: hosAfter(this.state),
      type: 'rest',
      location: place.name,
      latitude: round6(place.latitude),
      longitude: round6(place.longitude),
      rest_type: restType,
      // A 34-hour restart is a full rest by the spec's rest types; this says it resets the cycle too.
      restart: choice.kind === 'restart',
      duty_status: choice.status === 'OFF_DUTY' ? 'OFF_DUTY' : 'SLEEPER_BERTH',
      reason,
      ...placeTimes(place, start, this.t),
    });
  }

  /** A drive on the light pass: only the clocks and the position. */
  driveLight(miles: number): void {
    this.record('ON_DUTY_DRIVING', durationMs(miles / this.input.averageSpeedMph));
    this.milesIntoLeg += miles;
  }

  /** A rest on the light pass: only the clocks and where it falls. */
  restLight(choice: RestChoice): void {
    this.record(choice.status, durationMs(choice.hours));
    this.restMiles.push(this.tripMiles);
  }

  /** Buys up to the level the fuel plan wanted on leaving this stop (never past a full tank). */
  fuel(place: NamedPoint, pricePerGallon: number, targetGallons: number): void {
    const gallons = Math.min(this.input.fuel.tankGallons, Math.max(targetGallons, this.fuelGallons)) - this.fuelGallons;
    if (gallons < 1) return;
    const start = this.record('ON_DUTY_NOT_DRIVING', durationMs(FUEL_STOP_HOURS));
    const held = Math.max(0, this.fuelGallons);
    this.tankPricePerGallon = (held * this.tankPricePerGallon + gallons * pricePerGallon) / (held + gallons);
    this.fuelGallons += gallons;
    const cost = round2(gallons * pricePerGallon);
    this.fuelPurchasedCost += cost;
    this.fuelPurchasedGallons += gallons;
    this.segments.push({
      sequence: this.segments.length + 1,
      start_time: iso(start),
      end_time: iso(this.t),
      duration_hours: spanHours(this.t - start),
      hos_state_after: hosAfter(this.state),
      type: 'fuel',
      location: place.name,
      latitude: round6(place.latitude),
      longitude: round6(place.longitude),
      gallons: round2(gallons),
      price_per_gallon: round2(pricePerGallon),
      cost,
      ...placeTimes(place, start, this.t),
    });
  }

  /** The next planned fuel stop not yet taken (it may lie a little behind when it was merged into a rest). */
  nextFuel(): FuelPlanStop | undefined {
    return this.fuelPlan[this.fuelIndex];
  }

  consumeFuelStop(): void {
    this.fuelIndex++;
  }

  /** Waits `ms` at a stop for its appointment window to open (to the millisecond it opens). */
  wait(ms: number, stop: PlanStop): void {
    const hours = ms / HOUR_MS;
    // Waiting is off duty; seven hours or more in the sleeper berth can pair into a split rest.
    const start = this.record(hours >= 7 ? 'SLEEPER_BERTH' : 'OFF_DUTY', ms);
    if (this.light) return;
    this.segments.push({
      sequence: this.segments.length + 1,
      start_time: iso(start),
      end_time: iso(this.t),
      duration_hours: spanHours(this.t - start),
      hos_state_after: hosAfter(this.state),
      type: 'wait',
      location: stop.name,
      latitude: round6(stop.latitude),
      longitude: round6(stop.longitude),
      reason: `Early for the appointment at ${stop.name}: waiting ${round2(hours)} h off duty until the window opens`,
      ...placeTimes(stop, start, this.t),
    });
  }

  dock(stop: PlanStop): void {
    if (stop.dockDurationHours <= 0) return;
    const start = this.record('ON_DUTY_NOT_DRIVING', durationMs(stop.dockDurationHours));
    if (this.light) return;
    this.segments.push({
      sequence: this.segments.length + 1,
      start_time: iso(start),
      end_time: iso(this.t),
      duration_hours: spanHours(this.t - start),
      hos_state_after: hosAfter(this.state),
      type: 'dock',
      location: stop.name,
      latitude: stop.latitude,
      longitude: stop.longitude,
      stop_type: stop.type,
      appointment: appointmentIso(stop),
      ...placeTimes(stop, start, this.t),
    });
  }
}

/**
 * What the driver not at the wheel logs while the truck does something (team plans): the sleeper berth
 * while the other drives or works a dock or fuel stop; the same rest or wait as the other when the truck
 * stands for both.
 */
function teammateStatus(status: DutyStatus): DutyStatus {
  return status === 'ON_DUTY_DRIVING' || status === 'ON_DUTY_NOT_DRIVING' ? 'SLEEPER_BERTH' : status;
}

/** Appends a span to a timeline, extending the last period when it continues it. */
function appendPeriod(periods: DutyPeriod[], status: DutyStatus, start: number, end: number): void {
  const last = periods[periods.length - 1];
  if (last && last.status === status && last.end === start) last.end = end;
  else periods.push({ status, start, end });
}

/** A place's time zone and a span's local start and end there (rest, dock, fuel and wait segments). */
function placeTimes(place: Point, start: number, end: number): { time_zone: string; local_start_time: string; local_end_time: string } {
  const zone = timeZoneAt(place);
  return { time_zone: zone, local_start_time: localIso(start, zone), local_end_time: localIso(end, zone) };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

const namedPoint = (p: Point, name: string): NamedPoint => ({ name, latitude: round6(p.latitude), longitude: round6(p.longitude) });

function appointmentIso(stop: PlanStop): StopEta['appointment'] {
  if (!stop.appointment) return null;
  return {
    earliest: stop.appointment.earliest !== undefined ? iso(stop.appointment.earliest) : null,
    latest: stop.appointment.latest !== undefined ? iso(stop.appointment.latest) : null,
  };
}

export function planRoute(given: PlanInput): PlanResult {
  // A team's two logs follow the rule set's team provisions (Canada s.19's team split).
  const input = given.team && !given.rules.options.teamDriving ? { ...given, rules: { ...given.rules, options: { ...given.rules.options, teamDriving: true } } } : given;
  if (input.stops.length < 2 || input.legs.length !== input.stops.length - 1) {
    throw new PlanningError('UNPLANNABLE', 'A plan needs at least two stops and one leg between each pair');
  }
  const path = new RoutePath(input.legs);
  const sites = path.project(input.restSites);
  const { state: start, history } = startState(input);
  // Team plans: the co-driver's clocks at departure, from their own history.
  const co = input.team ? startState({ history: input.team.coDriverHistory, rules: input.rules, departureTime: input.departureTime }) : null;
  const plan = (mode: TeamMode): Trip => {
    if (!input.fuel.enabled) return simulate(input, path, sites, [], start, false, co?.state, mode);
    // First where the rests fall, then fuel planned to coincide with them where that costs nothing extra.
    const rests = simulate(input, path, sites, [], start, true, co?.state, mode);
    const fuel = planFuel(input, path, sites, rests.restMiles);
    const t = simulate(input, path, sites, fuel.stops, start, false, co?.state, mode);
    if (fuel.warning) t.warnings.push(fuel.warning);
    return t;
  };
  let trip = plan('alternate');
  if (co) {
    // A team is never slower than its better driver alone: when one driving it all (the other riding)
    // arrives sooner than changing over, that is the plan (the change-overs win ties).
    for (const solo of [0, 1] as const) {
      const alone = plan(solo);
      if (alone.t < trip.t) trip = alone;
    }
  }

  // Each driver's log audited on its own: the history before departure, then the trip as that driver logs it.
  const logs: [DutyPeriod[], DutyPeriod[]][] = trip.team && co ? [[history, trip.team.periods[0]], [co.history, trip.team.periods[1]]] : [[history, trip.periods]];
  for (const [i, [before, during]] of logs.entries()) {
    const violations = audit([...before, ...during], input.rules).filter((v) => v.at >= input.departureTime);
    if (violations.length > 0) {
      const whose = trip.team ? ` (${trip.team.names[i]})` : '';
      throw new PlanningError('AUDIT_FAILED', `Plan failed its HOS audit${whose}: ${violations.map((v) => v.explanation).join('; ')}`);
    }
  }
  return summarise(input, trip, path);
}

/** How a team shares the driving: changing over, or one of the two (0: the route's driver, 1: the co-driver) driving it all. */
type TeamMode = 'alternate' | 0 | 1;

/** Merge a planned fuel stop into a rest when it lies this little way ahead. */
const FUEL_MERGE_MILES = 30;

/*
 * The simulation's steps are plain functions of the trip (not closures made afresh for every
 * simulation): the trip carries the input, the path and the sites they need.
 */

function simulate(input: PlanInput, path: RoutePath, sites: SiteOnRoute[], fuelPlan: FuelPlanStop[], start: HosState, light = false, coStart?: HosState, teamMode: TeamMode = 'alternate'): Trip {
  const trip = new Trip(input, path, sites, fuelPlan, start, light, coStart, teamMode);
  const speed = input.averageSpeedMph;

  // Origin: wait for its window and load.
  arriveAt(trip, 0);
  for (let leg = 0; leg < input.legs.length; leg++) {
    trip.leg = leg;
    trip.milesIntoLeg = 0;
    const legMiles = input.legs[leg]!.distanceMiles;
    const toName = input.stops[leg + 1]!.name;
    // Already there (a leg of a few hundred feet): no drive to list.
    if (legMiles < MIN_DRIVE_MILES) trip.milesIntoLeg = legMiles;
    for (let guard = 0; legMiles - trip.milesIntoLeg > 1e-6; guard++) {
      if (guard > 500) throw new PlanningError('UNPLANNABLE', 'The trip could not be planned within the HOS limits');
      const avail = availability(trip.state);
      if (avail.driveHours < MIN_DRIVE_H) {
        if (trip.team && teammateCanDrive(trip, legMiles)) trip.swapDrivers(avail.limitedBy, trip.light ? null : placeHere(trip));
        else if (trip.light) trip.restLight(restFor(avail.limitedBy, trip.state));
        else restHere(trip, avail.limitedBy);
        continue;
      }
      const legLeft = legMiles - trip.milesIntoLeg;
      // Up to the limit in whole seconds (a float a hair under a whole second still counts as it:
      // the engine tolerates 0.36 ms), so a drive to a limit ends on the second the limit falls.
      const limitMs = Math.floor(avail.driveHours * 3600 + 1e-4) * 1000;
      let target = trip.tripMiles + Math.min(legLeft, (limitMs / HOUR_MS) * speed);
      let stopFor: 'none' | 'hos' | 'fuel' = target < trip.tripMiles + legLeft - 1e-6 ? 'hos' : 'none';
      const fuel = trip.nextFuel();
      // A fuel stop shortly before a rest is taken at the rest: one stop, not two.
      if (fuel && fuel.tripMiles <= target + 1e-6 && !(stopFor === 'hos' && target - fuel.tripMiles <= FUEL_MERGE_MILES)) {
        target = Math.max(trip.tripMiles, fuel.tripMiles);
        stopFor = 'fuel';
      }
      let stop: RestStop | undefined;
      // A team drives to the limit and changes drivers there (or, when neither can go on, rests there).
      if (stopFor === 'hos' && trip.team) stopFor = 'none';
      if (stopFor === 'hos') {
        stop = restStop(trip, target, avail.limitedBy === 'BREAK' ? BREAK_PULLBACK_MILES : REST_PULLBACK_MILES, 'rest');
        target = stop.miles;
      }
      const miles = target - trip.tripMiles;
      if (trip.light) {
        // Where the rests fall, and nothing else (a light trip has no fuel plan).
        if (miles > 1e-6) trip.driveLight(miles);
        if (stop) trip.restLight(restFor(avail.limitedBy, trip.state));
        continue;
      }
      const place = stop ? stopPlace(trip, stop) : undefined;
      const endName = stopFor === 'none' ? (target < trip.tripMiles + legLeft - 1e-6 ? trip.input.nameNear(trip.path.pointInLeg(trip.leg, target - trip.path.legStart[trip.leg]!)) : toName) : stopFor === 'fuel' ? fuel!.name : place!.name;
      // A hop of a few yards (a fuel station at the very place the truck is) is no drive either.
      if (miles >= MIN_HOP_MILES) trip.drive(miles, lastPlaceName(trip, input), endName);
      else if (miles > 0) trip.milesIntoLeg += miles;
      if (stopFor === 'fuel') {
        // Normally exactly at the planned station; if the plan's point is already behind, fuel here.
        const atStation = Math.abs(fuel!.tripMiles - trip.tripMiles) < 0.5;
        trip.fuel(atStation ? { name: fuel!.name, latitude: fuel!.latitude, longitude: fuel!.longitude } : placeHere(trip), fuel!.pricePerGallon, fuel!.fuelOnDepartureGallons);
        trip.consumeFuelStop();
      } else if (stopFor === 'hos') {
        const { choice, reason } = takeRest(trip, avail.limitedBy);
        fuelAtRest(trip, place!);
        trip.rest(choice, place!, reason);
      }
    }
    trip.milesIntoLeg = legMiles;
    arriveAt(trip, leg + 1);
  }
  return trip;
}

/**
 * Whether the team should change drivers rather than stop: the one not at the wheel, after the change
 * itself, can drive at least SWAP_MIN_DRIVE_H (or what is left of the trip) and longer than the one at it.
 */
function teammateCanDrive(trip: Trip, legMiles: number): boolean {
  const team = trip.team!;
  if (team.solo) return false;
  const after = availability(advance(team.coState, 'OFF_DUTY', SWAP_HOURS)).driveHours;
  const left = remainingDriveHours(trip.path, trip.leg, Math.min(trip.milesIntoLeg, legMiles), trip.input.averageSpeedMph);
  return after >= Math.min(SWAP_MIN_DRIVE_H, left) && after > availability(trip.state).driveHours;
}

/** Where the truck stands, named. */
function placeHere(trip: Trip): NamedPoint {
  const here = trip.here();
  return { name: trip.input.nameNear(here), latitude: here.latitude, longitude: here.longitude };
}

/** A rest taken where the truck stands: a clock has run out here. */
function restHere(trip: Trip, limit: LimitKind): void {
  const place = placeHere(trip);
  const { choice, reason } = takeRest(trip, limit, place);
  fuelAtRest(trip, place);
  trip.rest(choice, place, reason);
}

/** Where a rest needed at some trip mile is taken: a known site shortly before it, or that point. */
interface RestStop {
  miles: number;
  site?: SiteOnRoute;
}

/** Where to stop for a rest needed at trip mile `limitMiles`: a site shortly before it, else that point. */
function restStop(trip: Trip, limitMiles: number, pullback: number, kind: 'rest' | 'fuel'): RestStop {
  let best: SiteOnRoute | undefined;
  for (const s of trip.sites) {
    if (s.tripMiles > limitMiles + 1e-6) break;
    if (s.tripMiles < Math.max(trip.tripMiles + 1, limitMiles - pullback)) continue;
    if (kind === 'fuel' && s.site.diesel === false) continue;
    if (kind === 'rest' && s.site.type === 'CUSTOMER') continue;
    best = s;
  }
  return best ? { miles: best.tripMiles, site: best } : { miles: limitMiles };
}

/** The named place of a rest stop: the site, or the route's point at that mile named by the input. */
function stopPlace(trip: Trip, stop: RestStop): NamedPoint {
  if (stop.site) return { name: stop.site.site.name, latitude: stop.site.site.latitude, longitude: stop.site.site.longitude };
  const path = trip.path;
  const legIdx = legAt(path, stop.miles);
  const p = path.pointInLeg(legIdx, stop.miles - path.legStart[legIdx]!);
  return { name: trip.input.nameNear(p), latitude: p.latitude, longitude: p.longitude };
}

function arriveAt(trip: Trip, index: number): void {
  const stop = trip.input.stops[index]!;
  const arrival = trip.t;
  const appt = stop.appointment;
  if (appt?.earliest !== undefined && appt.earliest > trip.t + EPS_H * HOUR_MS) trip.wait(Math.round(appt.earliest - trip.t), stop);
  const late = appt?.latest !== undefined ? Math.max(0, (trip.t - appt.latest) / HOUR_MS) : 0;
  if (trip.light) {
    trip.dock(stop);
    return;
  }
  if (late > EPS_H) trip.warnings.push(`Stop ${index + 1} (${stop.name}) cannot be reached within its appointment window: ${hm(late)} late`);
  trip.dock(stop);
  const zone = timeZoneAt(stop);
  trip.stops.push({
    sequence: index + 1,
    name: stop.name,
    type: stop.type,
    latitude: stop.latitude,
    longitude: stop.longitude,
    arrivalTime: iso(arrival),
    departureTime: iso(trip.t),
    appointment: appointmentIso(stop),
    withinWindow: appt ? late <= EPS_H : null,
    lateByHours: round2(late),
    timeZone: zone,
    localArrivalTime: localIso(arrival, zone),
    localDepartureTime: localIso(trip.t, zone),
    ...(stop.resolution ? { resolution: stop.resolution } : {}),
  });
}

function dockHoursAfter(stops: PlanStop[], leg: number): number {
  let sum = 0;
  for (let i = leg + 1; i < stops.length; i++) sum += stops[i]!.dockDurationHours;
  return sum;
}

/**
 * The rest to take now (full pass) and the reason the plan gives. `here`: where the truck stands, when
 * the caller has named it already; the rest optimizer is told about that point.
 */
function takeRest(trip: Trip, limit: LimitKind, here?: NamedPoint): { choice: RestChoice; reason: string } {
  const choice = restFor(limit, trip.state);
  if (choice.kind !== 'full') return { choice, reason: restReason(choice, limit, '') };
  const driveLeft = remainingDriveHours(trip.path, trip.leg, trip.milesIntoLeg, trip.input.averageSpeedMph);
  const place = here ?? placeHere(trip);
  // The rest optimizer states the category; the lookahead decides between a full rest and a split.
  const c = clocksOf(trip.state);
  const advice = restReasoning({
    current_location: { latitude: place.latitude, longitude: place.longitude, name: place.name },
    driver_state: { hours_driven: c.hoursDriven, on_duty_hours: c.onDutyHours, hours_since_break: c.hoursSinceBreak, cycle_hours_used: c.cycleHoursUsed },
    dock_duration_hours: 0,
    remaining_route_hours: driveLeft,
    is_dedicated_rest_stop: true,
    next_segment_hours: Math.min(driveLeft, 11),
  });
  const chosen = lookahead(trip, choice, driveLeft, dockHoursAfter(trip.input.stops, trip.leg));
  return { choice: chosen, reason: restReason(chosen, limit, advice) };
}

/** A full rest, or a sleeper-berth split when that finishes the trip sooner (ties go to the full rest). */
function lookahead(trip: Trip, choice: RestChoice, driveLeft: number, docks: number): RestChoice {
  if (choice.kind !== 'full') return choice;
  let best = choice;
  let bestHours = Infinity;
  for (const cand of validSplits(trip.state)) {
    if (bestHours === Infinity) bestHours = finishHours(trip.state, choice, driveLeft, docks);
    const hours = finishHours(trip.state, cand, driveLeft, docks);
    if (hours < bestHours - 0.01) {
      best = cand;
      bestHours = hours;
    }
  }
  return best;
}

/** A fuel stop planned just ahead is taken at the rest instead: one stop, not two. */
function fuelAtRest(trip: Trip, place: NamedPoint): void {
  const next = trip.nextFuel();
  if (!next || Math.abs(next.tripMiles - trip.tripMiles) > FUEL_MERGE_MILES) return;
  trip.fuel(place, next.pricePerGallon, next.fuelOnDepartureGallons);
  trip.consumeFuelStop();
}

function lastPlaceName(trip: Trip, input: PlanInput): string {
  for (let i = trip.segments.length - 1; i >= 0; i--) {
    const s = trip.segments[i]!;
    return s.type === 'drive' ? s.to.name : s.location;
  }
  return input.stops[0]!.name;
}

const why: Record<LimitKind, string> = {
  DRIVE: 'the 11-hour driving limit is reached',
  WINDOW: 'the 14-hour duty window is expiring',
  BREAK: '8 hours of driving without a 30-minute break',
  CYCLE: 'the 70-hour cycle is used up',
  DAILY_DRIVE: 'the daily driving limit is reached',
  DAILY_ON_DUTY: 'the daily on-duty limit is reached',
};

function restReason(choice: RestChoice, limit: LimitKind, advice: string): string {
  switch (choice.kind) {
    case 'break':
      return `30-minute break: ${why[limit]}`;
    case 'restart':
      return `34-hour restart: ${why[limit]} and an ordinary rest would not give enough hours back`;
    case 'split':
      return choice.status === 'SLEEPER_BERTH'
        ? `${choice.hours}-hour sleeper-berth period of a split rest (${choice.hours === 7 ? '7/3' : '8/2'}), paired with a qualifying off-duty period: ${why[limit]}, and the split gets the load there sooner than a full 10-hour rest`
        : `${choice.hours}-hour off-duty period completing a sleeper-berth split with the earlier sleeper-berth period: ${why[limit]}, and the split gets the load there sooner than a full 10-hour rest`;
    default:
      return `10-hour rest: ${why[limit]}. ${advice}`;
  }
}

function summarise(input: PlanInput, trip: Trip, path: RoutePath): PlanResult {
  let drive = 0;
  let onDuty = 0;
  let rest = 0;
  let restStops = 0;
  let breaks = 0;
  let fuelStops = 0;
  for (const s of trip.segments) {
    if (s.type === 'drive') drive += s.duration_hours;
    if (s.type === 'drive' || s.type === 'dock' || s.type === 'fuel') onDuty += s.duration_hours;
    if (s.type === 'rest' || s.type === 'wait') rest += s.duration_hours;
    if (s.type === 'rest' && s.rest_type === 'break') breaks++;
    else if (s.type === 'rest') restStops++;
    if (s.type === 'fuel') fuelStops++;
  }
  const totalTrip = (trip.t - input.departureTime) / HOUR_MS;
  return {
    departureTime: iso(input.departureTime),
    arrivalTime: iso(trip.t),
    summary: {
      totalDistanceMiles: round2(path.totalMiles),
      totalDriveHours: exactHours(drive),
      totalOnDutyHours: exactHours(onDuty),
      totalRestHours: exactHours(rest),
      totalTripHours: exactHours(totalTrip),
      minutes: planMinutes(iso(input.departureTime), iso(trip.t), trip.segments),
      restStops,
      breaks,
      fuelStops,
      estimatedFuelCost: round2(trip.fuelBurnedCost),
      fuelBurnedGallons: round2(trip.fuelBurnedGallons),
      fuelPurchasedGallons: round2(trip.fuelPurchasedGallons),
      fuelPurchasedCost: round2(trip.fuelPurchasedCost),
      hosViolations: 0,
      appointmentsMissed: trip.stops.filter((s) => s.withinWindow === false).length,
    },
    segments: trip.segments,
    stops: trip.stops,
    timeline: trip.team ? trip.team.periods[0] : trip.periods,
    ...(trip.team ? { teamTimelines: trip.team.periods } : {}),
    warnings: trip.warnings,
  };
}
