/**
 * Weather rules: SEVERE_WEATHER_IN_PATH, WEATHER_ADVISORY, WEATHER_DELAY. Silent when the tenant turned
 * weather alerts off or no weather source is configured (`weather` null).
 */
import type { RuleContext } from './context.js';
import { band, condition, idSet, num, type AlertRule } from './rule.js';
import { hoursText, iso, milesText, plural, round1, round2 } from './text.js';
import type { WeatherHazard } from './types.js';

/** An EXTREME hazard already in effect this close ahead is CRITICAL: the driver reaches it within the hour. */
export const EXTREME_CRITICAL_WITHIN_MILES = 50;
/** A weather-adjusted ETA this much later is worth a dispatcher's attention. */
export const WEATHER_DELAY_MIN_HOURS = 0.5;

const SEVERE: readonly WeatherHazard['severity'][] = ['EXTREME', 'SEVERE'];
const ADVISORY: readonly WeatherHazard['severity'][] = ['MODERATE', 'MINOR'];

function weatherOn(ctx: RuleContext): WeatherHazard[] | null {
  return ctx.alerts.enableWeatherAlerts ? ctx.snapshot.weather : null;
}

/** Hazards ahead on the remaining route (not behind the vehicle) that have not ended, nearest first. */
function hazardsAhead(ctx: RuleContext, severities: readonly WeatherHazard['severity'][]): WeatherHazard[] {
  return (weatherOn(ctx) ?? [])
    .filter((h) => severities.includes(h.severity) && h.milesAhead >= 0 && (h.endsAt === null || h.endsAt > ctx.now))
    .sort((a, b) => a.milesAhead - b.milesAhead);
}

/** A hazard's identity across checks: the same event from the same source starting at the same time. */
const hazardId = (h: WeatherHazard): string => `${h.source}|${h.event}|${h.severity}|${iso(h.startsAt)}`;

const hazardFacts = (h: WeatherHazard) => ({
  id: hazardId(h),
  severity: h.severity,
  event: h.event,
  headline: h.headline,
  milesAhead: round1(h.milesAhead),
  startsAt: iso(h.startsAt),
  endsAt: h.endsAt === null ? null : iso(h.endsAt),
  latitude: h.latitude,
  longitude: h.longitude,
  source: h.source,
});

const SEVERITY_WORDS: Record<WeatherHazard['severity'], string> = { EXTREME: 'Extreme', SEVERE: 'Severe', MODERATE: 'Moderate', MINOR: 'Minor' };

/** "Severe Winter Storm Warning 40 mi ahead (from Sat, Nov 29, 18:00 CST, where it is): …" — the hazard's time in its own zone. */
function hazardText(ctx: RuleContext, h: WeatherHazard): string {
  const when = h.startsAt <= ctx.now ? 'in effect' : `from ${ctx.timeAt(h.startsAt, h)}`;
  // Vendors often put the severity in the event's name already ("Severe Thunderstorm Warning").
  const severity = h.event.toLowerCase().includes(h.severity.toLowerCase()) ? '' : `${SEVERITY_WORDS[h.severity]} `;
  return `${severity}${h.event} ${milesText(h.milesAhead)} ahead (${when}): ${h.headline}`;
}

function whyCleared(ctx: RuleContext, what: string): string {
  if (!ctx.alerts.enableWeatherAlerts) return 'Weather alerts are disabled in the tenant settings';
  if (ctx.snapshot.weather === null) return 'No weather source is configured';
  return what;
}

export const severeWeatherInPath: AlertRule = {
  type: 'SEVERE_WEATHER_IN_PATH',
  evaluate(ctx) {
    const hazards = hazardsAhead(ctx, SEVERE);
    const nearest = hazards[0];
    if (nearest === undefined) return null;
    const critical = hazards.some((h) => h.severity === 'EXTREME' && h.milesAhead <= EXTREME_CRITICAL_WITHIN_MILES && h.startsAt <= ctx.now);
    const worst = hazards.find((h) => h.severity === 'EXTREME') ?? nearest;
    const others = hazards.length > 1 ? ` ${plural(hazards.length, 'severe hazard')} ahead on the route in all.` : '';
    return condition(
      'SEVERE_WEATHER_IN_PATH',
      critical ? 'CRITICAL' : 'HIGH',
      `${worst.severity === 'EXTREME' ? 'Extreme' : 'Severe'} weather ahead: ${worst.event} in ${milesText(worst.milesAhead)}`,
      `${ctx.subject}: ${hazardText(ctx, worst)}.${others}`,
      {
        hazards: hazards.map(hazardFacts),
        hazardCount: hazards.length,
        worstSeverity: worst.severity,
        nearestMilesAhead: round1(nearest.milesAhead),
        criticalWithinMiles: EXTREME_CRITICAL_WITHIN_MILES,
      },
    );
  },
  // Which hazards, not how far ahead they are (that shrinks every minute).
  fingerprint: (m) => idSet(m, 'hazards', 'id'),
  cleared: (ctx) => whyCleared(ctx, 'No severe or extreme weather ahead on the route'),
};

export const weatherAdvisory: AlertRule = {
  type: 'WEATHER_ADVISORY',
  evaluate(ctx) {
    const hazards = hazardsAhead(ctx, ADVISORY);
    const worst = hazards.find((h) => h.severity === 'MODERATE') ?? hazards[0];
    if (worst === undefined) return null;
    const others = hazards.length > 1 ? ` ${plural(hazards.length, 'advisory', 'advisories')} ahead on the route in all.` : '';
    return condition(
      'WEATHER_ADVISORY',
      'LOW',
      `Weather advisory ahead: ${worst.event} in ${milesText(worst.milesAhead)}`,
      `${ctx.subject}: ${hazardText(ctx, worst)}.${others}`,
      { hazards: hazards.map(hazardFacts), hazardCount: hazards.length, nearestMilesAhead: round1(hazards[0]!.milesAhead) },
    );
  },
  fingerprint: (m) => idSet(m, 'hazards', 'id'),
  cleared: (ctx) => whyCleared(ctx, 'No weather advisory ahead on the route'),
};

export const weatherDelay: AlertRule = {
  type: 'WEATHER_DELAY',
  evaluate(ctx) {
    const hours = ctx.snapshot.weatherDelayHours;
    if (weatherOn(ctx) === null || hours === null || hours < WEATHER_DELAY_MIN_HOURS) return null;
    return condition(
      'WEATHER_DELAY',
      'MEDIUM',
      `Weather delay: about ${hoursText(hours)} added to the trip`,
      `${ctx.subject}: weather is expected to add about ${hoursText(hours)} to the rest of the trip (planned arrival ${ctx.timeAt(ctx.snapshot.route.arrivalTime, ctx.snapshot.route.stops[ctx.snapshot.route.stops.length - 1])}).`,
      {
        weatherDelayHours: round2(hours),
        plannedArrival: iso(ctx.snapshot.route.arrivalTime),
        thresholdHours: WEATHER_DELAY_MIN_HOURS,
      },
    );
  },
  // In half-hour steps.
  fingerprint: (m) => band(num(m, 'weatherDelayHours'), 0.5),
  cleared: (ctx) =>
    whyCleared(ctx, `Weather delay now ${hoursText(ctx.snapshot.weatherDelayHours ?? 0)}, under ${hoursText(WEATHER_DELAY_MIN_HOURS)}`),
};

export const WEATHER_RULES: AlertRule[] = [severeWeatherInPath, weatherAdvisory, weatherDelay];
