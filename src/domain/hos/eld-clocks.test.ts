import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clocksFromEld, type EldReportedClocks } from './eld-clocks.js';
import { evaluate } from './evaluate.js';
import { limitsOf, ruleSet } from './rules.js';
import { HOUR_MS, type DutyStatus } from './types.js';

const T0 = Date.parse('2026-03-02T14:00:00Z');
const limits = limitsOf(ruleSet());
const base = evaluate([], ruleSet(), T0).clocks;
const report = (status: DutyStatus, over: Partial<EldReportedClocks> = {}): EldReportedClocks => ({
  currentStatus: status,
  driveRemainingMs: 5 * HOUR_MS,
  shiftRemainingMs: 7 * HOUR_MS,
  cycleRemainingMs: 30 * HOUR_MS,
  breakRemainingMs: 2 * HOUR_MS,
  syncedAt: T0,
  ...over,
});

describe('clocksFromEld', () => {
  it('at the sync, answers what the ELD reported, with the used hours against the rule set', () => {
    const c = clocksFromEld(report('ON_DUTY_DRIVING'), limits, base, T0);
    expect(c).toMatchObject({ driveRemaining: 5, windowRemaining: 7, cycleRemaining: 30, breakRemaining: 2, hoursDriven: 6, onDutyHours: 7, hoursSinceBreak: 6, cycleHoursUsed: 40, dutyStatus: 'ON_DUTY_DRIVING' });
  });

  it('runs the clocks down with the reported status', () => {
    const later = T0 + 1.5 * HOUR_MS;
    expect(clocksFromEld(report('ON_DUTY_DRIVING'), limits, base, later)).toMatchObject({ driveRemaining: 3.5, windowRemaining: 5.5, cycleRemaining: 28.5, breakRemaining: 0.5 });
    expect(clocksFromEld(report('ON_DUTY_NOT_DRIVING'), limits, base, later)).toMatchObject({ driveRemaining: 5, windowRemaining: 5.5, cycleRemaining: 28.5, breakRemaining: 2 });
    expect(clocksFromEld(report('OFF_DUTY'), limits, base, later)).toMatchObject({ driveRemaining: 5, windowRemaining: 5.5, cycleRemaining: 30, breakRemaining: 2 });
  });

  it('never goes below zero, and no break clock means no break due', () => {
    const c = clocksFromEld(report('ON_DUTY_DRIVING', { breakRemainingMs: null }), limits, base, T0 + 20 * HOUR_MS);
    expect(c).toMatchObject({ driveRemaining: 0, windowRemaining: 0, breakRemaining: Number.POSITIVE_INFINITY, hoursSinceBreak: 0 });
  });

  it('only ever runs down: remaining time is non-increasing in the time since the sync', () => {
    const status = fc.constantFrom<DutyStatus>('OFF_DUTY', 'SLEEPER_BERTH', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING');
    const ms = fc.integer({ min: 0, max: 70 * HOUR_MS });
    fc.assert(
      fc.property(status, ms, ms, ms, ms, fc.integer({ min: 0, max: 30 * HOUR_MS }), fc.integer({ min: 0, max: 30 * HOUR_MS }), (s, d, sh, cy, br, a, b) => {
        const r = report(s, { driveRemainingMs: d, shiftRemainingMs: sh, cycleRemainingMs: cy, breakRemainingMs: br });
        const [early, late] = [clocksFromEld(r, limits, base, T0 + Math.min(a, b)), clocksFromEld(r, limits, base, T0 + Math.max(a, b))];
        for (const k of ['driveRemaining', 'windowRemaining', 'cycleRemaining', 'breakRemaining'] as const) {
          expect(late[k]).toBeLessThanOrEqual(early[k]);
          expect(late[k]).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});
