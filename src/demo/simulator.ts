/**
 * Where a truck is on its plan at a moment of plan time, and how a demo truck misbehaves. Pure.
 */
import { destinationPoint, initialBearing, interpolate, type LatLng } from '../domain/geo/index.js';
import type { DutyStatus } from '../domain/hos/types.js';
import type { Segment } from '../domain/planning/types.js';

export interface PlanPosition {
  point: LatLng;
  /** The duty status the plan has at that moment. */
  status: DutyStatus;
  /** Planned speed there (0 when not driving). */
  speedMph: number;
  /** Past the plan's last segment: arrived. */
  arrived: boolean;
}

const DUTY: Record<Segment['type'], (s: Segment) => DutyStatus> = {
  drive: () => 'ON_DUTY_DRIVING',
  dock: () => 'ON_DUTY_NOT_DRIVING',
  fuel: () => 'ON_DUTY_NOT_DRIVING',
  wait: () => 'OFF_DUTY',
  rest: (s) => (s.type === 'rest' && s.duty_status === 'SLEEPER_BERTH' ? 'SLEEPER_BERTH' : 'OFF_DUTY'),
};

/** The planned position and duty status at `t` (ms); before departure at the origin, after the end at the last place. */
export function positionOnPlan(segments: readonly Segment[], t: number): PlanPosition {
  const first = segments[0];
  if (!first) throw new Error('a plan without segments');
  if (t <= Date.parse(first.start_time)) return { point: startOf(first), status: 'ON_DUTY_NOT_DRIVING', speedMph: 0, arrived: false };
  for (const s of segments) {
    const start = Date.parse(s.start_time);
    const end = Date.parse(s.end_time);
    if (t >= end) continue;
    if (s.type === 'drive') {
      const fraction = end > start ? (t - start) / (end - start) : 1;
      const hours = (end - start) / 3_600_000;
      return { point: interpolate(s.from, s.to, fraction), status: 'ON_DUTY_DRIVING', speedMph: hours > 0 ? s.distance_miles / hours : 0, arrived: false };
    }
    return { point: { latitude: s.latitude, longitude: s.longitude }, status: DUTY[s.type](s), speedMph: 0, arrived: false };
  }
  return { point: endOf(segments[segments.length - 1]!), status: 'ON_DUTY_NOT_DRIVING', speedMph: 0, arrived: true };
}

function startOf(s: Segment): LatLng {
  return s.type === 'drive' ? s.from : { latitude: s.latitude, longitude: s.longitude };
}

function endOf(s: Segment): LatLng {
  return s.type === 'drive' ? s.to : { latitude: s.latitude, longitude: s.longitude };
}

/** What a demo truck does differently from its plan, in cycles of the simulation's real time. */
export type Behaviour = 'on-plan' | 'wanders-off' | 'stops' | 'goes-quiet';

export interface Misbehaviour {
  /** Miles off the planned path, to the right of the direction of travel. */
  offsetMiles: number;
  /** Standing still where it is instead of following the plan. */
  halted: boolean;
  /** Sends no position. */
  silent: boolean;
}

/**
 * A behaviour's effect `elapsedMs` into the simulation: in each `cycleMs`, the truck keeps to its plan
 * for the first part, then misbehaves for a while, then returns to the plan (so the alert it caused
 * resolves by itself).
 */
export const MISBEHAVE_FROM = 0.1;
export const MISBEHAVE_UNTIL = 0.5;

export function misbehaviourAt(behaviour: Behaviour, elapsedMs: number, cycleMs: number): Misbehaviour {
  const phase = (elapsedMs % cycleMs) / cycleMs;
  // From a tenth into each cycle (a minute into a 10-minute one, so a newcomer sees alerts soon) to half.
  const during = phase >= MISBEHAVE_FROM && phase < MISBEHAVE_UNTIL;
  return {
    offsetMiles: behaviour === 'wanders-off' && during ? 12 : 0,
    halted: behaviour === 'stops' && during,
    silent: behaviour === 'goes-quiet' && during,
  };
}

/** A point `miles` to the right of the direction from `from` to `to`, beside `at`. */
export function offsetBeside(at: LatLng, from: LatLng, to: LatLng, miles: number): LatLng {
  if (miles === 0) return at;
  return destinationPoint(at, (initialBearing(from, to) + 90) % 360, miles);
}
