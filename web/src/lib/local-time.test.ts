import { describe, expect, it } from 'vitest';
import { appointmentValue, inZone, msToWallTime, nextQuarterHour, wallTimeToMs } from './local-time';

describe('times in the zone where they happen', () => {
  it('shows an instant in the stop’s zone with its abbreviation', () => {
    const iso = '2026-03-03T20:05:00Z';
    expect(inZone(iso, 'America/Chicago')).toBe('Tue, Mar 3, 14:05 CST');
    expect(inZone(iso, 'America/New_York')).toBe('Tue, Mar 3, 15:05 EST');
    expect(inZone(iso, 'America/Los_Angeles')).toBe('Tue, Mar 3, 12:05 PST');
    // After the spring change the same zone reads daylight time.
    expect(inZone('2026-03-09T20:05:00Z', 'America/Chicago')).toBe('Mon, Mar 9, 15:05 CDT');
    expect(inZone(iso, 'America/Denver')).toBe('Tue, Mar 3, 13:05 MST');
  });

  it('never throws on missing, unreadable or unknown input', () => {
    expect(inZone(null, 'America/Chicago')).toBe('—');
    expect(inZone('not a time', 'America/Chicago')).toBe('—');
    expect(inZone('2026-03-03T20:05:00Z', 'Nowhere/Atlantis')).toBe('Tue, Mar 3, 20:05 UTC');
  });

  it('reads a datetime-local value in a named zone, both ways', () => {
    expect(new Date(wallTimeToMs('2026-03-03T08:00', 'America/Chicago')).toISOString()).toBe('2026-03-03T14:00:00.000Z');
    expect(new Date(wallTimeToMs('2026-07-03T08:00', 'America/Chicago')).toISOString()).toBe('2026-07-03T13:00:00.000Z');
    expect(new Date(wallTimeToMs('2026-03-03T08:00:30', 'UTC')).toISOString()).toBe('2026-03-03T08:00:30.000Z');
    expect(msToWallTime(Date.parse('2026-03-03T14:00:00Z'), 'America/Chicago')).toBe('2026-03-03T08:00');
    expect(wallTimeToMs('', 'UTC')).toBeNaN();
    expect(wallTimeToMs('03/03/2026 08:00', 'UTC')).toBeNaN();
  });

  it('handles the DST changes: the skipped hour moves forward, the repeated hour is read once', () => {
    // 02:30 does not exist in Chicago on 2026-03-08: clocks jump from 02:00 CST to 03:00 CDT.
    expect(new Date(wallTimeToMs('2026-03-08T02:30', 'America/Chicago')).toISOString()).toBe('2026-03-08T08:30:00.000Z');
    // Either side of the change reads as written.
    expect(new Date(wallTimeToMs('2026-03-08T01:30', 'America/Chicago')).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(new Date(wallTimeToMs('2026-03-08T03:30', 'America/Chicago')).toISOString()).toBe('2026-03-08T08:30:00.000Z');
    // 01:30 happens twice on 2026-11-01; one of the two readings, both showing 01:30 there.
    const ms = wallTimeToMs('2026-11-01T01:30', 'America/Chicago');
    expect(['2026-11-01T06:30:00.000Z', '2026-11-01T07:30:00.000Z']).toContain(new Date(ms).toISOString());
    expect(msToWallTime(ms, 'America/Chicago')).toBe('2026-11-01T01:30');
  });

  it('sends an appointment as the stop’s wall time, without an offset', () => {
    expect(appointmentValue('2026-03-03T08:00')).toBe('2026-03-03T08:00:00');
    expect(appointmentValue('2026-03-03T08:00:15')).toBe('2026-03-03T08:00:15');
    expect(appointmentValue('  ')).toBeUndefined();
  });

  it('proposes the next quarter hour as the departure', () => {
    expect(nextQuarterHour(Date.parse('2026-03-03T14:07:12Z'), 'America/Chicago')).toBe('2026-03-03T08:15');
    expect(nextQuarterHour(Date.parse('2026-03-03T14:15:00Z'), 'UTC')).toBe('2026-03-03T14:30');
  });
});
