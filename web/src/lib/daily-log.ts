/**
 * A driver's daily log (GET /drivers/{id}/logs) as the dashboard draws it, and a correction's preview.
 *
 * - The grid's spans: the day's records, and off duty before the first one (as the server counts it).
 * - Each row's minutes between minute-rounded ends, so the rows add up to the day (24:00; 23:00 or 25:00 on
 *   the days daylight saving time begins or ends) — as the printed log does.
 * - Times typed on the home terminal's clocks ("18:00") read as instants within the day's period.
 * - The day as a correction would make it, worked out the way the server applies one
 *   (src/domain/logs/corrections.ts planCorrection): the changes of status in [from, to) give way to the
 *   entries, and the status in force at `to` goes on after it.
 *
 * Pure; tested in daily-log.test.ts.
 */
import type { Item } from '../api/client';
import { DUTY_ROWS, dutySpans, type DutySpan, type DutyStatus, type LogDay } from './duty';
import { msToWallTime, wallTimeToMs } from './local-time';

export type DailyLog = Item<'/api/v1/drivers/{driverId}/logs'>;
export type LogEdit = Item<'/api/v1/log-edits'>;

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The part of a daily log the grid needs. */
export interface DayRecords {
  date: string;
  periodStart: string;
  periodEnd: string;
  timeZone: string;
  events: ReadonlyArray<{ status: string; start: string; end: string }>;
  totals: Readonly<Record<DutyStatus, number>>;
}

export interface StatusChange {
  status: DutyStatus;
  at: number;
}

const isDuty = (s: string): s is DutyStatus => (DUTY_ROWS as readonly string[]).includes(s);

/** The period's length in whole hours: 24, or 23 / 25 on the days daylight saving time begins / ends. */
export function periodHours(day: Pick<DayRecords, 'periodStart' | 'periodEnd'>): number {
  return Math.round((Date.parse(day.periodEnd) - Date.parse(day.periodStart)) / HOUR);
}

/** Until when the day is recorded: its end, or now on today (the server stops its records there). */
export function recordedUntil(day: DayRecords): number {
  const start = Date.parse(day.periodStart);
  const end = Date.parse(day.periodEnd);
  const byEvents = day.events.reduce((m, e) => Math.max(m, Date.parse(e.end)), start);
  // The totals add up to the recorded part (to a millionth of an hour): what says it when no record does.
  const byTotals = start + DUTY_ROWS.reduce((s, r) => s + (day.totals[r] ?? 0), 0) * HOUR;
  const untilTotals = Math.abs(byTotals - end) < 1000 ? end : Math.round(byTotals / 1000) * 1000;
  return Math.min(end, Math.max(byEvents, day.events.length > 0 ? byEvents : untilTotals));
}

/** The changes of status over the day: the status it starts in (off duty before the first record), then each record. */
export function dayChanges(day: DayRecords): StatusChange[] {
  const start = Date.parse(day.periodStart);
  const changes: StatusChange[] = [];
  const first = day.events[0];
  if (!first || Date.parse(first.start) > start) changes.push({ status: 'OFF_DUTY', at: start });
  for (const e of day.events) changes.push({ status: isDuty(e.status) ? e.status : 'OFF_DUTY', at: Date.parse(e.start) });
  return changes;
}

/** The grid's spans of the day as it is. */
export function daySpans(day: DayRecords): DutySpan[] {
  return dutySpans(dayChanges(day), recordedUntil(day));
}

/** Whole minutes per row, each span measured between its ends rounded to the minute: the rows add up to the recorded part of the day. */
export function rowMinutes(spans: readonly DutySpan[]): Record<DutyStatus, number> {
  const minutes: Record<DutyStatus, number> = { OFF_DUTY: 0, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 };
  for (const s of spans) minutes[s.status] += Math.round(s.endMs / MINUTE) - Math.round(s.startMs / MINUTE);
  return minutes;
}

/** The grid's day (LogGrid's DayGrid) for the day's period and spans. */
export function gridDay(day: Pick<DayRecords, 'date' | 'periodStart' | 'periodEnd'>, spans: DutySpan[]): LogDay {
  const totals: Record<DutyStatus, number> = { OFF_DUTY: 0, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 };
  for (const s of spans) totals[s.status] += (s.endMs - s.startMs) / HOUR;
  return { date: day.date, startMs: Date.parse(day.periodStart), endMs: Date.parse(day.periodEnd), spans, totals, minutes: rowMinutes(spans) };
}

/** The sum of the rows: the day's total as shown. */
export function totalMinutes(minutes: Readonly<Record<DutyStatus, number>>): number {
  return DUTY_ROWS.reduce((s, r) => s + minutes[r], 0);
}

export interface CorrectionDraft {
  from: number;
  to: number;
  /** In order, the first at `from`, each before `to`. */
  entries: ReadonlyArray<StatusChange>;
}

/**
 * The day's changes of status as the correction would make them, as the server applies it: those in
 * [from, to) give way to the entries, and unless a change starts at `to`, the status in force there goes on
 * from `to` (restated).
 */
export function correctedChanges(changes: readonly StatusChange[], c: CorrectionDraft): StatusChange[] {
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  const kept = sorted.filter((x) => x.at < c.from || x.at >= c.to);
  const inForceAtTo = [...sorted].reverse().find((x) => x.at < c.to)?.status ?? 'OFF_DUTY';
  const restated: StatusChange[] = sorted.some((x) => x.at === c.to) ? [] : [{ status: inForceAtTo, at: c.to }];
  const entries = c.entries.filter((e) => e.at >= c.from && e.at < c.to);
  return [...kept, ...entries, ...restated].sort((a, b) => a.at - b.at);
}

/** The grid's spans of the day as the correction would make it (the day still recorded until the same time). */
export function previewSpans(day: DayRecords, c: CorrectionDraft): DutySpan[] {
  const until = recordedUntil(day);
  // A change at the end of what is recorded (the end of the day) draws nothing.
  return dutySpans(
    correctedChanges(dayChanges(day), c).filter((x) => x.at < until),
    until,
  );
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The day after `date` (YYYY-MM-DD), or `days` days later (earlier when negative). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/**
 * A time typed on the home terminal's clocks ("18:00") as the instant it names within the day's period;
 * NaN when it is no time or the period has no such time. At the `end` edge, the time the period starts
 * at (00:00 for a day that starts at midnight) reads as the end of the day. A time the clocks show twice
 * (the hour daylight saving time ends) is its first occurrence.
 */
export function timeInPeriod(day: Pick<DayRecords, 'date' | 'periodStart' | 'periodEnd' | 'timeZone'>, hhmm: string, edge: 'start' | 'end' = 'start'): number {
  if (!HHMM.test(hhmm.trim())) return Number.NaN;
  const start = Date.parse(day.periodStart);
  const end = Date.parse(day.periodEnd);
  if (edge === 'end' && msToWallTime(start, day.timeZone).slice(11) === hhmm.trim()) return end;
  for (const date of [day.date, addDays(day.date, 1)]) {
    const ms = wallTimeToMs(`${date}T${hhmm.trim()}`, day.timeZone);
    // The first occurrence of a repeated wall time: an hour earlier reads the same on the clocks.
    const first = msToWallTime(ms - HOUR, day.timeZone) === msToWallTime(ms, day.timeZone) ? ms - HOUR : ms;
    if (first >= start && first < end) return first;
  }
  return Number.NaN;
}

/** An instant as a time input's value ("18:00") on the zone's clocks. */
export function timeValue(ms: number, timeZone: string): string {
  return msToWallTime(ms, timeZone).slice(11, 16);
}

/** What the correction form holds: times as typed on the home terminal's clocks. */
export interface CorrectionForm {
  from: string;
  to: string;
  /** The first entry starts at `from`; its own time is not read. */
  entries: ReadonlyArray<{ status: string; time: string }>;
  annotation: string;
}

export interface CorrectionCheck {
  /** The correction, when the times read (the preview can be drawn). */
  draft: CorrectionDraft | null;
  /** What is wrong, in words, by field: from, to, entry-1 … (the first entry has none), annotation. */
  problems: Record<string, string>;
}

/** 49 CFR 395.30(c)(2), ELD specification §7.4: every correction says why, in 4 to 60 characters. */
export const ANNOTATION_MIN = 4;
export const ANNOTATION_MAX = 60;

/**
 * The form checked as the server will check it, in words: the times within the day, `to` after `from`
 * and not after now, each entry after the one before and before `to`, an annotation of 4 to 60 characters.
 * `clock` writes an instant for the messages ("14:05 CST").
 */
export function checkCorrection(day: DayRecords, form: CorrectionForm, now: number, clock: (ms: number) => string): CorrectionCheck {
  const problems: Record<string, string> = {};
  const from = timeInPeriod(day, form.from, 'start');
  const to = timeInPeriod(day, form.to, 'end');
  const until = recordedUntil(day);
  if (Number.isNaN(from)) problems.from = 'Enter a time within the day.';
  else if (from >= until) problems.from = `Must be before ${clock(until)}: the log is recorded until then.`;
  if (Number.isNaN(to)) problems.to = 'Enter a time within the day (the start of the next day ends this one).';
  else if (!Number.isNaN(from) && to <= from) problems.to = `Must be after the start (${clock(from)}).`;
  else if (to > now) problems.to = `Must not be later than now (${clock(now)}).`;
  const entries: StatusChange[] = [];
  form.entries.forEach((e, i) => {
    const status = isDuty(e.status) ? e.status : null;
    if (!status) {
      problems[`entry-${i}`] = 'Choose a duty status.';
      return;
    }
    if (i === 0) {
      if (!Number.isNaN(from)) entries.push({ status, at: from });
      return;
    }
    const at = timeInPeriod(day, e.time, 'start');
    const before = entries[entries.length - 1];
    if (Number.isNaN(at)) problems[`entry-${i}`] = 'Enter a time within the day.';
    else if (before && at <= before.at) problems[`entry-${i}`] = `Must be after the status before it (${clock(before.at)}).`;
    else if (!Number.isNaN(to) && at >= to) problems[`entry-${i}`] = `Must be before the end of the correction (${clock(to)}).`;
    else entries.push({ status, at });
  });
  const words = form.annotation.trim().length;
  if (words < ANNOTATION_MIN || words > ANNOTATION_MAX) problems.annotation = `Say why in ${ANNOTATION_MIN} to ${ANNOTATION_MAX} characters (now ${words}).`;
  const timesRead = !problems.from && !problems.to && form.entries.every((_, i) => !problems[`entry-${i}`]);
  return { draft: timesRead ? { from, to, entries } : null, problems };
}

/** The request body for POST /drivers/{id}/log-edits. */
export function correctionBody(draft: CorrectionDraft, notes: ReadonlyArray<string>, annotation: string) {
  return {
    from: new Date(draft.from).toISOString(),
    to: new Date(draft.to).toISOString(),
    entries: draft.entries.map((e, i) => ({ status: e.status, at: new Date(e.at).toISOString(), ...(notes[i]?.trim() ? { note: notes[i]!.trim() } : {}) })),
    annotation: annotation.trim(),
  };
}

/** The day in a correction's before / after days, by date. */
export function dayOf<T extends { date: string }>(days: readonly T[], date: string): T | undefined {
  return days.find((d) => d.date === date);
}

/**
 * The grid's hour marks from `startMs` to `endMs`, each labelled with the hour the zone's clocks show then
 * ("M" midnight, "N" noon): on the day daylight saving time ends the 1 o'clock hour comes twice, on the
 * day it begins 2 o'clock never comes.
 */
export function hourMarks(startMs: number, endMs: number, timeZone: string): Array<{ at: number; label: string }> {
  const hours = Math.round((endMs - startMs) / HOUR);
  return Array.from({ length: hours + 1 }, (_, h) => {
    const at = startMs + h * HOUR;
    const clock = Number(msToWallTime(at, timeZone).slice(11, 13));
    return { at, label: clock === 0 ? 'M' : clock === 12 ? 'N' : String(clock % 12) };
  });
}
