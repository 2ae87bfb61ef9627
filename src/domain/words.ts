/**
 * How the service writes for people: times in the zone of the place they belong to with the zone's
 * abbreviation ("Sat, Nov 29, 09:44 CST"), durations as h:mm rounded once to the minute ("2:38"),
 * distances in whole miles. Every sentence the API writes for a person (alert titles and messages,
 * reasons, warnings) uses these; the dashboard writes the same way (web/src/lib/local-time.ts, durations.ts).
 * Pure: Intl is the only thing asked.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone, timeZoneName: 'short' });
    } catch {
      f = format('UTC');
    }
    formats.set(zone, f);
  }
  return f;
}

/** "Sat, Nov 29, 09:44 CST": instant `ms` on the clocks of `zone` (an IANA name), with its abbreviation. */
export function clockAt(ms: number, zone: string): string {
  return format(zone).format(new Date(ms));
}

/** "2:38": hours as h:mm, rounded once to the nearest minute (half up); a negative duration keeps its sign. */
export function hm(hours: number): string {
  const minutes = Math.round(Math.abs(hours) * 60);
  const text = `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
  return hours < 0 && minutes > 0 ? `-${text}` : text;
}

/** "230 mi": whole miles. */
export const miles = (n: number): string => `${Math.round(n).toLocaleString('en-US')} mi`;
