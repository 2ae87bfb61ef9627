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

const days = new Map<string, Intl.DateTimeFormat>();

/** "Mon, Mar 4": the calendar day of instant `ms` on the clocks of `zone`. */
export function dayAt(ms: number, zone: string): string {
  let f = days.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: zone });
    } catch {
      f = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
    }
    days.set(zone, f);
  }
  return f.format(new Date(ms));
}

/** "2:38": hours as h:mm, rounded once to the nearest minute (half up); a negative duration keeps its sign. */
export function hm(hours: number): string {
  const minutes = Math.round(Math.abs(hours) * 60);
  const text = `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
  return hours < 0 && minutes > 0 ? `-${text}` : text;
}

/** "230 mi": whole miles. */
export const miles = (n: number): string => `${Math.round(n).toLocaleString('en-US')} mi`;

/**
 * The zone of a fixed UTC offset (minutes east of UTC) as Intl names it: "UTC" for 0, else "-06:00";
 * times in it read "Sat, Nov 29, 09:44 GMT-6". The HOS settings know the home terminal only by its offset.
 */
export function offsetZone(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes === 0) return 'UTC';
  const m = Math.abs(Math.round(minutes));
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Integration vendors as people know them (the vendor ids stored as a record's source). */
const VENDOR_NAMES: Record<string, string> = {
  samsara: 'Samsara',
  motive: 'Motive',
  mcleod: 'McLeod',
  project44: 'project44',
  here: 'HERE',
  openweather: 'OpenWeather',
  nws: 'the National Weather Service',
};

/** "Samsara" for "samsara"; an unknown vendor id capitalized. */
export function vendorName(vendor: string): string {
  return VENDOR_NAMES[vendor.toLowerCase()] ?? vendor.charAt(0).toUpperCase() + vendor.slice(1);
}

/**
 * When a limit binds, in words: "binds after 1:47 more driving", or "is reached" once less than half a
 * minute is left (never "binds after 0:00 more driving").
 */
export const bindsAfter = (hoursLeft: number): string => (hm(hoursLeft) === '0:00' ? 'is reached' : `binds after ${hm(hoursLeft)} more driving`);
/** "after 7:00 more driving", or "now" once less than half a minute is left. */
export const neededAfter = (hoursLeft: number): string => (hm(hoursLeft) === '0:00' ? 'now' : `after ${hm(hoursLeft)} more driving`);
