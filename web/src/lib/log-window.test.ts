import { describe, expect, it } from 'vitest';
import { chosenLogZone, isTimeZone, logWindow, LOG_HISTORY_DAYS, timeZoneOptions, US_TIME_ZONES } from './log-window';
import { logDays } from './duty';

const H = 3_600_000;

describe('the log grid window', () => {
  it('covers today and the 7 days before it, from local midnight', () => {
    const now = Date.parse('2026-06-10T15:30:00Z'); // 10:30 in Chicago (CDT, UTC-5)
    const w = logWindow(now, 'America/Chicago');
    expect(new Date(w.fromMs).toISOString()).toBe('2026-06-03T05:00:00.000Z');
    expect(w.toMs).toBe(now);
    expect(logDays([], w.fromMs, w.toMs, 'America/Chicago').map((d) => d.date)).toEqual([
      '2026-06-03', '2026-06-04', '2026-06-05', '2026-06-06', '2026-06-07', '2026-06-08', '2026-06-09', '2026-06-10',
    ]);
    // The log is fetched from far enough back to know the status the window opens in.
    expect(w.fetchFromMs).toBe(now - LOG_HISTORY_DAYS * 24 * H);
  });

  it('counts local days across a daylight-saving change (a 23-hour day)', () => {
    const now = Date.parse('2026-03-10T12:00:00Z'); // DST began in New York on 2026-03-08
    const w = logWindow(now, 'America/New_York');
    expect(new Date(w.fromMs).toISOString()).toBe('2026-03-03T05:00:00.000Z');
    expect(logDays([], w.fromMs, w.toMs, 'America/New_York')).toHaveLength(8);
  });

  it('shows just after midnight as a new day', () => {
    const now = Date.parse('2026-06-10T05:01:00Z'); // 00:01 in Chicago
    const days = logDays([], logWindow(now, 'America/Chicago').fromMs, now, 'America/Chicago');
    expect(days).toHaveLength(8);
    expect(days[7]!.date).toBe('2026-06-10');
  });

  it('offers the browser zone first, then the US zones once each', () => {
    const chicago = timeZoneOptions('America/Chicago');
    expect(chicago[0]).toEqual({ value: 'America/Chicago', label: 'Central (Chicago) — this browser' });
    expect(chicago).toHaveLength(US_TIME_ZONES.length);
    const berlin = timeZoneOptions('Europe/Berlin');
    expect(berlin[0]!.value).toBe('Europe/Berlin');
    expect(berlin).toHaveLength(US_TIME_ZONES.length + 1);
  });

  it('knows a zone from a typo', () => {
    expect(isTimeZone('America/Denver')).toBe(true);
    expect(isTimeZone('America/Nowhere')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('keeps the zone chosen earlier while it is still offered, else the fallback', () => {
    const options = timeZoneOptions('America/Chicago');
    expect(chosenLogZone('America/Denver', options, 'America/Chicago')).toBe('America/Denver');
    expect(chosenLogZone(null, options, 'America/Chicago')).toBe('America/Chicago');
    expect(chosenLogZone('Nowhere/Atlantis', options, 'America/Chicago')).toBe('America/Chicago');
    expect(chosenLogZone('Asia/Tokyo', options, 'America/Chicago')).toBe('America/Chicago');
  });
});
