/**
 * Daily logs: a driver's records of duty status cut into the 24-hour periods the carrier chose, with the
 * totals, the recap and the violations of each. Pure: the records, the rules and `now` are arguments.
 *
 * 49 CFR 395.8(a)(1) and (b): the record of duty status covers each 24-hour period, which "shall start at
 * the time specified by the motor carrier for that driver's home terminal". The period is kept on the home
 * terminal's clocks, so on the day daylight saving time ends the 24 hours of the clock last 25 hours of
 * time, and on the day it begins 23 (the paper log's grid is the clock's 24 hours; ELD output files record
 * the same wall-clock day).
 *
 * 395.8(f)(7) and (k): the totals of each status for the period; the recap (not a regulation, the form every
 * paper log and ELD prints): on-duty hours today, on-duty hours over the last 7 or 8 days including today,
 * and the hours available tomorrow under the 60- or 70-hour rule of 395.3(b).
 */
import { audit, HOUR_MS, type DutyPeriod, type DutyStatus, type RuleSet, type Violation } from '../hos/index.js';
import { timelineFromLog } from '../hos/snapshot.js';
import { parseLocalIso, utcOffsetMinutes } from '../planning/local-time.js';

export const STATUSES: readonly DutyStatus[] = ['OFF_DUTY', 'SLEEPER_BERTH', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING'];

/** A date "YYYY-MM-DD" and a time "HH:MM". */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const isLogDate = (s: string): boolean => {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.toISOString().slice(0, 10) === s;
};
export const isPeriodStartTime = (s: string): boolean => TIME.test(s);

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const m = DATE.exec(date);
  if (!m) throw new RangeError(`not a date: ${date}`);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]! + days)).toISOString().slice(0, 10);
}

/** Calendar days from `a` to `b` (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

export interface LogPeriod {
  date: string;
  /** UTC instants: the period is [start, end). */
  start: number;
  end: number;
}

/** The 24-hour period of `date` on the clocks of `zone`, starting at `periodStartTime` ("00:00" by default). */
export function periodOf(date: string, zone: string, periodStartTime = '00:00'): LogPeriod {
  return { date, start: parseLocalIso(`${date}T${periodStartTime}:00`, zone), end: parseLocalIso(`${addDays(date, 1)}T${periodStartTime}:00`, zone) };
}

/** The date whose period holds instant `ms`. */
export function logDateOf(ms: number, zone: string, periodStartTime = '00:00'): string {
  const local = new Date(ms + utcOffsetMinutes(zone, ms) * 60_000).toISOString().slice(0, 10);
  // The wall-clock date, moved back a day when the instant is before that date's period start.
  return ms < periodOf(local, zone, periodStartTime).start ? addDays(local, -1) : local;
}

/** Who made a record (ELD specification §7.22, record origin 1–4). */
export type RecordOrigin = 'AUTOMATIC' | 'DRIVER' | 'OTHER_USER' | 'UNIDENTIFIED_ASSUMED';

/** One ACTIVE record of duty status: `status` from `at` until the next record's `at`. */
export interface LogRecord {
  id: string;
  status: DutyStatus;
  at: number;
  latitude: number | null;
  longitude: number | null;
  origin: RecordOrigin;
  note: string | null;
  annotation: string | null;
}

/** A record as it shows on one day: clipped to the day's period (and to now). */
export interface DayEvent {
  recordId: string;
  status: DutyStatus;
  start: number;
  end: number;
  /** The record began before this day (it is carried over from the day before). */
  continued: boolean;
  latitude: number | null;
  longitude: number | null;
  origin: RecordOrigin;
  note: string | null;
  annotation: string | null;
}

export interface DayViolation {
  kind: Violation['kind'];
  rule: string;
  /** When the limit was first exceeded, and when the driving past it ended. */
  start: number;
  end: number;
  overHours: number;
  explanation: string;
}

export interface Recap {
  /** On-duty hours (driving and not driving) of this day. */
  onDutyToday: number;
  /** On-duty hours of this day and the days before it: 8 days under a 70-hour rule, 7 under a 60-hour one. */
  onDutyCycleDays: number;
  cycleDays: number;
  cycleHours: number;
  /** Hours available the day after: the cycle's hours minus the on-duty hours of this day and the cycle's days before it but one. */
  availableTomorrow: number;
}

export interface DailyLog {
  date: string;
  periodStart: number;
  periodEnd: number;
  /** How much of the day has passed: periodEnd, or now for today. */
  until: number;
  timeZone: string;
  events: DayEvent[];
  /** Hours in each status over [periodStart, until): they add up to the day so far. */
  totals: Record<DutyStatus, number>;
  violations: DayViolation[];
  recap: Recap;
}

/** The cycle the recap counts: 70 hours in 8 days or 60 in 7 (395.3(b)); the intrastate and Canadian rule sets their own. */
export function recapCycle(rules: RuleSet): { days: number; hours: number } {
  switch (rules.id) {
    case 'US_PROPERTY_60_7':
      return { days: 7, hours: 60 };
    case 'TEXAS_INTRASTATE':
      return { days: 7, hours: 70 }; // Texas Administrative Code 4.12: 70 hours in 7 days
    case 'CALIFORNIA_INTRASTATE':
      return { days: 8, hours: 80 }; // California Code of Regulations 13 §1212(h)(3): 80 hours in 8 days
    case 'CANADA_CYCLE_1':
      return { days: 7, hours: 70 }; // SOR/2005-313 s.26: cycle 1, 70 hours in 7 days
    case 'CANADA_CYCLE_2':
      return { days: 14, hours: 120 }; // s.27: cycle 2, 120 hours in 14 days
    default:
      return { days: 8, hours: 70 }; // 395.3(b)(2): 70 hours in 8 consecutive days
  }
}

/** How far back the records must go for the days from `from` on: the cycle's days and a 34-hour restart before them. */
export function historyStart(from: string, zone: string, periodStartTime: string, rules: RuleSet): number {
  return periodOf(addDays(from, -(recapCycle(rules).days + 2)), zone, periodStartTime).start;
}

/** The instant at which `hours` of driving after `at` have been done (the end of driving past a limit). */
function drivingEnd(timeline: readonly DutyPeriod[], at: number, hours: number): number {
  let left = hours * HOUR_MS;
  let t = at;
  for (const p of timeline) {
    if (p.end <= at || p.status !== 'ON_DUTY_DRIVING') continue;
    const start = Math.max(p.start, at);
    const span = p.end - start;
    t = start + Math.min(span, left);
    left -= span;
    if (left <= 0) break;
  }
  return Math.round(t);
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * The daily logs of `dates` (each "YYYY-MM-DD"; returned in the order given) from the driver's ACTIVE
 * records (sorted by `at`; each lasts until the next; before the first the driver is off duty, as the HOS
 * engine takes it). Records should reach back to `historyStart(earliest date)` for the recap and the
 * violations to count the days before. Days after `now` are empty (until = periodStart).
 */
export function dailyLogs(input: { records: readonly LogRecord[]; dates: readonly string[]; zone: string; periodStartTime: string; now: number; rules: RuleSet }): DailyLog[] {
  const { records, zone, periodStartTime, now, rules } = input;
  if (input.dates.length === 0) return [];
  const sorted = [...input.dates].sort();
  const cycle = recapCycle(rules);
  const first = periodOf(addDays(sorted[0]!, -(cycle.days - 1)), zone, periodStartTime).start;
  const since = Math.min(first, historyStart(sorted[0]!, zone, periodStartTime, rules), records[0]?.at ?? first);
  const timeline = timelineFromLog(records, since, now);
  // The engine over the whole stretch: violations are judged with the days before in view.
  const violations = audit(timeline, rules);

  // On-duty hours per date, for the recap (the cycle's days before the first date included).
  const onDutyCache = new Map<string, number>();
  const onDutyOf = (date: string): number => {
    let v = onDutyCache.get(date);
    if (v === undefined) {
      const p = periodOf(date, zone, periodStartTime);
      v = 0;
      for (const s of timeline) {
        if (s.status !== 'ON_DUTY_DRIVING' && s.status !== 'ON_DUTY_NOT_DRIVING') continue;
        const a = Math.max(s.start, p.start);
        const b = Math.min(s.end, p.end, now);
        if (b > a) v += b - a;
      }
      v /= HOUR_MS;
      onDutyCache.set(date, v);
    }
    return v;
  };

  return input.dates.map((date) => {
    const p = periodOf(date, zone, periodStartTime);
    const until = Math.max(p.start, Math.min(p.end, now));
    const events: DayEvent[] = [];
    const ms: Record<DutyStatus, number> = { OFF_DUTY: 0, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 };
    records.forEach((r, i) => {
      const end = Math.min(i + 1 < records.length ? records[i + 1]!.at : until, until);
      const a = Math.max(r.at, p.start);
      const b = Math.min(end, until);
      if (b <= a) return;
      events.push({ recordId: r.id, status: r.status, start: a, end: b, continued: r.at < p.start, latitude: r.latitude, longitude: r.longitude, origin: r.origin, note: r.note, annotation: r.annotation });
      ms[r.status] += b - a;
    });
    // Before the first record the driver is off duty (the engine's reading too).
    const firstAt = records[0]?.at ?? Infinity;
    if (firstAt > p.start && until > p.start) ms.OFF_DUTY += Math.min(firstAt, until) - p.start;
    const totals = Object.fromEntries(STATUSES.map((s) => [s, round6(ms[s] / HOUR_MS)])) as Record<DutyStatus, number>;

    const dayViolations = violations
      .filter((v) => v.at >= p.start && v.at < p.end)
      .map((v) => ({ kind: v.kind, rule: v.rule, start: Math.round(v.at), end: drivingEnd(timeline, v.at, v.overHours), overHours: round6(v.overHours), explanation: v.explanation }));

    const onDutyToday = onDutyOf(date);
    let cycleSum = 0;
    for (let k = 0; k < cycle.days; k++) cycleSum += onDutyOf(addDays(date, -k));
    // Tomorrow's cycle drops the oldest of the cycle's days: today and the (days − 2) before it remain.
    const keep = cycleSum - onDutyOf(addDays(date, -(cycle.days - 1)));
    const recap: Recap = {
      onDutyToday: round6(onDutyToday),
      onDutyCycleDays: round6(cycleSum),
      cycleDays: cycle.days,
      cycleHours: cycle.hours,
      availableTomorrow: round6(Math.max(0, cycle.hours - keep)),
    };
    return { date, periodStart: p.start, periodEnd: p.end, until, timeZone: zone, events, totals, violations: dayViolations, recap };
  });
}
