/**
 * The "plan a route" form's data: what the dispatcher types (strings, as inputs hold them) turned into
 * the planner's request, and the planner's 400 details mapped back onto the stops they name (with the
 * geocoder's candidates for an ambiguous or misspelt place). Pure; tested in plan-form.test.ts.
 */
import type { Body } from '../api/client';
import { appointmentValue, wallTimeToMs } from './local-time';

export type PlanRequest = Body<'/api/v1/routes/plan'>;
type StopRequest = NonNullable<PlanRequest['stops']>[number];
type OptionsRequest = NonNullable<PlanRequest['options']>;

export const STOP_TYPES = ['ORIGIN', 'PICKUP', 'DELIVERY', 'WAYPOINT'] as const;
export type StopType = (typeof STOP_TYPES)[number];
export const DISTANCE_METHODS = ['haversine', 'haversine_road', 'osrm'] as const;

export interface StopDraft {
  /** React key; never sent. */
  key: string;
  name: string;
  /** Where the stop is: a place to look up, or coordinates. */
  mode: 'address' | 'coordinates';
  address: string;
  latitude: string;
  longitude: string;
  /** '' = the planner's default (origin first, delivery last, waypoints between). */
  type: '' | StopType;
  /** datetime-local values, the stop's local time. */
  earliest: string;
  latest: string;
  dockHours: string;
}

export interface PlanDraft {
  driverId: string;
  /** Team driving: the second driver in the truck; '' = one driver. */
  coDriverId: string;
  vehicleId: string;
  loadId: string;
  /** datetime-local value in `departureZone`; '' = now. */
  departure: string;
  departureZone: string;
  stops: StopDraft[];
  /** 'log': the driver's HOS from their duty-status log; 'manual': the four numbers below. */
  hosMode: 'log' | 'manual';
  hoursDriven: string;
  onDutyHours: string;
  hoursSinceBreak: string;
  cycleHoursUsed: string;
  distanceMethod: '' | (typeof DISTANCE_METHODS)[number];
  averageSpeedMph: string;
  includeFuelStops: boolean;
  optimizeStopOrder: boolean;
  fuelTankGallons: string;
  mpg: string;
  startingFuelGallons: string;
  fuelPricePerGallon: string;
}

let keys = 0;
export function emptyStop(overrides: Partial<StopDraft> = {}): StopDraft {
  keys += 1;
  return { key: `stop-${keys}`, name: '', mode: 'address', address: '', latitude: '', longitude: '', type: '', earliest: '', latest: '', dockHours: '', ...overrides };
}

export function emptyDraft(departureZone: string, departure = ''): PlanDraft {
  return {
    driverId: '',
    coDriverId: '',
    vehicleId: '',
    loadId: '',
    departure,
    departureZone,
    stops: [emptyStop({ type: 'ORIGIN' }), emptyStop({ type: 'DELIVERY' })],
    hosMode: 'log',
    hoursDriven: '0',
    onDutyHours: '0',
    hoursSinceBreak: '0',
    cycleHoursUsed: '0',
    distanceMethod: '',
    averageSpeedMph: '',
    includeFuelStops: true,
    optimizeStopOrder: false,
    fuelTankGallons: '',
    mpg: '',
    startingFuelGallons: '',
    fuelPricePerGallon: '',
  };
}

/** The draft with another driver chosen: a co-driver who is now the driver is no longer the co-driver. */
export function withDriver(d: PlanDraft, driverId: string): PlanDraft {
  return { ...d, driverId, coDriverId: d.coDriverId === driverId ? '' : d.coDriverId };
}

/** Who can be the co-driver: the drivers offered for the wheel, the chosen driver left out. */
export function coDriverCandidates<D extends { id: string }>(drivers: readonly D[], driverId: string): D[] {
  return drivers.filter((x) => x.id !== driverId);
}

/** Whether the dispatcher typed nothing for this stop's place or times. */
export function isBlankStop(s: StopDraft): boolean {
  return !s.name.trim() && !s.address.trim() && !s.latitude.trim() && !s.longitude.trim() && !s.earliest && !s.latest && !s.dockHours.trim();
}

/** A typed number, or undefined when the box is empty; NaN for text that is not a number. */
function num(value: string): number | undefined {
  const v = value.trim();
  return v === '' ? undefined : Number(v);
}

export interface Built {
  body?: PlanRequest;
  /** Problems found before asking the server, by the form's field name (same names as the server's details). */
  errors: Record<string, string>;
}

/**
 * The planner's request. Stops are left out when all are blank and a load is chosen (the plan then
 * uses the load's addresses). Only obvious input mistakes are caught here; the planner checks the rest.
 */
export function buildPlanRequest(d: PlanDraft): Built {
  const errors: Record<string, string> = {};
  const body: PlanRequest = { driverId: d.driverId };
  if (!d.driverId) errors['body.driverId'] = 'Choose a driver';
  if (d.coDriverId) {
    if (d.coDriverId === d.driverId) errors['body.coDriverId'] = 'The co-driver must be another driver than the driver';
    else body.coDriverId = d.coDriverId;
  }
  if (d.vehicleId) body.vehicleId = d.vehicleId;
  if (d.loadId) body.loadId = d.loadId;
  if (d.departure) {
    const ms = wallTimeToMs(d.departure, d.departureZone);
    if (Number.isNaN(ms)) errors['body.departureTime'] = 'Enter a date and time';
    else body.departureTime = new Date(ms).toISOString();
  }

  const fromLoad = Boolean(d.loadId) && d.stops.every(isBlankStop);
  if (!fromLoad) {
    body.stops = d.stops.map((s, i) => {
      const out: StopRequest = {};
      const field = `body.stops.${i}`;
      if (s.name.trim()) out.name = s.name.trim();
      if (s.mode === 'address') {
        if (s.address.trim()) out.address = s.address.trim();
        else errors[`${field}.address`] = 'Enter a city and state, a ZIP code or an address';
      } else {
        const lat = num(s.latitude);
        const lng = num(s.longitude);
        if (lat === undefined || Number.isNaN(lat) || lat < -90 || lat > 90) errors[`${field}.latitude`] = 'Latitude: a number from -90 to 90';
        else out.latitude = lat;
        if (lng === undefined || Number.isNaN(lng) || lng < -180 || lng > 180) errors[`${field}.longitude`] = 'Longitude: a number from -180 to 180';
        else out.longitude = lng;
      }
      if (s.type) out.type = s.type;
      const earliest = appointmentValue(s.earliest);
      const latest = appointmentValue(s.latest);
      if (earliest || latest) out.appointment = { ...(earliest ? { earliest } : {}), ...(latest ? { latest } : {}) };
      if (earliest && latest && latest < earliest) errors[`${field}.appointment`] = 'The window ends before it starts';
      const dock = num(s.dockHours);
      if (dock !== undefined) {
        if (Number.isNaN(dock) || dock < 0 || dock > 48) errors[`${field}.dockDurationHours`] = 'Hours at the dock: 0 to 48';
        else out.dockDurationHours = dock;
      }
      return out;
    });
    if (d.stops.length < 2) errors['body.stops'] = 'A route needs at least two stops (the first is the origin)';
  }

  if (d.hosMode === 'manual') {
    const hos = { hoursDriven: num(d.hoursDriven), onDutyHours: num(d.onDutyHours), hoursSinceBreak: num(d.hoursSinceBreak), cycleHoursUsed: num(d.cycleHoursUsed) };
    const max = { hoursDriven: 24, onDutyHours: 24, hoursSinceBreak: 24, cycleHoursUsed: 120 } as const;
    for (const k of Object.keys(hos) as Array<keyof typeof hos>) {
      const v = hos[k] ?? 0;
      if (Number.isNaN(v) || v < 0 || v > max[k]) errors[`body.driverState.${k}`] = `A number of hours from 0 to ${max[k]}`;
    }
    body.driverState = { hoursDriven: hos.hoursDriven ?? 0, onDutyHours: hos.onDutyHours ?? 0, hoursSinceBreak: hos.hoursSinceBreak ?? 0, cycleHoursUsed: hos.cycleHoursUsed ?? 0 };
  }

  const options: OptionsRequest = {};
  if (d.distanceMethod) options.distanceMethod = d.distanceMethod;
  if (!d.includeFuelStops) options.includeFuelStops = false;
  if (d.optimizeStopOrder) options.optimizeStopOrder = true;
  const numeric: Array<[keyof OptionsRequest & string, string, number, number]> = [
    ['averageSpeedMph', d.averageSpeedMph, 15, 80],
    ['fuelTankGallons', d.fuelTankGallons, 10, 400],
    ['mpg', d.mpg, 2, 15],
    ['startingFuelGallons', d.startingFuelGallons, 0, 400],
    ['fuelPricePerGallon', d.fuelPricePerGallon, 0.5, 20],
  ];
  for (const [key, raw, min, max] of numeric) {
    const v = num(raw);
    if (v === undefined) continue;
    if (Number.isNaN(v) || v < min || v > max) errors[`body.options.${key}`] = `A number from ${min} to ${max}`;
    else (options as Record<string, number>)[key] = v;
  }
  if (Object.keys(options).length > 0) body.options = options;
  return Object.keys(errors).length > 0 ? { errors } : { body, errors };
}

export interface PlanProblem {
  field: string;
  message: string;
  /** Places an ambiguous or misspelt address may mean, best first. */
  candidates: string[];
  /** The stop the problem is about (0-based), or null. */
  stopIndex: number | null;
}

/** The planner's 400 `details`, each tied to its stop when it names one. */
export function planProblems(details: unknown): PlanProblem[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((d): PlanProblem[] => {
    if (!d || typeof d !== 'object') return [];
    const { field, message, candidates } = d as { field?: unknown; message?: unknown; candidates?: unknown };
    if (typeof message !== 'string') return [];
    const f = typeof field === 'string' ? field : '';
    const m = /^body\.stops\.(\d+)(?:\.|$)/.exec(f);
    return [{ field: f, message, candidates: Array.isArray(candidates) ? candidates.filter((c): c is string => typeof c === 'string') : [], stopIndex: m ? Number(m[1]) : null }];
  });
}

/** The draft with the stop's place replaced by the chosen candidate (the stop is then looked up by it). */
export function applyCandidate(d: PlanDraft, stopIndex: number, candidate: string): PlanDraft {
  return {
    ...d,
    stops: d.stops.map((s, i) => (i === stopIndex ? { ...s, mode: 'address', address: candidate, ...(s.name.trim() === s.address.trim() ? { name: '' } : {}) } : s)),
  };
}

/** The stops with one moved up (-1) or down (+1); unchanged at the ends. */
export function moveStop<T>(stops: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (index < 0 || index >= stops.length || to < 0 || to >= stops.length) return [...stops];
  const out = [...stops];
  [out[index], out[to]] = [out[to]!, out[index]!];
  return out;
}
