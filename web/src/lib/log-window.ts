/**
 * The span of a driver's log the dashboard shows (the last 8 days in a zone, today included) and the
 * zones to show it in: logs are kept in the home terminal's time, so the US zones are offered beside
 * the browser's own. Pure (tested in log-window.test.ts).
 */
import { startOfDay } from './duty';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The HOS rules look back at most 16 days (cycle and restart); the log is fetched that far. */
export const LOG_HISTORY_DAYS = 16;

export const US_TIME_ZONES: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'America/New_York', label: 'Eastern (New York)' },
  { value: 'America/Chicago', label: 'Central (Chicago)' },
  { value: 'America/Denver', label: 'Mountain (Denver)' },
  { value: 'America/Phoenix', label: 'Mountain, no DST (Phoenix)' },
  { value: 'America/Los_Angeles', label: 'Pacific (Los Angeles)' },
  { value: 'America/Anchorage', label: 'Alaska (Anchorage)' },
  { value: 'Pacific/Honolulu', label: 'Hawaii (Honolulu)' },
];

/** The zone choices: the browser's zone first (labelled as such), then the US zones. */
export function timeZoneOptions(browserZone: string): Array<{ value: string; label: string }> {
  const known = US_TIME_ZONES.find((z) => z.value === browserZone);
  const own = { value: browserZone, label: `${known ? known.label : browserZone} — this browser` };
  return [own, ...US_TIME_ZONES.filter((z) => z.value !== browserZone)];
}

/** Whether the runtime knows the IANA zone. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone !== '';
  } catch {
    return false;
  }
}

/**
 * The log grid's window: from local midnight `days - 1` days before today to now, in the zone; and
 * the earliest time to fetch the log from, so the status the window opens in is known.
 */
export function logWindow(nowMs: number, timeZone: string, days = 8): { fromMs: number; toMs: number; fetchFromMs: number } {
  let fromMs = startOfDay(nowMs, timeZone).startMs;
  // Step back one local day at a time (a day can be 23 or 25 hours long).
  for (let i = 1; i < days; i++) fromMs = startOfDay(fromMs - HOUR, timeZone).startMs;
  return { fromMs, toMs: nowMs, fetchFromMs: Math.min(fromMs, nowMs - LOG_HISTORY_DAYS * DAY) };
}

/** The zone to show logs in: the one saved earlier when it is still a known choice, else `fallback`. */
export function chosenLogZone(saved: string | null, options: ReadonlyArray<{ value: string }>, fallback: string): string {
  return saved && isTimeZone(saved) && options.some((o) => o.value === saved) ? saved : fallback;
}
