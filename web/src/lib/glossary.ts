/**
 * The glossary: every code the API answers with (statuses, rules, segment kinds, severities, stop types,
 * sources, alert types, recommended actions) as a person reads it. Screens show `label(kind, code)`, never
 * the code; a code missing from a table still reads as words ("SOME_CODE" → "Some code"), and the glossary
 * test checks every enum of the OpenAPI document has its words here.
 */
import { humanize } from './format';
import { DUTY_LABELS } from './duty';
import { RULE_SETS } from './settings';

const table = (entries: Array<{ value: string; label: string }>): Record<string, string> => Object.fromEntries(entries.map((e) => [e.value, e.label]));

export const GLOSSARY = {
  dutyStatus: DUTY_LABELS as Record<string, string>,
  ruleSet: table(RULE_SETS),
  routeStatus: { PLANNED: 'Planned', ACTIVE: 'Active', COMPLETED: 'Completed', CANCELLED: 'Cancelled' },
  alertStatus: { ACTIVE: 'Active', ACKNOWLEDGED: 'Acknowledged', SNOOZED: 'Snoozed', RESOLVED: 'Resolved' },
  priority: { CRITICAL: 'Critical', HIGH: 'High', MEDIUM: 'Medium', LOW: 'Low' },
  category: {
    HOS_VIOLATION: 'Hours of service',
    ROUTE_DEVIATION: 'Route deviation',
    WEATHER: 'Weather',
    MECHANICAL: 'Mechanical',
    SCHEDULING: 'Scheduling',
    SYSTEM: 'System',
  },
  alertType: {
    HOS_APPROACHING_DRIVE_LIMIT: 'Approaching the driving limit',
    HOS_APPROACHING_DUTY_LIMIT: 'Approaching the duty window limit',
    HOS_APPROACHING_CYCLE_LIMIT: 'Approaching the cycle limit',
    HOS_BREAK_REQUIRED: '30-minute break due',
    HOS_VIOLATION: 'HOS violation',
    ROUTE_DEVIATION: 'Off route',
    UNPLANNED_STOP: 'Unplanned stop',
    MISSED_REST_STOP: 'Missed rest stop',
    SEVERE_WEATHER_IN_PATH: 'Severe weather ahead',
    WEATHER_ADVISORY: 'Weather advisory',
    WEATHER_DELAY: 'Weather delay',
    VEHICLE_FAULT: 'Vehicle fault',
    VEHICLE_BREAKDOWN: 'Vehicle breakdown',
    LOW_FUEL: 'Low fuel',
    LATE_TO_APPOINTMENT: 'Late to appointment',
    APPOINTMENT_AT_RISK: 'Appointment at risk',
    DOCK_DELAY: 'Dock delay',
    DEPARTURE_DELAYED: 'Departure delayed',
    TELEMETRY_STALE: 'Truck silent',
    INTEGRATION_SYNC_FAILED: 'Integration sync failed',
  },
  /** What a limit-approaching alert asks for (metadata.recommendedAction). */
  recommendedAction: { PLAN_REST_STOP: 'Plan a rest stop' },
  /** The rest a plan or a clock calls for (nextRequiredRest.kind, metadata.restNeeded). */
  restKind: { BREAK: '30-minute break', FULL_REST: '10-hour rest', SLEEPER_SPLIT: 'Split sleeper-berth rest', RESTART: '34-hour restart' },
  /** The limit that binds (limitedBy, metadata.limit, violation kinds). */
  limit: {
    DRIVE: 'Driving limit',
    WINDOW: 'Duty window',
    BREAK: '30-minute break',
    CYCLE: 'Cycle limit',
    DAILY_DRIVE: 'Daily driving limit',
    DAILY_ON_DUTY: 'Daily on-duty limit',
  },
  distanceMethod: { haversine: 'straight line', haversine_road: 'road estimate', osrm: 'road network' },
  /** Where a segment of unassigned driving stands (49 CFR 395.32). */
  unassignedStatus: { UNASSIGNED: 'Unassigned', ASSIGNMENT_PENDING: 'Waiting for the driver', ASSIGNED: 'Assigned', ANNOTATED: 'Annotated' },
  /** Who reported a segment of unassigned driving: an ELD integration, or other telematics through the API. */
  unassignedSource: { API: 'Reported through the API', samsara: 'Samsara', motive: 'Motive' },
  segmentType: { drive: 'Drive', rest: 'Rest', fuel: 'Fuel stop', wait: 'Wait', dock: 'At the dock' },
  restType: { full_rest: '10-hour rest', partial_rest: 'Split sleeper-berth rest', break: '30-minute break' },
  stopType: { ORIGIN: 'Origin', PICKUP: 'Pickup', DELIVERY: 'Delivery', WAYPOINT: 'Waypoint' },
  weatherSeverity: { EXTREME: 'Extreme', SEVERE: 'Severe', MODERATE: 'Moderate', MINOR: 'Minor' },
  faultSeverity: { CRITICAL: 'Critical', WARNING: 'Warning', INFO: 'Information' },
  projectionMethod: { VISIBILITY: 'Visibility provider’s ETA', PLAN_AND_POSITION: 'Plan and the truck’s position', PLAN: 'Plan (no position yet)' },
  driverStatus: { PENDING: 'Pending', ACTIVE: 'Active', INACTIVE: 'Inactive' },
  /** A record of duty status's place in the log (ELD specification §7.23). */
  recordStatus: {
    ACTIVE: 'In the log',
    INACTIVE_CHANGED: 'Replaced by a correction',
    INACTIVE_CHANGE_REQUESTED: 'Correction requested',
    INACTIVE_CHANGE_REJECTED: 'Correction rejected',
  },
  /** Who made a record (ELD specification §7.22). */
  recordOrigin: {
    AUTOMATIC: 'Recorded by the ELD',
    DRIVER: 'Entered by the driver',
    OTHER_USER: 'Entered by another user',
    UNIDENTIFIED_ASSUMED: 'Unidentified driving the driver took on',
  },
  /** Where a correction of a log stands. */
  logEditStatus: {
    PENDING: 'Waiting for the driver',
    ACCEPTED: 'Accepted by the driver',
    REJECTED: 'Rejected by the driver',
    CANCELLED: 'Withdrawn',
    APPLIED: 'Made by the driver',
  },
  role: { OWNER: 'Owner', ADMIN: 'Administrator', DISPATCHER: 'Dispatcher', DRIVER: 'Driver', VIEWER: 'Viewer' },
  vendor: {
    samsara: 'Samsara',
    motive: 'Motive',
    mcleod: 'McLeod',
    project44: 'project44',
    here: 'HERE',
    openweather: 'OpenWeather',
    nws: 'National Weather Service',
    MANUAL: 'Entered by hand',
    LOG: 'The duty-status log',
  },
} satisfies Record<string, Record<string, string>>;

export type GlossaryKind = keyof typeof GLOSSARY;

/** A code in words: `label('restKind', 'FULL_REST')` → "10-hour rest"; an unknown code humanized. */
export function label(kind: GlossaryKind, code: string | null | undefined): string {
  if (code === null || code === undefined || code === '') return '—';
  return (GLOSSARY[kind] as Record<string, string>)[code] ?? humanize(code);
}

/** Where a driver's clocks come from, in words: "from Samsara, 28 seconds ago", "from the duty-status log". */
export function clockSourceText(source: { kind: string; name: string; syncedAt: string | null }, now = Date.now()): string {
  if (source.kind !== 'ELD' || !source.syncedAt) return `from ${source.name}`;
  return `from ${source.name}, ${ago(Date.parse(source.syncedAt), now)}`;
}

/** "28 seconds ago", "5 minutes ago", "2 hours ago": how long ago, in whole units. */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'} ago`;
  if (s < 60) return s <= 1 ? 'just now' : unit(s, 'second');
  if (s < 3600) return unit(Math.floor(s / 60), 'minute');
  if (s < 86_400) return unit(Math.floor(s / 3600), 'hour');
  return unit(Math.floor(s / 86_400), 'day');
}

/**
 * A place after a word of place: "near Thousand Palms, CA" stays as it is (the planner already names a
 * place by what it is near), "Dallas, TX" becomes `${preposition} Dallas, TX`. Never "near near".
 */
export function placePhrase(name: string, preposition: 'at' | 'near' = 'at'): string {
  return /^(near|at|in) /i.test(name) ? name.charAt(0).toLowerCase() + name.slice(1) : `${preposition} ${name}`;
}
