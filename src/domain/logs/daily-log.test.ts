/**
 * Daily logs computed by hand first, from the rule text, then by the code.
 *
 * A driver whose home terminal keeps America/Chicago time, periods starting at midnight (395.8(a)(1)).
 * Daylight saving time ends on Sunday 1 November 2026 at 02:00 CDT (clocks go back to 01:00 CST): that
 * day's period, midnight to midnight on the terminal's clocks, lasts 25 hours (05:00Z to 06:00Z the next
 * day). The log (UTC; CDT = UTC−5 until the change, CST = UTC−6 after):
 *
 *   Sat 31 Oct  11:00Z on duty (pre-trip) · 11:30Z driving · 19:00Z off (break) · 19:30Z driving ·
 *               22:30Z on duty (fuel) · 23:00Z off
 *   Sun  1 Nov  10:00Z on duty · 10:30Z driving · 18:00Z off (break) · 18:30Z driving · 23:00Z off
 *   Mon  2 Nov  12:00Z on duty · 12:30Z driving · 16:30Z sleeper berth · 18:30Z driving · 20:30Z off
 *
 * Totals by hand (hours; each day adds up to its length):
 *   Oct 31 (24 h, 05:00Z–05:00Z): off 6 + 0.5 + 6 = 12.5 · driving 7.5 + 3 = 10.5 · on duty 0.5 + 0.5 = 1
 *   Nov  1 (25 h, 05:00Z–06:00Z): off 5 + 0.5 + 7 = 12.5 · driving 7.5 + 4.5 = 12 · on duty 0.5
 *   Nov  2 (24 h, 06:00Z–06:00Z): off 6 + 9.5 = 15.5 · driving 4 + 2 = 6 · sleeper 2 · on duty 0.5
 *
 * Violations by hand (395.3(a)(3)(i): no driving after 11 hours of driving following 10 consecutive hours
 * off duty): Nov 1's duty period begins after 11 hours off (23:00Z–10:00Z); 7.5 hours of driving by 18:00Z,
 * the 11th hour is done at 22:00Z (16:00 CST), and she drives on until 23:00Z: one hour past the 11-hour
 * limit, 22:00Z to 23:00Z. No 30-minute break violation (395.3(a)(3)(ii): the break came after 7:30 of
 * driving each day), no 14-hour violation (Nov 1: on duty 04:00 CST, driving ends 17:00 CST, before 18:00),
 * Oct 31 and Nov 2 within every limit (10:30 and 6:00 of driving; 10 h and more off before each).
 *
 * Recap, 70 hours in 8 days (395.3(b)(2)); nothing on duty before Oct 31:
 *   Oct 31 on duty 11.5 · last 8 days 11.5 · available tomorrow 70 − 11.5 = 58.5
 *   Nov  1 on duty 12.5 · last 8 days 24   · available tomorrow 70 − 24   = 46
 *   Nov  2 on duty 6.5  · last 8 days 30.5 · available tomorrow 70 − 30.5 = 39.5
 */
import { describe, expect, it } from 'vitest';
import type { DutyStatus } from '../hos/index.js';
import { addDays, dailyLogs, isLogDate, logDateOf, periodOf, type LogRecord } from './daily-log.js';

const Z = 'America/Chicago';
const t = (iso: string) => Date.parse(iso);
let n = 0;
const rec = (at: string, status: DutyStatus): LogRecord => ({ id: `r${++n}`, status, at: t(at), latitude: null, longitude: null, origin: 'DRIVER', note: null, annotation: null });

export const DST_LOG: LogRecord[] = [
  rec('2026-10-31T11:00:00Z', 'ON_DUTY_NOT_DRIVING'),
  rec('2026-10-31T11:30:00Z', 'ON_DUTY_DRIVING'),
  rec('2026-10-31T19:00:00Z', 'OFF_DUTY'),
  rec('2026-10-31T19:30:00Z', 'ON_DUTY_DRIVING'),
  rec('2026-10-31T22:30:00Z', 'ON_DUTY_NOT_DRIVING'),
  rec('2026-10-31T23:00:00Z', 'OFF_DUTY'),
  rec('2026-11-01T10:00:00Z', 'ON_DUTY_NOT_DRIVING'),
  rec('2026-11-01T10:30:00Z', 'ON_DUTY_DRIVING'),
  rec('2026-11-01T18:00:00Z', 'OFF_DUTY'),
  rec('2026-11-01T18:30:00Z', 'ON_DUTY_DRIVING'),
  rec('2026-11-01T23:00:00Z', 'OFF_DUTY'),
  rec('2026-11-02T12:00:00Z', 'ON_DUTY_NOT_DRIVING'),
  rec('2026-11-02T12:30:00Z', 'ON_DUTY_DRIVING'),
  rec('2026-11-02T16:30:00Z', 'SLEEPER_BERTH'),
  rec('2026-11-02T18:30:00Z', 'ON_DUTY_DRIVING'),
  rec('2026-11-02T20:30:00Z', 'OFF_DUTY'),
];
const RULES = { id: 'US_PROPERTY_70_8' as const, options: {} };
const NOW = t('2026-11-03T12:00:00Z');

describe('the 24-hour period on the home terminal’s clocks (395.8(a)(1))', () => {
  it('is 24 hours, 25 on the day daylight saving time ends and 23 on the day it begins', () => {
    expect(periodOf('2026-10-31', Z)).toEqual({ date: '2026-10-31', start: t('2026-10-31T05:00:00Z'), end: t('2026-11-01T05:00:00Z') });
    expect(periodOf('2026-11-01', Z)).toEqual({ date: '2026-11-01', start: t('2026-11-01T05:00:00Z'), end: t('2026-11-02T06:00:00Z') });
    const spring = periodOf('2026-03-08', Z);
    expect((spring.end - spring.start) / 3_600_000).toBe(23);
  });

  it('starts at the time the carrier chooses', () => {
    expect(periodOf('2026-11-02', Z, '06:00')).toEqual({ date: '2026-11-02', start: t('2026-11-02T12:00:00Z'), end: t('2026-11-03T12:00:00Z') });
    expect(logDateOf(t('2026-11-02T11:59:00Z'), Z, '06:00')).toBe('2026-11-01');
    expect(logDateOf(t('2026-11-02T12:00:00Z'), Z, '06:00')).toBe('2026-11-02');
    expect(logDateOf(t('2026-11-02T05:30:00Z'), Z)).toBe('2026-11-01'); // 23:30 CST
  });

  it('reads dates strictly', () => {
    expect(isLogDate('2026-02-29')).toBe(false);
    expect(isLogDate('2028-02-29')).toBe(true);
    expect(isLogDate('2026-1-01')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('a 3-day log across the end of daylight saving time, computed by hand', () => {
  const days = dailyLogs({ records: DST_LOG, dates: ['2026-11-02', '2026-11-01', '2026-10-31'], zone: Z, periodStartTime: '00:00', now: NOW, rules: RULES });
  const byDate = Object.fromEntries(days.map((d) => [d.date, d]));

  it('totals each status, adding up to the length of each day (25 hours on Nov 1)', () => {
    expect(byDate['2026-10-31']!.totals).toEqual({ OFF_DUTY: 12.5, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 10.5, ON_DUTY_NOT_DRIVING: 1 });
    expect(byDate['2026-11-01']!.totals).toEqual({ OFF_DUTY: 12.5, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 12, ON_DUTY_NOT_DRIVING: 0.5 });
    expect(byDate['2026-11-02']!.totals).toEqual({ OFF_DUTY: 15.5, SLEEPER_BERTH: 2, ON_DUTY_DRIVING: 6, ON_DUTY_NOT_DRIVING: 0.5 });
    for (const d of days) expect(Object.values(d.totals).reduce((a, b) => a + b, 0)).toBe((d.periodEnd - d.periodStart) / 3_600_000);
  });

  it('clips the records to each day: the off-duty evening carries over past midnight', () => {
    const nov1 = byDate['2026-11-01']!;
    expect(nov1.events[0]).toMatchObject({ status: 'OFF_DUTY', start: t('2026-11-01T05:00:00Z'), end: t('2026-11-01T10:00:00Z'), continued: true });
    expect(nov1.events.at(-1)).toMatchObject({ status: 'OFF_DUTY', start: t('2026-11-01T23:00:00Z'), end: t('2026-11-02T06:00:00Z'), continued: false });
    expect(nov1.events.map((e) => e.status)).toEqual(['OFF_DUTY', 'ON_DUTY_NOT_DRIVING', 'ON_DUTY_DRIVING', 'OFF_DUTY', 'ON_DUTY_DRIVING', 'OFF_DUTY']);
    // Oct 31 begins before the first record: off duty, as the HOS engine takes it, not an event.
    expect(byDate['2026-10-31']!.events[0]).toMatchObject({ status: 'ON_DUTY_NOT_DRIVING', start: t('2026-10-31T11:00:00Z') });
  });

  it('marks the one violation: 1:00 past the 11-hour driving limit on Nov 1, 16:00 to 17:00 CST', () => {
    expect(byDate['2026-10-31']!.violations).toEqual([]);
    expect(byDate['2026-11-02']!.violations).toEqual([]);
    expect(byDate['2026-11-01']!.violations).toEqual([
      expect.objectContaining({ kind: 'DRIVE', start: t('2026-11-01T22:00:00Z'), end: t('2026-11-01T23:00:00Z'), overHours: 1, rule: expect.stringContaining('395.3(a)(3)(i)') }),
    ]);
  });

  it('recaps the cycle: on duty today, over the last 8 days, and available tomorrow', () => {
    expect(days.map((d) => [d.date, d.recap.onDutyToday, d.recap.onDutyCycleDays, d.recap.availableTomorrow])).toEqual([
      ['2026-11-02', 6.5, 30.5, 39.5],
      ['2026-11-01', 12.5, 24, 46],
      ['2026-10-31', 11.5, 11.5, 58.5],
    ]);
    expect(days[0]!.recap).toMatchObject({ cycleDays: 8, cycleHours: 70 });
  });

  it('today runs to now; a day after now is empty', () => {
    const [today, tomorrow] = dailyLogs({ records: DST_LOG, dates: ['2026-11-03', '2026-11-04'], zone: Z, periodStartTime: '00:00', now: NOW, rules: RULES });
    expect(today!.until).toBe(NOW);
    expect(today!.totals).toEqual({ OFF_DUTY: 6, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 });
    expect(tomorrow!.totals).toEqual({ OFF_DUTY: 0, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 });
    expect(tomorrow!.events).toEqual([]);
  });
});
