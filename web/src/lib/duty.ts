/**
 * The HOS log grid's data: duty-status changes turned into the four-row 24-hour graph of paper logs,
 * one graph per calendar day in a time zone, with each row's total. Pure (tested in duty.test.ts).
 */

export const DUTY_ROWS = ['OFF_DUTY', 'SLEEPER_BERTH', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING'] as const;
export type DutyStatus = (typeof DUTY_ROWS)[number];
export const DUTY_LABELS: Record<DutyStatus, string> = { OFF_DUTY: 'Off duty', SLEEPER_BERTH: 'Sleeper berth', ON_DUTY_DRIVING: 'Driving', ON_DUTY_NOT_DRIVING: 'On duty' };

export interface DutyChange {
  status: string;
  /** ISO time or epoch ms. */
  at: string | number;
}

export interface DutySpan {
  status: DutyStatus;
  startMs: number;
  endMs: number;
}

export interface LogDay {
  /** yyyy-mm-dd in the zone. */
  date: string;
  startMs: number;
  endMs: number;
  spans: DutySpan[];
  /** Hours per row on this day. */
  totals: Record<DutyStatus, number>;
  /**
   * Whole minutes per row as the grid shows them: each piece measured between its ends rounded to the
   * minute, so the four rows add up to the day (24:00; 23:00 or 25:00 on a daylight-saving change).
   */
  minutes: Record<DutyStatus, number>;
}

const HOUR = 3_600_000;

function normalise(status: string): DutyStatus {
  return (DUTY_ROWS as readonly string[]).includes(status) ? (status as DutyStatus) : 'OFF_DUTY';
}

/** Consecutive spans from the changes (any order), the last one running until `untilMs`. */
export function dutySpans(changes: DutyChange[], untilMs: number): DutySpan[] {
  const sorted = changes.map((c) => ({ status: normalise(c.status), ms: typeof c.at === 'number' ? c.at : Date.parse(c.at) })).filter((c) => Number.isFinite(c.ms)).sort((a, b) => a.ms - b.ms);
  const spans: DutySpan[] = [];
  sorted.forEach((c, i) => {
    const end = i + 1 < sorted.length ? sorted[i + 1]!.ms : Math.max(c.ms, untilMs);
    if (end <= c.ms) return;
    const last = spans[spans.length - 1];
    if (last && last.status === c.status && last.endMs === c.ms) last.endMs = end;
    else spans.push({ status: c.status, startMs: c.ms, endMs: end });
  });
  return spans;
}

/** The zone's offset from UTC at `ms`, in ms (local = utc + offset). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** Local midnight (as epoch ms) of the day containing `ms` in the zone, and that day's date. */
export function startOfDay(ms: number, timeZone: string): { startMs: number; date: string } {
  const local = new Date(ms + zoneOffsetMs(ms, timeZone));
  const date = local.toISOString().slice(0, 10);
  const midnightLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  // Offset at midnight may differ from the offset at `ms` (a DST change during the day).
  const guess = midnightLocal - zoneOffsetMs(ms, timeZone);
  return { startMs: midnightLocal - zoneOffsetMs(guess, timeZone), date };
}

/** The spans cut into calendar days of the zone, from the day of `fromMs` to the day of `toMs`. */
export function logDays(spans: DutySpan[], fromMs: number, toMs: number, timeZone: string): LogDay[] {
  const days: LogDay[] = [];
  let { startMs, date } = startOfDay(fromMs, timeZone);
  for (let guard = 0; startMs < toMs && guard < 400; guard++) {
    const next = startOfDay(startMs + 26 * HOUR, timeZone);
    const endMs = next.startMs;
    const daySpans: DutySpan[] = [];
    const totals: Record<DutyStatus, number> = { OFF_DUTY: 0, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 };
    const minutes: Record<DutyStatus, number> = { OFF_DUTY: 0, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 };
    for (const s of spans) {
      const a = Math.max(s.startMs, startMs);
      const b = Math.min(s.endMs, endMs);
      if (b <= a) continue;
      daySpans.push({ status: s.status, startMs: a, endMs: b });
      totals[s.status] += (b - a) / HOUR;
      minutes[s.status] += Math.round(b / 60_000) - Math.round(a / 60_000);
    }
    days.push({ date, startMs, endMs, spans: daySpans, totals, minutes });
    startMs = endMs;
    date = next.date;
  }
  return days;
}

/** The duty status a driver logs for a plan segment (the planner's own choice for rests and waits). */
export function dutyOfSegment(segment: { type: string; duty_status?: string; duration_hours?: number }): DutyStatus {
  switch (segment.type) {
    case 'drive':
      return 'ON_DUTY_DRIVING';
    case 'rest':
      return segment.duty_status ? normalise(segment.duty_status) : 'OFF_DUTY';
    case 'wait':
      // The planner waits off duty, in the sleeper berth from seven hours (it can pair into a split rest).
      return (segment.duration_hours ?? 0) >= 7 ? 'SLEEPER_BERTH' : 'OFF_DUTY';
    default:
      return 'ON_DUTY_NOT_DRIVING';
  }
}

/** A plan's segments as duty-status changes (for the log grid of a planned trip). */
export function planDutyChanges(segments: Array<{ type: string; start_time: string; duty_status?: string; duration_hours?: number }>): DutyChange[] {
  return segments.map((s) => ({ status: dutyOfSegment(s), at: s.start_time }));
}

/** The status to offer after `current` (the same status twice in a row is refused): off duty, or on duty after it. */
export function likelyNextStatus(current: string | null | undefined): DutyStatus {
  return current === 'OFF_DUTY' ? 'ON_DUTY_NOT_DRIVING' : 'OFF_DUTY';
}
