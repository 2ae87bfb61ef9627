import { describe, expect, it } from 'vitest';
import { bindsAfter, clockAt, dayAt, hm, miles, neededAfter, offsetZone, vendorName } from './words.js';

describe('how the service writes for people', () => {
  it('durations as h:mm, rounded once to the nearest minute', () => {
    expect(hm(2.634)).toBe('2:38');
    expect(hm(10.54)).toBe('10:32');
    expect(hm(0.0083)).toBe('0:00');
    expect(hm(-0.5)).toBe('-0:30');
    expect(hm(59.99 / 60)).toBe('1:00');
  });

  it('times on the clocks of their place, with the zone’s abbreviation', () => {
    const t = Date.parse('2026-11-29T15:44:00Z');
    expect(clockAt(t, 'America/Chicago')).toBe('Sun, Nov 29, 09:44 CST');
    expect(clockAt(t, 'America/Los_Angeles')).toBe('Sun, Nov 29, 07:44 PST');
    expect(clockAt(t, offsetZone(-360))).toBe('Sun, Nov 29, 09:44 GMT-6');
    expect(clockAt(t, 'Not/AZone')).toBe('Sun, Nov 29, 15:44 UTC');
    expect(dayAt(Date.parse('2026-11-30T03:00:00Z'), 'America/Chicago')).toBe('Sun, Nov 29');
  });

  it('distances in whole miles, vendors by their names', () => {
    expect(miles(1236.6)).toBe('1,237 mi');
    expect(vendorName('samsara')).toBe('Samsara');
    expect(vendorName('project44')).toBe('project44');
    expect(vendorName('acme')).toBe('Acme');
  });

  it('a limit with no time left is reached, not "binding after 0:00 more driving"', () => {
    expect(bindsAfter(1.7833)).toBe('binds after 1:47 more driving');
    expect(bindsAfter(0)).toBe('is reached');
    expect(bindsAfter(0.008)).toBe('is reached');
    expect(bindsAfter(0.009)).toBe('binds after 0:01 more driving');
    expect(neededAfter(7)).toBe('after 7:00 more driving');
    expect(neededAfter(0)).toBe('now');
  });
});
