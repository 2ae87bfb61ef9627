/**
 * A local Samsara sandbox: a node:http server on 127.0.0.1 speaking the subset of Samsara's API the
 * adapter uses (see /work/shared/vendor-apis/samsara-openapi-subset.json), seeded with a small fleet,
 * with Bearer-token checks, cursor pagination and fault injection for tests and the demo.
 */
import { startSandboxServer, type SandboxFault, type SandboxRequest } from '../sandbox-kit.js';

export type { SandboxFault } from '../sandbox-kit.js';

export interface SamsaraDriver {
  id: string;
  name: string;
  username?: string;
  licenseNumber?: string;
  licenseState?: string;
  externalIds?: Record<string, string>;
  driverActivationStatus: 'active' | 'deactivated';
}
export interface SamsaraVehicle {
  id: string;
  name: string;
  vin?: string;
  externalIds?: Record<string, string>;
}
export interface SamsaraClock {
  driver: { id: string; name: string };
  currentVehicle?: { id: string; name: string };
  currentDutyStatus: { hosStatusType: string };
  clocks: {
    break?: { timeUntilBreakDurationMs: number };
    drive: { driveRemainingDurationMs: number };
    shift: { shiftRemainingDurationMs: number };
    cycle: { cycleRemainingDurationMs: number; cycleStartedAtTime?: string; cycleTomorrowDurationMs?: number };
  };
  violations?: { cycleViolationDurationMs: number; shiftDrivingViolationDurationMs: number };
}
export interface SamsaraHosLog {
  hosStatusType: string;
  logStartTime: string;
  logEndTime?: string;
  logRecordedLocation?: { latitude: number; longitude: number };
  vehicle?: { id: string; name: string };
  remark?: string;
}
/**
 * `GET /fleet/unassigned-driving-segments` (Samsara's generated API clients: UnassignedDrivingSegmentResponse):
 * driving with no driver logged in; `driver` is set once it is assigned, `annotation` once annotated.
 */
export interface SamsaraUnassignedSegment {
  id: string;
  startTime: string;
  endTime: string;
  createdAtTime: string;
  status?: string;
  annotation?: string;
  driver?: { id: string; name: string } | null;
  vehicle: { id: string; name: string };
}
export interface SamsaraLocation {
  heading: number;
  latitude: number;
  longitude: number;
  speed: number;
  time: string;
  reverseGeo?: { formattedLocation: string };
}
export interface SamsaraJ1939Code {
  spnId: number;
  fmiId: number;
  spnDescription?: string;
  fmiDescription?: string;
  occurrenceCount?: number;
  milStatus?: number;
  txId?: number;
  sourceAddressName?: string;
}
export interface SamsaraFaultCodes {
  canBusType?: string;
  time: string;
  j1939?: {
    checkEngineLights?: { emissionsIsOn: boolean; protectIsOn: boolean; stopIsOn: boolean; warningIsOn: boolean };
    diagnosticTroubleCodes?: SamsaraJ1939Code[];
  };
}

export interface SamsaraSandboxState {
  org: { id: string; name: string };
  token: string;
  drivers: SamsaraDriver[];
  vehicles: SamsaraVehicle[];
  clocks: SamsaraClock[];
  logs: { driver: { id: string; name: string }; hosLogs: SamsaraHosLog[] }[];
  locations: Map<string, SamsaraLocation>;
  faultCodes: Map<string, SamsaraFaultCodes>;
  fuelPercents: Map<string, { time: string; value: number }>;
  unassignedSegments: SamsaraUnassignedSegment[];
  /** Every request received (path and query), in order: tests count attempts. */
  requests: SandboxRequest[];
  /** Default and maximum page size (Samsara's is 512; small here so pagination shows). */
  pageSize: number;
}

export interface SamsaraSandboxOptions {
  token?: string;
  /** Seed times are relative to this instant (default: now). */
  now?: Date;
  pageSize?: number;
  port?: number;
}

export interface SamsaraSandbox {
  url: string;
  state: SamsaraSandboxState;
  /** Queue a failure (see SandboxFault). */
  inject(fault: SandboxFault): void;
  close(): Promise<void>;
}

export const SANDBOX_TOKEN = 'samsara_api_sandbox_token_0123456789';

const iso = (base: Date, offsetMinutes: number): string => new Date(base.getTime() + offsetMinutes * 60_000).toISOString();
const HOUR = 3_600_000;

/** The seeded fleet: three drivers (one unknown to the tenant), three vehicles (one unknown). */
export function seedSamsaraState(now: Date, token: string, pageSize: number): SamsaraSandboxState {
  const drivers: SamsaraDriver[] = [
    { id: '1001', name: 'Alice Moreno', username: 'amoreno', licenseNumber: 'D1234567', licenseState: 'TX', externalIds: { payrollId: 'EMP-001' }, driverActivationStatus: 'active' },
    { id: '1002', name: 'Bob Tran', username: 'btran', licenseNumber: 'T7654321', licenseState: 'CA', externalIds: {}, driverActivationStatus: 'active' },
    { id: '1003', name: 'Carla Diaz', username: 'cdiaz', licenseNumber: 'X0000003', licenseState: 'NV', driverActivationStatus: 'active' },
  ];
  const vehicles: SamsaraVehicle[] = [
    { id: '281474976710001', name: 'TRK-101', vin: '1FUJGLDR0CLBP8834' },
    { id: '281474976710002', name: 'TRK-102', vin: '3AKJHHDR5JSJM1234' },
    { id: '281474976710003', name: 'TRK-999', vin: '1XKYDP9X7KJ123456' },
  ];
  const clocks: SamsaraClock[] = [
    {
      driver: { id: '1001', name: 'Alice Moreno' },
      currentVehicle: { id: '281474976710001', name: 'TRK-101' },
      currentDutyStatus: { hosStatusType: 'driving' },
      clocks: {
        break: { timeUntilBreakDurationMs: 2 * HOUR },
        drive: { driveRemainingDurationMs: 5 * HOUR + 30 * 60_000 },
        shift: { shiftRemainingDurationMs: 8 * HOUR },
        cycle: { cycleRemainingDurationMs: 40 * HOUR, cycleStartedAtTime: iso(now, -5 * 24 * 60), cycleTomorrowDurationMs: 45 * HOUR },
      },
      violations: { cycleViolationDurationMs: 0, shiftDrivingViolationDurationMs: 0 },
    },
    {
      driver: { id: '1002', name: 'Bob Tran' },
      currentDutyStatus: { hosStatusType: 'sleeperBed' },
      clocks: {
        drive: { driveRemainingDurationMs: 11 * HOUR },
        shift: { shiftRemainingDurationMs: 14 * HOUR },
        cycle: { cycleRemainingDurationMs: 70 * HOUR },
      },
    },
    {
      driver: { id: '1003', name: 'Carla Diaz' },
      currentDutyStatus: { hosStatusType: 'onDuty' },
      clocks: {
        break: { timeUntilBreakDurationMs: 8 * HOUR },
        drive: { driveRemainingDurationMs: 11 * HOUR },
        shift: { shiftRemainingDurationMs: 13 * HOUR },
        cycle: { cycleRemainingDurationMs: 60 * HOUR },
      },
    },
  ];
  const logs = [
    {
      driver: { id: '1001', name: 'Alice Moreno' },
      hosLogs: [
        { hosStatusType: 'offDuty', logStartTime: iso(now, -16 * 60), logEndTime: iso(now, -6 * 60), logRecordedLocation: { latitude: 32.7767, longitude: -96.797 } },
        { hosStatusType: 'onDuty', logStartTime: iso(now, -6 * 60), logEndTime: iso(now, -330), logRecordedLocation: { latitude: 32.7767, longitude: -96.797 }, remark: 'Pre-trip' },
        { hosStatusType: 'driving', logStartTime: iso(now, -330), vehicle: { id: '281474976710001', name: 'TRK-101' }, logRecordedLocation: { latitude: 32.8, longitude: -96.9 } },
      ],
    },
    {
      driver: { id: '1002', name: 'Bob Tran' },
      hosLogs: [
        { hosStatusType: 'yardMove', logStartTime: iso(now, -4 * 60), logEndTime: iso(now, -225) },
        { hosStatusType: 'sleeperBed', logStartTime: iso(now, -225) },
      ],
    },
    {
      driver: { id: '1003', name: 'Carla Diaz' },
      hosLogs: [{ hosStatusType: 'onDuty', logStartTime: iso(now, -60) }],
    },
  ];
  const locations = new Map<string, SamsaraLocation>([
    ['281474976710001', { latitude: 32.9, longitude: -97.1, heading: 270, speed: 61.5, time: iso(now, -1), reverseGeo: { formattedLocation: 'I-30 W, Arlington, TX' } }],
    ['281474976710002', { latitude: 34.05, longitude: -118.24, heading: 0, speed: 0, time: iso(now, -2) }],
    ['281474976710003', { latitude: 36.17, longitude: -115.14, heading: 90, speed: 45, time: iso(now, -3) }],
  ]);
  const faultCodes = new Map<string, SamsaraFaultCodes>([
    [
      '281474976710001',
      {
        canBusType: 'J1939_500',
        time: iso(now, -45),
        j1939: {
          checkEngineLights: { emissionsIsOn: false, protectIsOn: false, stopIsOn: false, warningIsOn: true },
          diagnosticTroubleCodes: [{ spnId: 110, fmiId: 16, spnDescription: 'Engine Coolant Temperature', fmiDescription: 'Data Valid But Above Normal Operating Range - Moderately Severe Level', occurrenceCount: 2, milStatus: 0, txId: 0, sourceAddressName: 'Engine #1' }],
        },
      },
    ],
    [
      '281474976710002',
      {
        canBusType: 'J1939_500',
        time: iso(now, -90),
        j1939: {
          checkEngineLights: { emissionsIsOn: true, protectIsOn: false, stopIsOn: true, warningIsOn: false },
          diagnosticTroubleCodes: [{ spnId: 100, fmiId: 1, spnDescription: 'Engine Oil Pressure', fmiDescription: 'Data Valid But Below Normal Operational Range - Most Severe Level', occurrenceCount: 1, milStatus: 1, txId: 0 }],
        },
      },
    ],
  ]);
  const fuelPercents = new Map([
    ['281474976710001', { time: iso(now, -1), value: 62 }],
    ['281474976710002', { time: iso(now, -2), value: 18 }],
    ['281474976710003', { time: iso(now, -3), value: 90 }],
  ]);
  // Unassigned driving: TRK-102 moved 45 minutes with nobody logged in (more than the 30 minutes that flag a
  // vehicle), TRK-101 10 minutes in the yard; one more segment on TRK-101 is already assigned at Samsara.
  const unassignedSegments: SamsaraUnassignedSegment[] = [
    { id: 'uds-2001', startTime: iso(now, -20 * 60), endTime: iso(now, -20 * 60 + 45), createdAtTime: iso(now, -20 * 60 + 46), status: 'unassigned', vehicle: { id: '281474976710002', name: 'TRK-102' } },
    { id: 'uds-2002', startTime: iso(now, -18 * 60), endTime: iso(now, -18 * 60 + 10), createdAtTime: iso(now, -18 * 60 + 11), status: 'unassigned', vehicle: { id: '281474976710001', name: 'TRK-101' } },
    { id: 'uds-2003', startTime: iso(now, -30 * 60), endTime: iso(now, -29 * 60), createdAtTime: iso(now, -29 * 60), status: 'assigned', driver: { id: '1001', name: 'Alice Moreno' }, vehicle: { id: '281474976710001', name: 'TRK-101' } },
  ];
  return { org: { id: '9001', name: 'Sandbox Freight LLC' }, token, drivers, vehicles, clocks, logs, locations, faultCodes, fuelPercents, unassignedSegments, requests: [], pageSize };
}

function paginate<T>(items: T[], query: URLSearchParams, pageSize: number): { data: T[]; pagination: { endCursor: string; hasNextPage: boolean } } | undefined {
  const limit = Math.min(pageSize, Math.max(1, Number(query.get('limit') ?? pageSize) || pageSize));
  const after = query.get('after');
  let offset = 0;
  if (after) {
    const decoded = /^o:(\d+)$/.exec(Buffer.from(after, 'base64url').toString('utf8'));
    if (!decoded) return undefined;
    offset = Number(decoded[1]);
  }
  const data = items.slice(offset, offset + limit);
  const next = offset + data.length;
  const hasNextPage = next < items.length;
  return { data, pagination: { endCursor: hasNextPage ? Buffer.from(`o:${next}`).toString('base64url') : '', hasNextPage } };
}

function overlaps(log: SamsaraHosLog, start: number, end: number): boolean {
  const from = Date.parse(log.logStartTime);
  const to = log.logEndTime ? Date.parse(log.logEndTime) : Number.POSITIVE_INFINITY;
  return from <= end && to >= start;
}

function route(state: SamsaraSandboxState, path: string, query: URLSearchParams): { status: number; body: unknown } {
  const page = <T>(items: T[]): { status: number; body: unknown } => {
    const result = paginate(items, query, state.pageSize);
    return result ? { status: 200, body: result } : { status: 400, body: { message: 'Invalid pagination cursor', requestId: 'sandbox' } };
  };
  switch (path) {
    case '/me':
      return { status: 200, body: { data: { id: state.org.id, name: state.org.name, carrierSettings: { carrierName: state.org.name, dotNumber: 1234567 } } } };
    case '/fleet/drivers':
      return page(state.drivers.filter((d) => (query.get('driverActivationStatus') ?? 'active') === d.driverActivationStatus));
    case '/fleet/vehicles':
      return page(state.vehicles);
    case '/fleet/hos/clocks':
      return page(state.clocks);
    case '/fleet/hos/logs': {
      const start = Date.parse(query.get('startTime') ?? '');
      const end = Date.parse(query.get('endTime') ?? '');
      if (Number.isNaN(start) || Number.isNaN(end)) return { status: 400, body: { message: 'startTime and endTime are required RFC 3339 times' } };
      return page(state.logs.map((l) => ({ driver: l.driver, hosLogs: l.hosLogs.filter((h) => overlaps(h, start, end)) })));
    }
    case '/fleet/unassigned-driving-segments': {
      // Filtered on the server's creation time (createdAtTime), as Samsara documents.
      const start = Date.parse(query.get('startTime') ?? '');
      const end = Date.parse(query.get('endTime') ?? '');
      if (Number.isNaN(start) || Number.isNaN(end)) return { status: 400, body: { message: 'startTime and endTime are required RFC 3339 times' } };
      return page(state.unassignedSegments.filter((u) => Date.parse(u.createdAtTime) >= start && Date.parse(u.createdAtTime) <= end));
    }
    case '/fleet/vehicles/locations':
      return page(state.vehicles.flatMap((v) => {
        const location = state.locations.get(v.id);
        return location ? [{ id: v.id, name: v.name, location }] : [];
      }));
    case '/fleet/vehicles/stats': {
      const types = (query.get('types') ?? '').split(',').filter(Boolean);
      const known = new Set(['faultCodes', 'fuelPercents', 'gps', 'engineStates', 'obdOdometerMeters']);
      if (types.length === 0 || types.length > 4 || types.some((t) => !known.has(t))) return { status: 400, body: { message: 'types: between 1 and 4 known stat types' } };
      return page(state.vehicles.map((v) => {
        const row: Record<string, unknown> = { id: v.id, name: v.name };
        const faults = state.faultCodes.get(v.id);
        const fuel = state.fuelPercents.get(v.id);
        if (types.includes('faultCodes') && faults) row.faultCodes = faults;
        if (types.includes('fuelPercents') && fuel) row.fuelPercent = fuel;
        return row;
      }));
    }
    default:
      return { status: 404, body: { message: 'Not found', requestId: 'sandbox' } };
  }
}

export async function startSamsaraSandbox(options: SamsaraSandboxOptions = {}): Promise<SamsaraSandbox> {
  const state = seedSamsaraState(options.now ?? new Date(), options.token ?? SANDBOX_TOKEN, options.pageSize ?? 2);
  const server = await startSandboxServer({
    port: options.port,
    authorized: ({ headers }) => headers.authorization === `Bearer ${state.token}`,
    handle: ({ method, url, headers }) => {
      if (method !== 'GET') return { status: 405, body: { message: 'Method not allowed' } };
      // Echoes the presented credential, as some vendors do: the client must never let it into an error.
      if (headers.authorization !== `Bearer ${state.token}`) return { status: 401, body: { message: `Unauthorized: invalid token ${String(headers.authorization ?? '')}` } };
      return route(state, url.pathname, url.searchParams);
    },
  });
  state.requests = server.requests;
  return { url: server.url, state, inject: server.inject, close: server.close };
}
