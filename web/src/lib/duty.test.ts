import { describe, expect, it } from 'vitest';
import { dutyOfSegment, dutySpans, likelyNextStatus, logDays, planDutyChanges, startOfDay, zoneOffsetMs } from './duty';

const H = 3_600_000;

describe('log grid data', () => {
  it('turns changes into spans, merging repeats, the last running until the end', () => {
    const t0 = Date.parse('2026-03-02T06:00:00Z');
    const spans = dutySpans(
      [
        { status: 'ON_DUTY_DRIVING', at: t0 + 2 * H },
        { status: 'OFF_DUTY', at: t0 },
        { status: 'ON_DUTY_DRIVING', at: t0 + 3 * H },
        { status: 'SLEEPER_BERTH', at: new Date(t0 + 5 * H).toISOString() },
      ],
      t0 + 15 * H,
    );
    expect(spans).toEqual([
      { status: 'OFF_DUTY', startMs: t0, endMs: t0 + 2 * H },
      { status: 'ON_DUTY_DRIVING', startMs: t0 + 2 * H, endMs: t0 + 5 * H },
      { status: 'SLEEPER_BERTH', startMs: t0 + 5 * H, endMs: t0 + 15 * H },
    ]);
  });

  it('cuts spans at local midnight of the zone and totals each day to 24 hours', () => {
    const zone = 'America/Chicago';
    const from = Date.parse('2026-03-02T12:00:00Z');
    const spans = dutySpans([{ status: 'OFF_DUTY', at: from - 30 * H }, { status: 'ON_DUTY_DRIVING', at: from }, { status: 'OFF_DUTY', at: from + 11 * H }], from + 40 * H);
    const days = logDays(spans, from - 24 * H, from + 40 * H, zone);
    expect(days.map((d) => d.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    const full = days;
    for (const d of full) {
      expect(d.endMs - d.startMs).toBe(24 * H);
      expect(new Date(d.startMs).toISOString()).toBe(`${d.date}T06:00:00.000Z`); // CST midnight
    }
    const march2 = days[1]!;
    expect(march2.totals.ON_DUTY_DRIVING).toBe(11);
    expect(march2.totals.OFF_DUTY + march2.totals.ON_DUTY_DRIVING).toBe(24);
  });

  it('has 23- and 25-hour days at the DST changes', () => {
    const zone = 'America/New_York';
    const spring = startOfDay(Date.parse('2026-03-08T15:00:00Z'), zone);
    expect(spring.date).toBe('2026-03-08');
    const days = logDays([{ status: 'OFF_DUTY', startMs: 0, endMs: Date.parse('2026-12-01T00:00:00Z') }], Date.parse('2026-03-08T15:00:00Z'), Date.parse('2026-03-08T20:00:00Z'), zone);
    expect((days[0]!.endMs - days[0]!.startMs) / H).toBe(23);
    const fall = logDays([{ status: 'OFF_DUTY', startMs: 0, endMs: Date.parse('2026-12-01T00:00:00Z') }], Date.parse('2026-11-01T15:00:00Z'), Date.parse('2026-11-01T20:00:00Z'), zone);
    expect((fall[0]!.endMs - fall[0]!.startMs) / H).toBe(25);
    expect(zoneOffsetMs(Date.parse('2026-07-01T12:00:00Z'), zone)).toBe(-4 * H);
  });

  it('maps plan segments to the duty status the planner logged', () => {
    expect(dutyOfSegment({ type: 'drive' })).toBe('ON_DUTY_DRIVING');
    expect(dutyOfSegment({ type: 'rest', duty_status: 'SLEEPER_BERTH' })).toBe('SLEEPER_BERTH');
    expect(dutyOfSegment({ type: 'rest', duty_status: 'OFF_DUTY' })).toBe('OFF_DUTY');
    expect(dutyOfSegment({ type: 'dock' })).toBe('ON_DUTY_NOT_DRIVING');
    expect(dutyOfSegment({ type: 'fuel' })).toBe('ON_DUTY_NOT_DRIVING');
    expect(dutyOfSegment({ type: 'wait', duration_hours: 2 })).toBe('OFF_DUTY');
    expect(dutyOfSegment({ type: 'wait', duration_hours: 8 })).toBe('SLEEPER_BERTH');
    expect(planDutyChanges([{ type: 'drive', start_time: '2026-03-02T12:00:00Z' }])).toEqual([{ status: 'ON_DUTY_DRIVING', at: '2026-03-02T12:00:00Z' }]);
  });

  it('offers on duty after off duty, and off duty after anything else', () => {
    expect(likelyNextStatus('OFF_DUTY')).toBe('ON_DUTY_NOT_DRIVING');
    expect(likelyNextStatus('ON_DUTY_DRIVING')).toBe('OFF_DUTY');
    expect(likelyNextStatus(undefined)).toBe('OFF_DUTY');
  });
});
