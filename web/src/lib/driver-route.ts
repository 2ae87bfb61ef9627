/**
 * Where a driver stands on their route, from the plan's times (a visibility provider's predicted arrival
 * taking the place of the plan's where there is one): the stop they are at or head to next, the stops
 * still ahead, and the next planned rest or fuel stop. Pure (tested in driver-route.test.ts).
 */

/** A visibility provider's predicted arrival at a stop (GET /routes/{planId} on an ACTIVE route). */
export interface StopPrediction {
  arrivalTime: string;
  source: string;
  estimatedAt: string;
}

export interface PlanStop {
  sequence: number;
  name: string;
  type: string;
  arrivalTime: string;
  departureTime: string;
  timeZone?: string;
  prediction?: StopPrediction | null;
}

export interface ExpectedTimes {
  /** When the truck is expected at the stop: the provider's prediction, else the plan's arrival. */
  arrival: string;
  /** When it leaves: the expected arrival plus the plan's time at the stop. */
  departure: string;
  /** The prediction behind `arrival`, or null when it is the plan's. */
  prediction: StopPrediction | null;
}

/**
 * The times to show for a stop. The origin keeps the plan's departure (nobody predicts it). Elsewhere the
 * provider's predicted arrival is the one the dispatcher's appointment alerts use (monitoring projects
 * arrivals from the same signal), so the driver reads the same ETA.
 */
export function expectedTimes(stop: PlanStop, first = false): ExpectedTimes {
  const p = first ? null : (stop.prediction ?? null);
  if (!p) return { arrival: stop.arrivalTime, departure: stop.departureTime, prediction: null };
  const dwell = Math.max(0, Date.parse(stop.departureTime) - Date.parse(stop.arrivalTime));
  return { arrival: p.arrivalTime, departure: new Date(Date.parse(p.arrivalTime) + dwell).toISOString(), prediction: p };
}

export interface RouteProgress<S extends PlanStop> {
  /** The stop the driver is at now or heads to next; null once every stop is behind them. */
  next: S | null;
  /** Whether the driver is at `next` now (between its planned arrival and departure, or at the origin before leaving). */
  atStop: boolean;
  /** The stops still ahead, `next` first. */
  remaining: S[];
  /** How many stops are behind. */
  done: number;
}

/** A stop is behind the driver once its expected departure (expectedTimes) has passed. */
export function routeProgress<S extends PlanStop>(stops: readonly S[], nowMs: number): RouteProgress<S> {
  const ordered = [...stops].sort((a, b) => a.sequence - b.sequence);
  const times = (s: S) => expectedTimes(s, s === ordered[0]);
  const remaining = ordered.filter((s) => Date.parse(times(s).departure) > nowMs);
  const next = remaining[0] ?? null;
  // Before departure the driver is at the origin, whatever its planned arrival says.
  const atStop = next !== null && (next === ordered[0] || Date.parse(times(next).arrival) <= nowMs);
  return { next, atStop, remaining, done: ordered.length - remaining.length };
}

export interface PlanSegment {
  type: string;
  start_time: string;
  end_time: string;
  duration_hours: number;
  location?: string;
  time_zone?: string;
  rest_type?: string;
  restart?: boolean;
}

const REST_LABELS: Record<string, string> = { full_rest: '10-hour rest', partial_rest: 'Split sleeper rest', break: '30-minute break' };

/** The next rest, break or fuel stop of the plan that has not ended yet, with a label for it. */
export function nextPlannedStop<G extends PlanSegment>(segments: readonly G[], nowMs: number): { segment: G; label: string } | null {
  const segment = segments.find((s) => (s.type === 'rest' || s.type === 'fuel') && Date.parse(s.end_time) > nowMs);
  if (!segment) return null;
  const label = segment.type === 'fuel' ? 'Fuel stop' : segment.restart ? '34-hour restart' : (REST_LABELS[segment.rest_type ?? ''] ?? 'Rest');
  return { segment, label };
}

/** The IANA zone the browser runs in (the driver's device), for the log grid. */
export function deviceTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * The route a driver sees first: the active one, else the planned one departing first; the other
 * planned routes follow by departure.
 */
export function pickDriverRoute<R extends { id: string; departureTime: string }>(active: readonly R[], planned: readonly R[]): { pick: R | null; upcoming: R[] } {
  const byDeparture = [...planned].sort((a, b) => Date.parse(a.departureTime) - Date.parse(b.departureTime));
  const pick = active[0] ?? byDeparture[0] ?? null;
  return { pick, upcoming: byDeparture.filter((r) => r.id !== pick?.id) };
}
