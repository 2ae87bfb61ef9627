/**
 * The fleet's compliance page (docs/logs.md, The fleet's compliance): the range of days (the last 7 days
 * and today by default, at most 31, kept in the address), the violations in words with their counts, the
 * days not certified as links to the driver's log of that day, and what a driver's row has to look at.
 * Pure; tested in compliance.test.ts.
 */
import type { Item, Ok } from '../api/client';
import { label } from './glossary';

export type ComplianceReport = Ok<'/api/v1/compliance/hos'>;
export type ComplianceRow = Item<'/api/v1/compliance/hos'>;
export type TruckUnassigned = ComplianceReport['unassignedDriving'][number];

/** The API answers at most this many days at a time. */
export const MAX_RANGE_DAYS = 31;
/** The default range: this many days before today, and today. */
export const DEFAULT_DAYS_BACK = 7;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Whether the text is a real calendar date, YYYY-MM-DD. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** The date `days` after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (0 for the same day, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Today's date on the clocks of `timeZone` (the browser's when absent). */
export function todayIn(now: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(now);
}

export interface DateRange {
  from: string;
  to: string;
}

/** The last 7 days and today. */
export function defaultRange(today: string): DateRange {
  return { from: addDays(today, -DEFAULT_DAYS_BACK), to: today };
}

export type RangeProblems = Partial<Record<keyof DateRange, string>>;

/** What is wrong with a range, in words, by field; empty when the API will take it. */
export function rangeProblems(range: DateRange): RangeProblems {
  const problems: RangeProblems = {};
  if (!isDate(range.from)) problems.from = 'Choose the first day';
  if (!isDate(range.to)) problems.to = 'Choose the last day';
  if (problems.from || problems.to) return problems;
  const days = daysBetween(range.from, range.to) + 1;
  if (days < 1) problems.from = 'The first day must not be after the last day';
  else if (days > MAX_RANGE_DAYS) problems.to = `At most ${MAX_RANGE_DAYS} days at a time (this range has ${days}): the last day can be ${dayText(addDays(range.from, MAX_RANGE_DAYS - 1), true)} at the latest`;
  return problems;
}

/** The range in the address (`?from=&to=`), or the default where it gives none or one the API would refuse. */
export function rangeFromQuery(params: URLSearchParams, today: string): DateRange {
  const range = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  if (!range.from && !range.to) return defaultRange(today);
  if (!range.to && isDate(range.from)) range.to = today;
  if (!range.from && isDate(range.to)) range.from = addDays(range.to, -DEFAULT_DAYS_BACK);
  return Object.keys(rangeProblems(range)).length === 0 ? range : defaultRange(today);
}

/** "Sun, Nov 1" (with the year: "Sun, Nov 1, 2026"): a date in words. */
export function dayText(date: string, withYear = false): string {
  if (!isDate(date)) return date;
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}), timeZone: 'UTC' });
}

/** "Sun, Nov 1 – Sun, Nov 8, 2026": a range of days in words. */
export function rangeText(range: DateRange): string {
  return range.from === range.to ? dayText(range.from, true) : `${dayText(range.from)} – ${dayText(range.to, true)}`;
}

/** The violations by type in words with their counts, the most frequent first: [{ text: 'Driving limit', count: 2 }]. */
export function violationItems(violations: Readonly<Record<string, number>>): Array<{ text: string; count: number }> {
  return Object.entries(violations)
    .filter(([, n]) => n > 0)
    .map(([type, count]) => ({ text: label('limit', type), count }))
    .sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
}

/** "Driving limit × 2": one violation type with its count. */
export function violationText(item: { text: string; count: number }): string {
  return `${item.text} × ${item.count}`;
}

/** The driver's page opened at the day's log (the Logs section reads `logDate`). */
export function driverLogHref(driverId: string, date: string): string {
  return `/drivers/${encodeURIComponent(driverId)}?logDate=${encodeURIComponent(date)}`;
}

/** Whether a driver's row has anything to look at. */
export function needsAttention(row: Pick<ComplianceRow, 'violationCount' | 'daysNotCertified' | 'pendingEditRequests' | 'drivingNotInLog'>): boolean {
  return row.violationCount > 0 || row.daysNotCertified.length > 0 || row.pendingEditRequests > 0 || row.drivingNotInLog.length > 0;
}

/** "2 correction requests waiting for the driver" / "None". */
export function pendingText(count: number): string {
  if (count <= 0) return 'None';
  return `${count} waiting for the driver`;
}

/** The trucks with unassigned driving in the range: the flagged ones first, then the most unresolved, then by unit. */
export function sortTrucks<T extends Pick<TruckUnassigned, 'flagged' | 'unresolvedMinutes' | 'minutes' | 'vehicleUnitNumber'>>(trucks: readonly T[]): T[] {
  return [...trucks].sort(
    (a, b) =>
      Number(b.flagged) - Number(a.flagged) ||
      b.unresolvedMinutes - a.unresolvedMinutes ||
      b.minutes - a.minutes ||
      a.vehicleUnitNumber.localeCompare(b.vehicleUnitNumber, 'en-US', { numeric: true }),
  );
}
