/**
 * Team driving (two drivers in one truck): who is at the wheel of each drive segment, the driver
 * changes the planner inserts (wait segments whose reason starts with "Driver change"), each driver's
 * own planned log (mirroring planDutyChanges of one driver), and whose turn at the wheel it is now and
 * next (the driver view). Pure; tested in team.test.ts.
 */
import { dutyOfSegment, startOfDay, type DutyChange, type DutyStatus } from './duty';
import { minutesBetween } from './durations';
import { dateTime, timeOnly } from './format';

/** What this module reads of a plan's segments (drive, rest, dock, fuel, wait). */
export interface TeamSegment {
  type: string;
  start_time: string;
  end_time: string;
  duration_hours?: number;
  /** Drive segments of a team plan: the driver at the wheel; a driver change: the driver who takes it. */
  driver_id?: string;
  duty_status?: string;
  reason?: string;
  /** Where a drive starts and ends (their zones), or where anything else happens. */
  from?: { time_zone?: string };
  to?: { time_zone?: string };
  time_zone?: string;
}

const CHANGE = /^Driver change: (\S+) takes the wheel/;

/** Whether the segment is a team's change of drivers (a short wait with that reason). */
export function isDriverChange(s: TeamSegment): boolean {
  return s.type === 'wait' && typeof s.reason === 'string' && s.reason.startsWith('Driver change');
}

/** The driver a driver change hands the wheel to: its driver_id, or (plans made before it) the id its reason names. */
function takesTheWheel(s: TeamSegment): string | null {
  if (!isDriverChange(s)) return null;
  return s.driver_id ?? CHANGE.exec(s.reason!)?.[1] ?? null;
}

/**
 * A driver change's reason in the timeline: who takes the wheel as the headline, who goes to the
 * sleeper berth and why as the explanation, the drivers named; null when the reason reads otherwise.
 */
export function driverChangeNote(reason: string, names: Readonly<Record<string, string>>): { headline: string; more: string } | null {
  const m = /^Driver change: (.+?) takes the wheel, (.+?) goes to the sleeper berth(?: \((.+)\))?\.?$/.exec(withDriverNames(reason, names));
  if (!m) return null;
  return { headline: `${m[1]} takes the wheel`, more: `${m[2]} goes to the sleeper berth${m[3] ? `: ${m[3]}` : ''}.` };
}

interface Person {
  firstName: string;
  lastName: string;
}
const fullName = (p: Person) => `${p.firstName} ${p.lastName}`;

/** The names of a route's drivers by id, for those whose profile is known. */
export function driverNames(route: { driverId: string; coDriverId?: string | null }, driver?: Person | null, coDriver?: Person | null): Record<string, string> {
  const names: Record<string, string> = {};
  if (driver) names[route.driverId] = fullName(driver);
  if (coDriver && route.coDriverId) names[route.coDriverId] = fullName(coDriver);
  return names;
}

/** A driver id shown as the driver's name when known, else as the id. */
export function nameOf(id: string, names: Readonly<Record<string, string>>): string {
  return names[id] ?? id;
}

/** The planner's text (a driver change's reason names the drivers by id) with the drivers' names instead. */
export function withDriverNames(text: string, names: Readonly<Record<string, string>>): string {
  let out = text;
  for (const [id, name] of Object.entries(names)) if (id) out = out.split(id).join(name);
  return out;
}

/**
 * The driver on duty for each segment: a drive's own driver; for anything else the driver who drove
 * last before it (after a driver change, the one taking the wheel); before the first drive, the driver
 * of the first drive. null on a one-driver plan (no drive names its driver).
 */
export function dutyDrivers(segments: readonly TeamSegment[]): Array<string | null> {
  const drivers = new Set(segments.flatMap((s) => (s.type === 'drive' && s.driver_id ? [s.driver_id] : [])));
  let current: string | null = segments.find((s) => s.type === 'drive' && s.driver_id)?.driver_id ?? null;
  if (current === null) return segments.map(() => null);
  return segments.map((s) => {
    if (s.type === 'drive' && s.driver_id) current = s.driver_id;
    const now = current;
    // The change itself is off duty for both; the one taking the wheel is on duty from the next segment.
    const next = takesTheWheel(s);
    if (next && drivers.has(next)) current = next;
    return now;
  });
}

/**
 * One driver's duty status for each segment of a team plan: their own drives are driving, the other's
 * are sleeper berth; a dock or fuel stop is on duty for the driver on duty then (see dutyDrivers) and
 * sleeper berth for the other; rests and waits are the same for both (the rest's duty status; a wait
 * off duty, in the sleeper berth from 7 hours, as dutyOfSegment has it for one driver).
 */
export function teamDutyStatuses(segments: readonly TeamSegment[], driverId: string): DutyStatus[] {
  const onDuty = dutyDrivers(segments);
  return segments.map((s, i) => {
    switch (s.type) {
      case 'drive':
        return s.driver_id === driverId ? 'ON_DUTY_DRIVING' : 'SLEEPER_BERTH';
      case 'dock':
      case 'fuel':
        return onDuty[i] === driverId ? 'ON_DUTY_NOT_DRIVING' : 'SLEEPER_BERTH';
      default:
        return dutyOfSegment(s);
    }
  });
}

/** One driver's planned log of a team plan, as duty-status changes (for their log grid). */
export function teamDutyChanges(segments: readonly TeamSegment[], driverId: string): DutyChange[] {
  const statuses = teamDutyStatuses(segments, driverId);
  return segments.map((s, i) => ({ status: statuses[i]!, at: s.start_time }));
}

/** Hours each driver drives in the plan (the sum of their drive segments). */
export function drivingHoursOf(segments: readonly TeamSegment[], driverId: string): number {
  return segments.reduce((sum, s) => (s.type === 'drive' && s.driver_id === driverId ? sum + (Date.parse(s.end_time) - Date.parse(s.start_time)) / 3_600_000 : sum), 0);
}

/** The same in whole minutes as the timeline counts them (each drive between its start and end rounded to the minute): the two drivers' add up to the plan's `summary.minutes.drive`. */
export function drivingMinutesOf(segments: readonly TeamSegment[], driverId: string): number {
  return segments.reduce((sum, s) => (s.type === 'drive' && s.driver_id === driverId ? sum + minutesBetween(s.start_time, s.end_time) : sum), 0);
}

/** A stretch one driver has the wheel: from the start of their first drive to the end of their last. */
export interface Turn {
  driverId: string;
  startMs: number;
  endMs: number;
  /** The zones the turn starts and ends in (the drives' own). */
  startZone?: string;
  endZone?: string;
}

/**
 * The turns at the wheel: consecutive drives of one driver, through the dock and fuel stops they work
 * between them; a driver change or a rest (the truck stands, both drivers off) ends a turn.
 */
export function turnsAtTheWheel(segments: readonly TeamSegment[]): Turn[] {
  const turns: Turn[] = [];
  let open: Turn | null = null;
  for (const s of segments) {
    if (s.type === 'drive' && s.driver_id) {
      const startMs = Date.parse(s.start_time);
      const endMs = Date.parse(s.end_time);
      if (open && open.driverId === s.driver_id) {
        open.endMs = endMs;
        open.endZone = s.to?.time_zone;
      } else {
        open = { driverId: s.driver_id, startMs, endMs, startZone: s.from?.time_zone, endZone: s.to?.time_zone };
        turns.push(open);
      }
    } else if (s.type === 'rest' || isDriverChange(s)) {
      open = null;
    }
  }
  return turns;
}

/**
 * The turn at the wheel now (also during a fuel or dock stop inside it; null while the truck stands,
 * before the trip and after it), and the next turn to start after now.
 */
export function wheelNow(segments: readonly TeamSegment[], nowMs: number): { current: Turn | null; next: Turn | null } {
  const turns = turnsAtTheWheel(segments);
  return { current: turns.find((t) => t.startMs <= nowMs && nowMs < t.endMs) ?? null, next: turns.find((t) => t.startMs > nowMs) ?? null };
}

/** A time of the trip as the driver reads it: "20:06" today (in that zone), "Wed, Mar 4, 06:27 CST" another day. */
export function wheelTime(ms: number, nowMs: number, timeZone = 'UTC'): string {
  const iso = new Date(ms).toISOString();
  return startOfDay(ms, timeZone).date === startOfDay(nowMs, timeZone).date ? timeOnly(iso, timeZone) : dateTime(iso, timeZone);
}

/**
 * The driver view's lines about the wheel, for driver `me` of a team route: who has it now and until
 * when ("You are at the wheel until 20:00"), and who is next and from when ("Next at the wheel: Omar
 * Haddad, from 20:06"); each null when there is none.
 */
export function wheelLines(segments: readonly TeamSegment[], me: string, names: Readonly<Record<string, string>>, nowMs: number): { current: string | null; next: string | null } {
  const { current, next } = wheelNow(segments, nowMs);
  const who = (id: string) => (id === me ? 'you' : nameOf(id, names));
  return {
    current: current
      ? `${current.driverId === me ? 'You are' : `${nameOf(current.driverId, names)} is`} at the wheel until ${wheelTime(current.endMs, nowMs, current.endZone)}`
      : null,
    next: next ? `Next at the wheel: ${who(next.driverId)}, from ${wheelTime(next.startMs, nowMs, next.startZone)}` : null,
  };
}

/** The other driver of a team route, seen by one of the two; null for a one-driver route or a stranger. */
export function teammateOf(route: { driverId: string; coDriverId?: string | null }, me: string): string | null {
  if (!route.coDriverId) return null;
  if (me === route.driverId) return route.coDriverId;
  if (me === route.coDriverId) return route.driverId;
  return null;
}

/**
 * How the driver view names the other driver of a team route: by the names the route list gives
 * (`driverName`, `coDriverName`: a DRIVER user cannot read another driver's profile), else by role
 * ("your co-driver"). null for a one-driver route.
 */
export function teammateLabel(
  route: { driverId: string; coDriverId?: string | null },
  me: string,
  known: { driverName?: string | null; coDriverName?: string | null },
): { id: string; name: string; role: string; named: boolean } | null {
  const id = teammateOf(route, me);
  if (!id) return null;
  const isDriver = id === route.driverId;
  const role = isDriver ? 'the route’s driver' : 'your co-driver';
  const name = (isDriver ? known.driverName : known.coDriverName) ?? null;
  return { id, name: name ?? role, role, named: name !== null };
}
