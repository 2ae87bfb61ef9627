/**
 * A stretch of time in words, on the clocks of one zone with its abbreviation: "Tue, Nov 10, 08:00–08:45
 * CST" within a day, "Tue, Nov 10, 23:30 CST – Wed, Nov 11, 00:15 CST" across midnight (or a change of
 * daylight saving time). Pure; tested in time-range.test.ts.
 */
import { inZone } from './local-time';

interface Parts {
  day: string;
  clock: string;
  zone: string;
}

function parts(ms: number, timeZone: string): Parts {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone, timeZoneName: 'short' }).formatToParts(ms);
  let list: Intl.DateTimeFormatPart[];
  try {
    list = format(timeZone);
  } catch {
    // An unknown zone name: UTC, which says so.
    list = format('UTC');
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => list.find((p) => p.type === type)?.value ?? '';
  return { day: `${get('weekday')}, ${get('month')} ${get('day')}`, clock: `${get('hour')}:${get('minute')}`, zone: get('timeZoneName') };
}

/** From `start` to `end` on `timeZone`'s clocks (the zone's abbreviation once when it is the same day and the same abbreviation). */
export function timeRangeText(start: string | number, end: string | number, timeZone: string): string {
  const s = new Date(start).getTime();
  const e = new Date(end).getTime();
  if (Number.isNaN(s) || Number.isNaN(e)) return '—';
  const a = parts(s, timeZone);
  const b = parts(e, timeZone);
  if (a.day === b.day && a.zone === b.zone) return `${a.day}, ${a.clock}–${b.clock} ${a.zone}`;
  return `${inZone(new Date(s).toISOString(), timeZone)} – ${inZone(new Date(e).toISOString(), timeZone)}`;
}
