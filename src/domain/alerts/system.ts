/**
 * System rules of a route: TELEMETRY_STALE. (INTEGRATION_SYNC_FAILED, the other SYSTEM type, is an
 * integration's, raised and resolved by the integrations worker: src/modules/integrations/integrations.alerts.ts.)
 */
import type { RuleContext } from './context.js';
import { condition, idSet, type AlertRule } from './rule.js';
import { iso, MINUTE_MS, minutesText, plural, wholeMinutes } from './text.js';

/** Positions are stale after the tenant's telemetryStaleMinutes (15 by default) … */
export const DEFAULT_STALE_MINUTES = 15;
/** … or after this many monitoring intervals without one, if that is longer (a check cannot see sooner). */
export const STALE_INTERVALS = 3;

/** How old the latest position may get: max(telemetryStaleMinutes, 3 monitoring intervals). */
export function staleAfterMs(ctx: RuleContext): number {
  return Math.max(ctx.monitoring.telemetryStaleMinutes * MINUTE_MS, STALE_INTERVALS * ctx.monitoring.monitoringIntervalSeconds * 1000);
}

/** No position, or the latest older than the stale limit, once the route has been active that long. */
export const telemetryStale: AlertRule = {
  type: 'TELEMETRY_STALE',
  evaluate(ctx) {
    const limit = staleAfterMs(ctx);
    if (ctx.now - ctx.snapshot.route.activatedAt < limit) return null;
    const latest = ctx.latest;
    if (latest !== null && ctx.now - latest.at <= limit) return null;
    const facts = { staleAfterMinutes: Math.round(limit / MINUTE_MS), activatedAt: iso(ctx.snapshot.route.activatedAt) };
    if (latest === null) {
      return condition(
        'TELEMETRY_STALE',
        'MEDIUM',
        'No position reported',
        `No position has been reported for ${ctx.subject} since the route was activated ${ctx.timeAt(ctx.snapshot.route.activatedAt)}.`,
        { ...facts, lastPositionAt: null, minutesSinceLastPosition: null },
      );
    }
    const age = (ctx.now - latest.at) / MINUTE_MS;
    return condition(
      'TELEMETRY_STALE',
      'MEDIUM',
      `No position for ${minutesText(age)}`,
      `The last position of ${ctx.subject} is ${minutesText(age)} old (${ctx.timeAt(latest.at, latest)}, ${ctx.where(latest)}); check the ELD or the driver app.`,
      { ...facts, lastPositionAt: iso(latest.at), minutesSinceLastPosition: wholeMinutes(ctx.now - latest.at), latitude: latest.latitude, longitude: latest.longitude },
    );
  },
  // The same silence: it only changes when some position arrives (and then it usually clears).
  fingerprint: (m) => String(m['lastPositionAt']),
  cleared(ctx) {
    if (ctx.latest === null) return 'The route has not been active long enough to expect a position';
    return `Position received at ${ctx.timeAt(ctx.latest.at)}`;
  },
};

export const SYSTEM_RULES: AlertRule[] = [telemetryStale];
