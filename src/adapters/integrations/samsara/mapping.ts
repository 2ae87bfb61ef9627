/**
 * Pure normalization of Samsara payloads into our EldSyncResult: duty statuses, driver / vehicle
 * matching, locations with fuel level, and J1939 fault codes with a severity rule.
 */
import { isoTime, matchDriverKeys, matchVehicleKeys, type MatchResult } from '../eld-matching.js';
import type { DutyStatus, EldSyncResult, SyncContext } from '../port.js';
import type { SamsaraClock, SamsaraDriver, SamsaraFaultCodes, SamsaraHosLog, SamsaraLocation, SamsaraUnassignedSegment, SamsaraVehicle } from './sandbox.js';

/** Samsara HOS status → ours. Yard move is on-duty work; personal conveyance is off duty (49 CFR 395.8). */
export function mapDutyStatus(status: string): DutyStatus | undefined {
  switch (status) {
    case 'offDuty':
    case 'personalConveyance':
      return 'OFF_DUTY';
    case 'sleeperBed':
      return 'SLEEPER_BERTH';
    case 'driving':
      return 'ON_DUTY_DRIVING';
    case 'onDuty':
    case 'yardMove':
      return 'ON_DUTY_NOT_DRIVING';
    default:
      // '' when the driver app is disconnected: no guess.
      return undefined;
  }
}

/** Vendor driver id → our driver id: by externalId (any of Samsara's externalIds values) first, then license number. */
export function matchDrivers(vendorDrivers: SamsaraDriver[], ours: SyncContext['drivers']): MatchResult {
  return matchDriverKeys(
    vendorDrivers.map((d) => ({ vendorId: d.id, externalIds: Object.values(d.externalIds ?? {}), licenseNumber: d.licenseNumber })),
    ours,
  );
}

/** Vendor vehicle id → our vehicle id: by eldExternalId (= Samsara vehicle id) first, then unit number (= Samsara name). */
export function matchVehicles(vendorVehicles: SamsaraVehicle[], ours: SyncContext['vehicles']): MatchResult {
  return matchVehicleKeys(vendorVehicles.map((v) => ({ vendorId: v.id, unitNumber: v.name })), ours);
}

export function mapClocks(clocks: SamsaraClock[], drivers: Map<string, string>): EldSyncResult['clocks'] {
  return clocks.flatMap((c) => {
    const driverId = drivers.get(c.driver.id);
    const status = mapDutyStatus(c.currentDutyStatus?.hosStatusType ?? '');
    if (!driverId || !status) return [];
    return [
      {
        driverId,
        vendorDriverId: c.driver.id,
        currentStatus: status,
        driveRemainingMs: c.clocks.drive?.driveRemainingDurationMs ?? 0,
        shiftRemainingMs: c.clocks.shift?.shiftRemainingDurationMs ?? 0,
        cycleRemainingMs: c.clocks.cycle?.cycleRemainingDurationMs ?? 0,
        breakRemainingMs: c.clocks.break?.timeUntilBreakDurationMs ?? null,
      },
    ];
  });
}

export function mapLogs(logs: { driver: { id: string }; hosLogs: SamsaraHosLog[] }[], drivers: Map<string, string>): EldSyncResult['logs'] {
  return logs.flatMap((entry) => {
    const driverId = drivers.get(entry.driver.id);
    if (!driverId) return [];
    return entry.hosLogs.flatMap((log) => {
      const status = mapDutyStatus(log.hosStatusType);
      const startedAt = isoTime(log.logStartTime);
      if (!status || !startedAt) return [];
      return [{ driverId, status, startedAt, latitude: log.logRecordedLocation?.latitude ?? null, longitude: log.logRecordedLocation?.longitude ?? null }];
    });
  });
}

export function mapLocations(
  locations: { id: string; location?: SamsaraLocation }[],
  fuel: Map<string, number>,
  vehicles: Map<string, string>,
): EldSyncResult['locations'] {
  return locations.flatMap((row) => {
    const vehicleId = vehicles.get(row.id);
    const l = row.location;
    const recordedAt = isoTime(l?.time);
    if (!vehicleId || !l || !recordedAt || typeof l.latitude !== 'number' || typeof l.longitude !== 'number') return [];
    return [
      {
        vehicleId,
        latitude: l.latitude,
        longitude: l.longitude,
        // Samsara's `speed` is already miles per hour.
        speedMph: typeof l.speed === 'number' ? l.speed : null,
        headingDegrees: typeof l.heading === 'number' ? l.heading : null,
        recordedAt,
        fuelLevelPercent: fuel.get(row.id) ?? null,
      },
    ];
  });
}

/**
 * J1939 codes → faults. Code: "SPN <spn> FMI <fmi>". Severity rule: CRITICAL when the vehicle's red
 * stop lamp or engine-protect lamp is lit (J1939 "stop now" lamps) or the code itself is the most
 * severe level of its FMI (FMI 0 / 1: value far outside range); WARNING otherwise (amber warning lamp,
 * MIL / emissions lamp, or no lamp).
 */
export function mapFaults(stats: { id: string; faultCodes?: SamsaraFaultCodes }[], vehicles: Map<string, string>): EldSyncResult['faults'] {
  return stats.flatMap((row) => {
    const vehicleId = vehicles.get(row.id);
    const faults = row.faultCodes;
    const since = isoTime(faults?.time);
    if (!vehicleId || !since || !faults?.j1939?.diagnosticTroubleCodes) return [];
    const lamps = faults.j1939.checkEngineLights;
    const stopLamp = Boolean(lamps?.stopIsOn || lamps?.protectIsOn);
    return faults.j1939.diagnosticTroubleCodes.map((dtc) => ({
      vehicleId,
      code: `SPN ${dtc.spnId} FMI ${dtc.fmiId}`,
      description: [dtc.spnDescription, dtc.fmiDescription].filter(Boolean).join(': ') || `SPN ${dtc.spnId} FMI ${dtc.fmiId}`,
      severity: stopLamp || dtc.fmiId === 0 || dtc.fmiId === 1 ? ('CRITICAL' as const) : ('WARNING' as const),
      active: true,
      since,
    }));
  });
}

/**
 * Unassigned driving segments of our vehicles that are still unassigned at Samsara (no driver, no annotation):
 * what the carrier must still resolve (49 CFR 395.32). Samsara's segments carry no location or distance.
 */
export function mapUnassigned(segments: SamsaraUnassignedSegment[], vehicles: Map<string, string>): NonNullable<EldSyncResult['unassignedDriving']> {
  return segments.flatMap((s) => {
    const vehicleId = vehicles.get(s.vehicle?.id);
    const startedAt = isoTime(s.startTime);
    const endedAt = isoTime(s.endTime);
    if (!vehicleId || !startedAt || !endedAt || s.driver || (s.annotation ?? '').trim() !== '') return [];
    return [{ vehicleId, vendorSegmentId: String(s.id), startedAt, endedAt, startLatitude: null, startLongitude: null, endLatitude: null, endLongitude: null, miles: null }];
  });
}
