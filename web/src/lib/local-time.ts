/**
 * Times of a trip in the zones where they happen: a stop's ETA in the stop's own time zone, form inputs
 * (datetime-local, which carries no zone) read in a named zone. Pure; tested in local-time.test.ts.
 */
import { zoneOffsetMs } from './duty';

/** The browser's IANA zone (the dispatcher's). */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** "Tue, Mar 3, 14:05 CST": the instant in `timeZone` (the browser's when absent), with the zone's abbreviation. */
export function inZone(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  try {
    return new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone, timeZoneName: 'short' }).format(d);
  } catch {
    // An unknown zone name: the instant in UTC rather than nothing.
    return new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC', timeZoneName: 'short' }).format(d);
  }
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A datetime-local value ("2026-03-03T08:00") as the instant it names in `timeZone`; NaN when it is not
 * one. A wall time skipped by a DST change moves forward by the gap, as clocks do.
 */
export function wallTimeToMs(value: string, timeZone: string): number {
  const m = WALL.exec(value.trim());
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s] = m;
  const asUtc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  // The offset at the guess, then at the corrected instant: they differ next to a DST change.
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  const second = asUtc - zoneOffsetMs(first, timeZone);
  const wall = `${y}-${mo}-${d}T${h}:${mi}`;
  if (msToWallTime(second, timeZone) === wall) return second;
  if (msToWallTime(first, timeZone) === wall) return first;
  // The wall time does not exist (the spring-forward gap): the later reading, past the gap.
  return Math.max(first, second);
}

/** The datetime-local value ("2026-03-03T08:00") of an instant in `timeZone`. */
export function msToWallTime(ms: number, timeZone: string): string {
  return new Date(ms + zoneOffsetMs(ms, timeZone)).toISOString().slice(0, 16);
}

/**
 * An appointment typed in a datetime-local input as the API reads a stop's local time: the wall time
 * without an offset ("2026-03-03T08:00:00"); undefined when empty.
 */
export function appointmentValue(value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  const m = WALL.exec(v);
  if (!m) return v;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}`;
}

/** A default departure: the next quarter hour from `nowMs`, as a datetime-local value in `timeZone`. */
export function nextQuarterHour(nowMs: number, timeZone: string): string {
  const quarter = 15 * 60_000;
  return msToWallTime(Math.ceil((nowMs + 1) / quarter) * quarter, timeZone);
}
