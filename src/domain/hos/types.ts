/**
 * The HOS engine's contract. Pure: no I/O, no clock; every time is an argument (ms since epoch).
 * Other parts (planner, auditor, driver HOS endpoint, monitoring) depend only on this file and index.ts.
 */
export const HOUR_MS = 3_600_000;

export type DutyStatus = 'OFF_DUTY' | 'SLEEPER_BERTH' | 'ON_DUTY_DRIVING' | 'ON_DUTY_NOT_DRIVING';

/** One stretch of a duty-status timeline, [start, end). Timelines are sorted and contiguous. */
export interface DutyPeriod {
  status: DutyStatus;
  start: number;
  end: number;
}

export type RuleSetId =
  | 'US_PROPERTY_70_8'
  | 'US_PROPERTY_60_7'
  | 'TEXAS_INTRASTATE'
  | 'CALIFORNIA_INTRASTATE'
  | 'CANADA_CYCLE_1'
  | 'CANADA_CYCLE_2';

export interface RuleSetOptions {
  /** 395.1(b)(1): +2 h driving and window when adverse driving conditions are met (US rule sets). */
  adverseDrivingConditions?: boolean;
  /** 395.1(o): once per 34-h restart/7 days, the 14-h window extends to 16 h (driver returns to work reporting location). */
  shortHaul16Hour?: boolean;
  /** 395.1(e)(1): 150 air-mile short-haul: no 30-min break required; 14-h window. */
  shortHaul150AirMile?: boolean;
  /** Minutes east of UTC of the home terminal: where the cycle's days begin (default 0 = UTC midnight). */
  homeTerminalUtcOffsetMinutes?: number;
  /**
   * The driver is one of a team in a truck with a sleeper berth: the rule set's team provisions apply
   * (Canada, SOR/2005-313 s.19: the off-duty time split in two sleeper-berth periods of at least 4 h
   * totalling 8 h). US, Texas and California rules have no separate team split: theirs applies to teams.
   */
  teamDriving?: boolean;
}

export interface RuleSet {
  id: RuleSetId;
  options: RuleSetOptions;
}

export type LimitKind = 'DRIVE' | 'WINDOW' | 'BREAK' | 'CYCLE' | 'DAILY_DRIVE' | 'DAILY_ON_DUTY';

/** The clocks at a point in time (hours), as the spec's Driver HOS record names them. */
export interface HosClocks {
  /** Driving hours since the last reset / recalculation point (limit 11 under US rules). */
  hoursDriven: number;
  /** Hours elapsed in the duty window since its start (limit 14), excluding qualifying split-sleeper periods. */
  onDutyHours: number;
  /** Driving hours since the last qualifying 30-minute non-driving period (limit 8). */
  hoursSinceBreak: number;
  /** On-duty hours in the cycle (70 h / 8 days by default), after the daily recap. */
  cycleHoursUsed: number;
  driveRemaining: number;
  windowRemaining: number;
  /** Driving hours until a break is required (Infinity when the rule set requires none). */
  breakRemaining: number;
  cycleRemaining: number;
  /** Hours the cycle gets back at the next day boundary (the daily recap). */
  cycleHoursRecapturedTomorrow: number;
  lastRestartAt: number | null;
  /** Where the current duty period is calculated from (end of the 10-h reset, or the split-sleeper recalculation point). */
  periodStart: number | null;
  dutyStatus: DutyStatus;
  at: number;
}

export interface Violation {
  kind: LimitKind;
  /** When the limit was first exceeded. */
  at: number;
  /** How long the driver kept driving (or was on duty, for the cycle) past the limit, hours. */
  overHours: number;
  rule: string; // e.g. "49 CFR 395.3(a)(3)(i) 11-hour driving limit"
  explanation: string;
}

export interface NextRest {
  kind: 'BREAK' | 'FULL_REST' | 'SLEEPER_SPLIT' | 'RESTART';
  /** Hours of driving the driver may still do before this rest is required. */
  requiredAfterDrivingHours: number;
  /** Wall-clock hours until it is required (the window runs whether driving or not). */
  requiredWithinHours: number;
  durationHours: number;
  limitedBy: LimitKind;
  explanation: string;
}

export interface HosEvaluation {
  clocks: HosClocks;
  violations: Violation[];
  nextRest: NextRest;
  /** Human-readable account of which rules limit and from which calculation point. */
  explanation: string[];
}

/** What a driver can do from a state before some limit is reached. */
export interface Availability {
  /** Hours of driving possible now (minimum over all limits; 0 when a rest is needed first). */
  driveHours: number;
  /** Hours of on-duty not-driving work possible now without breaking the window or cycle. */
  onDutyHours: number;
  limitedBy: LimitKind;
}

/** A manual snapshot of the clocks (the planner's `driverState`), hours. */
export interface ClockSnapshot {
  hoursDriven: number;
  onDutyHours: number;
  hoursSinceBreak: number;
  cycleHoursUsed: number;
}
