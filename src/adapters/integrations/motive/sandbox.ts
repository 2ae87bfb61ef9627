/**
 * A local Motive (formerly KeepTruckin) sandbox: a node:http server on 127.0.0.1 speaking the subset of
 * Motive's v1 API the adapter uses (shapes as in the adapter's header comment), seeded with a small
 * fleet, with `X-Api-Key` checks, `per_page` / `page_no` pagination and fault injection (sandbox-kit).
 */
import { startSandboxServer, type SandboxFault, type SandboxRequest } from '../sandbox-kit.js';

export type { SandboxFault } from '../sandbox-kit.js';

/** A Motive duty status (users' `duty_status`, HOS logs' `status`). */
export type MotiveDutyStatus = 'off_duty' | 'sleeper' | 'driving' | 'on_duty' | 'waiting' | 'personal_conveyance' | 'yard_move';

export interface MotiveUser {
  id: number;
  first_name: string;
  last_name: string;
  username?: string | null;
  email?: string | null;
  role: 'driver' | 'admin' | 'fleet_user';
  status: 'active' | 'deactivated';
  /** The carrier's own id for the driver (employee / payroll number). */
  driver_company_id?: string | null;
  drivers_license_number?: string | null;
  drivers_license_state?: string | null;
  cycle?: string;
}
export interface MotiveVehicle {
  id: number;
  number: string;
  status: 'active' | 'deactivated';
  vin?: string | null;
  make?: string | null;
  model?: string | null;
  year?: string | null;
  /** When true the vehicle reports km and km/h. */
  metric_units?: boolean;
  eld_device?: { id: number; identifier: string; model: string } | null;
}
/** Remaining time in seconds. */
export interface MotiveAvailableTime {
  drive: number;
  shift: number;
  cycle: number;
  break?: number | null;
}
export interface MotiveAvailability {
  user_id: number;
  duty_status: MotiveDutyStatus | string;
  available_time: MotiveAvailableTime;
  last_hos_status?: { status: string; time: string };
}
export interface MotiveHosLog {
  id: number;
  status: MotiveDutyStatus | string;
  start_time: string;
  /** Seconds; null for the status the driver is still in. */
  duration: number | null;
  lat?: number | null;
  lon?: number | null;
  location?: string | null;
  driver: { id: number; first_name: string; last_name: string };
  vehicle?: { id: number; number: string } | null;
}
export interface MotiveLocation {
  lat: number;
  lon: number;
  located_at: string;
  /** Degrees. */
  bearing?: number | null;
  /** mph, or km/h for a vehicle with metric_units. */
  speed?: number | null;
  description?: string | null;
  type?: string;
  fuel_primary_remaining_percentage?: number | null;
}
/**
 * `GET /v1/driving_periods` (developer.gomotive.com "List company's driving periods"): `type` driving, pc or ym;
 * with `assigned_to_driver=false` (Motive changelog, April 2025) the periods no driver is assigned to.
 * `distance` in miles (km for a metric vehicle) and the origin / destination fields are assumed.
 */
export interface MotiveDrivingPeriod {
  id: number;
  start_time: string;
  end_time: string;
  /** Seconds. */
  duration?: number | null;
  type: 'driving' | 'pc' | 'ym' | string;
  status?: string | null;
  annotation_status?: string | null;
  notes?: string | null;
  distance?: number | null;
  origin?: string | null;
  origin_lat?: number | null;
  origin_lon?: number | null;
  destination?: string | null;
  destination_lat?: number | null;
  destination_lon?: number | null;
  /** ELD record origin (1 automatic, 3 edit requested by another user, 4 assumed from unidentified driver). */
  source?: number | null;
  driver?: { id: number; first_name: string; last_name: string } | null;
  vehicle: { id: number; number: string };
}
export interface MotiveFaultCode {
  id: number;
  /** J1939: the SPN; OBD-II: the P-code. */
  code: string;
  code_label?: string | null;
  code_description?: string | null;
  source_address_label?: string | null;
  status: 'open' | 'closed';
  first_observed_at: string;
  last_observed_at?: string | null;
  fmi?: number | null;
  vehicle: { id: number; number: string };
}

export interface MotiveSandboxState {
  apiKey: string;
  users: MotiveUser[];
  vehicles: MotiveVehicle[];
  availability: MotiveAvailability[];
  hosLogs: MotiveHosLog[];
  locations: Map<number, MotiveLocation>;
  faultCodes: MotiveFaultCode[];
  drivingPeriods: MotiveDrivingPeriod[];
  /** Every request received (path and query), in order: tests count attempts. */
  requests: SandboxRequest[];
  /** Largest page served (Motive's is 100; small here so pagination shows). */
  pageSize: number;
}

export interface MotiveSandboxOptions {
  apiKey?: string;
  /** Seed times are relative to this instant (default: now). */
  now?: Date;
  pageSize?: number;
  port?: number;
}

export interface MotiveSandbox {
  url: string;
  state: MotiveSandboxState;
  inject(fault: SandboxFault): void;
  close(): Promise<void>;
}

export const MOTIVE_SANDBOX_API_KEY = '3b08a885-sandbox-4872-bd1a-motive0000001';

const iso = (base: Date, offsetMinutes: number): string => new Date(base.getTime() + offsetMinutes * 60_000).toISOString();
const HOUR_S = 3600;

/**
 * The seeded fleet: four active drivers (one unknown to a typical tenant), a deactivated driver and a
 * fleet manager (neither is synced), four trucks (one unknown, one reporting in metric units).
 */
export function seedMotiveState(now: Date, apiKey: string, pageSize: number): MotiveSandboxState {
  const users: MotiveUser[] = [
    { id: 1001, first_name: 'Alice', last_name: 'Moreno', username: 'amoreno', role: 'driver', status: 'active', driver_company_id: 'EMP-001', drivers_license_number: 'D1234567', drivers_license_state: 'TX', cycle: '70_8' },
    { id: 1002, first_name: 'Bob', last_name: 'Tran', username: 'btran', role: 'driver', status: 'active', driver_company_id: null, drivers_license_number: 'T7654321', drivers_license_state: 'CA', cycle: '70_8' },
    { id: 1003, first_name: 'Carla', last_name: 'Diaz', username: 'cdiaz', role: 'driver', status: 'active', driver_company_id: 'EMP-003', drivers_license_number: 'X0000003', drivers_license_state: 'NV', cycle: '70_8' },
    { id: 1004, first_name: 'Dan', last_name: 'Ruiz', username: 'druiz', role: 'driver', status: 'active', driver_company_id: null, drivers_license_number: null, cycle: '60_7' },
    { id: 1005, first_name: 'Eve', last_name: 'Former', role: 'driver', status: 'deactivated', driver_company_id: 'EMP-005', drivers_license_number: 'F5555555' },
    { id: 1006, first_name: 'Fay', last_name: 'Dispatch', role: 'fleet_user', status: 'active', email: 'fay@example.test' },
  ];
  const vehicles: MotiveVehicle[] = [
    { id: 501, number: 'TRK-101', status: 'active', vin: '1FUJGLDR0CLBP8834', make: 'Freightliner', model: 'Cascadia', year: '2022', metric_units: false, eld_device: { id: 9001, identifier: 'ELD0000000000001', model: 'lbb-3' } },
    { id: 502, number: 'TRK-102', status: 'active', vin: '3AKJHHDR5JSJM1234', metric_units: false },
    { id: 503, number: 'TRK-999', status: 'active', vin: '1XKYDP9X7KJ123456', metric_units: false },
    { id: 504, number: 'TRK-103', status: 'active', vin: '2NKHHM6X0KM123456', metric_units: true },
  ];
  const availability: MotiveAvailability[] = [
    { user_id: 1001, duty_status: 'driving', available_time: { drive: 5.5 * HOUR_S, shift: 8 * HOUR_S, cycle: 40 * HOUR_S, break: 2 * HOUR_S }, last_hos_status: { status: 'driving', time: iso(now, -330) } },
    { user_id: 1002, duty_status: 'sleeper', available_time: { drive: 11 * HOUR_S, shift: 14 * HOUR_S, cycle: 70 * HOUR_S, break: null } },
    { user_id: 1003, duty_status: 'on_duty', available_time: { drive: 11 * HOUR_S, shift: 13 * HOUR_S, cycle: 60 * HOUR_S, break: 8 * HOUR_S } },
    { user_id: 1004, duty_status: 'on_duty', available_time: { drive: 10 * HOUR_S, shift: 12.5 * HOUR_S, cycle: 50 * HOUR_S, break: 7.5 * HOUR_S } },
  ];
  const who = (id: number): MotiveHosLog['driver'] => {
    const u = users.find((x) => x.id === id) as MotiveUser;
    return { id, first_name: u.first_name, last_name: u.last_name };
  };
  const truck = (id: number): { id: number; number: string } => ({ id, number: (vehicles.find((v) => v.id === id) as MotiveVehicle).number });
  const hosLogs: MotiveHosLog[] = [
    // Ended 26 h ago: inside the date range asked for, outside the adapter's 24 h window.
    { id: 70001, status: 'on_duty', start_time: iso(now, -30 * 60), duration: 4 * HOUR_S, lat: 32.7, lon: -96.8, location: 'Dallas, TX', driver: who(1001), vehicle: null },
    { id: 70002, status: 'off_duty', start_time: iso(now, -16 * 60), duration: 10 * HOUR_S, lat: 32.7767, lon: -96.797, location: 'Dallas, TX', driver: who(1001) },
    { id: 70003, status: 'on_duty', start_time: iso(now, -6 * 60), duration: 30 * 60, lat: 32.7767, lon: -96.797, location: 'Dallas, TX', driver: who(1001) },
    { id: 70004, status: 'driving', start_time: iso(now, -330), duration: null, lat: 32.8, lon: -96.9, location: '5 mi W of Dallas, TX', driver: who(1001), vehicle: truck(501) },
    { id: 70005, status: 'yard_move', start_time: iso(now, -4 * 60), duration: 15 * 60, driver: who(1002), vehicle: truck(502) },
    { id: 70006, status: 'sleeper', start_time: iso(now, -225), duration: null, driver: who(1002) },
    { id: 70007, status: 'on_duty', start_time: iso(now, -60), duration: null, driver: who(1003) },
    { id: 70008, status: 'personal_conveyance', start_time: iso(now, -3 * 60), duration: HOUR_S, lat: 41.88, lon: -87.63, driver: who(1004) },
    { id: 70009, status: 'on_duty', start_time: iso(now, -2 * 60), duration: null, lat: 41.9, lon: -87.65, driver: who(1004), vehicle: truck(504) },
  ];
  const locations = new Map<number, MotiveLocation>([
    [501, { lat: 32.9, lon: -97.1, located_at: iso(now, -1), bearing: 270, speed: 61.5, description: 'I-30 W, Arlington, TX', type: 'vehicle_moving', fuel_primary_remaining_percentage: 62 }],
    [502, { lat: 34.05, lon: -118.24, located_at: iso(now, -2), bearing: 0, speed: 0, description: 'Los Angeles, CA', type: 'vehicle_stopped', fuel_primary_remaining_percentage: 18 }],
    [503, { lat: 36.17, lon: -115.14, located_at: iso(now, -3), bearing: 90, speed: 45, fuel_primary_remaining_percentage: 90 }],
    // Metric vehicle: 100 km/h; no fuel sensor.
    [504, { lat: 41.9, lon: -87.65, located_at: iso(now, -4), bearing: 180.5, speed: 100, type: 'vehicle_moving', fuel_primary_remaining_percentage: null }],
  ]);
  const faultCodes: MotiveFaultCode[] = [
    { id: 8001, code: '110', code_label: 'SPN 110 FMI 16', code_description: 'Engine Coolant Temperature', source_address_label: 'Engine #1', status: 'open', first_observed_at: iso(now, -45), last_observed_at: iso(now, -5), fmi: 16, vehicle: truck(501) },
    { id: 8002, code: '100', code_label: 'SPN 100 FMI 1', code_description: 'Engine Oil Pressure', source_address_label: 'Engine #1', status: 'open', first_observed_at: iso(now, -90), last_observed_at: iso(now, -10), fmi: 1, vehicle: truck(502) },
    { id: 8003, code: 'P0420', code_label: 'P0420', code_description: 'Catalyst System Efficiency Below Threshold', status: 'closed', first_observed_at: iso(now, -3 * 24 * 60), last_observed_at: iso(now, -2 * 24 * 60), fmi: null, vehicle: truck(502) },
    { id: 8004, code: '168', code_label: 'SPN 168 FMI 4', code_description: 'Battery Potential', status: 'open', first_observed_at: iso(now, -30), fmi: 4, vehicle: truck(503) },
  ];
  // Driving with nobody logged in: TRK-102 for 40 minutes out of Los Angeles, TRK-101 a 10-minute yard move
  // (type ym); one period of TRK-101 has a driver (not unassigned).
  const drivingPeriods: MotiveDrivingPeriod[] = [
    { id: 90001, start_time: iso(now, -20 * 60), end_time: iso(now, -20 * 60 + 40), duration: 40 * 60, type: 'driving', status: 'complete', annotation_status: null, distance: 23.4, origin: 'Los Angeles, CA', origin_lat: 34.05, origin_lon: -118.24, destination: 'Ontario, CA', destination_lat: 34.06, destination_lon: -117.65, source: 1, driver: null, vehicle: truck(502) },
    { id: 90002, start_time: iso(now, -18 * 60), end_time: iso(now, -18 * 60 + 10), duration: 10 * 60, type: 'ym', status: 'complete', distance: 0.4, origin_lat: 32.78, origin_lon: -96.8, destination_lat: 32.781, destination_lon: -96.801, source: 1, driver: null, vehicle: truck(501) },
    { id: 90003, start_time: iso(now, -330), end_time: iso(now, -300), duration: 30 * 60, type: 'driving', status: 'complete', distance: 28, source: 1, driver: who(1001), vehicle: truck(501) },
  ];
  return { apiKey, users, vehicles, availability, hosLogs, locations, faultCodes, drivingPeriods, requests: [], pageSize };
}

type Reply = { status: number; body: unknown };

/** Motive-style page: `{ [key]: [{ [itemKey]: item }], pagination: { per_page, page_no, total } }`. */
function page<T>(key: string, itemKey: string, items: T[], query: URLSearchParams, pageSize: number): Reply {
  const perPageRaw = query.get('per_page') ?? '25';
  const pageNoRaw = query.get('page_no') ?? '1';
  if (!/^\d+$/.test(perPageRaw) || !/^\d+$/.test(pageNoRaw) || Number(perPageRaw) < 1 || Number(pageNoRaw) < 1) {
    return { status: 400, body: { error_message: 'per_page and page_no must be positive integers' } };
  }
  const perPage = Math.min(Number(perPageRaw), 100, pageSize);
  const pageNo = Number(pageNoRaw);
  const slice = items.slice((pageNo - 1) * perPage, pageNo * perPage);
  return { status: 200, body: { [key]: slice.map((item) => ({ [itemKey]: item })), pagination: { per_page: perPage, page_no: pageNo, total: items.length } } };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** `driver_ids[]=1&driver_ids[]=2` or `driver_ids=1,2`; undefined when absent. */
function idFilter(query: URLSearchParams, name: string): Set<number> | undefined {
  const values = [...query.getAll(`${name}[]`), ...query.getAll(name).flatMap((v) => v.split(','))].filter((v) => v !== '');
  return values.length > 0 ? new Set(values.map(Number)) : undefined;
}

function route(state: MotiveSandboxState, path: string, query: URLSearchParams): Reply {
  const p = <T>(key: string, itemKey: string, items: T[]): Reply => page(key, itemKey, items, query, state.pageSize);
  switch (path) {
    case '/v1/users': {
      const role = query.get('role');
      const status = query.get('status');
      return p('users', 'user', state.users.filter((u) => (!role || u.role === role) && (!status || u.status === status)));
    }
    case '/v1/vehicles':
      return p('vehicles', 'vehicle', state.vehicles);
    case '/v1/available_time': {
      const ids = idFilter(query, 'driver_ids');
      const rows = state.availability.flatMap((a) => {
        const u = state.users.find((x) => x.id === a.user_id);
        if (!u || u.status !== 'active' || (ids && !ids.has(u.id))) return [];
        return [{ id: u.id, first_name: u.first_name, last_name: u.last_name, driver_company_id: u.driver_company_id ?? null, duty_status: a.duty_status, available_time: a.available_time, last_hos_status: a.last_hos_status ?? null }];
      });
      return p('users', 'user', rows);
    }
    case '/v1/hos_logs': {
      const start = query.get('start_date') ?? '';
      const end = query.get('end_date') ?? '';
      if (!DATE.test(start) || !DATE.test(end) || start > end) return { status: 400, body: { error_message: 'start_date and end_date are required dates (YYYY-MM-DD), start_date <= end_date' } };
      const from = Date.parse(`${start}T00:00:00Z`);
      const to = Date.parse(`${end}T00:00:00Z`) + 24 * 3_600_000;
      const ids = idFilter(query, 'driver_ids');
      const logs = state.hosLogs.filter((l) => {
        const s = Date.parse(l.start_time);
        const e = l.duration === null ? Number.POSITIVE_INFINITY : s + l.duration * 1000;
        return s < to && e >= from && (!ids || ids.has(l.driver.id));
      });
      return p('hos_logs', 'hos_log', logs);
    }
    case '/v1/driving_periods': {
      const start = query.get('start_date') ?? '';
      const end = query.get('end_date') ?? '';
      if (!DATE.test(start) || !DATE.test(end) || start > end) return { status: 400, body: { error_message: 'start_date and end_date are required dates (YYYY-MM-DD), start_date <= end_date' } };
      const from = Date.parse(`${start}T00:00:00Z`);
      const to = Date.parse(`${end}T00:00:00Z`) + 24 * 3_600_000;
      const assigned = query.get('assigned_to_driver');
      const periods = state.drivingPeriods.filter(
        (d) => Date.parse(d.start_time) < to && Date.parse(d.end_time) >= from && (assigned === null || (assigned === 'false') === (d.driver === null || d.driver === undefined)),
      );
      return p('driving_periods', 'driving_period', periods);
    }
    case '/v1/vehicle_locations': {
      const ids = idFilter(query, 'vehicle_ids');
      const rows = state.vehicles
        .filter((v) => !ids || ids.has(v.id))
        .map((v) => ({ id: v.id, number: v.number, year: v.year ?? null, make: v.make ?? null, model: v.model ?? null, vin: v.vin ?? null, current_location: state.locations.get(v.id) ?? null, current_driver: null }));
      return p('vehicles', 'vehicle', rows);
    }
    case '/v1/fault_codes': {
      const status = query.get('status');
      const ids = idFilter(query, 'vehicle_ids');
      return p('fault_codes', 'fault_code', state.faultCodes.filter((f) => (!status || f.status === status) && (!ids || ids.has(f.vehicle.id))));
    }
    default:
      return { status: 404, body: { error_message: 'Not found' } };
  }
}

export async function startMotiveSandbox(options: MotiveSandboxOptions = {}): Promise<MotiveSandbox> {
  const state = seedMotiveState(options.now ?? new Date(), options.apiKey ?? MOTIVE_SANDBOX_API_KEY, options.pageSize ?? 2);
  const server = await startSandboxServer({
    port: options.port,
    authorized: ({ headers }) => headers['x-api-key'] === state.apiKey,
    handle: ({ method, url, headers }) => {
      if (method !== 'GET') return { status: 405, body: { error_message: 'Method not allowed' } };
      // Echoes the presented key: the client must never let it into an error.
      if (headers['x-api-key'] !== state.apiKey) return { status: 401, body: { message: `Unauthorized: invalid API key ${String(headers['x-api-key'] ?? '')}` } };
      return route(state, url.pathname, url.searchParams);
    },
  });
  state.requests = server.requests;
  return { url: server.url, state, inject: server.inject, close: server.close };
}
