import { describe, expect, it } from 'vitest';
import { timeRangeText } from './time-range';

describe('timeRangeText', () => {
  it('writes a stretch within a day once, with the zone’s abbreviation', () => {
    expect(timeRangeText('2026-11-10T14:00:00Z', '2026-11-10T14:45:00Z', 'America/Chicago')).toBe('Tue, Nov 10, 08:00–08:45 CST');
    expect(timeRangeText('2026-07-10T14:00:00Z', '2026-07-10T15:05:00Z', 'America/Denver')).toBe('Fri, Jul 10, 08:00–09:05 MDT');
  });

  it('writes both ends in full across midnight and across a change of daylight saving time', () => {
    expect(timeRangeText('2026-11-11T05:30:00Z', '2026-11-11T06:15:00Z', 'America/Chicago')).toBe('Tue, Nov 10, 23:30 CST – Wed, Nov 11, 00:15 CST');
    // 2026-11-01: CDT ends at 02:00 (07:00 UTC), the clocks go back to 01:00 CST.
    expect(timeRangeText('2026-11-01T06:30:00Z', '2026-11-01T07:30:00Z', 'America/Chicago')).toBe('Sun, Nov 1, 01:30 CDT – Sun, Nov 1, 01:30 CST');
  });

  it('says UTC where there is no zone to say, and a dash for no time', () => {
    expect(timeRangeText('2026-11-10T14:00:00Z', '2026-11-10T14:45:00Z', 'UTC')).toBe('Tue, Nov 10, 14:00–14:45 UTC');
    expect(timeRangeText('2026-11-10T14:00:00Z', '2026-11-10T14:45:00Z', 'Not/AZone')).toBe('Tue, Nov 10, 14:00–14:45 UTC');
    expect(timeRangeText('yesterday', '2026-11-10T14:45:00Z', 'UTC')).toBe('—');
  });
});
