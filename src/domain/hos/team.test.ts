/**
 * Team sleeper-berth use, computed by hand from the rule text (issue 20), with the expected clocks after
 * every segment of each driver's log:
 *
 * - Canada, SOR/2005-313 s.19 (team of drivers): the daily off-duty time may be taken in two sleeper-berth
 *   periods, neither shorter than 4 h, totalling at least 8 h; the driving time in the periods immediately
 *   before and after each of them may not exceed 13 h, and no driving after the 16th hour (the qualifying
 *   sleeper periods excluded). A single driver's split (s.18) needs two periods of 2 h totalling 10 h, so the
 *   same log violates the single-driver rules.
 * - US, 49 CFR 395.1(g)(1)(ii) (which applies to team drivers as to single ones): 8 h in the sleeper berth
 *   and 2 h off pair; the 11 h and 14 h are counted from the end of the first period, the paired periods
 *   excluded from the 14 h; the 8-hour sleeper period also counts as the 30-minute break.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, ruleSet, type DutyPeriod, type DutyStatus, type RuleSet } from './index.js';

const HOUR = 3_600_000;
const DAY = Date.parse('2026-03-02T00:00:00Z');
const at = (h: number) => DAY + h * HOUR;

interface Step {
  status: DutyStatus;
  from: number;
  to: number;
  /** The clocks expected at the end of the step: drive and window (the tighter of elapsed and on-duty) left, break left, violations. */
  expect: { drive: number; window: number; break?: number; violations: number };
}

function check(rules: RuleSet, rested: number, steps: Step[]): void {
  const timeline: DutyPeriod[] = [{ status: 'OFF_DUTY', start: at(rested), end: at(steps[0]!.from) }];
  for (const step of steps) {
    timeline.push({ status: step.status, start: at(step.from), end: at(step.to) });
    const e = evaluate(timeline, rules, at(step.to));
    const got = { drive: e.clocks.driveRemaining, window: e.clocks.windowRemaining, ...(step.expect.break !== undefined ? { break: e.clocks.breakRemaining } : {}), violations: e.violations.length };
    expect(got, `${step.status} ${step.from} → ${step.to} h`).toEqual(step.expect);
  }
}

describe('team sleeper-berth use, hand-computed from the rules', () => {
  // Canada cycle 1: a team driver's log. Drives 14:00–22:00 (8 h), sleeper 22:00–02:00 (4 h), drives
  // 02:00–07:00 (5 h), sleeper 07:00–11:00 (4 h): 4 + 4 = 8 h in two periods of 4 h — a team split.
  const canada: Step[] = [
    // 13 − 8 = 5 h of driving; 14 − 8 = 6 h of on-duty time (16 − 8 = 8 h elapsed is looser).
    { status: 'ON_DUTY_DRIVING', from: 14, to: 22, expect: { drive: 5, window: 6, violations: 0 } },
    // Not yet paired: the 16th hour after 14:00 is 06:00, 4 h away.
    { status: 'SLEEPER_BERTH', from: 22, to: 26, expect: { drive: 5, window: 4, violations: 0 } },
    // 8 + 5 = 13 h of driving; the hour after 06:00 is past the 16th hour until a second period pairs.
    { status: 'ON_DUTY_DRIVING', from: 26, to: 31, expect: { drive: 0, window: 0, violations: 1 } },
  ];

  it('Canada (s.19, team): the second 4-hour sleeper period pairs with the first; 8 h of driving follow', () => {
    check(ruleSet('CANADA_CYCLE_1', { teamDriving: true }), -40, [
      ...canada,
      // Paired: counted from the end of the first period (02:00): 5 h driven → 13 − 5 = 8 h; on duty 14 − 5 = 9 h;
      // the 16th hour excludes both sleeper periods (5 h elapsed → 11 h). The earlier hour is no longer a violation.
      { status: 'SLEEPER_BERTH', from: 31, to: 35, expect: { drive: 8, window: 9, violations: 0 } },
      // Driving 11:00–19:00: 13 h in the shift and in the day (5 + 8) — the limit, not over it.
      { status: 'ON_DUTY_DRIVING', from: 35, to: 43, expect: { drive: 0, window: 1, violations: 0 } },
    ]);
  });

  it('Canada (s.18, single driver): the same log is a violation — 4 + 4 h is no single-driver split', () => {
    check(ruleSet('CANADA_CYCLE_1'), -40, [...canada, { status: 'SLEEPER_BERTH', from: 31, to: 35, expect: { drive: 0, window: 0, violations: 1 } }]);
  });

  it('US (395.1(g)(1)(ii), a team driver): 8 h sleeper and 2 h off pair; the clocks restart from the end of the 8 hours', () => {
    check(ruleSet('US_PROPERTY_70_8', { teamDriving: true }), -40, [
      // Drives 06:00–11:00: 11 − 5 = 6, 14 − 5 = 9, 8 − 5 = 3 to the break.
      { status: 'ON_DUTY_DRIVING', from: 6, to: 11, expect: { drive: 6, window: 9, break: 3, violations: 0 } },
      // 8 h in the sleeper (while the partner drives): a qualifying period, excluded from the 14 h; it is a break.
      { status: 'SLEEPER_BERTH', from: 11, to: 19, expect: { drive: 6, window: 9, break: 8, violations: 0 } },
      // Drives 19:00–01:00: 11 h reached; 14 − (5 + 6) = 3; 8 − 6 = 2.
      { status: 'ON_DUTY_DRIVING', from: 19, to: 25, expect: { drive: 0, window: 3, break: 2, violations: 0 } },
      // 2 h in the sleeper pair with the 8: from 19:00, 6 h driven → 5 left; 14 − 6 = 8 (the 2 h excluded); break 8.
      { status: 'SLEEPER_BERTH', from: 25, to: 27, expect: { drive: 5, window: 8, break: 8, violations: 0 } },
      { status: 'ON_DUTY_DRIVING', from: 27, to: 32, expect: { drive: 0, window: 3, break: 3, violations: 0 } },
    ]);
  });

  it('names the team provision it applies', async () => {
    const { limitsOf } = await import('./rules.js');
    expect(limitsOf(ruleSet('CANADA_CYCLE_2', { teamDriving: true })).split!.rule).toMatch(/SOR\/2005-313 s\.19 .*team of drivers/);
    expect(limitsOf(ruleSet('CANADA_CYCLE_2')).split!.rule).toMatch(/s\.18/);
    expect(limitsOf(ruleSet('US_PROPERTY_60_7', { teamDriving: true })).split!.rule).toBe(limitsOf(ruleSet('US_PROPERTY_60_7')).split!.rule);
  });
});
