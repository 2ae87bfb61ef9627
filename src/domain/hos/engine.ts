/**
 * The incremental HOS state and `advance`. A state is immutable; `advance` returns a new one. It holds
 * only what the rules can still need: the current rest or work block, the break clock, the per-day
 * ledger of the cycle, the split-sleeper hypotheses of the chain since the last full reset (usually
 * one), and the violations already decided. Time is split at the home terminal's midnights so every
 * counter moves linearly inside a step; `availability` uses the same steps, which makes it exact.
 */
import { branchOn, copyHyp, finalizeChain, makeCand, startHyp, type Cand, type Hyp } from './chain.js';
import { HosError } from './errors.js';
import { addOnDuty, cleared, cycleUsed, dayIndex, dayStart, emptyLedger, rollTo, type Ledger } from './ledger.js';
import { limitsOf, type HosLimits } from './rules.js';
import { HOUR_MS, type DutyStatus, type RuleSet } from './types.js';
import { addOver, CYCLE_LONG_OFF_BIT, EPS, type VRec } from './violations.js';

export interface HosState {
  readonly rules: RuleSet;
  readonly lim: HosLimits;
  readonly at: number;
  /** The status last advanced with (a zero-length advance changes only this). */
  readonly status: DutyStatus;
  /** The current block is a rest (off duty and/or sleeper berth). */
  readonly inRest: boolean;
  readonly blockStart: number;
  readonly restHours: number;
  readonly restSleeperRun: number;
  readonly restSleeperCur: number;
  readonly restSleeperRunEnd: number;
  readonly restartDone: boolean;
  /** Consecutive non-driving hours so far (any status but driving), for the 30-minute break. */
  readonly nonDriving: number;
  readonly sinceBreak: number;
  readonly cumDrive: number;
  readonly cumOnDuty: number;
  readonly ledger: Ledger;
  readonly lastRestartAt: number | null;
  readonly onDutySinceLongOff: number;
  readonly lastLongOffEnd: number | null;
  /** Open violation episodes of the limits shared by all hypotheses. */
  readonly flags: number;
  /** Decided violations: earlier chains and the limits that do not depend on split pairings. */
  readonly frozen: readonly VRec[];
  readonly hyps: readonly Hyp[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export const F_DRIVE = 1;
export const F_WINDOW = 2;
export const F_PERIOD_ON_DUTY = 4;
const F_BREAK = 1 << 4;
const F_CYCLE = 1 << 5;
const F_DAILY_DRIVE = 1 << 6;
const F_DAILY_ON_DUTY = 1 << 7;
const F_CYCLE_NO_LONG_OFF = 1 << 8;
const F_LONG_OFF = CYCLE_LONG_OFF_BIT;

const STATUSES: ReadonlySet<string> = new Set(['OFF_DUTY', 'SLEEPER_BERTH', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING']);
export const isRest = (s: DutyStatus): boolean => s === 'OFF_DUTY' || s === 'SLEEPER_BERTH';


/**
 * A driver fresh from a restart at `at`: off duty for the restart length already, so the first duty
 * period starts whenever they come on duty. (With a snapshot, see `initialState` in index.ts.)
 */
export function freshState(rules: RuleSet, at: number): HosState {
  if (!Number.isFinite(at)) throw new HosError('INVALID_ARGUMENT', `at must be a finite time in ms (got ${at})`, 'at');
  const lim = limitsOf(rules);
  const start = at - lim.restartOffHours * HOUR_MS;
  return {
    rules,
    lim,
    at,
    status: 'OFF_DUTY',
    inRest: true,
    blockStart: start,
    restHours: lim.restartOffHours,
    restSleeperRun: 0,
    restSleeperCur: 0,
    restSleeperRunEnd: start,
    restartDone: true,
    nonDriving: lim.restartOffHours,
    sinceBreak: 0,
    cumDrive: 0,
    cumOnDuty: 0,
    ledger: emptyLedger(dayIndex(at, lim.dayOffsetMinutes), lim.cycleDays),
    lastRestartAt: at,
    onDutySinceLongOff: 0,
    lastLongOffEnd: at,
    flags: 0,
    frozen: [],
    hyps: [startHyp({ kind: 'START', at: start }, start, null, null)],
  };
}

/** `hours` in `status` from the state's time; pure. Splits at the home terminal's midnights. */
export function advance(state: HosState, status: DutyStatus, hours: number): HosState {
  if (!STATUSES.has(status)) throw new HosError('INVALID_ARGUMENT', `unknown duty status ${String(status)}`, 'status');
  if (!(hours >= 0) || !Number.isFinite(hours)) {
    throw new HosError('INVALID_ARGUMENT', `hours must be a finite number ≥ 0 (got ${hours})`, 'hours');
  }
  if (hours === 0) return status === state.status ? state : copyOf(state, status);
  const m = copyOf(state, status);
  const off = m.lim.dayOffsetMinutes;
  let t = state.at;
  let left = hours;
  for (;;) {
    const mid = dayStart(m.ledger.day + 1, off);
    const toMid = (mid - t) / HOUR_MS;
    if (toMid <= 0) {
      // The previous step ended on a midnight within rounding: the new day has begun.
      newDay(m);
      continue;
    }
    if (left < toMid) {
      step(m, status, t, left);
      break;
    }
    step(m, status, t, toMid);
    left -= toMid;
    t = mid;
    newDay(m);
    if (left <= 0) break;
  }
  m.at = state.at + hours * HOUR_MS;
  return m;
}

/**
 * A copy of the state to advance, every field written out in one order (the same as `freshState`):
 * all states then share one object shape, so the engine's reads stay monomorphic. An object spread
 * here cost more than the rest of `advance` together.
 */
function copyOf(s: HosState, status: DutyStatus): Mutable<HosState> {
  return {
    rules: s.rules,
    lim: s.lim,
    at: s.at,
    status,
    inRest: s.inRest,
    blockStart: s.blockStart,
    restHours: s.restHours,
    restSleeperRun: s.restSleeperRun,
    restSleeperCur: s.restSleeperCur,
    restSleeperRunEnd: s.restSleeperRunEnd,
    restartDone: s.restartDone,
    nonDriving: s.nonDriving,
    sinceBreak: s.sinceBreak,
    cumDrive: s.cumDrive,
    cumOnDuty: s.cumOnDuty,
    ledger: s.ledger,
    lastRestartAt: s.lastRestartAt,
    onDutySinceLongOff: s.onDutySinceLongOff,
    lastLongOffEnd: s.lastLongOffEnd,
    flags: s.flags,
    frozen: s.frozen,
    hyps: s.hyps,
  };
}

function newDay(m: Mutable<HosState>): void {
  m.ledger = rollTo(m.ledger, m.ledger.day + 1);
  m.flags &= ~(F_DAILY_DRIVE | F_DAILY_ON_DUTY);
  if (cycleUsed(m.ledger) <= m.lim.cycleHours) m.flags &= ~F_CYCLE;
}

function step(m: Mutable<HosState>, status: DutyStatus, t0: number, d: number): void {
  if (isRest(status)) restStep(m, status, t0, d);
  else workStep(m, status === 'ON_DUTY_DRIVING', t0, d);
}

function restStep(m: Mutable<HosState>, status: DutyStatus, t0: number, d: number): void {
  const lim = m.lim;
  if (!m.inRest) {
    m.inRest = true;
    m.blockStart = t0;
    m.restHours = 0;
    m.restSleeperRun = 0;
    m.restSleeperCur = 0;
    m.restSleeperRunEnd = t0;
    m.restartDone = false;
  }
  m.restHours += d;
  if (status === 'SLEEPER_BERTH') {
    m.restSleeperCur += d;
    if (m.restSleeperCur > m.restSleeperRun) {
      m.restSleeperRun = m.restSleeperCur;
      m.restSleeperRunEnd = t0 + d * HOUR_MS;
    }
  } else {
    m.restSleeperCur = 0;
  }
  m.nonDriving += d;
  if (m.nonDriving >= lim.breakHours - EPS) {
    m.sinceBreak = 0;
    m.flags &= ~F_BREAK;
  }
  if (!m.restartDone && m.restHours >= lim.restartOffHours - EPS) {
    m.restartDone = true;
    m.ledger = cleared(m.ledger);
    m.flags &= ~F_CYCLE;
  }
  // The new cycle begins when the qualifying off-duty period ends; while it lasts, that is now.
  if (m.restartDone) m.lastRestartAt = t0 + d * HOUR_MS;
  if (m.restHours >= lim.longOffHours - EPS) {
    m.lastLongOffEnd = t0 + d * HOUR_MS;
    m.onDutySinceLongOff = 0;
    m.flags &= ~(F_CYCLE_NO_LONG_OFF | F_LONG_OFF);
  }
}

/** The rest block being left (or, for a query, the one in progress) as a split candidate. */
export function currentRestCand(s: HosState, end: number): Cand {
  return makeCand(s.lim.split, s.blockStart, end, s.restHours, s.restSleeperRun, s.restSleeperRunEnd, s.cumDrive, s.cumOnDuty);
}

/** Applies a finished rest block to the chain; a reset freezes the chain's best hypothesis. */
export function completeRest(s: HosState, end: number): { hyps: readonly Hyp[]; frozen: readonly VRec[] } {
  const c = currentRestCand(s, end);
  if (c.hours >= s.lim.resetOffHours - EPS) {
    const { best, next } = finalizeChain(s.lim, s.hyps, c);
    return { hyps: [next], frozen: best.viol.length > 0 ? [...s.frozen, ...best.viol] : s.frozen };
  }
  return { hyps: branchOn(s.lim, s.hyps, c), frozen: s.frozen };
}

function workStep(m: Mutable<HosState>, driving: boolean, t0: number, d: number): void {
  const lim = m.lim;
  if (m.inRest) {
    const done = completeRest(m, t0);
    m.hyps = done.hyps;
    m.frozen = done.frozen;
    m.inRest = false;
    m.blockStart = t0;
  }
  if (driving) sharedChecks(m, t0, d);
  const hyps = m.hyps;
  const next = new Array<Hyp>(hyps.length);
  for (let i = 0; i < hyps.length; i++) next[i] = hypStep(lim, m, hyps[i]!, driving, t0, d);
  m.hyps = next;
  m.ledger = addOnDuty(m.ledger, d, driving);
  m.cumOnDuty += d;
  m.onDutySinceLongOff += d;
  if (driving) {
    m.cumDrive += d;
    m.sinceBreak += d;
    m.nonDriving = 0;
  } else {
    m.nonDriving += d;
    if (m.nonDriving >= lim.breakHours - EPS) {
      m.sinceBreak = 0;
      m.flags &= ~F_BREAK;
    }
  }
}

/** Limits that do not depend on the split pairing: break, cycle, Canada's daily and 24-hour rules. */
function sharedChecks(m: Mutable<HosState>, t0: number, d: number): void {
  const lim = m.lim;
  if (lim.breakAfterDrivingHours !== Infinity) {
    sharedOver(m, t0, d, lim.breakAfterDrivingHours - m.sinceBreak, F_BREAK, 'BREAK', lim.breakAfterDrivingHours, lim.rules.break, 'driving without a 30-minute break');
  }
  sharedOver(m, t0, d, lim.cycleHours - cycleUsed(m.ledger), F_CYCLE, 'CYCLE', lim.cycleHours, lim.rules.cycle, `on-duty time in the last ${lim.cycleDays} days`);
  if (lim.dailyDriveHours !== Infinity) {
    const day = { day: dayStart(m.ledger.day, lim.dayOffsetMinutes) };
    sharedOver(m, t0, d, lim.dailyDriveHours - m.ledger.todayDrive, F_DAILY_DRIVE, 'DAILY_DRIVE', lim.dailyDriveHours, lim.rules.dailyDrive, 'driving', day);
    sharedOver(m, t0, d, lim.dailyOnDutyHours - m.ledger.today, F_DAILY_ON_DUTY, 'DAILY_ON_DUTY', lim.dailyOnDutyHours, lim.rules.dailyOnDuty, 'on-duty time', day);
  }
  if (lim.onDutyWithoutLongOffHours !== Infinity) {
    sharedOver(m, t0, d, lim.onDutyWithoutLongOffHours - m.onDutySinceLongOff, F_CYCLE_NO_LONG_OFF, 'CYCLE', lim.onDutyWithoutLongOffHours, lim.rules.onDutyWithoutLongOff, 'on-duty time since the last 24 consecutive hours off');
  }
  if (lim.longOffEveryDays !== Infinity) {
    sharedOver(m, t0, d, longOffRoom(m, t0), F_LONG_OFF, 'CYCLE', lim.longOffEveryDays * 24, lim.rules.longOffEvery, '24 consecutive hours off duty in the preceding 14 days');
  }
}

function sharedOver(m: Mutable<HosState>, t0: number, d: number, room: number, bit: number, kind: VRec['kind'], limit: number, rule: string, what: string, ref?: { day: number }): void {
  const r = room > 0 ? room : 0;
  if (d - r > EPS) {
    m.frozen = addOver(m.frozen, m.flags, bit, kind, t0 + r * HOUR_MS, d - r, limit, rule, what, ref);
    m.flags |= bit;
  }
}

/** Hours from t until driving needs a fresh 24-hour off period (Canada s.25). */
export function longOffRoom(s: Pick<HosState, 'lim' | 'lastLongOffEnd'>, t: number): number {
  if (s.lastLongOffEnd === null) return 0;
  const deadline = s.lastLongOffEnd + (s.lim.longOffEveryDays * 24 - s.lim.longOffHours) * HOUR_MS;
  return (deadline - t) / HOUR_MS;
}

/** The elapsed window of a hypothesis at t: 16 h when the short-haul exception is (or may be) used in it. */
export function windowLimit(lim: HosLimits, s: Pick<HosState, 'lastRestartAt'>, h: Hyp, t: number): number {
  if (lim.shortHaulWindowHours === null) return lim.windowHours;
  return h.extPeriod === h.anchorEnd || extAvailable(lim, s, h, t) ? lim.shortHaulWindowHours : lim.windowHours;
}

/** 395.1(o)(3): not used within the previous 6 consecutive days, unless a 34-hour restart came since. */
function extAvailable(lim: HosLimits, s: Pick<HosState, 'lastRestartAt'>, h: Hyp, t: number): boolean {
  if (h.extAt === null) return true;
  if (s.lastRestartAt !== null && s.lastRestartAt > h.extAt) return true;
  return dayIndex(t, lim.dayOffsetMinutes) - dayIndex(h.extAt, lim.dayOffsetMinutes) >= 7;
}

function hypStep(lim: HosLimits, s: HosState, h: Hyp, driving: boolean, t0: number, d: number): Hyp {
  const next = copyHyp(h);
  next.window += d;
  next.onDuty += d;
  if (!driving) return next;
  next.drive += d;
  hypOver(next, t0, d, lim.driveHours - h.drive, F_DRIVE, 'DRIVE', lim.driveHours, lim.rules.drive, h, 'driving');
  if (lim.windowHours !== Infinity) {
    const wl = windowLimit(lim, s, h, t0);
    if (wl > lim.windowHours && h.extPeriod !== h.anchorEnd && h.window + d > lim.windowHours + EPS) {
      // Driving past the 14th hour is what uses the 16-hour exception (FMCSA guidance).
      next.extPeriod = h.anchorEnd;
      next.extAt = t0 + Math.max(0, lim.windowHours - h.window) * HOUR_MS;
    }
    const rule = wl > lim.windowHours ? '49 CFR 395.1(o) 16-hour short-haul window' : lim.rules.window;
    hypOver(next, t0, d, wl - h.window, F_WINDOW, 'WINDOW', wl, rule, h, 'the duty window');
  }
  if (lim.periodOnDutyHours !== Infinity) {
    hypOver(next, t0, d, lim.periodOnDutyHours - h.onDuty, F_PERIOD_ON_DUTY, 'WINDOW', lim.periodOnDutyHours, lim.rules.periodOnDuty, h, 'on-duty time');
  }
  return next;
}

function hypOver(next: Mutable<Hyp>, t0: number, d: number, room: number, bit: number, kind: VRec['kind'], limit: number, rule: string, h: Hyp, what: string): void {
  const r = room > 0 ? room : 0;
  if (d - r > EPS) {
    next.viol = addOver(next.viol, next.flags, bit, kind, t0 + r * HOUR_MS, d - r, limit, rule, what, { since: h.anchorEnd });
    next.flags |= bit;
  }
}
