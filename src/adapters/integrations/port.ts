/**
 * The integration adapters' contract (issue 9): what the integrations module asks of every vendor
 * adapter. An adapter is an HTTP client of one vendor's documented API; it never touches the database.
 * The integrations module validates and seals the config, calls `test` and `sync`, and maps the
 * normalized records into drivers' HOS, positions, loads, fuel prices and weather.
 */

export type IntegrationCategory = 'ELD' | 'TMS' | 'FUEL' | 'WEATHER';

/** The spec's vendor registry entry. */
export interface VendorInfo {
  vendor: string;
  name: string;
  category: IntegrationCategory;
  description: string;
  requiredFields: string[];
  optionalFields: string[];
  /** Minutes. */
  defaultSyncInterval: number;
  documentationUrl?: string;
  /** The config fields that hold credentials; absent: every field is treated as one. */
  secretFields?: string[];
}

/** The spec's connection-test failure codes (AUTH_FAILED is the spec's; the rest are ours). */
export type IntegrationErrorCode = 'AUTH_FAILED' | 'TIMEOUT' | 'NOT_FOUND' | 'RATE_LIMITED' | 'VENDOR_ERROR' | 'NETWORK_ERROR' | 'INVALID_CONFIG';

/** A vendor call that failed after its retries: the code, and details that never contain a credential. */
export class IntegrationError extends Error {
  constructor(
    readonly code: IntegrationErrorCode,
    readonly details: string,
  ) {
    super(`${code}: ${details}`);
    this.name = 'IntegrationError';
  }
}

export interface ConnectionTestResult {
  ok: boolean;
  message: string;
  /** Vendor-specific counts, apiVersion, latency as text ("182 ms"). */
  details: Record<string, unknown>;
  error?: { code: IntegrationErrorCode; details: string };
}

/** What the sync is about: the tenant's own records an adapter may match vendor records against. */
export interface SyncContext {
  now: Date;
  /** The tenant's drivers (match by externalId, license number). */
  drivers: { id: string; licenseNumber: string; externalId: string | null; firstName: string; lastName: string }[];
  /** The tenant's vehicles (match by eldExternalId, unit number). */
  vehicles: { id: string; unitNumber: string; eldExternalId: string | null }[];
  /** Points along the tenant's active routes (weather, fuel). */
  routePoints: { routeId: string; latitude: number; longitude: number }[];
  /** Cancels the sync (shutdown, time limit). */
  signal?: AbortSignal;
}

export type DutyStatus = 'OFF_DUTY' | 'SLEEPER_BERTH' | 'ON_DUTY_DRIVING' | 'ON_DUTY_NOT_DRIVING';

/** ELD: clocks, logs, locations, faults, fuel level — each keyed to our driver / vehicle ids when matched. */
export interface EldSyncResult {
  kind: 'ELD';
  clocks: {
    driverId: string;
    vendorDriverId: string;
    currentStatus: DutyStatus;
    driveRemainingMs: number;
    shiftRemainingMs: number;
    cycleRemainingMs: number;
    breakRemainingMs: number | null;
  }[];
  logs: { driverId: string; status: DutyStatus; startedAt: string; latitude: number | null; longitude: number | null }[];
  locations: { vehicleId: string; latitude: number; longitude: number; speedMph: number | null; headingDegrees: number | null; recordedAt: string; fuelLevelPercent: number | null }[];
  faults: { vehicleId: string; code: string; description: string; severity: 'WARNING' | 'CRITICAL'; active: boolean; since: string }[];
  /**
   * Driving the vehicle recorded with no driver logged in (the ELD's unidentified driver records, 49 CFR 395.32),
   * not yet assigned or annotated at the vendor; `vendorSegmentId` keeps a segment from being stored twice.
   */
  unassignedDriving?: {
    vehicleId: string;
    vendorSegmentId: string;
    startedAt: string;
    endedAt: string;
    startLatitude: number | null;
    startLongitude: number | null;
    endLatitude: number | null;
    endLongitude: number | null;
    miles: number | null;
  }[];
  /** Vendor drivers / vehicles no tenant record matched (reported, not an error). */
  unmatched: { drivers: number; vehicles: number };
}

/** Dispatch TMS: loads in a recognized active status, with the spec's field mapping. */
export interface TmsLoadsSyncResult {
  kind: 'TMS_LOADS';
  loads: {
    externalId: string;
    referenceNumber: string;
    customer: string | null;
    originAddress: string | null;
    destinationAddress: string | null;
    scheduledPickup: string | null;
    scheduledDelivery: string | null;
    weight: number | null;
    commodity: string | null;
    status: 'ASSIGNED' | 'IN_TRANSIT';
  }[];
}

/** One tracked shipment of a visibility provider, as our loads and routes can use it. */
export interface VisibilityShipment {
  /** The provider's shipment id. */
  externalId: string;
  /** The shipment's main reference (order number, else bill of lading), matched to a load's reference number. */
  referenceNumber: string | null;
  /** Every identifier value the shipment carries (order, bill of lading, …), matched to loads too. */
  identifiers?: string[];
  /** The provider's latest status and its reason code (e.g. IN_TRANSIT / IN_MOTION). */
  status?: { code: string; reason: string | null; at: string | null } | null;
  /** The carrier's last reported position. */
  position?: { latitude: number; longitude: number; recordedAt: string | null } | null;
  /**
   * Per stop (1-based stopNumber): the predicted arrival, when the provider computed it (`estimatedAt`),
   * and the appointment window's end the provider knows of.
   */
  stops: { stopNumber: number; predictedArrival: string | null; appointmentLatest: string | null; estimatedAt?: string | null }[];
  /** Active exception / status reason codes (e.g. RUNNING_LATE). */
  exceptions: string[];
}

/** Visibility TMS: predicted arrivals and exceptions per shipment. */
export interface VisibilitySyncResult {
  kind: 'VISIBILITY';
  shipments: VisibilityShipment[];
}

export interface FuelSyncResult {
  kind: 'FUEL';
  stations: { externalId: string; name: string; latitude: number; longitude: number; dieselPrice: number; currency: 'USD'; updatedAt: string }[];
}

/** A hazard at a route point derived from the vendor's hourly forecast (heavy snow, high wind…); times ISO 8601. */
export interface WeatherForecastHazard {
  severity: 'EXTREME' | 'SEVERE' | 'MODERATE' | 'MINOR';
  event: string;
  headline: string;
  startsAt: string;
  endsAt: string | null;
}

export interface WeatherSyncResult {
  kind: 'WEATHER';
  /** The route points the vendor was asked about (a nearby point's answer stands for points within ~10 miles). */
  points: {
    routeId: string;
    latitude: number;
    longitude: number;
    /** The vendor's (government) alerts in effect or announced at the point. */
    alerts: { event: string; severity: 'EXTREME' | 'SEVERE' | 'MODERATE' | 'MINOR'; start: string; end: string | null; description: string; headline: string }[];
    /** Hazards the vendor's hourly forecast shows for the next hours (src/domain/weather/hazards.ts). */
    forecastHazards: WeatherForecastHazard[];
  }[];
  /** Active routes none of whose points was asked about (the per-sync call cap): their stored weather stays as it is. */
  uncoveredRouteIds: string[];
}

export type SyncResult = EldSyncResult | TmsLoadsSyncResult | VisibilitySyncResult | FuelSyncResult | WeatherSyncResult;

/** One vendor's adapter. `config` is the decrypted config, validated against `info.requiredFields`. */
export interface IntegrationAdapter {
  readonly info: VendorInfo;
  /** Vendor-specific checks beyond required fields (formats); returns problems, empty when valid. */
  validateConfig(config: Record<string, unknown>): string[];
  test(config: Record<string, unknown>, signal?: AbortSignal): Promise<ConnectionTestResult>;
  /** Throws IntegrationError when the vendor fails after the adapter's retries. */
  sync(config: Record<string, unknown>, ctx: SyncContext): Promise<SyncResult>;
}

/** One station's diesel price, as a fuel vendor reports it (a FuelSyncResult row). */
export type FuelStationPrice = FuelSyncResult['stations'][number];

/**
 * A fuel vendor's adapter also answers the route planner directly: the stations near given points, now
 * (not on the sync schedule). `config` as for `sync`; throws IntegrationError, or the signal's reason.
 */
export interface FuelAdapter extends IntegrationAdapter {
  stationsNear(config: Record<string, unknown>, points: readonly { latitude: number; longitude: number }[], signal?: AbortSignal): Promise<FuelStationPrice[]>;
}

export function isFuelAdapter(adapter: IntegrationAdapter | undefined): adapter is FuelAdapter {
  return adapter !== undefined && adapter.info.category === 'FUEL' && typeof (adapter as Partial<FuelAdapter>).stationsNear === 'function';
}
