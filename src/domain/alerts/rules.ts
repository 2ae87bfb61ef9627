/**
 * The rule of every type a route's monitoring raises, by type (the compiler checks that all 19 are here;
 * the 20th, INTEGRATION_SYNC_FAILED, is raised by the integrations worker, not from a route's snapshot).
 */
import { hosApproachingCycleLimit, hosApproachingDriveLimit, hosApproachingDutyLimit, hosBreakRequired, hosViolation } from './hos.js';
import { lowFuel, vehicleBreakdown, vehicleFault } from './mechanical.js';
import { missedRestStop, routeDeviation, unplannedStop } from './route.js';
import type { AlertRule } from './rule.js';
import { appointmentAtRisk, departureDelayed, dockDelay, lateToAppointment } from './scheduling.js';
import { telemetryStale } from './system.js';
import { ALERT_TYPES, type RouteAlertType } from './types.js';
import { severeWeatherInPath, weatherAdvisory, weatherDelay } from './weather.js';

export const RULES: Record<RouteAlertType, AlertRule> = {
  HOS_APPROACHING_DRIVE_LIMIT: hosApproachingDriveLimit,
  HOS_APPROACHING_DUTY_LIMIT: hosApproachingDutyLimit,
  HOS_APPROACHING_CYCLE_LIMIT: hosApproachingCycleLimit,
  HOS_BREAK_REQUIRED: hosBreakRequired,
  HOS_VIOLATION: hosViolation,
  ROUTE_DEVIATION: routeDeviation,
  UNPLANNED_STOP: unplannedStop,
  MISSED_REST_STOP: missedRestStop,
  SEVERE_WEATHER_IN_PATH: severeWeatherInPath,
  WEATHER_ADVISORY: weatherAdvisory,
  WEATHER_DELAY: weatherDelay,
  VEHICLE_FAULT: vehicleFault,
  LOW_FUEL: lowFuel,
  VEHICLE_BREAKDOWN: vehicleBreakdown,
  LATE_TO_APPOINTMENT: lateToAppointment,
  APPOINTMENT_AT_RISK: appointmentAtRisk,
  DOCK_DELAY: dockDelay,
  DEPARTURE_DELAYED: departureDelayed,
  TELEMETRY_STALE: telemetryStale,
};

/** The route's types in the contract's order (the order conditions come out in). */
export const TYPE_ORDER = (Object.keys(ALERT_TYPES) as RouteAlertType[]).filter((t) => t in RULES);
