import { describe, expect, it } from 'vitest';
import type { DutyStatus } from './duty';
import { addDays, checkCorrection, correctedChanges, correctionBody, dayChanges, daySpans, gridDay, hourMarks, periodHours, previewSpans, recordedUntil, rowMinutes, timeInPeriod, timeValue, totalMinutes, type DayRecords } from './daily-log';
import { wallTimeToMs } from './local-time';

const Z = (iso: string) => Date.parse(iso);
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * A daily log as the API answers it: the period of `date` (starting at `startTime` on the zone's clocks)
 * and the records as [wall time on the zone's clocks, status] — the first may be carried over (before the
 * period). The records run until the period's end, or `until`.
 */
function logDay(date: string, timeZone: string, records: Array<[string, DutyStatus]>, opts: { until?: number; startTime?: string } = {}): DayRecords {
  const startTime = opts.startTime ?? '00:00';
  const periodStart = wallTimeToMs(`${date}T${startTime}`, timeZone);
  const periodEnd = wallTimeToMs(`${addDays(date, 1)}T${startTime}`, timeZone);
  const until = opts.until ?? periodEnd;
  const at = records.map(([wall, status]) => ({ status, ms: wall.includes('T') ? wallTimeToMs(wall, timeZone) : wallTimeToMs(`${date}T${wall}`, timeZone) }));
  const events = at
    .map((r, i) => ({ status: r.status, start: Math.max(r.ms, periodStart), end: Math.min(at[i + 1]?.ms ?? until, until) }))
    .filter((e) => e.end > e.start)
    .map((e) => ({ status: e.status, start: new Date(e.start).toISOString(), end: new Date(e.end).toISOString() }));
  const totals: Record<DutyStatus, number> = { OFF_DUTY: 0, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 };
  const first = events[0] ? Date.parse(events[0].start) : until;
  totals.OFF_DUTY += (Math.min(first, until) - periodStart) / 3_600_000;
  for (const e of events) totals[e.status] += (Date.parse(e.end) - Date.parse(e.start)) / 3_600_000;
  return { date, periodStart: new Date(periodStart).toISOString(), periodEnd: new Date(periodEnd).toISOString(), timeZone, events, totals };
}

// The driver forgot to go off duty at 18:00: on duty from 17:00 until they logged off duty at 23:30.
const FORGOT = logDay('2026-03-03', 'America/Denver', [
  ['2026-03-02T19:00', 'OFF_DUTY'],
  ['07:00', 'ON_DUTY_NOT_DRIVING'],
  ['08:00', 'ON_DUTY_DRIVING'],
  ['12:00', 'ON_DUTY_NOT_DRIVING'],
  ['12:30', 'ON_DUTY_DRIVING'],
  ['17:00', 'ON_DUTY_NOT_DRIVING'],
  ['23:30', 'OFF_DUTY'],
]);

describe('a daily log on the grid', () => {
  it('draws the day from its records; the rows, each measured between minute-rounded ends, add up to 24:00', () => {
    const spans = daySpans(FORGOT);
    expect(spans.map((s) => [clock(s.startMs), s.status])).toEqual([
      ['07:00', 'OFF_DUTY'], // 00:00 MST
      ['14:00', 'ON_DUTY_NOT_DRIVING'],
      ['15:00', 'ON_DUTY_DRIVING'],
      ['19:00', 'ON_DUTY_NOT_DRIVING'],
      ['19:30', 'ON_DUTY_DRIVING'],
      ['00:00', 'ON_DUTY_NOT_DRIVING'],
      ['06:30', 'OFF_DUTY'],
    ]);
    const minutes = rowMinutes(spans);
    expect(minutes).toEqual({ OFF_DUTY: 7 * 60 + 30, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 8 * 60 + 30, ON_DUTY_NOT_DRIVING: 8 * 60 });
    expect(totalMinutes(minutes)).toBe(24 * 60);
    expect(gridDay(FORGOT, spans)).toMatchObject({ date: '2026-03-03', startMs: Z('2026-03-03T07:00:00Z'), endMs: Z('2026-03-04T07:00:00Z'), minutes });
  });

  it('counts off duty before the first record, as the server does', () => {
    const first = logDay('2026-03-03', 'America/Denver', [['09:15', 'ON_DUTY_NOT_DRIVING']]);
    expect(dayChanges(first)[0]).toEqual({ status: 'OFF_DUTY', at: Z('2026-03-03T07:00:00Z') });
    expect(rowMinutes(daySpans(first))).toMatchObject({ OFF_DUTY: 9 * 60 + 15, ON_DUTY_NOT_DRIVING: 14 * 60 + 45 });
    // No record at all: off duty all day, as far as the totals say it is recorded.
    const empty = logDay('2026-03-03', 'America/Denver', []);
    expect(daySpans(empty)).toEqual([{ status: 'OFF_DUTY', startMs: Z('2026-03-03T07:00:00Z'), endMs: Z('2026-03-04T07:00:00Z') }]);
  });

  it('stops today at now: the rows add up to the time elapsed, rounded once', () => {
    const now = Z('2026-03-03T21:10:40Z'); // 14:10:40 MST
    const today = logDay('2026-03-03', 'America/Denver', [['07:00', 'ON_DUTY_NOT_DRIVING'], ['08:00', 'ON_DUTY_DRIVING']], { until: now });
    expect(recordedUntil(today)).toBe(now);
    const minutes = rowMinutes(daySpans(today));
    expect(minutes).toMatchObject({ OFF_DUTY: 420, ON_DUTY_NOT_DRIVING: 60, ON_DUTY_DRIVING: 371 });
    expect(totalMinutes(minutes)).toBe(14 * 60 + 11);
    // Before the driver's first record today, the totals alone say how far the day is recorded.
    const quiet = logDay('2026-03-03', 'America/Denver', [], { until: now });
    expect(recordedUntil(quiet)).toBe(Z('2026-03-03T21:10:40Z'));
  });

  it('keeps the home terminal’s clocks across daylight saving time: 25 hours on the day it ends, 23 on the day it begins', () => {
    const fallBack = logDay('2026-11-01', 'America/Chicago', [['2026-10-31T18:00', 'OFF_DUTY'], ['05:00', 'ON_DUTY_NOT_DRIVING'], ['05:30', 'ON_DUTY_DRIVING'], ['17:30', 'OFF_DUTY']]);
    expect(periodHours(fallBack)).toBe(25);
    const minutes = rowMinutes(daySpans(fallBack));
    expect(minutes).toEqual({ OFF_DUTY: 12 * 60 + 30, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 12 * 60, ON_DUTY_NOT_DRIVING: 30 });
    expect(totalMinutes(minutes)).toBe(25 * 60);
    // 01:30 happens twice that night: the first (CDT) is read; 00:00 at the end edge is the end of the day.
    expect(timeInPeriod(fallBack, '01:30')).toBe(Z('2026-11-01T06:30:00Z'));
    expect(timeInPeriod(fallBack, '02:30')).toBe(Z('2026-11-01T08:30:00Z'));
    expect(timeInPeriod(fallBack, '00:00', 'end')).toBe(Z('2026-11-02T06:00:00Z'));
    expect(timeInPeriod(fallBack, '00:00', 'start')).toBe(Z('2026-11-01T05:00:00Z'));
    const springForward = logDay('2026-03-08', 'America/Chicago', []);
    expect(periodHours(springForward)).toBe(23);
    expect(totalMinutes(rowMinutes(daySpans(springForward)))).toBe(23 * 60);
    // The hours above the grid are the clocks' own: 1 twice in the fall, no 2 in the spring.
    const marks = (d: DayRecords) => hourMarks(Date.parse(d.periodStart), Date.parse(d.periodEnd), d.timeZone).map((m) => m.label);
    expect(marks(fallBack)).toEqual(['M', '1', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', 'N', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', 'M']);
    expect(marks(springForward).slice(0, 4)).toEqual(['M', '1', '3', '4']);
    expect(marks(springForward)).toHaveLength(24);
  });

  it('reads a time typed on the clocks within a period that starts at 06:00 (the small hours belong to the next morning)', () => {
    const day = logDay('2026-03-03', 'America/Denver', [], { startTime: '06:00' });
    expect(timeInPeriod(day, '06:00')).toBe(Z('2026-03-03T13:00:00Z'));
    expect(timeInPeriod(day, '05:00')).toBe(Z('2026-03-04T12:00:00Z'));
    expect(timeInPeriod(day, '06:00', 'end')).toBe(Z('2026-03-04T13:00:00Z'));
    expect(timeInPeriod(day, '25:00')).toBeNaN();
    expect(timeInPeriod(day, '')).toBeNaN();
    expect(timeValue(Z('2026-03-04T12:00:00Z'), 'America/Denver')).toBe('05:00');
  });
});

describe('the preview of a correction', () => {
  it('replaces the changes between from and to by the entries: the forgotten off duty from 18:00', () => {
    const from = timeInPeriod(FORGOT, '18:00');
    const to = timeInPeriod(FORGOT, '23:30');
    const spans = previewSpans(FORGOT, { from, to, entries: [{ status: 'OFF_DUTY', at: from }] });
    // A change starts at `to` (the off duty logged at 23:30): nothing is restated.
    expect(spans.slice(-2).map((s) => [clock(s.startMs), clock(s.endMs), s.status])).toEqual([
      ['00:00', '01:00', 'ON_DUTY_NOT_DRIVING'],
      ['01:00', '07:00', 'OFF_DUTY'],
    ]);
    const minutes = rowMinutes(spans);
    expect(minutes).toEqual({ OFF_DUTY: 13 * 60, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 8 * 60 + 30, ON_DUTY_NOT_DRIVING: 2 * 60 + 30 });
    expect(totalMinutes(minutes)).toBe(24 * 60);
  });

  it('restates the status in force at `to` when no change starts there, as the server does', () => {
    const changes = dayChanges(FORGOT);
    const from = timeInPeriod(FORGOT, '10:00');
    const to = timeInPeriod(FORGOT, '10:30');
    const after = correctedChanges(changes, { from, to, entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: from }] });
    expect(after.filter((c) => c.at >= from && c.at <= to)).toEqual([
      { status: 'ON_DUTY_NOT_DRIVING', at: from },
      { status: 'ON_DUTY_DRIVING', at: to },
    ]);
    expect(rowMinutes(previewSpans(FORGOT, { from, to, entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: from }] }))).toMatchObject({ ON_DUTY_DRIVING: 8 * 60, ON_DUTY_NOT_DRIVING: 8 * 60 + 30 });
    // To the end of the day: nothing is restated past it.
    const end = timeInPeriod(FORGOT, '00:00', 'end');
    const spans = previewSpans(FORGOT, { from: timeInPeriod(FORGOT, '18:00'), to: end, entries: [{ status: 'SLEEPER_BERTH', at: timeInPeriod(FORGOT, '18:00') }] });
    expect(spans.at(-1)).toEqual({ status: 'SLEEPER_BERTH', startMs: Z('2026-03-04T01:00:00Z'), endMs: end });
  });
});

describe('checking the correction form', () => {
  const now = Z('2026-03-05T12:00:00Z');
  const ok = { from: '18:00', to: '23:30', entries: [{ status: 'OFF_DUTY', time: '' }], annotation: 'Forgot to go off duty' };

  it('gives the draft when the form holds a correction the server takes', () => {
    const { draft, problems } = checkCorrection(FORGOT, ok, now, clock);
    expect(problems).toEqual({});
    expect(draft).toEqual({ from: Z('2026-03-04T01:00:00Z'), to: Z('2026-03-04T06:30:00Z'), entries: [{ status: 'OFF_DUTY', at: Z('2026-03-04T01:00:00Z') }] });
    expect(correctionBody(draft!, ['', ' Home '], '  Forgot to go off duty ')).toEqual({
      from: '2026-03-04T01:00:00.000Z',
      to: '2026-03-04T06:30:00.000Z',
      entries: [{ status: 'OFF_DUTY', at: '2026-03-04T01:00:00.000Z' }],
      annotation: 'Forgot to go off duty',
    });
  });

  it('says what is wrong, field by field, in words', () => {
    expect(checkCorrection(FORGOT, { ...ok, to: '17:00' }, now, clock).problems).toEqual({ to: 'Must be after the start (01:00).' });
    expect(checkCorrection(FORGOT, { ...ok, from: '' }, now, clock).problems.from).toBe('Enter a time within the day.');
    expect(checkCorrection(FORGOT, ok, Z('2026-03-04T03:00:00Z'), clock).problems).toEqual({ to: 'Must not be later than now (03:00).' });
    const two = { ...ok, entries: [{ status: 'OFF_DUTY', time: '' }, { status: 'SLEEPER_BERTH', time: '23:45' }] };
    expect(checkCorrection(FORGOT, two, now, clock).problems).toEqual({ 'entry-1': 'Must be before the end of the correction (06:30).' });
    expect(checkCorrection(FORGOT, { ...two, entries: [two.entries[0]!, { status: 'SLEEPER_BERTH', time: '17:59' }] }, now, clock).problems['entry-1']).toBe('Must be after the status before it (01:00).');
    const short = checkCorrection(FORGOT, { ...ok, annotation: ' ab ' }, now, clock);
    expect(short.problems).toEqual({ annotation: 'Say why in 4 to 60 characters (now 2).' });
    // The times read: the preview is drawn while the annotation is still being written.
    expect(short.draft).not.toBeNull();
    expect(checkCorrection(FORGOT, { ...ok, annotation: 'x'.repeat(61) }, now, clock).problems.annotation).toBe('Say why in 4 to 60 characters (now 61).');
  });
});
