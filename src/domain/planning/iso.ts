const DAY_MS = 86_400_000;
const dayPrefixes = new Map<number, string>();
/** "00".."59" and "000".."999": the clock fields, looked up rather than padded on every call. */
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
let lastDay = NaN;
let lastPrefix = '';

/** "YYYY-MM-DDT" of a day since the epoch (the last one asked for is kept: a plan's times come in order). */
function dayPrefix(day: number): string {
  if (day === lastDay) return lastPrefix;
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size > 4096) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  lastDay = day;
  lastPrefix = prefix;
  return prefix;
}

/** ISO 8601 UTC, as Date#toISOString writes it, without a Date per call (plans format thousands of times). */
export function formatIso(value: number): string {
  const ms = Math.round(value);
  const day = Math.floor(ms / DAY_MS);
  let rest = ms - day * DAY_MS;
  const hh = Math.floor(rest / 3_600_000);
  rest -= hh * 3_600_000;
  const mm = Math.floor(rest / 60_000);
  rest -= mm * 60_000;
  const ss = Math.floor(rest / 1000);
  return `${dayPrefix(day)}${TWO_DIGITS[hh]}:${TWO_DIGITS[mm]}:${TWO_DIGITS[ss]}.${THREE_DIGITS[rest - ss * 1000]}Z`;
}
