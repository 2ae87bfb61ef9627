/**
 * A daily log in words, as the driver, the dispatcher and an inspector read it: every time on the home
 * terminal's clocks with the zone's abbreviation ("18:00 MST"), statuses, record states, origins and
 * limits through the glossary, durations h:mm, people by name or as "you". Pure; tested in log-words.test.ts.
 */
import { ApiError } from '../api/client';
import { DUTY_LABELS, type DutyStatus } from './duty';
import { hoursMinutes } from './durations';
import { label } from './glossary';
import { inZone } from './local-time';
import { periodHours } from './daily-log';

/** "18:00 MST": an instant on the zone's clocks, with the zone's abbreviation. */
export function clockTime(at: string | number, timeZone: string): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone, timeZoneName: 'short' }).format(d);
}

/** "Sunday, Nov 1, 2026": a log's date (YYYY-MM-DD, a date on the home terminal's clocks). */
export function dayTitle(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return d.toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

/** "Sunday, Nov 1": the date without its year (lists of recent days). */
export function shortDayTitle(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return d.toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * The 24-hour period in words: "From 00:00 CDT to 00:00 CST the next day, on the home terminal's clocks
 * (America/Chicago): 25 hours, daylight saving time ended."
 */
export function periodText(day: { periodStart: string; periodEnd: string; timeZone: string }): string {
  const hours = periodHours(day);
  const dst = hours === 25 ? ': 25 hours, daylight saving time ended' : hours === 23 ? ': 23 hours, daylight saving time began' : '';
  return `From ${clockTime(day.periodStart, day.timeZone)} to ${clockTime(day.periodEnd, day.timeZone)} the next day, on the home terminal’s clocks (${day.timeZone})${dst}.`;
}

export function dutyLabel(status: string): string {
  return DUTY_LABELS[status as DutyStatus] ?? label('dutyStatus', status);
}

export interface Remark {
  key: string;
  /** "07:00 MST", or "From the day before" for the status the day opens in. */
  time: string;
  status: string;
  place: string | null;
  /** Who made the record, in words. */
  origin: string;
  note: string | null;
  annotation: string | null;
}

/** The remarks of a day: each change of status, with its time, where it happened, who recorded it, its note and annotation. */
export function remarks(day: {
  timeZone: string;
  events: ReadonlyArray<{ recordId: string; status: string; start: string; continued: boolean; location: string | null; origin: string; note: string | null; annotation: string | null }>;
}): Remark[] {
  return day.events.map((e) => ({
    key: `${e.recordId}-${e.start}`,
    time: e.continued ? `${clockTime(e.start, day.timeZone)}, from the day before` : clockTime(e.start, day.timeZone),
    status: dutyLabel(e.status),
    place: e.location,
    origin: label('recordOrigin', e.origin),
    note: e.note,
    annotation: e.annotation,
  }));
}

/** A violation in words: "Driving limit: 1:00 past it, from 16:00 to 17:00 CST (49 CFR 395.3(a)(3)(i) 11-hour driving limit)". */
export function violationText(v: { type: string; rule: string; start: string; end: string; overHours: number }, timeZone: string): string {
  const when = Date.parse(v.end) > Date.parse(v.start) ? `from ${clockTime(v.start, timeZone)} to ${clockTime(v.end, timeZone)}` : `at ${clockTime(v.start, timeZone)}`;
  const over = v.overHours > 0 ? `${hoursMinutes(v.overHours)} past it, ` : '';
  return `${label('limit', v.type)}: ${over}${when} (${v.rule})`;
}

export type CertificationState = 'certified' | 'recertify' | 'not-certified';

export function certificationState(c: { certified: boolean; recertificationRequired: boolean }): CertificationState {
  if (c.recertificationRequired) return 'recertify';
  return c.certified ? 'certified' : 'not-certified';
}

/** The certification in words, its time on the home terminal's clocks. */
export function certificationText(c: { certified: boolean; certifiedAt: string | null; recertificationRequired: boolean; certifications: number }, timeZone: string): string {
  const when = c.certifiedAt ? inZone(c.certifiedAt, timeZone) : null;
  switch (certificationState(c)) {
    case 'recertify':
      return `Changed after certification — to certify again${when ? ` (last certified ${when})` : ''}`;
    case 'certified':
      return `Certified by the driver at ${when ?? '—'}${c.certifications > 1 ? ` (certified ${c.certifications} times)` : ''}`;
    default:
      return 'Not certified';
  }
}

/** 49 CFR 395.30(b)(2), as the ELD specification words it. */
export const CERTIFICATION_STATEMENT = 'I hereby certify that my data entries and my record of duty status for this 24-hour period are true and correct.';

/**
 * A record's place in the log in words. A request the carrier withdrew leaves its proposed records
 * "rejected" in the log's own terms; with the correction's status at hand it says so.
 */
export function recordStatusText(recordStatus: string, editStatus?: string | null): string {
  if (recordStatus === 'INACTIVE_CHANGE_REJECTED' && editStatus === 'CANCELLED') return 'Correction withdrawn';
  return label('recordStatus', recordStatus);
}

/** Who did something: "You", else their name (as the API gives it), the driver by name, or "Another user". */
export function actorText(userId: string | null | undefined, who: { myUserId: string; driverUserId: string | null; driverName: string }, name?: string | null): string {
  if (!userId) return 'An API key or the system';
  if (userId === who.myUserId) return 'You';
  if (name) return name;
  if (userId === who.driverUserId) return who.driverName;
  return 'Another user';
}

/** A correction's entries in words: "Off duty from 18:00 MST; On duty from 20:00 MST". */
export function entriesText(entries: ReadonlyArray<{ status: string; at: string }>, timeZone: string): string {
  return entries.map((e) => `${dutyLabel(e.status)} from ${clockTime(e.at, timeZone)}`).join('; ');
}

const FIELD_WORDS: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^body\.from$/, () => 'From'],
  [/^body\.to$/, () => 'To'],
  [/^body\.annotation$/, () => 'Why'],
  [/^body\.entries\.(\d+)\.\w+$/, (m) => `Status ${Number(m[1]) + 1}`],
  [/^body\.entries$/, () => 'Statuses'],
  [/^params\.date$/, () => 'Day'],
];

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z/g;

/**
 * What the server refused, in words: its message and each detail, the field named in words and every
 * time on the log's clocks ("from 09:00 CST to 17:00 CST"), never an ISO timestamp or a field path.
 */
export function problemText(error: unknown, timeZone: string): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const times = (s: string) => s.replace(ISO_TIME, (iso) => inZone(iso, timeZone));
  const details = (error.body.details ?? []).map((d) => {
    const field = d.field ? FIELD_WORDS.map(([re, words]) => ((m) => (m ? words(m) : null))(re.exec(d.field!))).find(Boolean) : null;
    const message = times(d.message ?? '');
    return field ? `${field}: ${message}` : message;
  });
  const head = times(error.message);
  return details.length > 0 ? `${head}. ${details.join('. ')}` : head;
}
