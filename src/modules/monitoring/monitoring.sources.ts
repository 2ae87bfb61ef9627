import type { EldReportedClocks } from '../../domain/hos/eld-clocks.js';
import type { EtaPrediction, FaultCode, WeatherHazard } from '../../domain/alerts/types.js';

/** One route being checked, as the integration sources need to know it. */
export interface MonitoredRoute {
  tenantId: string;
  routeId: string;
  driverId: string;
  /** Team routes: the co-driver (whose ELD clocks are looked up too). */
  coDriverId?: string | null;
  vehicleId: string | null;
  /** Latest known position, if any (weather ahead of it). */
  position: { latitude: number; longitude: number } | null;
  /** The rest of the planned path from the vehicle's position (weather along it). */
  pathAhead: { latitude: number; longitude: number }[];
}

/** What the integrations know about a route now; null = no source configured for that kind of data. */
export interface RouteSignals {
  weather: WeatherHazard[] | null;
  weatherDelayHours: number | null;
  faults: FaultCode[] | null;
  etaPredictions: EtaPrediction[];
  /** Clocks an ELD reported for the driver (source = vendor key); null: the duty-status log alone. */
  eldClocks: { source: string; reported: EldReportedClocks } | null;
  /** Team routes: the co-driver's ELD clocks, the same way (absent or null: the co-driver's log alone). */
  coDriverEldClocks?: { source: string; reported: EldReportedClocks } | null;
}

/**
 * The integration data monitoring feeds to the alert rules (weather, diagnostics, visibility ETAs, ELD
 * clocks), asked for a whole batch of routes at once. It is called outside any database
 * transaction. The app reads what the integrations stored (`dbMonitoringSources`); until a tenant
 * connects one, the answer is "no source" and the rules that need it stay silent. Tests pass fakes.
 */
export interface MonitoringSources {
  signals(routes: MonitoredRoute[], now: Date): Promise<Map<string, RouteSignals>>;
}

export const NO_SIGNALS: RouteSignals = { weather: null, weatherDelayHours: null, faults: null, etaPredictions: [], eldClocks: null };

export const noMonitoringSources: MonitoringSources = {
  async signals() {
    return new Map();
  },
};
