import { isInNorthAmerica, landMassOf } from '../../domain/geo/region.js';
import { parseLocalIso, timeZoneAt } from '../../domain/planning/local-time.js';
import type { PlanStop, StopResolution, StopType } from '../../domain/planning/types.js';
import type { GeocodeLookup } from '../../infra/geocoding/index.js';
import { DomainError, type ErrorDetail } from '../../lib/errors.js';
import type { PlanningPorts } from './planning-ports.js';
import type { LoadForPlan } from './routes.related.js';

export interface StopInput {
  name?: string;
  address?: string;
  latitude?: number;
  longitude?: number;
  type?: StopType;
  appointment?: { earliest?: string; latest?: string };
  dockDurationHours?: number;
  shipmentId?: string;
}

/** Loading or unloading at a load's own stops, when the load gives the addresses. */
export const LOAD_DOCK_HOURS = 1;

const fail = (details: ErrorDetail[]) => new DomainError('VALIDATION', details.length === 1 ? details[0]!.message : 'Validation failed', details);

/**
 * Turns the request's stops (or the load's addresses) into planned stops: coordinates given or
 * geocoded offline, inside North America, with sane appointment windows. Every problem names its stop.
 */
export function resolveStops(input: StopInput[] | undefined, load: LoadForPlan | null, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>): PlanStop[] {
  const stops = input ?? stopsFromLoad(load);
  if (stops.length < 2) throw fail([{ field: 'body.stops', message: 'A route needs at least two stops (the first is the origin)' }]);
  const details: ErrorDetail[] = [];
  const resolved = stops.map((s, i): PlanStop | null => {
    const field = `body.stops.${i}`;
    const label = `Stop ${i + 1}${s.name ? ` (${s.name})` : s.address ? ` ("${s.address}")` : ''}`;
    const hasLat = s.latitude !== undefined;
    const hasLng = s.longitude !== undefined;
    let point: { latitude: number; longitude: number; name?: string } | null = null;
    let resolution: StopResolution;
    if (hasLat !== hasLng) {
      details.push({ field, message: `${label}: latitude and longitude must be given together` });
      return null;
    }
    if (hasLat && hasLng) {
      point = { latitude: s.latitude!, longitude: s.longitude! };
      resolution = { matched: null, precision: 'COORDINATES', ...point };
    } else if (s.address) {
      const answer = ports.geocode(s.address);
      if (answer.kind !== 'found') {
        details.push(geocodeProblem(`${field}.address`, label, answer));
        return null;
      }
      const { latitude, longitude, name, matched, precision } = answer.result;
      point = { latitude, longitude, name };
      resolution = { matched, precision: precision === 'zip' ? 'ZIP' : 'CITY', latitude, longitude };
    } else {
      details.push({ field, message: `${label}: give either coordinates (latitude and longitude) or an address` });
      return null;
    }
    if (!isInNorthAmerica(point)) {
      details.push({ field, message: `${label}: is outside North America; only US, Canadian and Mexican stops can be planned` });
      return null;
    }
    // A window without an offset is the stop's local wall-clock time; with "Z" or an offset, as given.
    const zone = s.appointment ? timeZoneAt(point) : 'UTC';
    const earliest = s.appointment?.earliest !== undefined ? parseLocalIso(s.appointment.earliest, zone) : undefined;
    const latest = s.appointment?.latest !== undefined ? parseLocalIso(s.appointment.latest, zone) : undefined;
    const unreadable = (['earliest', 'latest'] as const).filter((k) => Number.isNaN(k === 'earliest' ? earliest : latest));
    if (unreadable.length > 0) {
      for (const k of unreadable) details.push({ field: `${field}.appointment.${k}`, message: `${label}: the appointment time "${s.appointment![k]}" is not a date-time that can be represented` });
      return null;
    }
    if (earliest !== undefined && latest !== undefined && latest < earliest) {
      details.push({ field: `${field}.appointment`, message: `${label}: the appointment window ends before it starts` });
      return null;
    }
    const type: StopType = s.type ?? (i === 0 ? 'ORIGIN' : i === stops.length - 1 ? 'DELIVERY' : 'WAYPOINT');
    return {
      name: s.name ?? point.name ?? s.address ?? ports.nameNear(point),
      latitude: point.latitude,
      longitude: point.longitude,
      type,
      ...(earliest !== undefined || latest !== undefined ? { appointment: { earliest, latest } } : {}),
      dockDurationHours: s.dockDurationHours ?? 0,
      ...(s.shipmentId ? { shipmentId: s.shipmentId } : {}),
      resolution,
    };
  });
  if (details.length > 0) throw fail(details);
  const planned = resolved as PlanStop[];
  // A truck cannot drive between the mainland, Hawaii and the Caribbean: no plan, whatever the distance method.
  planned.slice(1).forEach((s, i) => {
    if (landMassOf(s) !== landMassOf(planned[i]!)) {
      details.push({ field: `body.stops.${i + 1}`, message: `Stop ${i + 2} (${s.name}) cannot be reached by road from stop ${i + 1} (${planned[i]!.name})` });
    }
  });
  if (details.length > 0) throw fail(details);
  return planned;
}

/** Names shown in a message; the detail's `candidates` carries them all. */
const NAMES_IN_MESSAGE = 5;

/**
 * The 400 detail of an address that did not resolve: an ambiguous city name lists the places it may
 * mean; a near miss offers the closest names ("did you mean"); both also in `candidates`.
 */
export function geocodeProblem(field: string, label: string, answer: Exclude<GeocodeLookup, { kind: 'found' }>): ErrorDetail {
  const names = answer.kind === 'ambiguous' ? answer.candidates : answer.suggestions;
  const shown = names.slice(0, NAMES_IN_MESSAGE).join('; ') + (names.length > NAMES_IN_MESSAGE ? '; …' : '');
  if (answer.kind === 'ambiguous') {
    return { field, message: `${label}: more than one place has that name; add the state or province: ${shown}`, candidates: names };
  }
  if (names.length > 0) {
    return { field, message: `${label}: the address could not be resolved; did you mean ${shown}?`, candidates: names };
  }
  return { field, message: `${label}: the address could not be resolved; give a US, Canadian or Mexican city and state/province, a ZIP code, or coordinates` };
}

function stopsFromLoad(load: LoadForPlan | null): StopInput[] {
  if (!load) return [];
  if (!load.originAddress || !load.destinationAddress) {
    throw fail([{ field: 'body.stops', message: `Load ${load.referenceNumber} has no origin and destination address; give the stops` }]);
  }
  const window = (ms: number | null) => (ms === null ? undefined : { earliest: new Date(ms).toISOString() });
  return [
    { name: load.originAddress, address: load.originAddress, type: 'PICKUP', appointment: window(load.scheduledPickup), dockDurationHours: LOAD_DOCK_HOURS },
    { name: load.destinationAddress, address: load.destinationAddress, type: 'DELIVERY', appointment: window(load.scheduledDelivery), dockDurationHours: LOAD_DOCK_HOURS },
  ];
}
