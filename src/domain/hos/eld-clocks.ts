/**
 * An ELD's clocks as the service uses them: the vendor computed drive, shift, cycle and break time
 * remaining at `syncedAt`; between syncs they run down with the driver's reported status, exactly as
 * the ELD's own clocks would (driving uses all four; on duty not driving uses the shift and the cycle;
 * off duty and sleeper let the 14-hour window run on). The ELD is authoritative for what it reports;
 * what it does not report (the last restart, the daily recap) comes from the duty-status log.
 */
import type { HosLimits } from './rules.js';
import { HOUR_MS, type DutyStatus, type HosClocks } from './types.js';

/** An ELD's clocks older than this are no longer used (the duty-status log is). */
export const ELD_CLOCKS_MAX_AGE_MS = 12 * HOUR_MS;

/** What an ELD reported, durations in ms as vendors give them. */
export interface EldReportedClocks {
  currentStatus: DutyStatus;
  driveRemainingMs: number;
  shiftRemainingMs: number;
  cycleRemainingMs: number;
  /** null: the vendor reported no break clock (no break due). */
  breakRemainingMs: number | null;
  syncedAt: number;
}

const hours = (ms: number) => Math.max(0, ms) / HOUR_MS;

/** The clocks at `now` from an ELD report, over `fromLog` (the log's own evaluation at `now`). */
export function clocksFromEld(reported: EldReportedClocks, limits: Pick<HosLimits, 'driveHours' | 'windowHours' | 'breakAfterDrivingHours' | 'cycleHours'>, fromLog: HosClocks, now: number): HosClocks {
  const elapsed = Math.max(0, now - reported.syncedAt);
  const status = reported.currentStatus;
  const driving = status === 'ON_DUTY_DRIVING';
  const onDuty = driving || status === 'ON_DUTY_NOT_DRIVING';
  const drive = hours(reported.driveRemainingMs - (driving ? elapsed : 0));
  const window = hours(reported.shiftRemainingMs - elapsed);
  const cycle = hours(reported.cycleRemainingMs - (onDuty ? elapsed : 0));
  const brk = reported.breakRemainingMs === null ? Number.POSITIVE_INFINITY : hours(reported.breakRemainingMs - (driving ? elapsed : 0));
  const used = (limit: number, remaining: number) => (Number.isFinite(limit) && Number.isFinite(remaining) ? Math.max(0, limit - remaining) : 0);
  return {
    ...fromLog,
    hoursDriven: used(limits.driveHours, drive),
    onDutyHours: used(limits.windowHours, window),
    hoursSinceBreak: used(limits.breakAfterDrivingHours, brk),
    cycleHoursUsed: used(limits.cycleHours, cycle),
    driveRemaining: drive,
    windowRemaining: window,
    breakRemaining: brk,
    cycleRemaining: cycle,
    dutyStatus: status,
    at: now,
  };
}
