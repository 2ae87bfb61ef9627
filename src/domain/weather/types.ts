/**
 * Weather along a route, normalized from any vendor: a severity scale shared with the alert rules, an
 * hour of forecast reduced to what matters on the road, and the hazards derived from them.
 */

/** The CAP / NWS severity scale, which the alert rules use too (EXTREME and SEVERE: in path; the rest: advisory). */
export type WeatherSeverity = 'EXTREME' | 'SEVERE' | 'MODERATE' | 'MINOR';

export const SEVERITY_RANK: Readonly<Record<WeatherSeverity, number>> = { MINOR: 1, MODERATE: 2, SEVERE: 3, EXTREME: 4 };

export const SEVERITIES: readonly WeatherSeverity[] = ['MINOR', 'MODERATE', 'SEVERE', 'EXTREME'];

/** The worse of the given severities; null when there are none. */
export function worstSeverity(severities: Iterable<WeatherSeverity>): WeatherSeverity | null {
  let worst: WeatherSeverity | null = null;
  for (const s of severities) if (worst === null || SEVERITY_RANK[s] > SEVERITY_RANK[worst]) worst = s;
  return worst;
}

/** Precipitation that slows a truck, from the vendor's condition code or text. */
export type RoadPrecipitation = 'FREEZING_RAIN' | 'HEAVY_SNOW' | 'SNOW';

/** One period (an hour) of a vendor's forecast at one point. Times in epoch ms. */
export interface ForecastPeriod {
  startsAt: number;
  endsAt: number;
  precipitation: RoadPrecipitation | null;
  thunderstorm: boolean;
  /** Highest wind expected (gust, or sustained when no gust is given), mph; null: not forecast. */
  gustMph: number | null;
  /** Statute miles; null: not forecast. */
  visibilityMiles: number | null;
}

export type ForecastHazardKind = 'FREEZING_RAIN' | 'HEAVY_SNOW' | 'SNOW' | 'THUNDERSTORM' | 'HIGH_WIND' | 'LOW_VISIBILITY';

/** A hazard derived from consecutive forecast periods (times in epoch ms). */
export interface ForecastHazard {
  kind: ForecastHazardKind;
  severity: WeatherSeverity;
  event: string;
  headline: string;
  startsAt: number;
  endsAt: number;
}
