/** Wording shared by the rules: dispatcher-facing numbers with units, and JSON-safe metadata values. */
import { hm } from '../words.js';

export const MINUTE_MS = 60_000;

/** Rounded, and never -0 (JSON writes it as 0, so stored facts would differ from fresh ones). */
export const round1 = (n: number): number => Math.round(n * 10) / 10 || 0;
export const round2 = (n: number): number => Math.round(n * 100) / 100 || 0;
/** Whole minutes in a duration (ms), rounded down, never -0. */
export const wholeMinutes = (ms: number): number => Math.floor(ms / MINUTE_MS) || 0;

/** ISO 8601 UTC, as everywhere in the API. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** "2026-03-02 14:30 UTC": a time a dispatcher reads in a message (metadata keeps the ISO form). */
export const clockText = (ms: number): string => `${iso(ms).slice(0, 16).replace('T', ' ')} UTC`;

/** Under an hour in minutes ("45 min"), else h:mm ("2:30"), rounded once to the minute. */
export function hoursText(hours: number): string {
  const minutes = Math.round(Math.abs(hours) * 60);
  if (minutes < 60) return `${hours < 0 && minutes > 0 ? '-' : ''}${minutes} min`;
  return hm(hours);
}

export const minutesText = (minutes: number): string => hoursText(minutes / 60);

/** "2.4 mi" close by, "130 mi" from ten miles on (a tenth of a mile matters only near). */
export const milesText = (miles: number): string => `${Math.abs(miles) < 10 ? round1(miles) : Math.round(miles)} mi`;

export const positionText = (p: { latitude: number; longitude: number }): string =>
  `${p.latitude.toFixed(4)}, ${p.longitude.toFixed(4)}`;

const STOP_TYPE_WORDS: Record<string, string> = { ORIGIN: 'origin', PICKUP: 'pickup', DELIVERY: 'delivery', DESTINATION: 'destination', WAYPOINT: 'waypoint', FUEL: 'fuel stop', REST: 'rest stop' };

/** "delivery" for DELIVERY: a stop's type as a sentence says it. */
export const stopTypeWords = (type: string): string => STOP_TYPE_WORDS[type] ?? type.toLowerCase().replace(/_/g, ' ');

/** "at Dallas, TX", or "near Amarillo, TX" for a place already named by what it is near (never "at near …"). */
export const atPlace = (name: string): string => (/^(near|at) /i.test(name) ? name.charAt(0).toLowerCase() + name.slice(1) : `at ${name}`);

/** "2 hazards" / "1 hazard". */
export const plural = (count: number, noun: string, nouns = `${noun}s`): string => `${count} ${count === 1 ? noun : nouns}`;
