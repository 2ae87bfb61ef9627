/**
 * From a vendor's hourly forecast to hazards on the road, and a severity for vendor alerts that carry
 * none (OpenWeather's). Pure: `now` is an argument.
 *
 * Forecast rule table (ours, after the NWS criteria named):
 * | condition                         | severity  | why                                               |
 * |-----------------------------------|-----------|---------------------------------------------------|
 * | freezing rain / sleet             | SEVERE    | ice on the road                                   |
 * | heavy snow                        | SEVERE    |                                                   |
 * | snow                              | MINOR     |                                                   |
 * | thunderstorm                      | MODERATE  |                                                   |
 * | wind over 58 mph                  | SEVERE    | NWS High Wind Warning: gusts 58 mph or more       |
 * | wind over 45 mph                  | MODERATE  | NWS Wind Advisory: gusts 46 to 57 mph             |
 * | visibility under 1/4 mile         | SEVERE    | NWS Dense Fog Advisory: 1/4 mile or less          |
 * | visibility under 1 mile           | MODERATE  |                                                   |
 */
import { SEVERITY_RANK, type ForecastHazard, type ForecastHazardKind, type ForecastPeriod, type WeatherSeverity } from './types.js';

/** Forecast hours looked at: what a truck covers before the next syncs refresh it. */
export const FORECAST_HORIZON_HOURS = 12;
export const GUST_MODERATE_MPH = 45;
export const GUST_SEVERE_MPH = 58;
export const VISIBILITY_MODERATE_MILES = 1;
export const VISIBILITY_SEVERE_MILES = 0.25;

const HOUR_MS = 3_600_000;

const EVENT: Record<ForecastHazardKind, string> = {
  FREEZING_RAIN: 'Freezing rain (forecast)',
  HEAVY_SNOW: 'Heavy snow (forecast)',
  SNOW: 'Snow (forecast)',
  THUNDERSTORM: 'Thunderstorms (forecast)',
  HIGH_WIND: 'High wind (forecast)',
  LOW_VISIBILITY: 'Low visibility (forecast)',
};

interface PeriodHazard {
  kind: ForecastHazardKind;
  severity: WeatherSeverity;
  /** Gust mph (HIGH_WIND) or visibility miles (LOW_VISIBILITY). */
  value: number | null;
}

/** The hazards of one forecast period, by the rule table above. */
export function periodHazards(p: ForecastPeriod): PeriodHazard[] {
  const out: PeriodHazard[] = [];
  if (p.precipitation === 'FREEZING_RAIN') out.push({ kind: 'FREEZING_RAIN', severity: 'SEVERE', value: null });
  if (p.precipitation === 'HEAVY_SNOW') out.push({ kind: 'HEAVY_SNOW', severity: 'SEVERE', value: null });
  if (p.precipitation === 'SNOW') out.push({ kind: 'SNOW', severity: 'MINOR', value: null });
  if (p.thunderstorm) out.push({ kind: 'THUNDERSTORM', severity: 'MODERATE', value: null });
  if (p.gustMph !== null && p.gustMph > GUST_MODERATE_MPH) {
    out.push({ kind: 'HIGH_WIND', severity: p.gustMph > GUST_SEVERE_MPH ? 'SEVERE' : 'MODERATE', value: p.gustMph });
  }
  if (p.visibilityMiles !== null && p.visibilityMiles < VISIBILITY_MODERATE_MILES) {
    out.push({ kind: 'LOW_VISIBILITY', severity: p.visibilityMiles < VISIBILITY_SEVERE_MILES ? 'SEVERE' : 'MODERATE', value: p.visibilityMiles });
  }
  return out;
}

interface Run {
  kind: ForecastHazardKind;
  severity: WeatherSeverity;
  value: number | null;
  startsAt: number;
  endsAt: number;
}

/**
 * The hazards of the forecast periods overlapping [now, now + horizon): consecutive periods with the
 * same kind of hazard make one hazard, of the worst severity among them (strongest wind, lowest
 * visibility). Ordered by start, then severity (worst first), then kind.
 */
export function forecastHazards(periods: readonly ForecastPeriod[], now: number, horizonHours = FORECAST_HORIZON_HOURS): ForecastHazard[] {
  const until = now + horizonHours * HOUR_MS;
  const inWindow = periods.filter((p) => p.endsAt > now && p.startsAt < until && p.endsAt > p.startsAt).sort((a, b) => a.startsAt - b.startsAt);
  const open = new Map<ForecastHazardKind, Run>();
  const done: Run[] = [];
  for (const period of inWindow) {
    const found = new Map(periodHazards(period).map((h) => [h.kind, h]));
    for (const [kind, run] of open) {
      if (!found.has(kind) || run.endsAt !== period.startsAt) {
        done.push(run);
        open.delete(kind);
      }
    }
    for (const h of found.values()) {
      const run = open.get(h.kind);
      if (run === undefined) {
        open.set(h.kind, { ...h, startsAt: period.startsAt, endsAt: period.endsAt });
        continue;
      }
      run.endsAt = period.endsAt;
      if (SEVERITY_RANK[h.severity] > SEVERITY_RANK[run.severity]) run.severity = h.severity;
      if (h.value !== null && run.value !== null) run.value = h.kind === 'LOW_VISIBILITY' ? Math.min(run.value, h.value) : Math.max(run.value, h.value);
    }
  }
  done.push(...open.values());
  return done
    .sort((a, b) => a.startsAt - b.startsAt || SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.kind.localeCompare(b.kind))
    .map((r) => ({ kind: r.kind, severity: r.severity, event: EVENT[r.kind], headline: headline(r), startsAt: r.startsAt, endsAt: r.endsAt }));
}

function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function headline(r: Run): string {
  const when = `from ${utc(r.startsAt)} to ${utc(r.endsAt)}`;
  switch (r.kind) {
    case 'HIGH_WIND':
      return `Wind gusts up to ${Math.round(r.value ?? 0)} mph forecast ${when}`;
    case 'LOW_VISIBILITY':
      return `Visibility down to ${(Math.round((r.value ?? 0) * 10) / 10).toFixed(1)} mi forecast ${when}`;
    default:
      return `${EVENT[r.kind].replace(' (forecast)', '')} forecast ${when}`;
  }
}

/**
 * A severity for an alert whose vendor gives none (OpenWeather relays national alerts by name only), by
 * the naming conventions of the national services: a Warning means the hazard is happening or imminent
 * (SEVERE; EXTREME for the life-threatening kinds), a Watch that it may happen (MODERATE), an Advisory
 * or Statement that it is a nuisance (MINOR). European colour levels: red EXTREME, orange/amber SEVERE,
 * yellow MODERATE. Anything else: MINOR.
 */
export function severityFromEventName(event: string): WeatherSeverity {
  const e = event.toLowerCase();
  if (/\bemergency\b/.test(e) || /\b(tornado|hurricane|typhoon|extreme wind|tsunami|storm surge)\s+warning\b/.test(e)) return 'EXTREME';
  if (/\bred\b/.test(e)) return 'EXTREME';
  if (/\b(orange|amber)\b/.test(e)) return 'SEVERE';
  if (/\byellow\b/.test(e)) return 'MODERATE';
  if (/\bwarning\b/.test(e)) return 'SEVERE';
  if (/\bwatch\b/.test(e)) return 'MODERATE';
  return 'MINOR';
}

/** NWS (CAP) severity words; `Unknown` or anything unexpected falls back to the event's name. */
export function severityFromCap(severity: string | null | undefined, event: string): WeatherSeverity {
  switch ((severity ?? '').toLowerCase()) {
    case 'extreme':
      return 'EXTREME';
    case 'severe':
      return 'SEVERE';
    case 'moderate':
      return 'MODERATE';
    case 'minor':
      return 'MINOR';
    default:
      return severityFromEventName(event);
  }
}
