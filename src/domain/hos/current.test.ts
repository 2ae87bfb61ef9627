import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISAGREEMENT_MINUTES, hosNow } from './current.js';
import { clocksFromEld, type EldReportedClocks } from './eld-clocks.js';
import { evaluate } from './evaluate.js';
import { limitsOf, ruleSet } from './rules.js';
import { HOUR_MS, type DutyPeriod } from './types.js';

const T0 = Date.parse('2026-11-29T06:00:00Z');
const US = ruleSet();
const at = (h: number) => T0 + h * HOUR_MS;
/** Lena's day: 7 h 23 min driving since 06:00 with a break after 5 h. */
const timeline: DutyPeriod[] = [
  { status: 'OFF_DUTY', start: at(-12), end: at(0) },
  { status: 'ON_DUTY_DRIVING', start: at(0), end: at(5) },
  { status: 'OFF_DUTY', start: at(5), end: at(5.5) },
  { status: 'ON_DUTY_DRIVING', start: at(5.5), end: at(5.5 + 143 / 60) },
];
const now = at(5.5 + 143 / 60);
const report = (over: Partial<EldReportedClocks> = {}): EldReportedClocks => ({
  currentStatus: 'ON_DUTY_DRIVING',
  driveRemainingMs: 0,
  shiftRemainingMs: 6 * HOUR_MS,
  cycleRemainingMs: 40 * HOUR_MS,
  breakRemainingMs: 5 * HOUR_MS,
  syncedAt: now - 28_000,
  ...over,
});

describe('hosNow: one truth for a driver’s hours', () => {
  it('without an ELD report the log decides everything, and says so', () => {
    const h = hosNow(timeline, US, now, null);
    const e = evaluate(timeline, US, now);
    expect(h.clocks).toEqual(e.clocks);
    expect(h.nextRest).toEqual(e.nextRest);
    expect(h.source).toEqual({ kind: 'LOG', vendor: null, name: 'the duty-status log', syncedAt: null });
    expect(h.disagreement).toBeNull();
  });

  it('with an ELD report the clocks, the next rest and the explanation are the ELD’s; the disagreement with the log is stated with both figures', () => {
    const h = hosNow(timeline, US, now, { vendor: 'samsara', reported: report() });
    expect(h.clocks.driveRemaining).toBe(0);
    expect(h.source).toMatchObject({ kind: 'ELD', vendor: 'samsara', name: 'Samsara', syncedAt: now - 28_000 });
    // The log says 11:00 − 7:23 = 3:37 of driving left; the ELD none.
    expect(h.logClocks.driveRemaining * 60).toBeCloseTo(217, 6);
    expect(h.disagreement?.clocks).toContainEqual({ clock: 'DRIVE', eldHours: 0, logHours: 217 / 60, differenceHours: -217 / 60 });
    expect(h.disagreement?.message).toMatch(/^Samsara and the duty-status log disagree: 0:00 of driving left by Samsara, 3:37 by the log \(3:37 apart\)/);
    expect(h.disagreement?.message).toMatch(/The clocks shown are Samsara's/);
    // Nothing says the driver may drive on: the next rest binds now, by the driving limit.
    expect(h.nextRest).toMatchObject({ kind: 'FULL_REST', limitedBy: 'DRIVE', requiredAfterDrivingHours: 0 });
    expect(h.nextRest.explanation).toBe('The driving limit is reached: 49 CFR 395.3(a)(1) 10 consecutive hours off duty restores the duty period.');
    expect(h.explanation.join('\n')).toMatch(/clocks from Samsara, reported Sun, Nov 29, 13:52 UTC/);
    expect(h.explanation.join('\n')).not.toMatch(/\d+\.\d+ h|\d{4}-\d\d-\d\dT/);
  });

  it('clocks within a few minutes of each other agree', () => {
    const log = evaluate(timeline, US, now).clocks;
    const close = report({
      driveRemainingMs: log.driveRemaining * HOUR_MS - 4 * 60_000,
      shiftRemainingMs: log.windowRemaining * HOUR_MS + 5 * 60_000,
      cycleRemainingMs: log.cycleRemaining * HOUR_MS,
      breakRemainingMs: log.breakRemaining * HOUR_MS,
      syncedAt: now,
    });
    expect(hosNow(timeline, US, now, { vendor: 'motive', reported: close }).disagreement).toBeNull();
  });

  it('property: the clocks are the ELD’s, the next rest is the first clock to run out, and a disagreement is stated exactly when a shown clock differs by more than the tolerance', () => {
    const lim = limitsOf(US);
    const ms = (max: number) => fc.integer({ min: 0, max: max * 60 }).map((m) => m * 60_000);
    fc.assert(
      fc.property(ms(11), ms(14), ms(70), fc.option(ms(8), { nil: null }), fc.integer({ min: 0, max: 3 * 60 }), (drive, shift, cycle, brk, ageMinutes) => {
        const r = report({ driveRemainingMs: drive, shiftRemainingMs: shift, cycleRemainingMs: cycle, breakRemainingMs: brk, syncedAt: now - ageMinutes * 60_000 });
        const h = hosNow(timeline, US, now, { vendor: 'samsara', reported: r });
        const eld = clocksFromEld(r, lim, evaluate(timeline, US, now).clocks, now);
        expect(h.clocks).toEqual(eld);
        const first = Math.min(eld.driveRemaining, eld.windowRemaining, eld.breakRemaining, eld.cycleRemaining);
        expect(h.nextRest.requiredAfterDrivingHours).toBe(first);
        const keys = ['driveRemaining', 'windowRemaining', 'breakRemaining', 'cycleRemaining'] as const;
        const apart = keys.some((k) => Number.isFinite(eld[k]) && Math.abs(Math.round(eld[k] * 60) - Math.round(h.logClocks[k] * 60)) > DISAGREEMENT_MINUTES);
        expect(h.disagreement !== null).toBe(apart);
        for (const d of h.disagreement?.clocks ?? []) expect(Math.round((d.eldHours - d.logHours) * 60)).toBe(Math.round(d.differenceHours * 60));
      }),
    );
  });
});
