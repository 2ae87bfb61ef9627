/**
 * OpenWeather One Call 3.0 payloads (units=imperial) to our weather records: government alerts with a
 * severity from their name (OpenWeather relays none), and hazards from the hourly forecast by the
 * domain's rule table. Pure; an unexpected payload shape throws (the adapter makes it a VENDOR_ERROR).
 */
import { clockAt } from '../../../domain/words.js';
import { forecastHazards, severityFromEventName, type ForecastPeriod, type RoadPrecipitation } from '../../../domain/weather/index.js';
import type { LocationWeather } from '../weather-sync.js';

/** `weather[]` item: a condition code (https://openweathermap.org/weather-conditions). */
export interface OwCondition {
  id: number;
  main: string;
  description: string;
  icon?: string;
}

/** One `hourly[]` item. visibility in metres (any units); wind in mph with units=imperial; rain/snow in mm/h. */
export interface OwHour {
  dt: number;
  temp?: number;
  feels_like?: number;
  pressure?: number;
  humidity?: number;
  dew_point?: number;
  uvi?: number;
  clouds?: number;
  visibility?: number;
  wind_speed?: number;
  wind_deg?: number;
  wind_gust?: number;
  weather: OwCondition[];
  pop?: number;
  rain?: { '1h'?: number };
  snow?: { '1h'?: number };
}

/** One `alerts[]` item: times in Unix seconds UTC. */
export interface OwAlert {
  sender_name: string;
  event: string;
  start: number;
  end: number;
  description: string;
  tags: string[];
}

export interface OwOneCall {
  lat: number;
  lon: number;
  timezone: string;
  timezone_offset: number;
  current?: Omit<OwHour, 'pop'> & { sunrise?: number; sunset?: number };
  hourly?: OwHour[];
  alerts?: OwAlert[];
}

/** The One Call 3.0 endpoint, under the base URL. */
export const ONECALL_PATH = '/data/3.0/onecall';

const METRES_PER_MILE = 1609.344;
const HOUR_MS = 3_600_000;
/** Longest alert description kept (NWS texts run to several KB). */
export const MAX_DESCRIPTION = 2000;

/** Road precipitation from a condition code: 511 freezing rain and 611–613 sleet ice the road; 602/622 heavy snow. */
export function precipitationOf(code: number): RoadPrecipitation | null {
  if (code === 511 || (code >= 611 && code <= 613)) return 'FREEZING_RAIN';
  if (code === 602 || code === 622) return 'HEAVY_SNOW';
  if (code >= 600 && code < 700) return 'SNOW';
  return null;
}

const worse = (a: RoadPrecipitation | null, b: RoadPrecipitation | null): RoadPrecipitation | null => {
  const rank = { SNOW: 1, HEAVY_SNOW: 2, FREEZING_RAIN: 3 } as const;
  if (a === null) return b;
  if (b === null) return a;
  return rank[a] >= rank[b] ? a : b;
};

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** An hourly item as a forecast period (one hour from `dt`). */
export function periodOf(h: OwHour): ForecastPeriod {
  if (typeof h !== 'object' || h === null || typeof h.dt !== 'number' || !Array.isArray(h.weather)) throw new TypeError('hourly item without dt or weather');
  const codes = h.weather.map((w) => (typeof w?.id === 'number' ? w.id : 0));
  const gust = num(h.wind_gust);
  const speed = num(h.wind_speed);
  const visibility = num(h.visibility);
  return {
    startsAt: h.dt * 1000,
    endsAt: h.dt * 1000 + HOUR_MS,
    precipitation: codes.map(precipitationOf).reduce(worse, null),
    thunderstorm: codes.some((c) => c >= 200 && c < 300),
    gustMph: gust === null && speed === null ? null : Math.max(gust ?? 0, speed ?? 0),
    visibilityMiles: visibility === null ? null : visibility / METRES_PER_MILE,
  };
}

const iso = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString();

/** An alert; `timeZone` is the location's (One Call's `timezone`): its end is written on the clocks there. */
export function mapAlert(a: OwAlert, timeZone = 'UTC'): LocationWeather['alerts'][number] {
  if (typeof a !== 'object' || a === null || typeof a.event !== 'string' || typeof a.start !== 'number') throw new TypeError('alert without event or start');
  const end = typeof a.end === 'number' && a.end > 0 ? iso(a.end) : null;
  const sender = typeof a.sender_name === 'string' && a.sender_name.trim() !== '' ? a.sender_name.trim() : 'OpenWeather';
  return {
    event: a.event,
    severity: severityFromEventName(a.event),
    start: iso(a.start),
    end,
    description: typeof a.description === 'string' ? a.description.slice(0, MAX_DESCRIPTION) : '',
    headline: `${a.event} issued by ${sender}${end ? ` until ${clockAt(Date.parse(end), timeZone)}` : ''}`,
  };
}

/** A One Call answer at one location: its alerts and the hazards of its next hours. */
export function mapOneCall(body: OwOneCall, now: Date): LocationWeather {
  if (typeof body !== 'object' || body === null) throw new TypeError('not an object');
  if (body.hourly !== undefined && !Array.isArray(body.hourly)) throw new TypeError('hourly is not an array');
  if (body.alerts !== undefined && !Array.isArray(body.alerts)) throw new TypeError('alerts is not an array');
  const hazards = forecastHazards((body.hourly ?? []).map(periodOf), now.getTime());
  return {
    alerts: (body.alerts ?? []).map((a) => mapAlert(a, typeof body.timezone === 'string' && body.timezone ? body.timezone : 'UTC')),
    forecastHazards: hazards.map((h) => ({ severity: h.severity, event: h.event, headline: h.headline, startsAt: new Date(h.startsAt).toISOString(), endsAt: new Date(h.endsAt).toISOString() })),
  };
}
