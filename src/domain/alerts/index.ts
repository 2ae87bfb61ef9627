/**
 * Route monitoring's alert rules (pure; no I/O, no clock). Contract: ./types.ts; triggers: ./README.md.
 *
 *   const conditions = evaluateAlerts(snapshot);
 *   const { create, update, resolve, resurface } = reconcile(snapshot, conditions);
 */
export * from './types.js';
export { evaluateAlerts } from './evaluate.js';
export { reconcile } from './reconcile.js';
export { RULES, TYPE_ORDER } from './rules.js';
export type { AlertRule } from './rule.js';
export { HIGH_DEVIATION_FACTOR, MISSED_REST_GRACE_MINUTES, PLANNED_PLACE_RADIUS_MILES } from './route.js';
export { EXTREME_CRITICAL_WITHIN_MILES, WEATHER_DELAY_MIN_HOURS } from './weather.js';
export { LOW_FUEL_CLEAR_MARGIN_PERCENT, LOW_FUEL_PERCENT, VERY_LOW_FUEL_PERCENT } from './mechanical.js';
export { APPOINTMENT_RISK_MARGIN_MINUTES, DEPARTURE_GRACE_MINUTES } from './scheduling.js';
export { DEFAULT_STALE_MINUTES, STALE_INTERVALS } from './system.js';
export { STATIONARY_RADIUS_MILES, STATIONARY_SPEED_MPH } from './motion.js';
