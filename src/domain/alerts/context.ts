/**
 * What every rule reads, worked out once per snapshot: the ordered positions, the planned path, where the
 * vehicle is on it and how far behind plan, whether it stands still, and the plan's named places.
 */
import { haversineMiles, isValidLatLng, type LatLng } from '../geo/geodesy.js';
import { currentStationarySpan, isMoving, type StationarySpan } from './motion.js';
import {
  delayBehindPlan,
  locateOnPath,
  plannedMilesAt,
  plannedPathOf,
  type PathLocation,
  type PlannedPath,
} from './planned-path.js';
import type { AlertSettings, AlertType, MonitoringSettings, MonitoringSnapshot, OpenAlert, PositionReport } from './types.js';
import { timeZoneAt } from '../planning/local-time.js';
import { clockAt } from '../words.js';
import { milesText } from './text.js';

/** A place the plan sends the vehicle to: a stop, or a rest, fuel, wait or dock location. */
export interface PlannedPlace extends LatLng {
  name: string;
  kind: 'stop' | 'rest' | 'fuel' | 'wait' | 'dock';
}

export interface RuleContext {
  snapshot: MonitoringSnapshot;
  now: number;
  alerts: AlertSettings;
  monitoring: MonitoringSettings;
  /** "Jane Doe (unit 1042)": who the alert is about, as messages name them. */
  subject: string;
  /** Valid positions, oldest first. */
  positions: PositionReport[];
  latest: PositionReport | null;
  path: PlannedPath;
  /** The latest position on the planned path; null without a position or a path. */
  location: PathLocation | null;
  /** How far behind plan the vehicle was at its latest position (ms, ≥ 0; 0 when unknown). */
  delayMs: number;
  /** The stretch the vehicle has been standing still up to its latest position; null when moving. */
  stationary: StationarySpan | null;
  moving: boolean;
  /** Path miles of each of route.stops (index-aligned). */
  stopMiles: number[];
  places: PlannedPlace[];
  /** The open alert of a type (the oldest when the store holds more than one). */
  openOf(type: AlertType): OpenAlert | undefined;
  /** A point as people say it: "near Lebanon, IN" (the snapshot's place names), else "12 mi from Dallas, TX (a planned stop)". */
  where(p: LatLng): string;
  /**
   * "Sat, Nov 29, 09:44 CST": an instant on the clocks of the place it belongs to (`at`), by default where
   * the vehicle last was, else the route's origin.
   */
  timeAt(ms: number, at?: LatLng): string;
}

function orderedPositions(positions: readonly PositionReport[]): PositionReport[] {
  // The contract says oldest first; a stable sort keeps that promise cheap to rely on.
  return positions.filter((p) => Number.isFinite(p.at) && isValidLatLng(p)).sort((a, b) => a.at - b.at);
}

function placesOf(snapshot: MonitoringSnapshot): PlannedPlace[] {
  const stops: PlannedPlace[] = snapshot.route.stops.map((s) => ({ name: s.name, kind: 'stop', latitude: s.latitude, longitude: s.longitude }));
  const others: PlannedPlace[] = snapshot.route.segments.flatMap((s): PlannedPlace[] =>
    s.type === 'drive' ? [] : [{ name: s.location, kind: s.type, latitude: s.latitude, longitude: s.longitude }],
  );
  return [...stops, ...others];
}

export function subjectOf(snapshot: MonitoringSnapshot): string {
  return snapshot.vehicle ? `${snapshot.driver.name} (unit ${snapshot.vehicle.unit})` : snapshot.driver.name;
}

/** A point in words without a gazetteer: the nearest planned place, else its coordinates to two decimals. */
function whereByPlan(places: readonly PlannedPlace[], p: LatLng): string {
  const near = nearestPlace(places, p);
  if (near === null) return `${p.latitude.toFixed(2)}, ${p.longitude.toFixed(2)}`;
  return near.miles < 1 ? `at ${near.place.name}` : `${milesText(near.miles)} from ${near.place.name}`;
}

export function buildContext(snapshot: MonitoringSnapshot): RuleContext {
  const positions = orderedPositions(snapshot.positions);
  const latest = positions[positions.length - 1] ?? null;
  const places = placesOf(snapshot);
  const home: LatLng | null = latest ?? snapshot.route.stops[0] ?? null;
  const zoneOf = (p: LatLng | null): string => (p === null ? 'UTC' : timeZoneAt(p));
  const path = plannedPathOf(snapshot.route.segments, snapshot.route.stops);
  const location = latest ? locateOnPath(path, latest, plannedMilesAt(path, latest.at)) : null;
  const openByType = new Map<AlertType, OpenAlert>();
  for (const alert of [...snapshot.open].sort((a, b) => a.createdAt - b.createdAt)) {
    if (!openByType.has(alert.type)) openByType.set(alert.type, alert);
  }
  return {
    snapshot,
    now: snapshot.now,
    alerts: snapshot.settings.alerts,
    monitoring: snapshot.settings.monitoring,
    subject: subjectOf(snapshot),
    positions,
    latest,
    path,
    location,
    delayMs: latest && location ? delayBehindPlan(path, location.milesAlong, latest.at) : 0,
    stationary: currentStationarySpan(positions),
    moving: isMoving(positions),
    stopMiles: snapshot.route.stops.map((s) => plannedMilesAt(path, Date.parse(s.arrivalTime))),
    places,
    openOf: (type) => openByType.get(type),
    where: (p) => snapshot.placeName?.(p) ?? whereByPlan(places, p),
    timeAt: (ms, at) => clockAt(ms, zoneOf(at ?? home)),
  };
}

/** The planned place nearest to a point, with its distance. */
export function nearestPlace(places: readonly PlannedPlace[], point: LatLng): { place: PlannedPlace; miles: number } | null {
  let best: { place: PlannedPlace; miles: number } | null = null;
  for (const place of places) {
    const miles = haversineMiles(place, point);
    if (best === null || miles < best.miles) best = { place, miles };
  }
  return best;
}
