/** Test helpers: compact duty timelines ("D 5, SB 7, …") and folding them through the engine. */
import { advance, initialState, type HosState } from '../index.js';
import { HOUR_MS, type DutyPeriod, type DutyStatus, type RuleSet } from '../types.js';

export type Code = 'D' | 'ON' | 'OFF' | 'SB';
export type Step = readonly [Code, number];

export const STATUS: Record<Code, DutyStatus> = {
  D: 'ON_DUTY_DRIVING',
  ON: 'ON_DUTY_NOT_DRIVING',
  OFF: 'OFF_DUTY',
  SB: 'SLEEPER_BERTH',
};

/** Monday 2024-03-04 00:00 UTC: day boundaries of a UTC home terminal fall on whole days from here. */
export const T0 = Date.UTC(2024, 2, 4, 0, 0, 0);

export const at = (hours: number, base = T0): number => base + hours * HOUR_MS;

/** Hours since T0 of a wall-clock time on day `day` (1-based), e.g. clock(1, 13.5) = day 1, 13:30. */
export const clock = (day: number, hour: number): number => (day - 1) * 24 + hour;

export function tl(start: number, steps: readonly Step[]): DutyPeriod[] {
  const out: DutyPeriod[] = [];
  let t = start;
  for (const [code, hours] of steps) {
    const end = t + hours * HOUR_MS;
    out.push({ status: STATUS[code], start: t, end });
    t = end;
  }
  return out;
}

/** The state after the timeline, built the way the planner does (fresh state at its start, then advance). */
export function fold(rules: RuleSet, timeline: readonly DutyPeriod[], from?: HosState): HosState {
  let s = from ?? initialState(rules, timeline[0]?.start ?? T0);
  for (const p of timeline) s = advance(s, p.status, (p.end - p.start) / HOUR_MS);
  return s;
}

export const steps = (rules: RuleSet, start: number, list: readonly Step[]): HosState => fold(rules, tl(start, list));
