/**
 * Local time at a place: the IANA time zone from an offline lookup by coordinates
 * (@photostructure/tz-lookup, no network) and the UTC offset at an instant from Intl (the runtime's
 * time-zone data, so daylight saving is right on either side of a change).
 */
import tzLookup from '@photostructure/tz-lookup';
import { formatIso } from './iso.js';
import type { Point } from './types.js';

/** The IANA zone at a point ("America/Chicago"); "UTC" where the lookup cannot say. */
export function timeZoneAt(p: Point): string {
  try {
    return tzLookup(p.latitude, p.longitude);
  } catch {
    return 'UTC';
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's offset from UTC at instant `ms`, in minutes (-360 for CST), asked of Intl. */
function offsetFromIntl(zone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * Offsets change only on quarter hours of UTC (every transition in the zone data since 1970 does), so
 * the offset of a quarter hour holds for all of it: kept per zone and quarter hour (Intl is ~10 µs a call).
 */
const QUARTER_MS = 15 * 60_000;
const offsetCache = new Map<string, Map<number, number>>();

let lastZone = '';
let lastByQuarter = new Map<number, number>();

/** The zone's offset from UTC at instant `ms`, in minutes (-360 for CST). */
export function utcOffsetMinutes(zone: string, ms: number): number {
  if (zone !== lastZone) {
    let byQuarter = offsetCache.get(zone);
    if (!byQuarter) {
      byQuarter = new Map();
      offsetCache.set(zone, byQuarter);
    }
    lastZone = zone;
    lastByQuarter = byQuarter;
  }
  const q = Math.floor(ms / QUARTER_MS);
  let off = lastByQuarter.get(q);
  if (off === undefined) {
    if (lastByQuarter.size > 50_000) lastByQuarter.clear();
    off = offsetFromIntl(zone, q * QUARTER_MS);
    lastByQuarter.set(q, off);
  }
  return off;
}

const pad = (n: number) => String(n).padStart(2, '0');
const offsetTexts = new Map<number, string>();

/** "+05:30" / "-06:00" for an offset in minutes. */
export function formatOffset(minutes: number): string {
  let text = offsetTexts.get(minutes);
  if (text === undefined) {
    const a = Math.abs(minutes);
    text = `${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
    offsetTexts.set(minutes, text);
  }
  return text;
}

/**
 * Instant `ms` as local ISO 8601 with its offset in `zone`: "2026-03-02T07:00:00-06:00"
 * (milliseconds shown only when there are any).
 */
export function localIso(ms: number, zone: string): string {
  const offset = utcOffsetMinutes(zone, ms);
  const local = formatIso(ms + offset * 60_000); // the wall clock, written as if UTC: "…T07:00:00.000Z"
  return `${local.endsWith('.000Z') ? local.slice(0, 19) : local.slice(0, 23)}${formatOffset(offset)}`;
}

/**
 * Reads a date-time that may lack an offset ("2026-03-02T08:00:00") as wall-clock time in `zone`;
 * one with "Z" or an offset is taken as given. NaN when it is no date-time. In the hour a daylight
 * saving change skips, the time is read with the offset from before the change (02:30 → 03:30 CDT);
 * in the repeated hour, the first (daylight) one is taken.
 */
export function parseLocalIso(text: string, zone: string): number {
  const t = text.trim().replace(' ', 'T');
  if (hasOffset(t)) return Date.parse(t);
  const asUtc = Date.parse(`${t}Z`);
  if (Number.isNaN(asUtc)) return NaN;
  // The offsets half a day either side of the wall time, tried in turn: the first that reproduces it wins.
  const before = utcOffsetMinutes(zone, asUtc - 86_400_000 / 2);
  const after = utcOffsetMinutes(zone, asUtc + 86_400_000 / 2);
  for (const off of before === after ? [before] : [before, after]) {
    const ms = asUtc - off * 60_000;
    if (utcOffsetMinutes(zone, ms) === off) return ms;
  }
  return asUtc - before * 60_000;
}

/** The date-time carries a zone: "Z" or "±hh:mm" / "±hhmm" after the time. */
export function hasOffset(text: string): boolean {
  return /(?:[zZ]|[+-]\d\d(?::?\d\d)?)$/.test(text.trim()) && /[tT ]\d\d:\d\d/.test(text);
}
