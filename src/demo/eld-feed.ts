/**
 * The demo's ELD trucks: instead of posting positions and duty statuses through the API, the simulator
 * reports them to the Samsara sandbox, as the truck's ELD would to Samsara; the service gets them on
 * each Samsara sync (route positions and the duty-status log with source "samsara", the driver's HOS
 * clocks from the ELD). The sandbox's fleet is replaced by these trucks (same license number, the unit
 * number as the vehicle's name), and their HOS clocks run along the plan: driving time counts, ten
 * hours off resets the day, half an hour off resets the break clock.
 */
import { initialBearing, type LatLng } from '../domain/geo/index.js';
import type { DutyStatus } from '../domain/hos/types.js';
import type { SamsaraSandboxState } from '../adapters/integrations/samsara/sandbox.js';
import type { ApiCaller } from './api.js';
import { HOUR, type Truck } from './fleet.js';

const MINUTE = 60_000;
const LIMITS = { driveMs: 11 * HOUR, windowMs: 14 * HOUR, breakAfterMs: 8 * HOUR, cycleMs: 70 * HOUR, resetOffMs: 10 * HOUR, breakMs: 30 * MINUTE };

/** Time used against each HOS limit (ms). */
export interface HosUse {
  drivenMs: number;
  /** Since the duty window began (any status counts once it has). */
  windowMs: number;
  /** Driving since the last half-hour break. */
  sinceBreakMs: number;
  cycleMs: number;
  /** Consecutive time off duty or in the sleeper. */
  offMs: number;
}

const onDuty = (s: DutyStatus) => s === 'ON_DUTY_DRIVING' || s === 'ON_DUTY_NOT_DRIVING';

/** The use after `dtMs` more in `status`. */
export function advanceUse(use: HosUse, status: DutyStatus, dtMs: number): HosUse {
  if (dtMs <= 0) return use;
  if (!onDuty(status)) {
    const offMs = use.offMs + dtMs;
    if (offMs >= LIMITS.resetOffMs) return { drivenMs: 0, windowMs: 0, sinceBreakMs: 0, cycleMs: use.cycleMs, offMs };
    return { ...use, offMs, windowMs: use.windowMs > 0 ? use.windowMs + dtMs : 0, sinceBreakMs: offMs >= LIMITS.breakMs ? 0 : use.sinceBreakMs };
  }
  const driving = status === 'ON_DUTY_DRIVING';
  return {
    drivenMs: use.drivenMs + (driving ? dtMs : 0),
    windowMs: use.windowMs + dtMs,
    sinceBreakMs: driving ? use.sinceBreakMs + dtMs : use.sinceBreakMs,
    cycleMs: use.cycleMs + dtMs,
    offMs: 0,
  };
}

/** Samsara's clocks for that use. */
export function samsaraClocks(use: HosUse): SamsaraSandboxState['clocks'][number]['clocks'] {
  const left = (limit: number, used: number) => Math.max(0, Math.round(limit - used));
  return {
    break: { timeUntilBreakDurationMs: left(LIMITS.breakAfterMs, use.sinceBreakMs) },
    drive: { driveRemainingDurationMs: left(LIMITS.driveMs, use.drivenMs) },
    shift: { shiftRemainingDurationMs: left(LIMITS.windowMs, use.windowMs) },
    cycle: { cycleRemainingDurationMs: left(LIMITS.cycleMs, use.cycleMs) },
  };
}

const SAMSARA_STATUS: Record<DutyStatus, string> = { OFF_DUTY: 'offDuty', SLEEPER_BERTH: 'sleeperBed', ON_DUTY_DRIVING: 'driving', ON_DUTY_NOT_DRIVING: 'onDuty' };

/** What the simulator reports for a truck at one tick. */
export interface EldReport {
  point: LatLng;
  status: DutyStatus;
  speedMph: number;
  /** The drive it is on (for the heading), if any. */
  drive?: { from: LatLng; to: LatLng };
}

interface EldTruck {
  truck: Truck;
  driver: { id: string; name: string };
  vehicle: { id: string; name: string };
  use: HosUse;
  status: DutyStatus;
  /** Plan time of the last report. */
  planTime: number;
}

/** A driver's HOS record as the API answers it (the fields the feed starts from). */
interface HosRecord {
  currentHoursDriven: number;
  currentOnDutyTime: number;
  hoursSinceLastBreak: number;
  currentCycleUsed: number;
  currentDutyStatus: DutyStatus;
  lastStatusChange: string | null;
}

export class SamsaraFeed {
  private readonly trucks = new Map<string, EldTruck>();

  private constructor(private readonly state: SamsaraSandboxState) {}

  /**
   * Replaces the sandbox's fleet with `trucks` (ELD-equipped demo trucks), their clocks starting from
   * each driver's HOS record as the API has it now (from the duty-status log).
   */
  static async start(state: SamsaraSandboxState, trucks: Truck[], owner: ApiCaller, now: number): Promise<SamsaraFeed> {
    const feed = new SamsaraFeed(state);
    Object.assign(state, { drivers: [], vehicles: [], clocks: [], logs: [], unassignedSegments: [] });
    state.locations.clear();
    state.faultCodes.clear();
    state.fuelPercents.clear();
    for (const [i, truck] of trucks.entries()) {
      const hos = await owner.call<HosRecord>('GET', `/api/v1/drivers/${truck.driverId}/hos`);
      const d = truck.spec.driver;
      const driver = { id: String(5101 + i), name: `${d.firstName} ${d.lastName}` };
      const vehicle = { id: String(281474976720101 + i), name: truck.spec.unit };
      state.drivers.push({ ...driver, username: `${d.firstName[0]}${d.lastName}`.toLowerCase(), licenseNumber: d.licenseNumber, licenseState: d.licenseNumber.slice(0, 2), driverActivationStatus: 'active' });
      state.vehicles.push({ ...vehicle, vin: `1FUJGLDR${String(i).padStart(9, '0')}` });
      state.logs.push({ driver, hosLogs: [] });
      const use: HosUse = { drivenMs: hos.currentHoursDriven * HOUR, windowMs: hos.currentOnDutyTime * HOUR, sinceBreakMs: hos.hoursSinceLastBreak * HOUR, cycleMs: hos.currentCycleUsed * HOUR, offMs: 0 };
      feed.trucks.set(truck.spec.unit, { truck, driver, vehicle, use, status: hos.currentDutyStatus, planTime: Number.NaN });
      // The status in effect since the log's last change (the service already has that event: not doubled).
      feed.logStatus(feed.trucks.get(truck.spec.unit)!, hos.currentDutyStatus, hos.lastStatusChange ? Date.parse(hos.lastStatusChange) : now, null);
    }
    return feed;
  }

  /** Whether the truck reports through its ELD (not through the API). */
  drives(truck: Truck): boolean {
    return this.trucks.get(truck.spec.unit)?.truck === truck;
  }

  /**
   * Driving the truck's ELD recorded with nobody logged in: 45 minutes yesterday evening, 22 to 23 hours ago —
   * more than the 30 minutes in 24 hours that flag a truck on the Unassigned driving page.
   */
  reportUnassignedDriving(truck: Truck, now: number): void {
    const t = this.trucks.get(truck.spec.unit);
    if (!t) return;
    const start = now - 23 * HOUR;
    const iso = (ms: number) => new Date(ms).toISOString();
    this.state.unassignedSegments.push({ id: `uds-demo-${t.vehicle.id}`, startTime: iso(start), endTime: iso(start + 45 * 60_000), createdAtTime: iso(start + 46 * 60_000), status: 'unassigned', vehicle: { id: t.vehicle.id, name: t.vehicle.name } });
  }

  /** A fault code the ELD reports for the truck (a warning: the demo's VEHICLE_FAULT). */
  reportFault(truck: Truck, now: number): void {
    const t = this.trucks.get(truck.spec.unit);
    if (!t) return;
    this.state.faultCodes.set(t.vehicle.id, {
      canBusType: 'J1939_500',
      time: new Date(now).toISOString(),
      j1939: {
        checkEngineLights: { emissionsIsOn: false, protectIsOn: false, stopIsOn: false, warningIsOn: true },
        diagnosticTroubleCodes: [{ spnId: 110, fmiId: 16, spnDescription: 'Engine Coolant Temperature', fmiDescription: 'Data Valid But Above Normal Operating Range - Moderately Severe Level', occurrenceCount: 1, milStatus: 0, txId: 0, sourceAddressName: 'Engine #1' }],
      },
    });
  }

  /** The truck's ELD at real time `now`, `planTime` into its plan: location, duty status and clocks. */
  report(truck: Truck, r: EldReport, now: number, planTime: number): void {
    const t = this.trucks.get(truck.spec.unit);
    if (!t) return;
    if (Number.isFinite(t.planTime)) t.use = advanceUse(t.use, t.status, planTime - t.planTime);
    t.planTime = planTime;
    if (r.status !== t.status) this.logStatus(t, r.status, now, r.point);
    t.status = r.status;
    const time = new Date(now).toISOString();
    const heading = r.drive ? Math.round(initialBearing(r.drive.from, r.drive.to)) : 0;
    this.state.locations.set(t.vehicle.id, { latitude: r.point.latitude, longitude: r.point.longitude, heading, speed: Math.round(r.speedMph * 10) / 10, time });
    this.state.fuelPercents.set(t.vehicle.id, { time, value: 60 });
    const clock = { driver: t.driver, currentVehicle: t.vehicle, currentDutyStatus: { hosStatusType: SAMSARA_STATUS[t.status] }, clocks: samsaraClocks(t.use) };
    const at = this.state.clocks.findIndex((c) => c.driver.id === t.driver.id);
    if (at >= 0) this.state.clocks[at] = clock;
    else this.state.clocks.push(clock);
  }

  /** Ends the driver's open log at `now` and opens one in `status`. */
  private logStatus(t: EldTruck, status: DutyStatus, now: number, at: LatLng | null): void {
    const logs = this.state.logs.find((l) => l.driver.id === t.driver.id)!.hosLogs;
    const time = new Date(now).toISOString();
    const open = logs[logs.length - 1];
    if (open && open.logEndTime === undefined) open.logEndTime = time;
    logs.push({ hosStatusType: SAMSARA_STATUS[status], logStartTime: time, vehicle: t.vehicle, ...(at ? { logRecordedLocation: { latitude: at.latitude, longitude: at.longitude } } : {}) });
  }
}
