/** Formatting shared by the pages: hours as h:mm, dates in a zone, miles, money. */

/** Hours as h:mm, to the nearest minute: the one rule for durations (durations.ts). */
export { hoursMinutes } from './durations';

/** "Tue 14:05" style in the given IANA zone (default: the browser's). */
export function dateTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone, timeZoneName: timeZone ? 'short' : undefined }).format(d);
}

export function timeOnly(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone }).format(new Date(iso));
}

export function relative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(s);
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (abs < 60) return rtf.format(s, 'second');
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}

export function miles(n: number | null | undefined): string {
  return n == null ? '—' : `${Math.round(n).toLocaleString('en-US')} mi`;
}

export function money(n: number | null | undefined): string {
  return n == null ? '—' : n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

/** OFF_DUTY → "Off duty". */
export function humanize(value: string | null | undefined): string {
  if (!value) return '—';
  const s = value.toLowerCase().replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}
