/**
 * The cycle's per-day on-duty ledger. Days begin at the home terminal's midnight; the cycle is the sum
 * of today and the previous (cycleDays - 1) days, so each midnight the oldest day drops off (the
 * "daily recap"). Immutable: every change returns a new ledger; `past` arrays are never mutated.
 */
import { HOUR_MS } from './types.js';

export const DAY_MS = 24 * HOUR_MS;

export const dayIndex = (t: number, offsetMinutes: number): number => Math.floor((t + offsetMinutes * 60_000) / DAY_MS);
export const dayStart = (day: number, offsetMinutes: number): number => day * DAY_MS - offsetMinutes * 60_000;

export interface Ledger {
  /** The day `today` belongs to. */
  readonly day: number;
  /** On-duty (driving included) hours today. */
  readonly today: number;
  /** Driving hours today (Canada's daily driving limit). */
  readonly todayDrive: number;
  /** past[0] is yesterday's on-duty hours, past[1] the day before, …; length cycleDays - 1. */
  readonly past: readonly number[];
}

export function emptyLedger(day: number, cycleDays: number): Ledger {
  return { day, today: 0, todayDrive: 0, past: new Array<number>(cycleDays - 1).fill(0) };
}

/** On-duty hours in the cycle: today plus the previous cycleDays - 1 days. One summation order everywhere. */
export function cycleUsed(l: Ledger): number {
  let s = l.today;
  for (let i = 0; i < l.past.length; i++) s += l.past[i]!;
  return s;
}

/** The hours that drop off at the next midnight (the oldest day still in the cycle). */
export const recapturedTomorrow = (l: Ledger): number => (l.past.length > 0 ? l.past[l.past.length - 1]! : l.today);

export function addOnDuty(l: Ledger, hours: number, driving: boolean): Ledger {
  return { day: l.day, today: l.today + hours, todayDrive: driving ? l.todayDrive + hours : l.todayDrive, past: l.past };
}

/** Moves the ledger forward to `day`: today becomes yesterday, days in between are empty, the oldest drop off. */
export function rollTo(l: Ledger, day: number): Ledger {
  const k = day - l.day;
  if (k <= 0) return l;
  const n = l.past.length;
  const past = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const src = i - k; // index into [today, ...past] shifted by k - 1 empty days
    past[i] = src === -1 ? l.today : src >= 0 ? l.past[src]! : 0;
  }
  return { day, today: 0, todayDrive: 0, past };
}

/** After a restart only on-duty time after it counts. */
export const cleared = (l: Ledger): Ledger => ({ day: l.day, today: 0, todayDrive: 0, past: new Array<number>(l.past.length).fill(0) });
