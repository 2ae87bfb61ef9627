/**
 * A manual clock snapshot turned into a synthetic history that reproduces it exactly, so a plan made
 * from a snapshot can be audited as history + plan like one made from a real duty log.
 *
 * Layout, backwards from `at`: the current duty period (on duty throughout, so the cycle includes it)
 * started `onDutyHours` ago after a full reset; its driving is `hoursDriven`, the last
 * `hoursSinceBreak` of it unbroken and, before that, a non-driving stretch of at least 30 minutes;
 * before the reset, the rest of the cycle's hours as on-duty shifts of at most 14 h, each inside one
 * calendar day and separated by full resets (and, for Canada's cycle 2, a 24-hour rest every 70
 * hours), inside the cycle's days; before those, a restart.
 */
import { HosError } from './errors.js';
import { dayIndex, dayStart } from './ledger.js';
import { limitsOf } from './rules.js';
import { HOUR_MS, type ClockSnapshot, type DutyPeriod, type DutyStatus, type RuleSet } from './types.js';

const EPS = 1e-9;
const SHIFT_HOURS = 14;

const field = (name: keyof ClockSnapshot, v: unknown): number => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new HosError('INVALID_SNAPSHOT', `${name} must be a finite number of hours ≥ 0 (got ${String(v)})`, name);
  }
  return v;
};

/** Throws INVALID_SNAPSHOT with a message naming the contradiction for a snapshot no history can produce. */
export function validateSnapshot(snapshot: ClockSnapshot, rules: RuleSet): void {
  const lim = limitsOf(rules);
  const driven = field('hoursDriven', snapshot.hoursDriven);
  const onDuty = field('onDutyHours', snapshot.onDutyHours);
  const sinceBreak = field('hoursSinceBreak', snapshot.hoursSinceBreak);
  const cycle = field('cycleHoursUsed', snapshot.cycleHoursUsed);
  if (driven > onDuty + EPS) {
    throw new HosError('INVALID_SNAPSHOT', `hoursDriven (${driven}) cannot exceed onDutyHours (${onDuty}): driving is part of the duty period`, 'hoursDriven');
  }
  if (sinceBreak > driven + EPS) {
    throw new HosError('INVALID_SNAPSHOT', `hoursSinceBreak (${sinceBreak}) cannot exceed hoursDriven (${driven}) in the same duty period`, 'hoursSinceBreak');
  }
  if (cycle + EPS < onDuty) {
    throw new HosError('INVALID_SNAPSHOT', `cycleHoursUsed (${cycle}) cannot be less than onDutyHours (${onDuty}): the current duty period counts toward the cycle`, 'cycleHoursUsed');
  }
  if (driven - sinceBreak > EPS && onDuty - driven < lim.breakHours - EPS) {
    throw new HosError(
      'INVALID_SNAPSHOT',
      `hoursSinceBreak (${sinceBreak}) < hoursDriven (${driven}) means a break of at least ${lim.breakHours * 60} minutes was taken in this duty period, but onDutyHours (${onDuty}) leaves only ${+Math.max(0, onDuty - driven).toFixed(4)} h not driving`,
      'hoursSinceBreak',
    );
  }
}

/** A synthetic timeline ending at `at` whose replay gives exactly the snapshot's clocks. */
export function snapshotTimeline(snapshot: ClockSnapshot, at: number, rules: RuleSet): DutyPeriod[] {
  if (!Number.isFinite(at)) throw new HosError('INVALID_ARGUMENT', `at must be a finite time in ms (got ${at})`, 'at');
  validateSnapshot(snapshot, rules);
  const lim = limitsOf(rules);
  const { hoursDriven: driven, onDutyHours: onDuty, hoursSinceBreak: sinceBreak, cycleHoursUsed: cycle } = snapshot;
  const off = lim.dayOffsetMinutes;
  const oldest = dayStart(dayIndex(at, off) - lim.cycleDays + 1, off);
  const windowStart = at - onDuty * HOUR_MS;
  if (windowStart < oldest) {
    throw new HosError('INVALID_SNAPSHOT', `onDutyHours (${onDuty}) reaches back beyond the ${lim.cycleDays}-day cycle`, 'onDutyHours');
  }

  // Built backwards as [status, hours] from `at`.
  const back: Array<[DutyStatus, number]> = [];
  const earlier = driven - sinceBreak;
  if (sinceBreak > 0) back.push(['ON_DUTY_DRIVING', sinceBreak]);
  let spare = onDuty - driven;
  if (earlier > EPS) {
    // The break before the last stretch of driving, then the earlier driving in stretches within the break rule.
    const chunks = Math.ceil(earlier / lim.breakAfterDrivingHours - EPS) || 1;
    const canChunk = lim.breakAfterDrivingHours !== Infinity && spare - lim.breakHours >= (chunks - 1) * lim.breakHours - EPS;
    const gaps = canChunk ? chunks - 1 : 0;
    back.push(['ON_DUTY_NOT_DRIVING', spare - gaps * lim.breakHours]);
    spare = 0;
    const n = gaps + 1;
    for (let i = 0; i < n; i++) {
      if (i > 0) back.push(['ON_DUTY_NOT_DRIVING', lim.breakHours]);
      back.push(['ON_DUTY_DRIVING', earlier / n]);
    }
  }
  if (spare > 0) back.push(['ON_DUTY_NOT_DRIVING', spare]);

  // Earlier shifts for the rest of the cycle: each inside one calendar day (so no day holds more than
  // 14 h, and the current period's first day holds only its own hours), separated by full resets.
  let left = cycle - onDuty;
  let laterStart = windowStart;
  let sinceLongOff = onDuty;
  while (left > EPS) {
    let end = Math.min(laterStart - lim.resetOffHours * HOUR_MS, dayStart(dayIndex(laterStart, off), off));
    if (sinceLongOff + Math.min(left, SHIFT_HOURS) > lim.onDutyWithoutLongOffHours + EPS) {
      // Canada cycle 2: a 24-hour rest at least every 70 on-duty hours, as a driver on that cycle takes.
      end = Math.min(end, laterStart - lim.longOffHours * HOUR_MS);
    }
    let dayOfEnd = dayIndex(end - 1, off);
    if ((end - dayStart(dayOfEnd, off)) / HOUR_MS < Math.min(left, 1)) {
      end = dayStart(dayOfEnd, off);
      dayOfEnd -= 1;
    }
    const h = Math.min(left, SHIFT_HOURS, (end - dayStart(dayOfEnd, off)) / HOUR_MS);
    const start = end - h * HOUR_MS;
    if (start < oldest - 1) {
      throw new HosError(
        'INVALID_SNAPSHOT',
        `cycleHoursUsed (${cycle}) does not fit: at most ${(cycle - left).toFixed(2)} h of on-duty time fit in legal shifts within the ${lim.cycleDays}-day cycle before the current duty period`,
        'cycleHoursUsed',
      );
    }
    const gap = (laterStart - end) / HOUR_MS;
    if (gap >= lim.longOffHours) sinceLongOff = 0;
    back.push(['OFF_DUTY', gap]);
    back.push(['ON_DUTY_NOT_DRIVING', h]);
    left -= h;
    sinceLongOff += h;
    laterStart = start;
  }
  // The restart the history starts with (it is also the full reset when there are no earlier shifts).
  back.push(['OFF_DUTY', laterStart === windowStart ? Math.max(lim.restartOffHours, lim.resetOffHours) : lim.restartOffHours]);

  const periods: DutyPeriod[] = [];
  let t = at;
  for (const [status, hours] of back) {
    if (hours <= EPS) continue;
    const start = t - hours * HOUR_MS;
    periods.push({ status, start, end: t });
    t = start;
  }
  periods.reverse();
  // Adjacent equal statuses (possible with zero-length pieces removed) are merged.
  const merged: DutyPeriod[] = [];
  for (const p of periods) {
    const last = merged[merged.length - 1];
    if (last && last.status === p.status) merged[merged.length - 1] = { ...last, end: p.end };
    else merged.push({ ...p });
  }
  return merged;
}

/**
 * A driver's duty-status log (each entry: a status from `at` on, sorted) as a contiguous timeline over
 * [since, now]: the entry in force at `since` is clipped to it, entries after `now` are not history
 * yet, and before the first entry the driver is taken to be off duty (a fresh driver).
 */
export function timelineFromLog(log: readonly { status: DutyPeriod['status']; at: number }[], since: number, now: number): DutyPeriod[] {
  const out: DutyPeriod[] = [];
  log.forEach((e, i) => {
    const start = Math.max(since, e.at);
    const end = Math.min(now, i + 1 < log.length ? log[i + 1]!.at : now);
    if (end > start) out.push({ status: e.status, start, end });
  });
  const first = out[0]?.start ?? now;
  if (first > since) out.unshift({ status: 'OFF_DUTY', start: since, end: first });
  return out;
}
