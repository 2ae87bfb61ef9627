/**
 * What a weather integration stores about one route (route_signals.data, kind WEATHER): the hazards at
 * its sampled points and the delay they add. Pure: the same points and `now` give the same JSON, so a
 * repeated sync can tell "unchanged" by comparing it.
 */
import { FORECAST_HORIZON_HOURS } from './hazards.js';
import { routeWeatherDelayHours } from './delay.js';
import { SEVERITY_RANK, worstSeverity, type WeatherSeverity } from './types.js';

/** A hazard at a point, as an adapter reports it (vendor alert or forecast-derived), times ISO 8601. */
export interface PointHazard {
  severity: WeatherSeverity;
  event: string;
  headline: string;
  startsAt: string;
  endsAt: string | null;
}

export interface RoutePointWeather {
  latitude: number;
  longitude: number;
  hazards: readonly PointHazard[];
}

/** One hazard as stored: where on the route it is (the sampled point), times ISO 8601 UTC. */
export interface StoredWeatherHazard {
  severity: WeatherSeverity;
  event: string;
  headline: string;
  startsAt: string;
  endsAt: string | null;
  latitude: number;
  longitude: number;
}

export interface RouteWeatherSignal {
  hazards: StoredWeatherHazard[];
  /** Hours the weather adds to the route (2 decimals); null when it cannot be estimated (one point). */
  delayHours: number | null;
}

const HOUR_MS = 3_600_000;

/**
 * The route's signal from its points in route order: hazards not yet ended, each once per point,
 * ordered by point, start, severity (worst first), event; the delay from the hazards that begin
 * within the forecast horizon.
 */
export function routeWeatherSignal(points: readonly RoutePointWeather[], now: number, horizonHours = FORECAST_HORIZON_HOURS): RouteWeatherSignal {
  const hazards: StoredWeatherHazard[] = [];
  const delayPoints: { latitude: number; longitude: number; severity: WeatherSeverity | null }[] = [];
  for (const point of points) {
    const seen = new Set<string>();
    const here: StoredWeatherHazard[] = [];
    for (const h of point.hazards) {
      const startsAt = Date.parse(h.startsAt);
      const endsAt = h.endsAt === null ? null : Date.parse(h.endsAt);
      if (Number.isNaN(startsAt) || (endsAt !== null && (Number.isNaN(endsAt) || endsAt <= now))) continue;
      const stored: StoredWeatherHazard = {
        severity: h.severity,
        event: h.event,
        headline: h.headline,
        startsAt: new Date(startsAt).toISOString(),
        endsAt: endsAt === null ? null : new Date(endsAt).toISOString(),
        latitude: point.latitude,
        longitude: point.longitude,
      };
      const key = JSON.stringify([stored.severity, stored.event, stored.headline, stored.startsAt, stored.endsAt]);
      if (seen.has(key)) continue;
      seen.add(key);
      here.push(stored);
    }
    here.sort((a, b) => a.startsAt.localeCompare(b.startsAt) || SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.event.localeCompare(b.event) || a.headline.localeCompare(b.headline));
    hazards.push(...here);
    const soon = here.filter((h) => Date.parse(h.startsAt) < now + horizonHours * HOUR_MS).map((h) => h.severity);
    delayPoints.push({ latitude: point.latitude, longitude: point.longitude, severity: worstSeverity(soon) });
  }
  const delay = routeWeatherDelayHours(delayPoints);
  return { hazards, delayHours: delay === null ? null : Math.round(delay * 100) / 100 };
}
