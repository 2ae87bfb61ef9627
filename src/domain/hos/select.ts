/**
 * Reading a state: the hypothesis that applies now (FMCSA: fewest violations, then the most available
 * time), the clocks, what the driver can still do, and the violations. A state that ends in a rest
 * block is read as if that rest ended now (it may still grow, but nothing happens during it).
 */
import { hypCost, validAtEnd, type Hyp } from './chain.js';
import { completeRest, longOffRoom, windowLimit, type HosState } from './engine.js';
import { addOnDuty, cycleUsed, dayStart, recapturedTomorrow, rollTo } from './ledger.js';
import { HOUR_MS, type Availability, type HosClocks, type LimitKind, type Violation } from './types.js';
import { byTime, compareCost, EPS, toViolation, type VRec } from './violations.js';

export interface Reading {
  readonly hyp: Hyp;
  readonly hyps: readonly Hyp[];
  readonly frozen: readonly VRec[];
  /** The rest in progress, read as if it ended now, is a full reset. */
  readonly resetNow: boolean;
}

/*
 * The last few readings, by state identity (states never change once returned). A caller reads the same
 * state a few times in a row (availability, then clocks), rarely an older one; a WeakMap did the same
 * job but its per-state entries were a large share of the planner's garbage-collection time.
 */
const RECENT = 4;
const recentStates: (HosState | null)[] = new Array<HosState | null>(RECENT).fill(null);
const recentReadings: (Reading | null)[] = new Array<Reading | null>(RECENT).fill(null);
let recentNext = 0;

export function read(s: HosState): Reading {
  // The common case (working, one hypothesis) needs no cache.
  if (!s.inRest && s.hyps.length === 1) return { hyp: s.hyps[0]!, hyps: s.hyps, frozen: s.frozen, resetNow: false };
  for (let i = 0; i < RECENT; i++) if (recentStates[i] === s) return recentReadings[i]!;
  let hyps = s.hyps;
  let frozen = s.frozen;
  let resetNow = false;
  if (s.inRest) {
    const done = completeRest(s, s.at);
    hyps = done.hyps;
    frozen = done.frozen;
    resetNow = s.restHours >= s.lim.resetOffHours - EPS;
  }
  const r: Reading = { hyp: pick(s, hyps), hyps, frozen, resetNow };
  recentStates[recentNext] = s;
  recentReadings[recentNext] = r;
  recentNext = (recentNext + 1) % RECENT;
  return r;
}

/** Hours of driving the duty-period limits allow under a hypothesis (drive, window, period on-duty). */
export function periodRoom(s: HosState, h: Hyp): { drive: number; window: number } {
  const lim = s.lim;
  const win = Math.min(windowLimit(lim, s, h, s.at) - h.window, lim.periodOnDutyHours - h.onDuty);
  return { drive: Math.min(lim.driveHours - h.drive, win), window: win };
}

function pick(s: HosState, hyps: readonly Hyp[]): Hyp {
  let best: Hyp | null = null;
  let bestRoom = { drive: 0, window: 0 };
  for (const h of hyps) {
    if (!validAtEnd(s.lim, h)) continue;
    if (best === null) {
      best = h;
      bestRoom = periodRoom(s, h);
      continue;
    }
    const c = compareCost(hypCost(h), hypCost(best));
    if (c > 0) continue;
    const room = periodRoom(s, h);
    if (c < 0 || room.drive > bestRoom.drive || (room.drive === bestRoom.drive && room.window > bestRoom.window)) {
      best = h;
      bestRoom = room;
    }
  }
  return best ?? hyps[0]!;
}

interface Room {
  hours: number;
  kind: LimitKind;
}

/**
 * Driving (or on-duty not driving) hours until a calendar-day limit binds: the cycle with its daily
 * recap and Canada's daily limits. Steps day by day exactly as `advance` does, up to `horizon`.
 */
function dayLimitedRoom(s: HosState, driving: boolean, horizon: number): Room {
  const lim = s.lim;
  let l = s.ledger;
  let t = s.at;
  let x = 0;
  for (let guard = 0; guard < 64; guard++) {
    const mid = dayStart(l.day + 1, lim.dayOffsetMinutes);
    const toMid = (mid - t) / HOUR_MS;
    let r = lim.cycleHours - cycleUsed(l);
    let kind: LimitKind = 'CYCLE';
    if (driving && lim.dailyDriveHours - l.todayDrive < r) {
      r = lim.dailyDriveHours - l.todayDrive;
      kind = 'DAILY_DRIVE';
    }
    if (lim.dailyOnDutyHours - l.today < r) {
      r = lim.dailyOnDutyHours - l.today;
      kind = 'DAILY_ON_DUTY';
    }
    if (r < toMid) return { hours: x + Math.max(0, r), kind };
    if (x + toMid >= horizon) break;
    x += toMid;
    l = rollTo(addOnDuty(l, toMid, driving), l.day + 1);
    t = mid;
  }
  return NOT_BINDING;
}

const NOT_BINDING: Room = { hours: Infinity, kind: 'CYCLE' };

export function availabilityOf(s: HosState): Availability {
  const lim = s.lim;
  const h = read(s).hyp;
  const window = Math.min(windowLimit(lim, s, h, s.at) - h.window, lim.periodOnDutyHours - h.onDuty);
  const noLongOff = lim.onDutyWithoutLongOffHours - s.onDutySinceLongOff;
  let hours = lim.breakAfterDrivingHours - s.sinceBreak;
  let kind: LimitKind = 'BREAK';
  const drive = lim.driveHours - h.drive;
  if (drive < hours) {
    hours = drive;
    kind = 'DRIVE';
  }
  if (window < hours) {
    hours = window;
    kind = 'WINDOW';
  }
  if (noLongOff < hours) {
    hours = noLongOff;
    kind = 'CYCLE';
  }
  if (lim.longOffEveryDays !== Infinity) {
    const longOff = longOffRoom(s, s.at);
    if (longOff < hours) {
      hours = longOff;
      kind = 'CYCLE';
    }
  }
  const day = dayLimitedRoom(s, true, Math.max(0, hours));
  if (day.hours < hours) {
    hours = day.hours;
    kind = day.kind;
  }

  // On-duty not driving: what keeps the driver able to drive afterwards (window, cycle) and Canada's daily on-duty.
  let onDuty = Math.min(window, noLongOff);
  const dayOn = dayLimitedRoom(s, false, Math.max(0, onDuty));
  if (dayOn.hours < onDuty) onDuty = dayOn.hours;
  return { driveHours: Math.max(0, hours), onDutyHours: Math.max(0, onDuty), limitedBy: kind };
}

export function clocksFrom(s: HosState): HosClocks {
  const lim = s.lim;
  const h = read(s).hyp;
  const used = cycleUsed(s.ledger);
  const win = Math.min(windowLimit(lim, s, h, s.at) - h.window, lim.periodOnDutyHours - h.onDuty);
  return {
    hoursDriven: h.drive,
    onDutyHours: lim.windowHours !== Infinity ? h.window : h.onDuty,
    hoursSinceBreak: s.sinceBreak,
    cycleHoursUsed: used,
    driveRemaining: Math.max(0, lim.driveHours - h.drive),
    windowRemaining: Math.max(0, win),
    breakRemaining: lim.breakAfterDrivingHours === Infinity ? Infinity : Math.max(0, lim.breakAfterDrivingHours - s.sinceBreak),
    cycleRemaining: Math.max(0, Math.min(lim.cycleHours - used, lim.onDutyWithoutLongOffHours - s.onDutySinceLongOff)),
    cycleHoursRecapturedTomorrow: recapturedTomorrow(s.ledger),
    lastRestartAt: s.lastRestartAt,
    periodStart: h.anchorEnd,
    dutyStatus: s.status,
    at: s.at,
  };
}

export function violationRecords(s: HosState): VRec[] {
  const r = read(s);
  return [...r.frozen, ...r.hyp.viol].sort(byTime);
}

export const violationsFrom = (s: HosState): Violation[] => violationRecords(s).map((r) => toViolation(r, s.lim.dayOffsetMinutes));
