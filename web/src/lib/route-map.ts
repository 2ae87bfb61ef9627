/**
 * Route plans turned into what the map draws (paths, stops, rests, breaks, fuel stops, trucks) and the
 * small facts the route pages show about a plan (the next stop, a count summary). Pure; tested in
 * route-map.test.ts.
 */
import { placePhrase } from './glossary';
import type { Item, Ok } from '../api/client';
import { hoursMinutes } from './format';
import { inZone } from './local-time';

export type RoutePlan = Ok<'/api/v1/routes/{planId}'>;
export type Segment = RoutePlan['segments'][number];
export type StopEta = RoutePlan['stops'][number];
export type RouteListItem = Item<'/api/v1/routes'>;

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

export interface MapMarker extends GeoPoint {
  id: string;
  /** Short name, used in the marker's title. */
  label: string;
  /** More about it (times, duration), appended to the title. */
  detail?: string;
}

export interface MapStop extends MapMarker {
  /** ORIGIN, PICKUP, DELIVERY or WAYPOINT. */
  type: string;
}

export interface MapRest extends MapMarker {
  /** A full rest (10 hours, a sleeper-berth split part, a 34-hour restart) or a 30-minute break. */
  kind: 'rest' | 'break';
}

export interface MapTruck extends MapMarker {
  headingDegrees?: number | null;
}

export interface MapRoute {
  id: string;
  label: string;
  points: GeoPoint[];
  /** Index into the map's route colours. */
  colour: number;
}

export interface MapLayers {
  routes: MapRoute[];
  stops: MapStop[];
  rests: MapRest[];
  fuel: MapMarker[];
  trucks: MapTruck[];
}

export const EMPTY_LAYERS: MapLayers = { routes: [], stops: [], rests: [], fuel: [], trucks: [] };

const same = (a: GeoPoint, b: GeoPoint) => Math.abs(a.latitude - b.latitude) < 1e-9 && Math.abs(a.longitude - b.longitude) < 1e-9;

/** The polyline of a plan: each drive segment's from → to, chained (a point repeated once). */
export function routePath(segments: readonly Segment[]): GeoPoint[] {
  const points: GeoPoint[] = [];
  for (const s of segments) {
    if (s.type !== 'drive') continue;
    for (const p of [s.from, s.to]) {
      const last = points[points.length - 1];
      if (!last || !same(last, p)) points.push({ latitude: p.latitude, longitude: p.longitude });
    }
  }
  return points;
}

/** A rest segment's kind on the map: a 30-minute break, or a rest that resets the clocks. */
export function restKind(restType: string): 'rest' | 'break' {
  return restType === 'break' ? 'break' : 'rest';
}

const REST_NAMES: Record<string, string> = { full_rest: '10-hour rest', partial_rest: 'Sleeper-berth rest', break: '30-minute break' };

export function restName(segment: { rest_type: string; restart?: boolean; duration_hours: number }): string {
  if (segment.restart) return '34-hour restart';
  if (segment.rest_type === 'partial_rest') return `Sleeper-berth rest (${hoursMinutes(segment.duration_hours)})`;
  return REST_NAMES[segment.rest_type] ?? 'Rest';
}

/** Everything of one plan the map draws (trucks come from positions, not from the plan). */
export function planLayers(plan: Pick<RoutePlan, 'id' | 'stops' | 'segments'>, opts: { label?: string; colour?: number } = {}): Omit<MapLayers, 'trucks'> {
  const label = opts.label ?? plan.id;
  const stops: MapStop[] = plan.stops.map((s) => ({
    id: `${plan.id}-stop-${s.sequence}`,
    label: `${s.name} (${s.type.toLowerCase()})`,
    detail: `${opts.label ? `${opts.label} · ` : ''}arrives ${inZone(s.arrivalTime, s.timeZone)}`,
    type: s.type,
    latitude: s.latitude,
    longitude: s.longitude,
  }));
  const rests: MapRest[] = [];
  const fuel: MapMarker[] = [];
  for (const s of plan.segments) {
    if (s.type === 'rest') {
      rests.push({
        id: `${plan.id}-seg-${s.sequence}`,
        label: `${restName(s)} ${placePhrase(s.location, 'near')}`,
        detail: `${inZone(s.start_time, s.time_zone)} for ${hoursMinutes(s.duration_hours)}`,
        kind: restKind(s.rest_type),
        latitude: s.latitude,
        longitude: s.longitude,
      });
    } else if (s.type === 'fuel') {
      fuel.push({
        id: `${plan.id}-seg-${s.sequence}`,
        label: `Fuel stop ${placePhrase(s.location)}`,
        detail: `${Math.round(s.gallons)} gal, ${inZone(s.start_time, s.time_zone)}`,
        latitude: s.latitude,
        longitude: s.longitude,
      });
    }
  }
  return { routes: [{ id: plan.id, label, points: routePath(plan.segments), colour: opts.colour ?? 0 }], stops, rests, fuel };
}

/** Several layers drawn on one map. */
export function mergeLayers(parts: ReadonlyArray<Partial<MapLayers>>): MapLayers {
  const out: MapLayers = { routes: [], stops: [], rests: [], fuel: [], trucks: [] };
  for (const p of parts) {
    out.routes.push(...(p.routes ?? []));
    out.stops.push(...(p.stops ?? []));
    out.rests.push(...(p.rests ?? []));
    out.fuel.push(...(p.fuel ?? []));
    out.trucks.push(...(p.trucks ?? []));
  }
  return out;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the map shows, in words (its accessible name). */
export function mapSummary(layers: MapLayers): string {
  const breaks = layers.rests.filter((r) => r.kind === 'break').length;
  const parts = [
    count(layers.routes.length, 'route'),
    count(layers.stops.length, 'stop'),
    count(layers.rests.length - breaks, 'rest'),
    count(breaks, 'break'),
    count(layers.fuel.length, 'fuel stop'),
    count(layers.trucks.length, 'truck position'),
  ];
  return `Map of the United States: ${parts.join(', ')}`;
}

/**
 * The stop the truck is heading to by the plan's clock: the first stop after the origin not yet
 * arrived at (`nowMs` before its arrival); null once the last stop's arrival has passed.
 */
export function nextStop(stops: readonly StopEta[], nowMs: number): StopEta | null {
  return stops.slice(1).find((s) => Date.parse(s.arrivalTime) > nowMs) ?? null;
}

/** The truck of a listed route at its last reported position, or null when none was reported. */
export function truckOf(route: Pick<RouteListItem, 'id' | 'driverName' | 'vehicleUnit' | 'lastPosition'>): MapTruck | null {
  const p = route.lastPosition;
  if (!p) return null;
  const speed = p.speedMph === null ? '' : `, ${Math.round(p.speedMph)} mph`;
  return {
    id: `${route.id}-truck`,
    label: `${route.vehicleUnit ? `Truck ${route.vehicleUnit}` : 'Truck'} — ${route.driverName}`,
    detail: `reported ${inZone(p.recordedAt, p.timeZone)}${speed}`,
    latitude: p.latitude,
    longitude: p.longitude,
    headingDegrees: p.headingDegrees,
  };
}

/** Whether a position is recent enough to count the truck as reporting. */
export function isReporting(lastPosition: { recordedAt: string } | null | undefined, nowMs: number, withinMs = 30 * 60_000): boolean {
  return Boolean(lastPosition) && nowMs - Date.parse(lastPosition!.recordedAt) <= withinMs;
}
