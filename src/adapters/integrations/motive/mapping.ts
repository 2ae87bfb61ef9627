/**
 * Pure normalization of Motive payloads into our EldSyncResult: duty statuses, driver / vehicle matching
 * (the shared ELD rules), available time → clocks, HOS logs within the sync's window, locations with
 * fuel level (km/h converted for metric vehicles), and fault codes with a severity rule.
 */
import { isoTime, matchDriverKeys, matchVehicleKeys, type MatchResult } from '../eld-matching.js';
import type { DutyStatus, EldSyncResult, SyncContext } from '../port.js';
import type { MotiveAvailableTime, MotiveDrivingPeriod, MotiveFaultCode, MotiveHosLog, MotiveLocation, MotiveUser, MotiveVehicle } from './sandbox.js';

/** One row of `/v1/available_time`. */
export interface MotiveAvailableTimeRow {
  user: { id: number; driver_company_id?: string | null; duty_status: string; available_time?: MotiveAvailableTime | null };
}
/** One row of `/v1/vehicle_locations`. */
export interface MotiveVehicleLocationRow {
  vehicle: { id: number; number: string; current_location?: MotiveLocation | null };
}

/**
 * Motive duty status → ours. Personal conveyance is off duty and yard move on-duty work (49 CFR 395.8);
 * `waiting` is the oil-field waiting-time exception, recorded as off duty (49 CFR 395.1(d)(2)).
 */
export function mapDutyStatus(status: string): DutyStatus | undefined {
  switch (status) {
    case 'off_duty':
    case 'personal_conveyance':
    case 'waiting':
      return 'OFF_DUTY';
    case 'sleeper':
      return 'SLEEPER_BERTH';
    case 'driving':
      return 'ON_DUTY_DRIVING';
    case 'on_duty':
    case 'yard_move':
      return 'ON_DUTY_NOT_DRIVING';
    default:
      return undefined;
  }
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const KM_PER_MILE = 1.609344;

/** Motive user id → our driver id: by externalId (= the carrier's `driver_company_id`, else the Motive user id), then license number. */
export function matchDrivers(users: MotiveUser[], ours: SyncContext['drivers']): MatchResult {
  return matchDriverKeys(
    users.map((u) => ({ vendorId: String(u.id), externalIds: [u.driver_company_id, String(u.id)], licenseNumber: u.drivers_license_number })),
    ours,
  );
}

/** Motive vehicle id → our vehicle id: by eldExternalId (= Motive vehicle id), then unit number (= Motive `number`). */
export function matchVehicles(vehicles: MotiveVehicle[], ours: SyncContext['vehicles']): MatchResult {
  return matchVehicleKeys(vehicles.map((v) => ({ vendorId: String(v.id), unitNumber: v.number })), ours);
}

/** Available time (seconds) → clocks (ms). A row without the three clocks or with an unknown status is skipped. */
export function mapClocks(rows: MotiveAvailableTimeRow[], drivers: Map<string, string>): EldSyncResult['clocks'] {
  return rows.flatMap(({ user }) => {
    const driverId = drivers.get(String(user.id));
    const status = mapDutyStatus(user.duty_status);
    const t = user.available_time;
    const [drive, shift, cycle] = [num(t?.drive), num(t?.shift), num(t?.cycle)];
    if (!driverId || !status || drive === null || shift === null || cycle === null) return [];
    const brk = num(t?.break);
    return [
      {
        driverId,
        vendorDriverId: String(user.id),
        currentStatus: status,
        driveRemainingMs: Math.round(drive * 1000),
        shiftRemainingMs: Math.round(shift * 1000),
        cycleRemainingMs: Math.round(cycle * 1000),
        breakRemainingMs: brk === null ? null : Math.round(brk * 1000),
      },
    ];
  });
}

/**
 * HOS logs → logs. Motive filters by whole dates, so the logs that ended before the window (or start
 * after it) are dropped here: what a sync keeps is the same window as for every ELD vendor.
 */
export function mapLogs(rows: { hos_log: MotiveHosLog }[], drivers: Map<string, string>, window: { start: Date; end: Date }): EldSyncResult['logs'] {
  return rows.flatMap(({ hos_log: log }) => {
    const driverId = drivers.get(String(log.driver.id));
    const status = mapDutyStatus(log.status);
    const startedAt = isoTime(log.start_time);
    if (!driverId || !status || !startedAt) return [];
    const start = Date.parse(startedAt);
    const duration = num(log.duration);
    const end = duration === null ? Number.POSITIVE_INFINITY : start + duration * 1000;
    if (end < window.start.getTime() || start > window.end.getTime()) return [];
    return [{ driverId, status, startedAt, latitude: num(log.lat), longitude: num(log.lon) }];
  });
}

/** Current locations → locations; speed in mph (a metric vehicle's km/h converted, to 0.1 mph). */
export function mapLocations(rows: MotiveVehicleLocationRow[], vehicles: Map<string, string>, metricVehicles: ReadonlySet<string>): EldSyncResult['locations'] {
  return rows.flatMap(({ vehicle }) => {
    const vendorId = String(vehicle.id);
    const vehicleId = vehicles.get(vendorId);
    const l = vehicle.current_location;
    const recordedAt = isoTime(l?.located_at);
    const [latitude, longitude] = [num(l?.lat), num(l?.lon)];
    if (!vehicleId || !l || !recordedAt || latitude === null || longitude === null) return [];
    const speed = num(l.speed);
    return [
      {
        vehicleId,
        latitude,
        longitude,
        speedMph: speed === null ? null : metricVehicles.has(vendorId) ? Math.round((speed / KM_PER_MILE) * 10) / 10 : speed,
        headingDegrees: num(l.bearing),
        recordedAt,
        fuelLevelPercent: num(l.fuel_primary_remaining_percentage),
      },
    ];
  });
}

/**
 * Fault codes → faults. A J1939 code (numeric `code` = SPN, with an FMI) reads `SPN <spn> FMI <fmi>` as
 * from every ELD vendor; another code (OBD-II P-code) as Motive gives it. Open codes are active, closed
 * ones are reported inactive. Severity: CRITICAL when the FMI is 0 or 1 (value far above / below its
 * range, "most severe level"), WARNING otherwise — Motive's fault codes carry no lamp states.
 */
export function mapFaults(rows: { fault_code: MotiveFaultCode }[], vehicles: Map<string, string>): EldSyncResult['faults'] {
  return rows.flatMap(({ fault_code: f }) => {
    const vehicleId = vehicles.get(String(f.vehicle.id));
    const since = isoTime(f.first_observed_at);
    const fmi = num(f.fmi);
    const rawCode = String(f.code ?? '').trim();
    if (!vehicleId || !since || rawCode === '') return [];
    const code = fmi !== null && /^\d+$/.test(rawCode) ? `SPN ${rawCode} FMI ${fmi}` : rawCode;
    return [
      {
        vehicleId,
        code,
        description: f.code_description?.trim() || f.code_label?.trim() || code,
        severity: fmi === 0 || fmi === 1 ? ('CRITICAL' as const) : ('WARNING' as const),
        active: f.status === 'open',
        since,
      },
    ];
  });
}

/**
 * Unidentified driving periods (no driver) of our vehicles → unassigned driving. Only `driving`: personal
 * conveyance and yard moves are not driving time (49 CFR 395.8; the FMCSA's guidance on both), and a period
 * Motive already shows annotated is settled there. Distance in miles (km for a metric vehicle).
 */
export function mapUnassigned(periods: MotiveDrivingPeriod[], vehicles: Map<string, string>, metric: Set<string>): NonNullable<EldSyncResult['unassignedDriving']> {
  return periods.flatMap((d) => {
    const vehicleId = vehicles.get(String(d.vehicle?.id));
    const startedAt = isoTime(d.start_time);
    const endedAt = isoTime(d.end_time);
    if (!vehicleId || !startedAt || !endedAt || d.driver || d.type !== 'driving' || (d.annotation_status ?? '') === 'annotated') return [];
    const distance = num(d.distance);
    const start = num(d.origin_lat) !== null && num(d.origin_lon) !== null ? { latitude: num(d.origin_lat), longitude: num(d.origin_lon) } : null;
    const end = num(d.destination_lat) !== null && num(d.destination_lon) !== null ? { latitude: num(d.destination_lat), longitude: num(d.destination_lon) } : null;
    return [
      {
        vehicleId,
        vendorSegmentId: String(d.id),
        startedAt,
        endedAt,
        startLatitude: start?.latitude ?? null,
        startLongitude: start?.longitude ?? null,
        endLatitude: end?.latitude ?? null,
        endLongitude: end?.longitude ?? null,
        miles: distance === null || distance < 0 ? null : metric.has(String(d.vehicle.id)) ? distance / KM_PER_MILE : distance,
      },
    ];
  });
}
