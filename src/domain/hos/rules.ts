/**
 * Rule sets: the numbers each regulation sets, resolved once per (rule set, options).
 *
 * Sources (looked up for this module; quoted in the comments beside each set):
 * - US: 49 CFR 395.3 and 395.1(g)(1)(ii) as amended by the 2020 final rule (85 FR 33396), 395.1(b)(1)
 *   (adverse driving conditions, +2 h driving and +2 h window since 2020), 395.1(e)(1) (150 air-mile
 *   short haul: no 30-minute break), 395.1(o) (16-hour short haul, once per 7 days or after a restart).
 *   FMCSA FAQ "Frequently Asked Questions Relating to 2020 Changes to Hours of Service Regulations",
 *   Q4 (pairing choice), Q6 and Q8 (pairs in either order).
 * - Texas intrastate: 37 Tex. Admin. Code §4.12(a)(2) (12 h driving after 8 consecutive hours off; no
 *   driving after having been on duty 15 hours; sleeper: two sleeper-berth periods of at least 2 h
 *   adding up to 8) and §4.12 / Tex. Transp. Code §644.053 (70 h in 7 days, 34 consecutive hours off).
 * - California intrastate: 13 CCR §1212.5(a)(2),(4),(5) (12 cumulative hours of driving after 10
 *   consecutive hours off; no driving after the end of the 16th hour after coming on duty; 80 h in 8
 *   consecutive days; 34-hour restart); 13 CCR §1212(b)(1) (adverse: +2 h of driving, window unchanged);
 *   split per Motive's "California Split Sleeper Berth Rule" (8 h sleeper + 2 h, total 10).
 * - Canada (south of 60°N): Commercial Vehicle Drivers Hours of Service Regulations, SOR/2005-313:
 *   s.12 (13 h driving / 14 h on duty in a day), s.13 (13 h driving / 14 h on duty in a work shift, no
 *   driving after 16 h elapsed; 8 consecutive hours off end a shift), s.14 (10 h off a day — implied
 *   here by the 14 h daily on-duty limit), s.18 (single-driver sleeper split: two sleeper periods of at
 *   least 2 h totalling 10), s.19 (team of drivers: two sleeper periods of at least 4 h totalling 8, with
 *   the same 13 h driving / 16 h elapsed around them; `teamDriving`), s.25 (24 h off in every 14 days), s.26/27 (cycle 1: 70 h / 7 days; cycle 2:
 *   120 h / 14 days and no driving after 70 h without 24 consecutive hours off), s.28 (reset: 36 h
 *   for cycle 1, 72 h for cycle 2), s.76 (adverse: +2 h of driving and on-duty time, not elapsed time).
 */
import { HosError } from './errors.js';
import type { RuleSet, RuleSetId, RuleSetOptions } from './types.js';

/** How a rule set lets two rest periods stand in for the full off-duty reset. */
export interface SplitRule {
  /** A period qualifies as the long one with at least this many consecutive sleeper-berth hours. */
  longMinSleeperHours: number;
  /** Neither period may be shorter than this. */
  shortMinHours: number;
  /** The two periods together must total at least this. */
  totalMinHours: number;
  /** Both periods must be spent entirely in the sleeper berth (Texas, Canada). */
  bothInSleeper: boolean;
  /** The short period is excluded from the elapsed window too (US 2020 rule); otherwise only the long one. */
  excludeShortFromWindow: boolean;
  rule: string;
}

export interface HosLimits {
  ruleSetId: RuleSetId;
  label: string;
  /** Driving hours per duty period (after the reset or the split recalculation point). */
  driveHours: number;
  /** Elapsed hours after coming on duty after which driving stops (Infinity: no elapsed window). */
  windowHours: number;
  /** The 16-hour short-haul window, when the option is on (US only). */
  shortHaulWindowHours: number | null;
  /** Cumulative on-duty hours per duty period after which driving stops (Texas 15, Canada 14). */
  periodOnDutyHours: number;
  /** Driving hours allowed without a qualifying break (Infinity: no break rule). */
  breakAfterDrivingHours: number;
  breakHours: number;
  /** Consecutive hours off duty (off, sleeper or both) that start a new duty period. */
  resetOffHours: number;
  cycleHours: number;
  cycleDays: number;
  /** Consecutive hours off duty that restart the cycle. */
  restartOffHours: number;
  /** Calendar-day limits (Canada s.12); Infinity elsewhere. */
  dailyDriveHours: number;
  dailyOnDutyHours: number;
  /** Canada cycle 2: no driving after this many on-duty hours without `longOffHours` off (s.27(b)). */
  onDutyWithoutLongOffHours: number;
  longOffHours: number;
  /** Canada s.25: 24 consecutive hours off in every period of this many days (Infinity elsewhere). */
  longOffEveryDays: number;
  split: SplitRule | null;
  /** Minutes east of UTC where the cycle's and the daily limits' days begin. */
  dayOffsetMinutes: number;
  rules: {
    drive: string;
    window: string;
    periodOnDuty: string;
    break: string;
    cycle: string;
    reset: string;
    restart: string;
    dailyDrive: string;
    dailyOnDuty: string;
    onDutyWithoutLongOff: string;
    longOffEvery: string;
  };
}

const US_SPLIT: SplitRule = {
  longMinSleeperHours: 7,
  shortMinHours: 2,
  totalMinHours: 10,
  bothInSleeper: false,
  excludeShortFromWindow: true,
  rule: '49 CFR 395.1(g)(1)(ii) sleeper-berth provision',
};

function usLimits(id: 'US_PROPERTY_70_8' | 'US_PROPERTY_60_7', o: RuleSetOptions): HosLimits {
  const seventy = id === 'US_PROPERTY_70_8';
  const adverse = o.adverseDrivingConditions ? 2 : 0;
  return {
    ruleSetId: id,
    label: seventy ? 'US property-carrying, 70 h / 8 days' : 'US property-carrying, 60 h / 7 days',
    driveHours: 11 + adverse,
    windowHours: 14 + adverse,
    // 395.1(o): the 14-hour period becomes 16 once per 7 days; it does not stack with the adverse extension.
    shortHaulWindowHours: o.shortHaul16Hour ? Math.max(16, 14 + adverse) : null,
    periodOnDutyHours: Infinity,
    breakAfterDrivingHours: o.shortHaul150AirMile ? Infinity : 8,
    breakHours: 0.5,
    resetOffHours: 10,
    cycleHours: seventy ? 70 : 60,
    cycleDays: seventy ? 8 : 7,
    restartOffHours: 34,
    dailyDriveHours: Infinity,
    dailyOnDutyHours: Infinity,
    onDutyWithoutLongOffHours: Infinity,
    longOffHours: 24,
    longOffEveryDays: Infinity,
    split: US_SPLIT,
    dayOffsetMinutes: o.homeTerminalUtcOffsetMinutes ?? 0,
    rules: {
      drive: `49 CFR 395.3(a)(3)(i) ${11 + adverse}-hour driving limit${adverse ? ' (395.1(b)(1) adverse driving conditions)' : ''}`,
      window: `49 CFR 395.3(a)(2) ${14 + adverse}-hour duty window${adverse ? ' (395.1(b)(1) adverse driving conditions)' : ''}`,
      periodOnDuty: '',
      break: '49 CFR 395.3(a)(3)(ii) 30-minute break after 8 hours of driving',
      cycle: `49 CFR 395.3(b)(${seventy ? 2 : 1}) ${seventy ? '70 hours in 8' : '60 hours in 7'} consecutive days`,
      reset: '49 CFR 395.3(a)(1) 10 consecutive hours off duty',
      restart: '49 CFR 395.3(c) 34-hour restart',
      dailyDrive: '',
      dailyOnDuty: '',
      onDutyWithoutLongOff: '',
      longOffEvery: '',
    },
  };
}

function texasLimits(o: RuleSetOptions): HosLimits {
  return {
    ruleSetId: 'TEXAS_INTRASTATE',
    label: 'Texas intrastate, 70 h / 7 days',
    // 37 TAC §4.12(a)(2): "permitted to drive 12 hours following 8 consecutive hours off duty"; adverse +2 (§4.12(a)(12)).
    driveHours: 12 + (o.adverseDrivingConditions ? 2 : 0),
    windowHours: Infinity,
    shortHaulWindowHours: null,
    // "may not drive after having been on duty 15 hours, following 8 consecutive hours off duty": cumulative on-duty
    // time (the pre-2004 federal wording Texas kept), so off-duty time inside the day does not count against it.
    periodOnDutyHours: 15,
    // 49 CFR 395.3 (and with it the 30-minute break) does not apply to Texas intrastate commerce (§4.12(a)(2)).
    breakAfterDrivingHours: Infinity,
    breakHours: 0.5,
    resetOffHours: 8,
    cycleHours: 70,
    cycleDays: 7,
    restartOffHours: 34,
    dailyDriveHours: Infinity,
    dailyOnDutyHours: Infinity,
    onDutyWithoutLongOffHours: Infinity,
    longOffHours: 24,
    longOffEveryDays: Infinity,
    split: {
      longMinSleeperHours: 2,
      shortMinHours: 2,
      totalMinHours: 8,
      bothInSleeper: true,
      excludeShortFromWindow: true,
      rule: '37 TAC §4.12(a)(2) sleeper-berth periods (two periods of at least 2 h totalling 8 h)',
    },
    dayOffsetMinutes: o.homeTerminalUtcOffsetMinutes ?? 0,
    rules: {
      drive: `37 TAC §4.12(a)(2) ${12 + (o.adverseDrivingConditions ? 2 : 0)}-hour driving limit (Texas intrastate)`,
      window: '',
      periodOnDuty: '37 TAC §4.12(a)(2) no driving after 15 hours on duty (Texas intrastate)',
      break: '',
      cycle: 'Tex. Transp. Code §644.053 / 37 TAC §4.12: 70 hours in 7 consecutive days (Texas intrastate)',
      reset: '37 TAC §4.12(a)(2) 8 consecutive hours off duty',
      restart: '37 TAC §4.12: 34 consecutive hours off duty',
      dailyDrive: '',
      dailyOnDuty: '',
      onDutyWithoutLongOff: '',
      longOffEvery: '',
    },
  };
}

function californiaLimits(o: RuleSetOptions): HosLimits {
  return {
    ruleSetId: 'CALIFORNIA_INTRASTATE',
    label: 'California intrastate, 80 h / 8 days',
    // 13 CCR §1212.5(a)(2)(A): 12 cumulative hours after 10 consecutive hours off; §1212(b)(1): +2 h when adverse.
    driveHours: 12 + (o.adverseDrivingConditions ? 2 : 0),
    // §1212.5(a)(2)(B): "for any period after the end of the 16th hour after coming on duty"; not extended by §1212(b).
    windowHours: 16,
    shortHaulWindowHours: null,
    periodOnDutyHours: Infinity,
    breakAfterDrivingHours: Infinity,
    breakHours: 0.5,
    resetOffHours: 10,
    cycleHours: 80,
    cycleDays: 8,
    restartOffHours: 34,
    dailyDriveHours: Infinity,
    dailyOnDutyHours: Infinity,
    onDutyWithoutLongOffHours: Infinity,
    longOffHours: 24,
    longOffEveryDays: Infinity,
    split: {
      longMinSleeperHours: 8,
      shortMinHours: 2,
      totalMinHours: 10,
      bothInSleeper: false,
      // The 2005-era federal pattern California mirrors: only the long sleeper period stops the window.
      excludeShortFromWindow: false,
      rule: 'California intrastate sleeper-berth split (8 h sleeper + 2 h, total 10 h)',
    },
    dayOffsetMinutes: o.homeTerminalUtcOffsetMinutes ?? 0,
    rules: {
      drive: `13 CCR §1212.5(a)(2)(A) ${12 + (o.adverseDrivingConditions ? 2 : 0)}-hour driving limit (California intrastate)`,
      window: '13 CCR §1212.5(a)(2)(B) no driving after the 16th hour after coming on duty (California intrastate)',
      periodOnDuty: '',
      break: '',
      cycle: '13 CCR §1212.5(a)(4) 80 hours in 8 consecutive days (California intrastate)',
      reset: '13 CCR §1212.5(a)(2) 10 consecutive hours off duty',
      restart: '13 CCR §1212.5(a)(5) 34-hour restart',
      dailyDrive: '',
      dailyOnDuty: '',
      onDutyWithoutLongOff: '',
      longOffEvery: '',
    },
  };
}

function canadaLimits(id: 'CANADA_CYCLE_1' | 'CANADA_CYCLE_2', o: RuleSetOptions): HosLimits {
  const one = id === 'CANADA_CYCLE_1';
  const adverse = o.adverseDrivingConditions ? 2 : 0;
  return {
    ruleSetId: id,
    label: one ? 'Canada cycle 1, 70 h / 7 days' : 'Canada cycle 2, 120 h / 14 days',
    driveHours: 13 + adverse,
    windowHours: 16,
    shortHaulWindowHours: null,
    periodOnDutyHours: 14 + adverse,
    breakAfterDrivingHours: Infinity,
    breakHours: 0.5,
    resetOffHours: 8,
    cycleHours: one ? 70 : 120,
    cycleDays: one ? 7 : 14,
    restartOffHours: one ? 36 : 72,
    dailyDriveHours: 13 + adverse,
    dailyOnDutyHours: 14 + adverse,
    onDutyWithoutLongOffHours: one ? Infinity : 70,
    longOffHours: 24,
    longOffEveryDays: 14,
    split: o.teamDriving
      ? {
          longMinSleeperHours: 4,
          shortMinHours: 4,
          totalMinHours: 8,
          bothInSleeper: true,
          excludeShortFromWindow: true,
          rule: 'SOR/2005-313 s.19 splitting of daily off-duty time, team of drivers (two sleeper-berth periods of at least 4 h totalling 8 h)',
        }
      : {
          longMinSleeperHours: 2,
          shortMinHours: 2,
          totalMinHours: 10,
          bothInSleeper: true,
          excludeShortFromWindow: true,
          rule: 'SOR/2005-313 s.18 splitting of daily off-duty time (two sleeper-berth periods of at least 2 h totalling 10 h)',
        },
    dayOffsetMinutes: o.homeTerminalUtcOffsetMinutes ?? 0,
    rules: {
      drive: `SOR/2005-313 s.13(1) ${13 + adverse} hours of driving in a work shift`,
      window: 'SOR/2005-313 s.13(3) no driving after 16 hours elapsed in a work shift',
      periodOnDuty: `SOR/2005-313 s.13(2) ${14 + adverse} hours of on-duty time in a work shift`,
      break: '',
      cycle: one ? 'SOR/2005-313 s.26 cycle 1: 70 hours in 7 days' : 'SOR/2005-313 s.27(a) cycle 2: 120 hours in 14 days',
      reset: 'SOR/2005-313 s.13 8 consecutive hours off duty',
      restart: `SOR/2005-313 s.28 cycle reset after ${one ? 36 : 72} consecutive hours off duty`,
      dailyDrive: `SOR/2005-313 s.12(1) ${13 + adverse} hours of driving in a day`,
      dailyOnDuty: `SOR/2005-313 s.12(2) ${14 + adverse} hours of on-duty time in a day (s.14: 10 hours off a day)`,
      onDutyWithoutLongOff: 'SOR/2005-313 s.27(b) cycle 2: no driving after 70 hours on duty without 24 consecutive hours off',
      longOffEvery: 'SOR/2005-313 s.25 24 consecutive hours off duty in every 14 days',
    },
  };
}

/** A rule set with its options (default: US property-carrying 70 h / 8 days). */
export function ruleSet(id: RuleSetId = 'US_PROPERTY_70_8', options: RuleSetOptions = {}): RuleSet {
  return { id, options: { ...options } };
}

const cache = new WeakMap<RuleSet, HosLimits>();

/** The numbers a rule set applies, options included. Cached per RuleSet object. */
export function limitsOf(rules: RuleSet): HosLimits {
  const hit = cache.get(rules);
  if (hit) return hit;
  const o = rules.options ?? {};
  const offset = o.homeTerminalUtcOffsetMinutes;
  if (offset !== undefined && (!Number.isFinite(offset) || Math.abs(offset) > 14 * 60)) {
    throw new HosError('INVALID_ARGUMENT', `homeTerminalUtcOffsetMinutes must be between -840 and 840 (got ${offset})`, 'rules.options.homeTerminalUtcOffsetMinutes');
  }
  let l: HosLimits;
  switch (rules.id) {
    case 'US_PROPERTY_70_8':
    case 'US_PROPERTY_60_7':
      l = usLimits(rules.id, o);
      break;
    case 'TEXAS_INTRASTATE':
      l = texasLimits(o);
      break;
    case 'CALIFORNIA_INTRASTATE':
      l = californiaLimits(o);
      break;
    case 'CANADA_CYCLE_1':
    case 'CANADA_CYCLE_2':
      l = canadaLimits(rules.id, o);
      break;
    default:
      throw new HosError('INVALID_ARGUMENT', `unknown HOS rule set ${String((rules as RuleSet).id)}`, 'rules.id');
  }
  cache.set(rules, l);
  return l;
}
