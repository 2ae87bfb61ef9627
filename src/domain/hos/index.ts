/**
 * The HOS engine (pure; no I/O, no clock). Types are in ./types.ts.
 *
 * Incremental use (the planner):   let s = initialState(rules, departure, snapshot);
 *                                  s = advance(s, 'ON_DUTY_DRIVING', availability(s).driveHours);
 * Replay of a duty log (endpoint): evaluate(timeline, rules, now)
 * Audit of a plan:                 audit([...history, ...plan.timeline], rules)
 */
import { advance as advanceState, freshState, type HosState } from './engine.js';
import { replay } from './evaluate.js';
import { snapshotTimeline } from './snapshot.js';
import { availabilityOf, clocksFrom, violationsFrom } from './select.js';
import type { Availability, ClockSnapshot, DutyStatus, HosClocks, RuleSet, Violation } from './types.js';

export type { HosState } from './engine.js';
export { HosError, isHosError, type HosErrorCode } from './errors.js';
export { limitsOf, ruleSet, type HosLimits, type SplitRule } from './rules.js';
export { audit, evaluate, evaluateState, replay, validateTimeline } from './evaluate.js';
export { snapshotTimeline, timelineFromLog, validateSnapshot } from './snapshot.js';
export * from './types.js';

/**
 * The state at `at`. Without a snapshot: a driver fresh from a restart (all clocks at zero). With one:
 * the state after `snapshotTimeline(snapshot, at, rules)`, so it reproduces the snapshot's clocks and
 * a plan from it audits the same way as history + plan.
 */
export function initialState(rules: RuleSet, at: number, snapshot?: ClockSnapshot): HosState {
  if (!snapshot) return freshState(rules, at);
  return replay(snapshotTimeline(snapshot, at, rules), rules, at);
}

/** `hours` spent in `status` from the state's time. Pure: returns a new state. */
export const advance = (state: HosState, status: DutyStatus, hours: number): HosState => advanceState(state, status, hours);

export const clocksOf = (state: HosState): HosClocks => clocksFrom(state);

/** Driving possible now before any limit (drive, window, break, cycle, daily), on-duty work possible, and the binding limit. */
export const availability = (state: HosState): Availability => availabilityOf(state);

export const violationsOf = (state: HosState): Violation[] => violationsFrom(state);
export { hosNow, disagreementOf, restFromClocks, DISAGREEMENT_MINUTES, type HosNow, type EldReport, type ClockSource, type Disagreement, type ClockDifference, type ClockName } from './current.js';
export { clocksFromEld, ELD_CLOCKS_MAX_AGE_MS, type EldReportedClocks } from './eld-clocks.js';
