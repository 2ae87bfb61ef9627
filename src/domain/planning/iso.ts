const DAY_MS = 86_400_000;
const dayPrefixes = new Map<number, string>();
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** ISO 8601 UTC, as Date#toISOString writes it, without a Date per call (plans format thousands of times). */
export function formatIso(value: number): string {
  const ms = Math.round(value);
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size > 4096) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const hh = Math.floor(rest / 3_600_000);
  rest -= hh * 3_600_000;
  const mm = Math.floor(rest / 60_000);
  rest -= mm * 60_000;
  const ss = Math.floor(rest / 1000);
  return `${prefix}${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}.${pad(rest - ss * 1000, 3)}Z`;
}
