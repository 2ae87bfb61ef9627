import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayText,
  daysBetween,
  defaultRange,
  driverLogHref,
  isDate,
  needsAttention,
  pendingText,
  rangeFromQuery,
  rangeProblems,
  rangeText,
  sortTrucks,
  todayIn,
  violationItems,
  violationText,
} from './compliance';

describe('the compliance range', () => {
  it('defaults to the last 7 days and today', () => {
    expect(defaultRange('2026-11-10')).toEqual({ from: '2026-11-03', to: '2026-11-10' });
    expect(defaultRange('2026-03-02')).toEqual({ from: '2026-02-23', to: '2026-03-02' });
  });

  it('knows dates and counts days across months and years', () => {
    expect(isDate('2026-02-28')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2026-11-1')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-11-01', '2026-12-01')).toBe(30);
    expect(daysBetween('2026-11-10', '2026-11-09')).toBe(-1);
  });

  it('takes at most 31 days, the first day not after the last, and says so in words', () => {
    expect(rangeProblems({ from: '2026-11-01', to: '2026-12-01' })).toEqual({});
    expect(rangeProblems({ from: '2026-11-10', to: '2026-11-10' })).toEqual({});
    expect(rangeProblems({ from: '2026-11-01', to: '2026-12-02' })).toEqual({ to: 'At most 31 days at a time (this range has 32): the last day can be Tue, Dec 1, 2026 at the latest' });
    expect(rangeProblems({ from: '2026-11-11', to: '2026-11-10' })).toEqual({ from: 'The first day must not be after the last day' });
    expect(rangeProblems({ from: '', to: 'soon' })).toEqual({ from: 'Choose the first day', to: 'Choose the last day' });
  });

  it('reads the range from the address, and falls back to the default when it is one the API would refuse', () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(rangeFromQuery(q(''), '2026-11-10')).toEqual({ from: '2026-11-03', to: '2026-11-10' });
    expect(rangeFromQuery(q('from=2026-10-20&to=2026-11-05'), '2026-11-10')).toEqual({ from: '2026-10-20', to: '2026-11-05' });
    expect(rangeFromQuery(q('from=2026-11-08'), '2026-11-10')).toEqual({ from: '2026-11-08', to: '2026-11-10' });
    expect(rangeFromQuery(q('to=2026-11-05'), '2026-11-10')).toEqual({ from: '2026-10-29', to: '2026-11-05' });
    expect(rangeFromQuery(q('from=2026-01-01&to=2026-11-05'), '2026-11-10')).toEqual({ from: '2026-11-03', to: '2026-11-10' });
    expect(rangeFromQuery(q('from=yesterday'), '2026-11-10')).toEqual({ from: '2026-11-03', to: '2026-11-10' });
  });

  it('finds today on the clocks of a zone', () => {
    const now = Date.parse('2026-11-10T05:30:00Z'); // 23:30 on the 9th in Chicago
    expect(todayIn(now, 'America/Chicago')).toBe('2026-11-09');
    expect(todayIn(now, 'UTC')).toBe('2026-11-10');
  });

  it('writes days and ranges in words', () => {
    expect(dayText('2026-11-01')).toBe('Sun, Nov 1');
    expect(dayText('2026-11-01', true)).toBe('Sun, Nov 1, 2026');
    expect(rangeText({ from: '2026-11-03', to: '2026-11-10' })).toBe('Tue, Nov 3 – Tue, Nov 10, 2026');
    expect(rangeText({ from: '2026-11-10', to: '2026-11-10' })).toBe('Tue, Nov 10, 2026');
  });
});

describe('a driver’s row', () => {
  it('names the violations in words with their counts, the most frequent first', () => {
    const items = violationItems({ BREAK: 1, DRIVE: 2, WINDOW: 1, CYCLE: 0 });
    expect(items).toEqual([
      { text: 'Driving limit', count: 2 },
      { text: '30-minute break', count: 1 },
      { text: 'Duty window', count: 1 },
    ]);
    expect(items.map(violationText)).toEqual(['Driving limit × 2', '30-minute break × 1', 'Duty window × 1']);
    expect(violationItems({})).toEqual([]);
  });

  it('links a day not certified to the driver’s log of that day', () => {
    expect(driverLogHref('drv_abc', '2026-11-09')).toBe('/drivers/drv_abc?logDate=2026-11-09');
  });

  it('says whether there is anything to look at', () => {
    const clean = { violationCount: 0, daysNotCertified: [], pendingEditRequests: 0, drivingNotInLog: [] };
    expect(needsAttention(clean)).toBe(false);
    expect(needsAttention({ ...clean, daysNotCertified: ['2026-11-09'] })).toBe(true);
    expect(needsAttention({ ...clean, drivingNotInLog: [{ date: '2026-11-09', start: '', end: '', miles: 30 }] })).toBe(true);
    expect(pendingText(0)).toBe('None');
    expect(pendingText(2)).toBe('2 waiting for the driver');
  });

  it('lists the trucks flagged first, then the most unresolved driving', () => {
    const trucks = [
      { vehicleUnitNumber: 'T-2', flagged: false, unresolvedMinutes: 50, minutes: 50 },
      { vehicleUnitNumber: 'T-10', flagged: true, unresolvedMinutes: 35, minutes: 35 },
      { vehicleUnitNumber: 'T-1', flagged: false, unresolvedMinutes: 0, minutes: 90 },
      { vehicleUnitNumber: 'T-3', flagged: true, unresolvedMinutes: 45, minutes: 45 },
    ];
    expect(sortTrucks(trucks).map((t) => t.vehicleUnitNumber)).toEqual(['T-3', 'T-10', 'T-2', 'T-1']);
  });
});
