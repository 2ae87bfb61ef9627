/**
 * Data shaping for the Settings pages: the fields of each settings form (labels, units, ranges as the
 * server's schema has them), the server's validation details mapped onto form fields, the webhook event
 * catalogue, and small formatters. Pure: no React, no requests.
 */
import type { Body } from '../api/client';

// ───────────────────────────── settings forms ─────────────────────────────

export interface NumberFieldSpec {
  kind: 'number';
  key: string;
  label: string;
  /** Plural unit as shown after a value ("hours", "miles"…). */
  unit: string;
  min: number;
  max: number;
  step: number;
  hint?: string;
}
export interface BooleanFieldSpec {
  kind: 'boolean';
  key: string;
  label: string;
  hint?: string;
}
export interface ChoiceFieldSpec {
  kind: 'choice';
  key: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  hint?: string;
  /** The option whose value is '' stands for null (the server's "not set"). */
  emptyIsNull?: boolean;
}
export type FieldSpec = NumberFieldSpec | BooleanFieldSpec | ChoiceFieldSpec;

/** PUT /tenant/settings/alerts (ranges as in the server's schema). */
export const ALERT_FIELDS: FieldSpec[] = [
  { kind: 'number', key: 'hosApproachingThresholdHours', label: 'HOS limit warning', unit: 'hours', min: 0.25, max: 11, step: 0.25, hint: 'Alert when this much time remains on a driving, duty or cycle clock.' },
  { kind: 'number', key: 'routeDeviationThresholdMiles', label: 'Route deviation', unit: 'miles', min: 0.1, max: 100, step: 0.1, hint: 'Alert when a truck is this far off its planned path.' },
  { kind: 'number', key: 'unplannedStopThresholdMinutes', label: 'Unplanned stop', unit: 'minutes', min: 1, max: 720, step: 1, hint: 'Alert when a truck stands still this long away from a planned stop.' },
  { kind: 'number', key: 'dockDelayThresholdMinutes', label: 'Dock delay', unit: 'minutes', min: 5, max: 1440, step: 1, hint: 'Alert when a truck stays at a dock this long beyond its planned dock time.' },
  { kind: 'boolean', key: 'enableWeatherAlerts', label: 'Weather alerts', hint: 'Severe weather along active routes.' },
  { kind: 'boolean', key: 'enableMechanicalAlerts', label: 'Mechanical alerts', hint: 'Fault codes reported by the trucks (ELD integrations).' },
];

/** PUT /tenant/settings/monitoring. */
export const MONITORING_FIELDS: FieldSpec[] = [
  { kind: 'number', key: 'monitoringIntervalSeconds', label: 'Monitoring interval', unit: 'seconds', min: 5, max: 3600, step: 1, hint: 'How often each active route is checked.' },
  { kind: 'number', key: 'autoResolveDeviationAfterMinutes', label: 'Auto-resolve a deviation after', unit: 'minutes', min: 1, max: 1440, step: 1, hint: 'A route-deviation alert resolves itself when the truck has been back on its path this long.' },
  { kind: 'number', key: 'hosWarningThresholdMinutes', label: 'HOS warning before a limit', unit: 'minutes', min: 5, max: 660, step: 1, hint: 'Monitoring warns when a clock will run out within this time.' },
  { kind: 'number', key: 'telemetryStaleMinutes', label: 'Truck silent after', unit: 'minutes', min: 1, max: 1440, step: 1, hint: 'Alert when an active route’s truck has sent no position this long (at least three monitoring intervals).' },
];

export const RULE_SETS: Array<{ value: string; label: string }> = [
  { value: 'US_PROPERTY_70_8', label: 'US property-carrying, 70 hours / 8 days' },
  { value: 'US_PROPERTY_60_7', label: 'US property-carrying, 60 hours / 7 days' },
  { value: 'TEXAS_INTRASTATE', label: 'Texas intrastate (70 hours / 7 days)' },
  { value: 'CALIFORNIA_INTRASTATE', label: 'California intrastate (80 hours / 8 days)' },
  { value: 'CANADA_CYCLE_1', label: 'Canada, cycle 1 (70 hours / 7 days)' },
  { value: 'CANADA_CYCLE_2', label: 'Canada, cycle 2 (120 hours / 14 days)' },
];

/** The home terminal zones a US or Canadian carrier keeps (IANA names, as the server takes them). */
export const HOME_TERMINAL_ZONES: Array<{ value: string; label: string }> = [
  { value: '', label: 'From the organization’s address' },
  { value: 'America/New_York', label: 'Eastern (New York)' },
  { value: 'America/Chicago', label: 'Central (Chicago)' },
  { value: 'America/Denver', label: 'Mountain (Denver)' },
  { value: 'America/Phoenix', label: 'Mountain, no daylight saving (Phoenix)' },
  { value: 'America/Los_Angeles', label: 'Pacific (Los Angeles)' },
  { value: 'America/Anchorage', label: 'Alaska (Anchorage)' },
  { value: 'Pacific/Honolulu', label: 'Hawaii (Honolulu)' },
  { value: 'America/Halifax', label: 'Atlantic (Halifax)' },
  { value: 'America/St_Johns', label: 'Newfoundland (St. John’s)' },
  { value: 'America/Toronto', label: 'Eastern (Toronto)' },
  { value: 'America/Winnipeg', label: 'Central (Winnipeg)' },
  { value: 'America/Regina', label: 'Central, no daylight saving (Regina)' },
  { value: 'America/Edmonton', label: 'Mountain (Edmonton)' },
  { value: 'America/Vancouver', label: 'Pacific (Vancouver)' },
];

/** Half-hour start times of the daily logs' 24-hour period. */
export const PERIOD_START_TIMES: Array<{ value: string; label: string }> = Array.from({ length: 48 }, (_, i) => {
  const value = `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`;
  return { value, label: i === 0 ? '00:00 (midnight)' : value };
});

/** PUT /tenant/settings/hos. */
export const HOS_FIELDS: FieldSpec[] = [
  { kind: 'choice', key: 'ruleSet', label: 'Rule set', options: RULE_SETS, hint: 'The hours-of-service rules for planning and driver clocks.' },
  { kind: 'boolean', key: 'adverseDrivingConditions', label: 'Adverse driving conditions exception', hint: 'Up to 2 more hours of driving when conditions could not be known before the trip.' },
  { kind: 'boolean', key: 'shortHaul16Hour', label: '16-hour short-haul exception', hint: 'Once per cycle, a 16-hour duty window for drivers returning to their terminal.' },
  { kind: 'boolean', key: 'shortHaul150AirMile', label: '150 air-mile short-haul exception', hint: 'Drivers staying within 150 air miles of their terminal.' },
  { kind: 'number', key: 'homeTerminalUtcOffsetMinutes', label: 'Home terminal UTC offset', unit: 'minutes', min: -720, max: 840, step: 1, hint: 'Where the cycle’s days begin for the HOS clocks: minutes east of UTC (Central Standard Time is −360).' },
  { kind: 'choice', key: 'homeTerminalTimeZone', label: 'Home terminal time zone', options: HOME_TERMINAL_ZONES, emptyIsNull: true, hint: 'The clocks the daily logs keep (a driver’s own home terminal comes first).' },
  { kind: 'choice', key: 'periodStartTime', label: 'Daily log starts at', options: PERIOD_START_TIMES, hint: 'When each 24-hour period of the drivers’ logs begins on the home terminal’s clocks.' },
];

/** "1 hour", "0.5 hours", "On" — a value as a person reads it. */
export function formatSetting(spec: FieldSpec, value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (spec.kind === 'boolean') return value ? 'On' : 'Off';
  if (spec.kind === 'choice') return spec.options.find((o) => o.value === value)?.label ?? String(value);
  const n = Number(value);
  const unit = n === 1 ? spec.unit.replace(/s$/, '') : spec.unit;
  const extra = spec.key === 'homeTerminalUtcOffsetMinutes' ? ` (${utcOffset(n)})` : '';
  return `${n.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${unit}${extra}`;
}

/** −360 → "UTC−06:00". */
export function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(Math.round(minutes));
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** What a form holds while being edited: numbers as typed text, booleans, choices. */
export type Draft = Record<string, string | boolean>;

export function toDraft(fields: FieldSpec[], values: Record<string, unknown>): Draft {
  const draft: Draft = {};
  for (const f of fields) {
    const v = values[f.key];
    draft[f.key] = f.kind === 'boolean' ? Boolean(v) : v === undefined || v === null ? '' : String(v);
  }
  return draft;
}

/**
 * The changed fields of a draft as an update body, or the fields that cannot be sent (blank or not a
 * number). Ranges are left to the server, whose messages the form shows.
 */
export function changes(fields: FieldSpec[], current: Record<string, unknown>, draft: Draft): { body: Record<string, unknown>; errors: Record<string, string> } {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const d = draft[f.key];
    let value: unknown;
    if (f.kind === 'number') {
      const text = String(d ?? '').trim();
      if (text === '') {
        errors[f.key] = 'Enter a number';
        continue;
      }
      value = Number(text);
      if (!Number.isFinite(value)) {
        errors[f.key] = 'Enter a number';
        continue;
      }
    } else value = f.kind === 'choice' && f.emptyIsNull && d === '' ? null : d;
    if (value !== (current[f.key] ?? (f.kind === 'choice' && f.emptyIsNull ? null : undefined))) body[f.key] = value;
  }
  return { body, errors };
}

// ───────────────────────────── server errors ─────────────────────────────

/**
 * The server's validation details (`[{ field: 'body.url', message: 'must be …' }]`) as messages per form
 * field: `{ url: 'Must be …' }`. Nested fields keep their path after `body.` (`config.apiToken`).
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const details = (error as { body?: { details?: unknown } } | null)?.body?.details;
  if (!Array.isArray(details)) return {};
  const out: Record<string, string> = {};
  for (const d of details as Array<{ field?: unknown; message?: unknown }>) {
    if (typeof d?.field !== 'string' || typeof d.message !== 'string') continue;
    const key = d.field.replace(/^body\.?/, '');
    if (!key || out[key]) continue;
    out[key] = sentence(d.message);
  }
  return out;
}

/** "must be <= 11" → "Must be at most 11." */
export function sentence(message: string): string {
  const m = message.replace(/<=/g, 'at most').replace(/>=/g, 'at least').replace(/\s+$/, '');
  const s = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

// ───────────────────────────── webhooks ─────────────────────────────

type EventName = Body<'/api/v1/webhooks', 'post'>['events'][number];
type NamedEvent = Exclude<EventName, '*'>;

/** The webhook event catalogue (the server's enum; the check below fails to compile if they part ways). */
export const WEBHOOK_EVENTS = [
  { name: 'alert.created', label: 'An alert is raised' },
  { name: 'alert.updated', label: 'An alert is acknowledged, snoozed or noted' },
  { name: 'alert.resolved', label: 'An alert is resolved' },
  { name: 'route.planned', label: 'A route is planned' },
  { name: 'route.activated', label: 'A route is activated' },
  { name: 'route.completed', label: 'A route is completed' },
  { name: 'route.cancelled', label: 'A route is cancelled' },
  { name: 'route.replanned', label: 'An active route is re-planned' },
  { name: 'driver.status_changed', label: "A driver's duty status changes" },
  { name: 'load.status_changed', label: "A load's status changes" },
  { name: 'integration.sync_completed', label: 'An integration sync completes' },
  { name: 'integration.sync_failed', label: 'An integration sync fails' },
  { name: 'log.edit_requested', label: 'A correction of a driver’s log is requested' },
  { name: 'log.edit_accepted', label: 'A driver accepts a correction of their log' },
  { name: 'log.edit_rejected', label: 'A driver rejects a correction of their log' },
  { name: 'log.certified', label: 'A driver certifies a day of their log' },
] as const satisfies ReadonlyArray<{ name: NamedEvent; label: string }>;

type Listed = (typeof WEBHOOK_EVENTS)[number]['name'];
const everyEventListed: [Exclude<NamedEvent, Listed>] extends [never] ? true : false = true;
void everyEventListed;

export const ALL_EVENTS = '*';

/** Event names as a short text: "All events", or the names. */
export function describeEvents(events: readonly string[]): string {
  if (events.includes(ALL_EVENTS)) return 'All events';
  return events.join(', ');
}

/** The events to send: the wildcard alone when chosen, else the checked names in catalogue order. */
export function eventsToSend(all: boolean, chosen: ReadonlySet<string>): EventName[] {
  if (all) return [ALL_EVENTS];
  return WEBHOOK_EVENTS.map((e) => e.name).filter((n) => chosen.has(n));
}

// ───────────────────────────── integrations ─────────────────────────────

/** "apiToken" → "Api token", "orgId" → "Org ID", "base_url" → "Base URL". */
export function configFieldLabel(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    .map((w) => (/^(id|url|api|dot|mc|eld|tms|uri)$/i.test(w) ? w.toUpperCase() : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether a config field holds a credential (shown as a password input). */
export function isSecretField(key: string, secretFields: readonly string[] | undefined): boolean {
  if (secretFields) return secretFields.includes(key);
  return /token|secret|password|key/i.test(key);
}

/** `{ vehicles: 2, drivers: 0, logsAdded: 5 }` → "2 vehicles, 5 logs added" (zeros left out). */
export function describeCounts(counts: Record<string, number> | null | undefined): string {
  if (!counts) return '—';
  const entries = Object.entries(counts).filter(([, v]) => v !== 0);
  if (entries.length === 0) return 'nothing new';
  return entries.map(([k, v]) => `${v.toLocaleString('en-US')} ${configFieldLabel(k).toLowerCase()}`).join(', ');
}

/** "Wed, Nov 25, 11:55:04": a date with seconds (delivery attempts a few seconds apart). */
export function preciseTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZone }).format(d);
}

export interface ConfigField {
  key: string;
  label: string;
  required: boolean;
  secret: boolean;
}

/**
 * The config fields of a vendor's form, required first. `syncIntervalMinutes`, which vendors also accept
 * in their config, is left out: the form has its own sync interval field.
 */
export function configFields(vendor: { requiredFields: readonly string[]; optionalFields: readonly string[]; secretFields?: readonly string[] }): ConfigField[] {
  const field = (key: string, required: boolean): ConfigField => ({ key, label: configFieldLabel(key), required, secret: isSecretField(key, vendor.secretFields) });
  return [
    ...vendor.requiredFields.map((k) => field(k, true)),
    ...vendor.optionalFields.filter((k) => k !== 'syncIntervalMinutes' && !vendor.requiredFields.includes(k)).map((k) => field(k, false)),
  ];
}

// ───────────────────────────── invitations ─────────────────────────────

/**
 * Driver profiles that cannot be linked by a new invitation, with the reason: a user already has it, or
 * a pending invitation links it (the server refuses both).
 */
export function linkedDrivers(
  users: ReadonlyArray<{ driverId: string | null; status: string; email: string }>,
  invitations: ReadonlyArray<{ driverId: string | null; status: string; email: string }>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const i of invitations) if (i.driverId && i.status === 'PENDING') out.set(i.driverId, `invited as ${i.email}`);
  for (const u of users) if (u.driverId) out.set(u.driverId, `account ${u.email}`);
  return out;
}
