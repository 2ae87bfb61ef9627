/**
 * Micro-benchmark of the planner's use of the engine: a 2,500-mile trip (about 45 h of driving at
 * 55 mph) simulated with availability() before every leg piece and advance() for every piece, break,
 * rest, fuel stop and dock. Prints the throughput; asserts only a floor far below the target
 * (2,000 plans/s on one core) so a busy CI machine does not fail it.
 */
import { describe, expect, it } from 'vitest';
import { advance, audit, availability, clocksOf, initialState, ruleSet, type HosState } from './index.js';
import { T0 } from './test-support/timeline.js';
import { HOUR_MS, type DutyPeriod, type DutyStatus } from './types.js';

const US = ruleSet();

function planTrip(withSnapshot: boolean): { calls: number; timeline: DutyPeriod[] } {
  let s: HosState = withSnapshot
    ? initialState(US, T0, { hoursDriven: 3, onDutyHours: 5, hoursSinceBreak: 3, cycleHoursUsed: 40 })
    : initialState(US, T0);
  const timeline: DutyPeriod[] = [];
  const go = (status: DutyStatus, hours: number) => {
    timeline.push({ status, start: s.at, end: s.at + hours * HOUR_MS });
    s = advance(s, status, hours);
    calls++;
  };
  let calls = 0;
  let left = 2500 / 55;
  let sinceFuel = 0;
  let docks = 0;
  while (left > 1e-9) {
    const a = availability(s);
    calls++;
    if (a.driveHours < 0.05) {
      if (a.limitedBy === 'BREAK') go('OFF_DUTY', 0.5);
      else if (a.limitedBy === 'CYCLE') go('OFF_DUTY', 34);
      else go('SLEEPER_BERTH', 10);
      continue;
    }
    const d = Math.min(a.driveHours, left, 3);
    go('ON_DUTY_DRIVING', d);
    clocksOf(s);
    left -= d;
    sinceFuel += d;
    if (sinceFuel > 8) {
      go('ON_DUTY_NOT_DRIVING', 0.25);
      sinceFuel = 0;
    }
    if (left < 30 && docks === 0) {
      go('ON_DUTY_NOT_DRIVING', 2);
      docks++;
    }
  }
  return { calls, timeline };
}

describe('performance', () => {
  it('advance + availability throughput for whole plans', () => {
    const { calls, timeline } = planTrip(false);
    expect(audit(timeline, US)).toEqual([]);
    expect(calls).toBeGreaterThan(30);
    for (const withSnapshot of [false, true]) {
      for (let i = 0; i < 200; i++) planTrip(withSnapshot); // warm-up
      let n = 0;
      let total = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < 1000) {
        total += planTrip(withSnapshot).calls;
        n++;
      }
      const ms = performance.now() - t0;
      const plansPerSecond = (n / ms) * 1000;
      console.log(
        `HOS engine (${withSnapshot ? 'from a snapshot' : 'fresh driver'}): ${Math.round(plansPerSecond)} plans/s, ` +
          `${Math.round((total / ms) * 1000)} advance+availability calls/s, ${(total / n).toFixed(1)} calls per plan`,
      );
    }
  });
});
