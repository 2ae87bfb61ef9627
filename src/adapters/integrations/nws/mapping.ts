/**
 * US National Weather Service (api.weather.gov) payloads to our weather records: active CAP alerts at a
 * point (GeoJSON features) and hazards from the hourly forecast's periods. Pure; an unexpected payload
 * shape throws (the adapter makes it a VENDOR_ERROR).
 */
import { forecastHazards, severityFromCap, type ForecastPeriod, type RoadPrecipitation } from '../../../domain/weather/index.js';
import type { LocationWeather } from '../weather-sync.js';

/** `features[].properties` of `/alerts/active` (the fields we read and the sandbox sends). */
export interface NwsAlertProperties {
  id: string;
  areaDesc: string;
  sent: string;
  effective: string;
  onset: string | null;
  expires: string;
  ends: string | null;
  status: 'Actual' | 'Exercise' | 'System' | 'Test' | 'Draft';
  messageType: 'Alert' | 'Update' | 'Cancel' | 'Ack' | 'Error';
  category: string;
  severity: 'Extreme' | 'Severe' | 'Moderate' | 'Minor' | 'Unknown';
  certainty: string;
  urgency: string;
  event: string;
  senderName: string;
  headline: string | null;
  description: string;
  instruction: string | null;
}

export interface NwsAlertCollection {
  type: 'FeatureCollection';
  features: { id: string; type: 'Feature'; geometry: unknown; properties: NwsAlertProperties }[];
  title?: string;
  updated?: string;
}

/** `/points/{lat},{lon}`: where the point's forecasts are. */
export interface NwsPoint {
  properties: { gridId: string; gridX: number; gridY: number; forecast: string | null; forecastHourly: string | null; timeZone?: string };
}

/** One period of `/gridpoints/{wfo}/{x},{y}/forecast/hourly`. */
export interface NwsPeriod {
  number: number;
  name: string;
  startTime: string;
  endTime: string;
  isDaytime: boolean;
  temperature: number;
  temperatureUnit: string;
  probabilityOfPrecipitation?: { unitCode: string; value: number | null };
  windSpeed: string;
  windGust?: string | null;
  windDirection: string;
  icon?: string;
  shortForecast: string;
  detailedForecast: string;
}

export interface NwsForecast {
  properties: { updated?: string; periods: NwsPeriod[] };
}

export const MAX_DESCRIPTION = 2000;

/** Highest mph in an NWS wind text ("10 mph", "10 to 20 mph"); null when there is none. */
export function windMph(text: string | null | undefined): number | null {
  if (typeof text !== 'string') return null;
  const values = [...text.matchAll(/(\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
  return values.length === 0 ? null : Math.max(...values);
}

/**
 * Road weather from a period's short forecast text. "Slight Chance" / "Chance" (under 55 %) is not a
 * hazard; "Likely" or a plain statement is. Dense fog means a visibility of 1/4 mile or less.
 */
export function conditionsOf(shortForecast: string): Pick<ForecastPeriod, 'precipitation' | 'thunderstorm' | 'visibilityMiles'> {
  const text = shortForecast.toLowerCase();
  const uncertain = /^(slight chance|chance)\b/.test(text.trim());
  let precipitation: RoadPrecipitation | null = null;
  if (!uncertain) {
    if (/freezing (rain|drizzle)|sleet|ice pellets|\bice storm\b/.test(text)) precipitation = 'FREEZING_RAIN';
    else if (/heavy snow|blizzard/.test(text)) precipitation = 'HEAVY_SNOW';
    else if (/snow/.test(text)) precipitation = 'SNOW';
  }
  return {
    precipitation,
    thunderstorm: !uncertain && /thunderstorm|t-storm/.test(text),
    visibilityMiles: /dense fog/.test(text) ? 0.25 : null,
  };
}

export function periodOf(p: NwsPeriod): ForecastPeriod {
  const startsAt = Date.parse(p?.startTime);
  const endsAt = Date.parse(p?.endTime);
  if (Number.isNaN(startsAt) || Number.isNaN(endsAt) || typeof p.shortForecast !== 'string') throw new TypeError('period without times or forecast');
  const gust = windMph(p.windGust);
  const wind = windMph(p.windSpeed);
  return { startsAt, endsAt, ...conditionsOf(p.shortForecast), gustMph: gust === null && wind === null ? null : Math.max(gust ?? 0, wind ?? 0) };
}

const isoOrNull = (s: string | null | undefined): string | null => {
  if (typeof s !== 'string') return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
};

/**
 * The alerts of `/alerts/active?point=`: real ones (status Actual) that are not cancellations; the
 * hazard starts at onset (else effective, else sent) and ends at `ends` (else the message's expiry).
 */
export function mapAlerts(body: NwsAlertCollection): LocationWeather['alerts'] {
  if (typeof body !== 'object' || body === null || !Array.isArray(body.features)) throw new TypeError('no features');
  return body.features.flatMap((f) => {
    const p = f?.properties;
    if (typeof p !== 'object' || p === null || typeof p.event !== 'string') throw new TypeError('feature without properties.event');
    if (p.status !== 'Actual' || p.messageType === 'Cancel') return [];
    const start = isoOrNull(p.onset) ?? isoOrNull(p.effective) ?? isoOrNull(p.sent);
    if (start === null) return [];
    return [
      {
        event: p.event,
        severity: severityFromCap(p.severity, p.event),
        start,
        end: isoOrNull(p.ends) ?? isoOrNull(p.expires),
        description: typeof p.description === 'string' ? p.description.slice(0, MAX_DESCRIPTION) : '',
        headline: typeof p.headline === 'string' && p.headline.trim() !== '' ? p.headline : p.event,
      },
    ];
  });
}

/** Forecast hazards of the next hours from `/forecast/hourly`. */
export function mapForecast(body: NwsForecast, now: Date): LocationWeather['forecastHazards'] {
  const periods = body?.properties?.periods;
  if (!Array.isArray(periods)) throw new TypeError('forecast without periods');
  return forecastHazards(periods.map(periodOf), now.getTime()).map((h) => ({
    severity: h.severity,
    event: h.event,
    headline: h.headline,
    startsAt: new Date(h.startsAt).toISOString(),
    endsAt: new Date(h.endsAt).toISOString(),
  }));
}
