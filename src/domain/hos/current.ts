/**
 * One truth for a driver's hours now. Every reader (the HOS record, the Drivers list, monitoring's
 * alerts, re-plans and dispatch) asks this function, so a screen, an alert and a plan never disagree:
 *
 * - the clocks are the ELD's when an ELD synced them recently (it is the record of duty status,
 *   49 CFR 395.8(a)(1)(i) and the ELD rule, Appendix A to Subpart B of Part 395, §4.3.1: the ELD
 *   computes the driver's available hours), run down since the sync by the reported status; otherwise
 *   the duty-status log's, replayed by the engine;
 * - the next rest and the explanation follow from those same clocks;
 * - violations come from the log (an ELD reports clocks, not the history the violations are in);
 * - when both exist and any remaining clock differs by more than DISAGREEMENT_MINUTES, the disagreement
 *   is stated with both figures and the difference, instead of one being shown beside the other as if
 *   they agreed.
 */
import { clocksFromEld, type EldReportedClocks } from './eld-clocks.js';
import { evaluate, LIMIT_WORDS } from './evaluate.js';
import { limitsOf, type HosLimits } from './rules.js';
import type { DutyPeriod, HosClocks, HosEvaluation, LimitKind, NextRest, RuleSet } from './types.js';
import { bindsAfter, clockAt, hm, neededAfter, offsetZone, vendorName } from '../words.js';

/** Clocks from an ELD and the log further apart than this are said to disagree. */
export const DISAGREEMENT_MINUTES = 5;

/** An ELD's report of a driver's clocks, with the vendor that sent it ("samsara"). */
export interface EldReport {
  vendor: string;
  reported: EldReportedClocks;
}

export interface ClockSource {
  /** ELD: the clocks an ELD reported; LOG: the duty-status log replayed. */
  kind: 'ELD' | 'LOG';
  /** The ELD's vendor id ("samsara"); null for the log. */
  vendor: string | null;
  /** As people say it: "Samsara", "the duty-status log". */
  name: string;
  /** When the ELD reported (ms); null for the log. */
  syncedAt: number | null;
}

export type ClockName = 'DRIVE' | 'WINDOW' | 'BREAK' | 'CYCLE';

export interface ClockDifference {
  clock: ClockName;
  /** Hours remaining by the ELD and by the log, and the ELD's minus the log's, each in whole minutes / 60 (as shown). */
  eldHours: number;
  logHours: number;
  differenceHours: number;
}

export interface Disagreement {
  clocks: ClockDifference[];
  /** "Samsara and the duty-status log disagree: 0:00 of driving left by Samsara, 3:37 by the log (3:37 apart). The clocks shown are Samsara's; …" */
  message: string;
}

export interface HosNow extends HosEvaluation {
  source: ClockSource;
  /** The log's own clocks (the same as `clocks` when the source is the log). */
  logClocks: HosClocks;
  disagreement: Disagreement | null;
}

const CLOCK_WORDS: Record<ClockName, { left: string; key: 'driveRemaining' | 'windowRemaining' | 'breakRemaining' | 'cycleRemaining' }> = {
  DRIVE: { left: 'of driving left', key: 'driveRemaining' },
  WINDOW: { left: 'left in the duty window', key: 'windowRemaining' },
  BREAK: { left: 'of driving before the 30-minute break', key: 'breakRemaining' },
  CYCLE: { left: 'left in the cycle', key: 'cycleRemaining' },
};

const minutes = (hours: number) => Math.round(hours * 60);

/** The hours of a driver at `now`: from a recent ELD report when there is one, else from the log. */
export function hosNow(timeline: readonly DutyPeriod[], rules: RuleSet, now: number, eld: EldReport | null): HosNow {
  const log = evaluate(timeline, rules, now);
  if (eld === null) {
    // The explanation stays unwritten until it is read (evaluateState).
    return {
      clocks: log.clocks,
      violations: log.violations,
      nextRest: log.nextRest,
      get explanation() {
        return log.explanation;
      },
      logClocks: log.clocks,
      source: { kind: 'LOG', vendor: null, name: 'the duty-status log', syncedAt: null },
      disagreement: null,
    };
  }
  const lim = limitsOf(rules);
  const clocks = clocksFromEld(eld.reported, lim, log.clocks, now);
  const source: ClockSource = { kind: 'ELD', vendor: eld.vendor, name: vendorName(eld.vendor), syncedAt: eld.reported.syncedAt };
  const disagreement = disagreementOf(clocks, log.clocks, source.name);
  const nextRest = restFromClocks(clocks, lim);
  let explanation: string[] | undefined;
  return {
    clocks,
    violations: log.violations,
    nextRest,
    get explanation() {
      return (explanation ??= explainEld(clocks, lim, source, nextRest, disagreement));
    },
    logClocks: log.clocks,
    source,
    disagreement,
  };
}

/** The remaining clocks on which the ELD and the log differ by more than DISAGREEMENT_MINUTES, and the sentence that says so. */
export function disagreementOf(eld: HosClocks, log: HosClocks, eldName: string): Disagreement | null {
  const clocks: ClockDifference[] = [];
  for (const clock of ['DRIVE', 'WINDOW', 'BREAK', 'CYCLE'] as const) {
    const key = CLOCK_WORDS[clock].key;
    if (!Number.isFinite(eld[key]) || !Number.isFinite(log[key])) continue;
    // Both in whole minutes, as they are shown, so the difference stated is the difference of the figures stated.
    const e = minutes(eld[key]);
    const l = minutes(log[key]);
    if (Math.abs(e - l) > DISAGREEMENT_MINUTES) clocks.push({ clock, eldHours: e / 60, logHours: l / 60, differenceHours: (e - l) / 60 });
  }
  if (clocks.length === 0) return null;
  const parts = clocks.map((d) => `${hm(d.eldHours)} ${CLOCK_WORDS[d.clock].left} by ${eldName}, ${hm(d.logHours)} by the log (${hm(Math.abs(d.differenceHours))} apart)`);
  return { clocks, message: `${eldName} and the duty-status log disagree: ${parts.join('; ')}. The clocks shown are ${eldName}'s; check the log for missing or late entries.` };
}

/** The rest an ELD's clocks call for next: the clock that runs out first decides it. */
export function restFromClocks(c: HosClocks, lim: HosLimits): NextRest {
  const candidates: Array<[LimitKind, number]> = [
    ['DRIVE', c.driveRemaining],
    ['WINDOW', c.windowRemaining],
    ['BREAK', c.breakRemaining],
    ['CYCLE', c.cycleRemaining],
  ];
  let [limitedBy, after] = candidates[0]!;
  for (const [kind, hours] of candidates) if (hours < after) [limitedBy, after] = [kind, hours];
  const within = Number.isFinite(c.windowRemaining) ? Math.max(after, c.windowRemaining) : after;
  const base = { requiredAfterDrivingHours: after, requiredWithinHours: within, limitedBy };
  if (limitedBy === 'BREAK') {
    return { ...base, kind: 'BREAK', durationHours: lim.breakHours, explanation: `${lim.rules.break}: a 30-minute non-driving period is needed ${neededAfter(after)}.` };
  }
  if (limitedBy === 'CYCLE') {
    return { ...base, kind: 'RESTART', durationHours: lim.restartOffHours, explanation: `The cycle limit ${bindsAfter(after)}: ${lim.rules.restart} resets it.` };
  }
  return { ...base, kind: 'FULL_REST', durationHours: lim.resetOffHours, explanation: `The ${LIMIT_WORDS[limitedBy]} ${bindsAfter(after)}: ${lim.rules.reset} restores the duty period.` };
}

function explainEld(c: HosClocks, lim: HosLimits, source: ClockSource, rest: NextRest, disagreement: Disagreement | null): string[] {
  const lines = [
    `Rule set: ${lim.label}; clocks from ${source.name}, reported ${clockAt(source.syncedAt ?? c.at, offsetZone(lim.dayOffsetMinutes))} and run down since by the reported duty status.`,
    `Driving ${hm(c.hoursDriven)} of ${hm(lim.driveHours)} (${lim.rules.drive}).`,
  ];
  if (lim.windowHours !== Infinity) lines.push(`Duty window ${hm(c.onDutyHours)} of ${hm(lim.windowHours)} (${lim.rules.window}).`);
  if (Number.isFinite(c.breakRemaining)) lines.push(`Driving since the last 30-minute break: ${hm(c.hoursSinceBreak)} of ${hm(lim.breakAfterDrivingHours)} (${lim.rules.break}).`);
  lines.push(`Cycle ${hm(c.cycleHoursUsed)} of ${hm(lim.cycleHours)} (${lim.rules.cycle}).`);
  lines.push(`The ${LIMIT_WORDS[rest.limitedBy]} binds first: ${hm(rest.requiredAfterDrivingHours)} of driving possible now.`);
  if (disagreement) lines.push(disagreement.message);
  return lines;
}
