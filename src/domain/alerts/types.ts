/**
 * The alert rules' contract. Pure: a monitoring snapshot of one ACTIVE route in, the conditions that
 * hold now out; `reconcile` turns those into what to do with the route's open alerts. No I/O, no clock:
 * `now` is in the snapshot (ms since epoch). The monitoring worker builds snapshots and applies results.
 */
import type { HosClocks, Violation } from '../hos/types.js';
import type { Segment, StopEta } from '../planning/types.js';

export type AlertCategory = 'HOS_VIOLATION' | 'ROUTE_DEVIATION' | 'WEATHER' | 'MECHANICAL' | 'SCHEDULING' | 'SYSTEM';
export type AlertPriority = 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW';
export type AlertStatus = 'ACTIVE' | 'ACKNOWLEDGED' | 'SNOOZED' | 'RESOLVED';

export const ALERT_TYPES = {
  HOS_APPROACHING_DRIVE_LIMIT: { category: 'HOS_VIOLATION', priority: 'MEDIUM' },
  HOS_APPROACHING_DUTY_LIMIT: { category: 'HOS_VIOLATION', priority: 'MEDIUM' },
  HOS_APPROACHING_CYCLE_LIMIT: { category: 'HOS_VIOLATION', priority: 'MEDIUM' },
  HOS_BREAK_REQUIRED: { category: 'HOS_VIOLATION', priority: 'MEDIUM' },
  HOS_VIOLATION: { category: 'HOS_VIOLATION', priority: 'CRITICAL' },
  ROUTE_DEVIATION: { category: 'ROUTE_DEVIATION', priority: 'MEDIUM' },
  UNPLANNED_STOP: { category: 'ROUTE_DEVIATION', priority: 'MEDIUM' },
  MISSED_REST_STOP: { category: 'ROUTE_DEVIATION', priority: 'HIGH' },
  SEVERE_WEATHER_IN_PATH: { category: 'WEATHER', priority: 'HIGH' },
  WEATHER_ADVISORY: { category: 'WEATHER', priority: 'LOW' },
  WEATHER_DELAY: { category: 'WEATHER', priority: 'MEDIUM' },
  VEHICLE_FAULT: { category: 'MECHANICAL', priority: 'HIGH' },
  LOW_FUEL: { category: 'MECHANICAL', priority: 'MEDIUM' },
  VEHICLE_BREAKDOWN: { category: 'MECHANICAL', priority: 'CRITICAL' },
  LATE_TO_APPOINTMENT: { category: 'SCHEDULING', priority: 'HIGH' },
  APPOINTMENT_AT_RISK: { category: 'SCHEDULING', priority: 'MEDIUM' },
  DOCK_DELAY: { category: 'SCHEDULING', priority: 'MEDIUM' },
  DEPARTURE_DELAYED: { category: 'SCHEDULING', priority: 'LOW' },
  INTEGRATION_SYNC_FAILED: { category: 'SYSTEM', priority: 'MEDIUM' },
  TELEMETRY_STALE: { category: 'SYSTEM', priority: 'MEDIUM' },
} as const satisfies Record<string, { category: AlertCategory; priority: AlertPriority }>;

export type AlertType = keyof typeof ALERT_TYPES;

/**
 * The types a route's monitoring raises and resolves from its snapshot: all but INTEGRATION_SYNC_FAILED,
 * which belongs to an integration, not to a route — the integrations worker raises it when a sync fails
 * and resolves it when one succeeds (src/modules/integrations/integrations.alerts.ts).
 */
export type RouteAlertType = Exclude<AlertType, 'INTEGRATION_SYNC_FAILED'>;

/** Accepted wherever a type is filtered: the four HOS_APPROACHING_* types and HOS_BREAK_REQUIRED. */
export const HOS_APPROACHING_LIMIT_TYPES: readonly AlertType[] = [
  'HOS_APPROACHING_DRIVE_LIMIT',
  'HOS_APPROACHING_DUTY_LIMIT',
  'HOS_APPROACHING_CYCLE_LIMIT',
  'HOS_BREAK_REQUIRED',
];

/** The tenant's alert settings (spec: Tenant settings). */
export interface AlertSettings {
  hosApproachingThresholdHours: number;
  routeDeviationThresholdMiles: number;
  unplannedStopThresholdMinutes: number;
  dockDelayThresholdMinutes: number;
  enableWeatherAlerts: boolean;
  enableMechanicalAlerts: boolean;
}

/** The tenant's monitoring settings (spec: Tenant settings). */
export interface MonitoringSettings {
  monitoringIntervalSeconds: number;
  autoResolveDeviationAfterMinutes: number;
  hosWarningThresholdMinutes: number;
  /** TELEMETRY_STALE: a route's positions are stale after this many minutes without one (at least 3 monitoring intervals). */
  telemetryStaleMinutes: number;
}

/** An observed position of the route's vehicle (driver app, telematics push or ELD sync). */
export interface PositionReport {
  at: number;
  latitude: number;
  longitude: number;
  speedMph: number | null;
  fuelLevelPercent: number | null;
}

/** A weather alert or forecast hazard near the route ahead, from the weather port. */
export interface WeatherHazard {
  severity: 'EXTREME' | 'SEVERE' | 'MODERATE' | 'MINOR';
  event: string;
  headline: string;
  startsAt: number;
  endsAt: number | null;
  latitude: number;
  longitude: number;
  /** Miles ahead of the vehicle along the remaining route (0 = where it is now). */
  milesAhead: number;
  source: string;
}

/** A diagnostic trouble code from the vehicle (ELD port). */
export interface FaultCode {
  code: string;
  description: string;
  /** CRITICAL: the vehicle cannot continue safely (engine shutdown, brakes…); WARNING: needs attention. */
  severity: 'CRITICAL' | 'WARNING' | 'INFO';
  active: boolean;
  at: number;
}

/** A visibility provider's predicted arrival at one stop of the route (index into route.stops). */
export interface EtaPrediction {
  stopIndex: number;
  predictedArrival: number;
  source: string;
  at: number;
}

/** An unresolved alert of this route (at most one per type). */
export interface OpenAlert {
  id: string;
  type: AlertType;
  status: Exclude<AlertStatus, 'RESOLVED'>;
  priority: AlertPriority;
  createdAt: number;
  /** For SNOOZED: when it comes back. */
  snoozedUntil: number | null;
  metadata: Record<string, unknown>;
  /** The driver the alert is about, where the store says (team routes watch two drivers' HOS). */
  driverId?: string | null;
}

export interface MonitoringSnapshot {
  now: number;
  route: {
    id: string;
    activatedAt: number;
    /** The plan's departure time (ms). */
    departureTime: number;
    arrivalTime: number;
    segments: Segment[];
    /** The plan's stops with their planned arrival/departure and appointment windows. */
    stops: StopEta[];
  };
  driver: { id: string; name: string };
  vehicle: { id: string; unit: string } | null;
  /**
   * The driver's clocks now and the violations in their log, as hosNow (domain/hos/current.ts) answers
   * them for every screen: from the duty-status log through the HOS engine (source MANUAL) or from the
   * ELD's clocks (source = vendor key); null when unknown. `sourceName` says where in words ("Samsara",
   * "the duty-status log"); `disagreement` is the sentence stating how far the ELD and the log differ.
   */
  hos: { clocks: HosClocks; violations: Violation[]; source: string; sourceName?: string; disagreement?: string | null } | null;
  /** The route's recent positions, oldest first (the worker passes the last few hours at most). */
  positions: PositionReport[];
  /** A point as people name it ("near Lebanon, IN", from the gazetteer); without it, messages name the nearest planned place. */
  placeName?: (p: { latitude: number; longitude: number }) => string | null;
  /** null: no weather source configured (the weather rules then stay silent). */
  weather: WeatherHazard[] | null;
  /** Hours the weather is expected to add to the remaining trip (weather-adjusted ETA); null: unknown. */
  weatherDelayHours: number | null;
  /** null: no diagnostics source configured. */
  faults: FaultCode[] | null;
  etaPredictions: EtaPrediction[];
  settings: { alerts: AlertSettings; monitoring: MonitoringSettings };
  open: OpenAlert[];
}

/** A condition that holds now: the alert that should be open for it, with its current facts. */
export interface AlertCondition {
  type: AlertType;
  priority: AlertPriority;
  title: string;
  message: string;
  metadata: Record<string, unknown>;
}

/** What monitoring does to the route's alerts after one check. */
export interface Reconciliation {
  /** Conditions with no open alert of their type: raise. */
  create: AlertCondition[];
  /** Open alerts whose condition changed priority (escalation or de-escalation) or facts: update. */
  update: { alert: OpenAlert; condition: AlertCondition; priorityChanged: boolean }[];
  /** Open alerts whose condition no longer holds: auto-resolve (resolvedBy "system"). */
  resolve: { alert: OpenAlert; resolution: string }[];
  /** SNOOZED alerts whose snooze has ended: back to ACTIVE (an update event). */
  resurface: OpenAlert[];
}
