/**
 * The alerts feed's data: filters (to and from the address bar, to the list query, and applied to alerts
 * arriving live), merging Socket.IO events into the listed page (new alerts on top, deduplicated by id;
 * updates and resolutions merged into their rows), and the words the page and its badge say.
 * Pure (tested in alert-feed.test.ts).
 */
import type { Item, Ok } from '../api/client';
import { dateTime, hoursMinutes, humanize, relative } from './format';
import { GLOSSARY, label, type GlossaryKind } from './glossary';

export type AlertRow = Item<'/api/v1/alerts'>;
export type AlertDetail = Ok<'/api/v1/alerts/{alertId}'>;
export type AlertNote = AlertDetail['notes'][number];
export type Priority = AlertRow['priority'];
export type AlertStatus = AlertRow['status'];
export type Category = AlertRow['category'];
export type AlertType = AlertRow['type'];

export const PRIORITIES: readonly Priority[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
export const STATUSES: readonly AlertStatus[] = ['ACTIVE', 'ACKNOWLEDGED', 'SNOOZED', 'RESOLVED'];
export const CATEGORIES: readonly Category[] = ['HOS_VIOLATION', 'ROUTE_DEVIATION', 'WEATHER', 'MECHANICAL', 'SCHEDULING', 'SYSTEM'];

/** Every alert type and its category (the record's type makes the compiler check none is missing). */
export const TYPE_CATEGORY: Readonly<Record<AlertType, Category>> = {
  HOS_APPROACHING_DRIVE_LIMIT: 'HOS_VIOLATION',
  HOS_APPROACHING_DUTY_LIMIT: 'HOS_VIOLATION',
  HOS_APPROACHING_CYCLE_LIMIT: 'HOS_VIOLATION',
  HOS_BREAK_REQUIRED: 'HOS_VIOLATION',
  HOS_VIOLATION: 'HOS_VIOLATION',
  ROUTE_DEVIATION: 'ROUTE_DEVIATION',
  UNPLANNED_STOP: 'ROUTE_DEVIATION',
  MISSED_REST_STOP: 'ROUTE_DEVIATION',
  SEVERE_WEATHER_IN_PATH: 'WEATHER',
  WEATHER_ADVISORY: 'WEATHER',
  WEATHER_DELAY: 'WEATHER',
  VEHICLE_FAULT: 'MECHANICAL',
  LOW_FUEL: 'MECHANICAL',
  VEHICLE_BREAKDOWN: 'MECHANICAL',
  LATE_TO_APPOINTMENT: 'SCHEDULING',
  APPOINTMENT_AT_RISK: 'SCHEDULING',
  DOCK_DELAY: 'SCHEDULING',
  DEPARTURE_DELAYED: 'SCHEDULING',
  INTEGRATION_SYNC_FAILED: 'SYSTEM',
  TELEMETRY_STALE: 'SYSTEM',
};
export const ALERT_TYPES = Object.keys(TYPE_CATEGORY) as AlertType[];

/** The API's filter alias for the approaching-limit HOS warnings. */
export const HOS_APPROACHING_LIMIT = 'HOS_APPROACHING_LIMIT';
const HOS_APPROACHING_TYPES: readonly string[] = ['HOS_APPROACHING_DRIVE_LIMIT', 'HOS_APPROACHING_DUTY_LIMIT', 'HOS_APPROACHING_CYCLE_LIMIT', 'HOS_BREAK_REQUIRED'];

/** All values are API filter values; '' means "any". `status` may list several, comma-separated. */
export interface AlertFilters {
  status: string;
  priority: string;
  category: string;
  type: string;
  driverId: string;
  /** The order: the most urgent first (default), or the newest first. */
  sort: string;
}

export const DEFAULT_FILTERS: AlertFilters = { status: 'ACTIVE', priority: '', category: '', type: '', driverId: '', sort: 'priority' };

export const SORT_CHOICES: Array<{ value: string; label: string }> = [
  { value: 'priority', label: 'Most urgent first' },
  { value: 'newest', label: 'Newest first' },
];
export const UNRESOLVED = 'ACTIVE,ACKNOWLEDGED,SNOOZED';

export const STATUS_FILTERS: Array<{ value: string; label: string }> = [
  { value: 'ACTIVE', label: 'Open (active)' },
  { value: 'ACKNOWLEDGED', label: 'Acknowledged' },
  { value: 'SNOOZED', label: 'Snoozed' },
  { value: UNRESOLVED, label: 'All unresolved' },
  { value: 'RESOLVED', label: 'Resolved' },
  { value: '', label: 'All statuses' },
];

/** The snooze choices (the API takes 1 to 10,080 minutes). */
export const SNOOZE_CHOICES: Array<{ minutes: number; label: string }> = [
  { minutes: 15, label: '15 minutes' },
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 120, label: '2 hours' },
  { minutes: 240, label: '4 hours' },
  { minutes: 480, label: '8 hours' },
  { minutes: 1440, label: '24 hours' },
];

const FILTER_KEYS = ['status', 'priority', 'category', 'type', 'driverId', 'sort'] as const;

/** Filters and page from the address bar's query (`?status=…&page=2`); absent status means ACTIVE. */
export function filtersFromSearch(search: string): { filters: AlertFilters; page: number } {
  const q = new URLSearchParams(search);
  const filters = { ...DEFAULT_FILTERS };
  for (const k of FILTER_KEYS) {
    const v = q.get(k);
    if (v !== null) filters[k] = v;
  }
  const page = Math.max(1, Math.floor(Number(q.get('page')) || 1));
  return { filters, page };
}

/** The address bar's query for filters and page (defaults left out; "all statuses" kept as status=). */
export function searchFromFilters(filters: AlertFilters, page = 1): string {
  const q = new URLSearchParams();
  for (const k of FILTER_KEYS) if (filters[k] !== DEFAULT_FILTERS[k]) q.set(k, filters[k]);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The GET /alerts query: only the filters that are set. */
export function listQuery(filters: AlertFilters, page: number, pageSize: number) {
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.priority ? { priority: filters.priority } : {}),
    ...(filters.category ? { category: filters.category } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.driverId ? { driverId: filters.driverId } : {}),
    sort: filters.sort === 'newest' ? ('newest' as const) : ('priority' as const),
    page,
    pageSize,
  };
}

const anyOf = (filter: string, value: string | null | undefined) => !filter || filter.split(',').includes(value ?? '');

/** Whether an alert belongs in the list the filters select (for alerts arriving live). */
export function matchesFilters(alert: Pick<AlertRow, 'status' | 'priority' | 'category' | 'type' | 'driverId'>, filters: AlertFilters): boolean {
  const types = filters.type
    .split(',')
    .filter(Boolean)
    .flatMap((t) => (t === HOS_APPROACHING_LIMIT ? HOS_APPROACHING_TYPES : [t]));
  return (
    anyOf(filters.status, alert.status) &&
    anyOf(filters.priority, alert.priority) &&
    anyOf(filters.category, alert.category) &&
    (types.length === 0 || types.includes(alert.type)) &&
    (!filters.driverId || alert.driverId === filters.driverId)
  );
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const iso = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? new Date(v).toISOString() : null);
const oneOf = <T extends string>(values: readonly T[], v: unknown): T | null => (values.includes(v as T) ? (v as T) : null);

/** An `alert:new` payload as a list row (the event leaves out the acknowledgement fields: null). */
export function alertFromEvent(payload: unknown): AlertRow | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as Record<string, unknown>;
  const id = str(p.id);
  const type = oneOf(ALERT_TYPES, p.type);
  const createdAt = iso(p.createdAt);
  if (!id || !type || !createdAt) return null;
  return {
    id,
    type,
    category: oneOf(CATEGORIES, p.category) ?? TYPE_CATEGORY[type],
    priority: oneOf(PRIORITIES, p.priority) ?? 'MEDIUM',
    status: oneOf(STATUSES, p.status) ?? 'ACTIVE',
    title: str(p.title) ?? humanize(type),
    message: str(p.message) ?? '',
    driverId: str(p.driverId),
    driverName: str(p.driverName),
    vehicleId: str(p.vehicleId),
    vehicleUnit: str(p.vehicleUnit),
    routePlanId: str(p.routePlanId),
    metadata: p.metadata && typeof p.metadata === 'object' ? (p.metadata as Record<string, unknown>) : {},
    createdAt,
    updatedAt: iso(p.updatedAt) ?? createdAt,
    acknowledgedBy: null,
    acknowledgedAt: null,
    snoozedBy: null,
    snoozedUntil: null,
    resolvedBy: null,
    resolvedAt: null,
    resolution: null,
  };
}

/** The fields an `alert:updated` or `alert:resolved` event may carry, merged into the row it is about. */
export function mergeChange<T extends AlertRow>(row: T, payload: Record<string, unknown>): T {
  const next: T = { ...row };
  const status = oneOf(STATUSES, payload.status);
  if (status) next.status = status;
  const priority = oneOf(PRIORITIES, payload.priority);
  if (priority) next.priority = priority;
  if (typeof payload.title === 'string') next.title = payload.title;
  if (typeof payload.message === 'string') next.message = payload.message;
  if (payload.metadata && typeof payload.metadata === 'object') next.metadata = payload.metadata as Record<string, unknown>;
  const updatedAt = iso(payload.updatedAt) ?? iso(payload.resolvedAt);
  if (updatedAt) next.updatedAt = updatedAt;
  for (const k of ['acknowledgedBy', 'snoozedBy', 'resolvedBy', 'resolution'] as const) if (k in payload) next[k] = str(payload[k]);
  for (const k of ['acknowledgedAt', 'snoozedUntil', 'resolvedAt'] as const) if (k in payload) next[k] = iso(payload[k]);
  return next;
}

export interface FeedPage {
  rows: AlertRow[];
  total: number;
}

export type AddOutcome = 'added' | 'duplicate' | 'filtered' | 'other-page';

/**
 * A new alert into the listed page 1 at its place in the order (on top when newest first; before the
 * first less urgent alert when the most urgent come first; the page keeps its size), deduplicated by id.
 * On another page, or past the end of page 1, only the total grows.
 */
export function addNewAlert(feed: FeedPage, alert: AlertRow, filters: AlertFilters, page: number, pageSize: number): { feed: FeedPage; outcome: AddOutcome } {
  if (feed.rows.some((r) => r.id === alert.id)) return { feed, outcome: 'duplicate' };
  if (!matchesFilters(alert, filters)) return { feed, outcome: 'filtered' };
  // Most urgent first: the new alert goes before the first listed one that is less urgent (or as urgent: it is newer).
  const at = filters.sort === 'newest' ? 0 : feed.rows.findIndex((r) => rankOf(r.priority) >= rankOf(alert.priority));
  const index = at < 0 ? feed.rows.length : at;
  if (page !== 1 || index >= pageSize) return { feed: { ...feed, total: feed.total + 1 }, outcome: 'other-page' };
  const rows = [...feed.rows.slice(0, index), alert, ...feed.rows.slice(index)].slice(0, pageSize);
  return { feed: { rows, total: feed.total + 1 }, outcome: 'added' };
}

const RANK: Record<string, number> = { CRITICAL: 0, HIGH: 1, MEDIUM: 2, LOW: 3 };
const rankOf = (priority: string) => RANK[priority] ?? 4;

/**
 * An update or resolution into the listed page. A listed row takes the change and stays (its new
 * status shows; the next load applies the filter); `missing` says the alert is not listed but now
 * matches the filters (a snoozed alert that became active again): the caller reloads.
 */
export function applyChange(feed: FeedPage, payload: Record<string, unknown>, filters: AlertFilters): { feed: FeedPage; missing: boolean } {
  const id = str(payload.id);
  if (!id) return { feed, missing: false };
  const i = feed.rows.findIndex((r) => r.id === id);
  if (i >= 0) {
    const rows = feed.rows.slice();
    rows[i] = mergeChange(rows[i]!, payload);
    return { feed: { ...feed, rows }, missing: false };
  }
  const type = oneOf(ALERT_TYPES, payload.type);
  const status = oneOf(STATUSES, payload.status);
  const priority = oneOf(PRIORITIES, payload.priority);
  if (!type || !status) return { feed, missing: false };
  // Without a priority in the event, a priority filter cannot be checked here: reload to be sure.
  const candidate = { type, status, priority: priority ?? ('' as Priority), category: TYPE_CATEGORY[type], driverId: str(payload.driverId) };
  const matches = priority ? matchesFilters(candidate, filters) : matchesFilters(candidate, { ...filters, priority: '' });
  return { feed, missing: matches };
}

/** What the live region says when an alert arrives. */
export function announcement(alert: Pick<AlertRow, 'priority' | 'title' | 'driverName'>): string {
  return `New ${alert.priority.toLowerCase()} priority alert: ${alert.title}${alert.driverName ? ` — ${alert.driverName}` : ''}`;
}

/** Who did something, from a user id: "You", "Monitoring (automatic)" for the system, else "Another user". */
export function actorLabel(id: string | null | undefined, myUserId: string): string {
  if (!id) return '—';
  if (id === 'system') return 'Monitoring (automatic)';
  return id === myUserId ? 'You' : 'Another user';
}

/** A type or category in words: HOS_VIOLATION → "HOS violation", LOW_FUEL → "Low fuel". */
export function kindLabel(value: string | null | undefined): string {
  if (value && value in GLOSSARY.alertType) return label('alertType', value);
  if (value && value in GLOSSARY.category) return label('category', value);
  return humanize(value).replace(/\bHos\b/g, 'HOS');
}

/** An HOS limit alert whose limit is reached reads as reached, not as approaching (metadata.limitReached). */
const REACHED: Record<string, string> = {
  HOS_APPROACHING_DRIVE_LIMIT: 'Driving limit reached',
  HOS_APPROACHING_DUTY_LIMIT: 'Duty window ended',
  HOS_APPROACHING_CYCLE_LIMIT: 'Cycle limit reached',
  HOS_BREAK_REQUIRED: '30-minute break required now',
};

/** An alert's type in words, "reached" apart from "approaching". */
export function alertTypeLabel(a: { type: string; metadata?: Record<string, unknown> | null }): string {
  return a.metadata?.limitReached === true && REACHED[a.type] ? REACHED[a.type]! : kindLabel(a.type);
}

/**
 * When an alert was raised, relative to `now`: "just now" within 45 seconds, and for a time slightly
 * ahead (the server's clock a little ahead of the browser's), else "5 minutes ago".
 */
export function raisedLabel(iso: string, now: number): string {
  const diff = now - Date.parse(iso);
  if (Number.isNaN(diff)) return '—';
  if (Math.abs(diff) < 45_000 || (diff < 0 && diff > -5 * 60_000)) return 'just now';
  return relative(iso, now);
}

/** "distanceMiles" → "Distance miles". */
export function keyLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{4,}$/;

type Fact = { label?: string; as: 'hours' | 'minutes' | 'miles' | 'percent' | GlossaryKind | 'hidden' | 'list' };

/**
 * How a fact from monitoring reads (alert metadata keys): durations h:mm, distances in miles, codes through
 * the glossary, the machine's references (coordinates, indexes, ids) left out — the API keeps them all.
 */
const FACTS: Record<string, Fact> = {
  recommendedAction: { label: 'Recommended', as: 'recommendedAction' },
  restNeeded: { label: 'Rest needed', as: 'restKind' },
  limit: { as: 'limit' },
  limitReached: { label: 'Limit reached', as: 'hidden' },
  dutyStatus: { label: 'Duty status', as: 'dutyStatus' },
  hosSource: { label: 'Clocks from', as: 'vendor' },
  hosDisagreement: { label: 'ELD and log', as: 'hidden' },
  etaSource: { label: 'ETA from', as: 'vendor' },
  restType: { label: 'Rest', as: 'restType' },
  stopType: { label: 'Stop', as: 'stopType' },
  projectionMethod: { label: 'Projected from', as: 'projectionMethod' },
  worstSeverity: { label: 'Worst', as: 'weatherSeverity' },
  currentHoursDriven: { label: 'Driven', as: 'hours' },
  driveTimeRemaining: { label: 'Drive time left', as: 'hours' },
  currentOnDutyHours: { label: 'Into the duty window', as: 'hours' },
  dutyTimeRemaining: { label: 'Duty window left', as: 'hours' },
  cycleHoursUsed: { label: 'Cycle used', as: 'hours' },
  cycleTimeRemaining: { label: 'Cycle left', as: 'hours' },
  cycleHoursRecapturedTomorrow: { label: 'Back at midnight', as: 'hours' },
  hoursSinceBreak: { label: 'Driven since the break', as: 'hours' },
  breakTimeRemaining: { label: 'Until the break', as: 'hours' },
  breakRequired: { label: 'Break required', as: 'hidden' },
  thresholdHours: { label: 'Alert threshold', as: 'hours' },
  durationHours: { label: 'Planned duration', as: 'hours' },
  plannedDockHours: { label: 'Planned dock time', as: 'hours' },
  weatherDelayHours: { label: 'Weather delay', as: 'hours' },
  minutesRemaining: { label: 'Time left', as: 'minutes' },
  warningThresholdMinutes: { label: 'Warning threshold', as: 'minutes' },
  stoppedMinutes: { label: 'Stopped for', as: 'minutes' },
  thresholdMinutes: { label: 'Alert threshold', as: 'minutes' },
  overstayMinutes: { label: 'Over plan by', as: 'minutes' },
  minutesLate: { label: 'Late by', as: 'minutes' },
  minutesOverdue: { label: 'Overdue by', as: 'minutes' },
  delayMinutes: { label: 'Behind plan by', as: 'minutes' },
  lateByMinutes: { label: 'Late by', as: 'minutes' },
  slackMinutes: { label: 'To spare', as: 'minutes' },
  marginMinutes: { label: 'At risk within', as: 'minutes' },
  autoResolveAfterMinutes: { label: 'Clears after', as: 'minutes' },
  minutesSinceLastPosition: { label: 'Silent for', as: 'minutes' },
  distanceMiles: { label: 'Off the path by', as: 'miles' },
  thresholdMiles: { label: 'Alert threshold', as: 'miles' },
  milesAlongRoute: { label: 'Along the route', as: 'miles' },
  nearestPlannedPlaceMiles: { label: 'From the nearest planned stop', as: 'miles' },
  nearestMilesAhead: { label: 'Nearest ahead', as: 'miles' },
  criticalWithinMiles: { label: 'Critical within', as: 'miles' },
  fuelLevelPercent: { label: 'Fuel', as: 'percent' },
  violations: { as: 'list' },
  hazards: { as: 'list' },
  faults: { as: 'list' },
  latitude: { as: 'hidden' },
  longitude: { as: 'hidden' },
  stopIndex: { as: 'hidden' },
  stopSequence: { as: 'hidden' },
  segmentSequence: { as: 'hidden' },
  violationCount: { as: 'hidden' },
  hazardCount: { as: 'hidden' },
  offRoute: { as: 'hidden' },
  atLeast: { as: 'hidden' },
  clocksAt: { label: 'Clocks read', as: 'hidden' },
};

/** One entry of a list fact (violations, hazards, faults) in a line. */
function listItem(v: unknown): string {
  if (typeof v !== 'object' || v === null) return String(v);
  const o = v as Record<string, unknown>;
  if (typeof o.explanation === 'string') return o.explanation;
  if (typeof o.event === 'string') return `${o.event}${typeof o.milesAhead === 'number' ? `, ${Math.round(o.milesAhead)} mi ahead` : ''}`;
  if (typeof o.code === 'string') return `${o.code}${typeof o.description === 'string' ? ` ${o.description}` : ''}`;
  return Object.values(o).filter((x) => typeof x === 'string' || typeof x === 'number').join(', ');
}

function factText(fact: Fact | undefined, v: unknown, timeZone?: string): string | null {
  if (fact?.as === 'hidden') return null;
  if (fact?.as === 'list') return Array.isArray(v) ? v.map(listItem).join('; ') : null;
  if (typeof v === 'number') {
    switch (fact?.as) {
      case 'hours':
        return hoursMinutes(v);
      case 'minutes':
        return v < 60 ? `${Math.round(v)} min` : hoursMinutes(v / 60);
      case 'miles':
        // As the alert's own sentence writes it: tenths under ten miles, whole miles from ten on.
        return `${Math.abs(v) < 10 ? Math.round(v * 10) / 10 : Math.round(v)} mi`;
      case 'percent':
        return `${Math.round(v)} %`;
      default:
        return String(Math.round(v * 100) / 100);
    }
  }
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'string') {
    if (fact && fact.as in GLOSSARY) return label(fact.as as GlossaryKind, v);
    if (ISO_TIME.test(v)) return dateTime(v, timeZone);
    return CODE.test(v) ? humanize(v) : v;
  }
  return null;
}

/**
 * An alert's metadata as label/value pairs for a person, recommendedAction first: durations h:mm, codes in
 * words (the glossary), times in `timeZone` (the viewer's by default) with the zone; coordinates, indexes
 * and nested records a person does not read are left out (the API answers them all).
 */
export function metadataEntries(metadata: Record<string, unknown> | null | undefined, timeZone?: string): Array<[string, string]> {
  if (!metadata) return [];
  const keys = Object.keys(metadata).sort((a, b) => (a === 'recommendedAction' ? -1 : b === 'recommendedAction' ? 1 : 0));
  const out: Array<[string, string]> = [];
  for (const k of keys) {
    const v = metadata[k];
    if (v === null || v === undefined || v === '') continue;
    const fact = FACTS[k];
    const text = factText(fact, v, timeZone);
    if (text === null || text === '') continue;
    out.push([fact?.label ?? keyLabel(k), text]);
  }
  return out;
}
