import { describe, expect, it } from 'vitest';
import { formatOffset, hasOffset, localIso, parseLocalIso, timeZoneAt, utcOffsetMinutes } from './local-time.js';

const CHICAGO = 'America/Chicago';

describe('time zone by coordinates (offline)', () => {
  it.each([
    [32.7767, -96.797, 'America/Chicago'], // Dallas
    [40.7357, -74.1724, 'America/New_York'], // Newark
    [33.4484, -112.074, 'America/Phoenix'], // no daylight saving
    [39.7392, -104.9903, 'America/Denver'],
    [47.6062, -122.3321, 'America/Los_Angeles'],
    [47.5615, -52.7126, 'America/St_Johns'], // a half-hour offset
  ])('%f,%f is in %s', (lat, lng, zone) => {
    expect(timeZoneAt({ latitude: lat, longitude: lng })).toBe(zone);
  });

  it('an invalid point gives UTC rather than failing a plan', () => {
    expect(timeZoneAt({ latitude: 123, longitude: 0 })).toBe('UTC');
  });
});

describe('local ISO times', () => {
  it('writes the wall clock with the offset, milliseconds only when there are any', () => {
    expect(localIso(Date.parse('2026-03-02T13:00:00Z'), CHICAGO)).toBe('2026-03-02T07:00:00-06:00');
    expect(localIso(Date.parse('2026-07-02T13:00:00.250Z'), CHICAGO)).toBe('2026-07-02T08:00:00.250-05:00');
    expect(localIso(Date.parse('2026-03-02T13:00:00Z'), 'Asia/Kolkata')).toBe('2026-03-02T18:30:00+05:30');
    expect(localIso(Date.parse('2026-03-02T13:00:00Z'), 'America/St_Johns')).toBe('2026-03-02T09:30:00-03:30');
    expect(localIso(Date.parse('2026-03-02T03:00:00Z'), CHICAGO)).toBe('2026-03-01T21:00:00-06:00'); // the day before
  });

  it('follows daylight saving on either side of a change (second Sunday of March, 02:00 local)', () => {
    expect(localIso(Date.parse('2026-03-08T07:59:59Z'), CHICAGO)).toBe('2026-03-08T01:59:59-06:00');
    expect(localIso(Date.parse('2026-03-08T08:00:00Z'), CHICAGO)).toBe('2026-03-08T03:00:00-05:00');
    expect(utcOffsetMinutes(CHICAGO, Date.parse('2026-11-01T06:59:59Z'))).toBe(-300);
    expect(utcOffsetMinutes(CHICAGO, Date.parse('2026-11-01T07:00:00Z'))).toBe(-360);
    expect(utcOffsetMinutes('America/Phoenix', Date.parse('2026-07-01T12:00:00Z'))).toBe(-420);
  });

  it('every local time is the same instant as the UTC time it stands for', () => {
    for (let ms = Date.parse('2026-03-07T00:00:00Z'); ms < Date.parse('2026-03-10T00:00:00Z'); ms += 7 * 60_000 + 13) {
      for (const zone of [CHICAGO, 'America/New_York', 'America/St_Johns', 'America/Phoenix']) expect(Date.parse(localIso(ms, zone))).toBe(ms);
    }
  });

  it('formats offsets', () => {
    expect([formatOffset(0), formatOffset(-360), formatOffset(330), formatOffset(-210)]).toEqual(['+00:00', '-06:00', '+05:30', '-03:30']);
  });
});

describe('reading appointment times', () => {
  it('a time without an offset is local wall-clock time in the zone', () => {
    expect(new Date(parseLocalIso('2026-03-02T08:00:00', CHICAGO)).toISOString()).toBe('2026-03-02T14:00:00.000Z');
    expect(new Date(parseLocalIso('2026-07-02T08:00:00.500', CHICAGO)).toISOString()).toBe('2026-07-02T13:00:00.500Z');
    expect(new Date(parseLocalIso('2026-03-02T08:00:00', 'America/New_York')).toISOString()).toBe('2026-03-02T13:00:00.000Z');
  });

  it('a time with Z or an offset is taken as given, whatever the zone', () => {
    expect(new Date(parseLocalIso('2026-03-02T08:00:00Z', CHICAGO)).toISOString()).toBe('2026-03-02T08:00:00.000Z');
    expect(new Date(parseLocalIso('2026-03-02T08:00:00+01:00', CHICAGO)).toISOString()).toBe('2026-03-02T07:00:00.000Z');
    expect(new Date(parseLocalIso('2026-03-02T08:00:00-0500', CHICAGO)).toISOString()).toBe('2026-03-02T13:00:00.000Z');
    expect(hasOffset('2026-03-02T08:00:00')).toBe(false);
    expect(hasOffset('2026-03-02T08:00:00z')).toBe(true);
  });

  it('in the skipped hour the pre-change offset is used; in the repeated hour the first', () => {
    expect(new Date(parseLocalIso('2026-03-08T02:30:00', CHICAGO)).toISOString()).toBe('2026-03-08T08:30:00.000Z'); // = 03:30 CDT
    expect(new Date(parseLocalIso('2026-11-01T01:30:00', CHICAGO)).toISOString()).toBe('2026-11-01T06:30:00.000Z'); // 01:30 CDT
    expect(new Date(parseLocalIso('2026-11-01T02:30:00', CHICAGO)).toISOString()).toBe('2026-11-01T08:30:00.000Z'); // 02:30 CST
  });

  it('text that is no date-time gives NaN', () => {
    expect(parseLocalIso('2026-13-45T99:00:00', CHICAGO)).toBeNaN();
    expect(parseLocalIso('2026-12-31T23:59:60', CHICAGO)).toBeNaN();
  });
});
