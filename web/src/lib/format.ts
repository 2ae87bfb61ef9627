/** Formatting shared by the pages: hours as h:mm, dates in a zone, miles, money. */
import { inZone } from './local-time';

/** Hours as h:mm, to the nearest minute: the one rule for durations (durations.ts). */
export { hoursMinutes } from './durations';

/**
 * "Tue, Mar 3, 14:05 CST": an instant in the given IANA zone (default: the browser's), always with the
 * zone's abbreviation — the one way the dashboard writes a time (local-time.ts inZone).
 */
export function dateTime(iso: string | null | undefined, timeZone?: string): string {
  return inZone(iso, timeZone);
}

export function timeOnly(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(iso));
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
