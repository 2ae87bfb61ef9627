import { describe, expect, it } from 'vitest';
import { formatMinutes, hoursMinutes, minutesBetween, planGaps, planTotals, roundMinutes } from './durations';

const at = (hhmmss: string) => `2026-03-03T${hhmmss}.000Z`;
const H = 3_600_000;

describe('durations to the nearest minute', () => {
  it('shows a 2 h 38 min 38 s drive as 2:39, wherever it is shown', () => {
    expect(hoursMinutes(2 + 38 / 60 + 38 / 3600)).toBe('2:39');
    expect(formatMinutes(roundMinutes(2 * H + 38 * 60_000 + 38_000))).toBe('2:39');
    expect(formatMinutes(minutesBetween(at('08:00:00'), at('10:38:38')))).toBe('2:39');
    const plan = { departureTime: at('08:00:00'), arrivalTime: at('10:38:38'), segments: [{ type: 'drive', start_time: at('08:00:00'), end_time: at('10:38:38') }] };
    const totals = planTotals(plan);
    expect(formatMinutes(totals.drive)).toBe('2:39');
    expect(formatMinutes(totals.onDuty)).toBe('2:39');
    expect(formatMinutes(totals.trip)).toBe('2:39');
  });

  it('rounds half a minute up and less than half down', () => {
    expect(hoursMinutes(2 + 38 / 60 + 29 / 3600)).toBe('2:38');
    expect(hoursMinutes(2 + 38 / 60 + 30 / 3600)).toBe('2:39');
    expect(hoursMinutes(0.5)).toBe('0:30');
    expect(hoursMinutes(2.6666667)).toBe('2:40');
    expect(hoursMinutes(11)).toBe('11:00');
    expect(hoursMinutes(59.5 / 60)).toBe('1:00');
  });

  it('never shows a negative or unreadable duration', () => {
    expect(hoursMinutes(-0.2)).toBe('0:00');
    expect(hoursMinutes(Number.NaN)).toBe('0:00');
    expect(formatMinutes(Number.POSITIVE_INFINITY)).toBe('0:00');
    expect(minutesBetween('soon', at('08:00:00'))).toBeNaN();
  });

  it('adds the parts of a plan up to its totals: drive rows to driving, every row to the trip', () => {
    const segments = [
      { type: 'drive', start_time: at('08:00:00'), end_time: at('10:38:38') },
      { type: 'rest', start_time: at('10:38:38'), end_time: at('11:08:38') },
      { type: 'drive', start_time: at('11:08:38'), end_time: at('13:21:29') },
      { type: 'fuel', start_time: at('13:21:29'), end_time: at('13:36:29') },
      { type: 'drive', start_time: at('13:36:29'), end_time: at('15:02:44') },
      { type: 'wait', start_time: at('15:02:44'), end_time: at('15:40:00') },
      { type: 'dock', start_time: at('15:40:00'), end_time: at('16:40:00') },
    ];
    const parts = segments.map((s) => ({ type: s.type, minutes: minutesBetween(s.start_time, s.end_time) }));
    const sum = (types: string[]) => parts.filter((p) => types.includes(p.type)).reduce((a, p) => a + p.minutes, 0);
    const totals = planTotals({ departureTime: at('08:00:00'), arrivalTime: at('16:40:00'), segments });
    expect(totals.drive).toBe(sum(['drive']));
    expect(totals.onDuty).toBe(sum(['drive', 'fuel', 'dock']));
    expect(totals.rest).toBe(sum(['rest', 'wait']));
    expect(totals.trip).toBe(sum(['drive', 'rest', 'fuel', 'wait', 'dock']));
    expect(totals.trip).toBe(8 * 60 + 40);
    // Each part is within a minute of its exact length.
    for (const s of segments) {
      const exact = (Date.parse(s.end_time) - Date.parse(s.start_time)) / 60_000;
      expect(Math.abs(minutesBetween(s.start_time, s.end_time) - exact)).toBeLessThanOrEqual(1);
    }
  });
});

describe('a re-planned route’s gap', () => {
  it('finds the stretch between the driven part and the re-planned rest, in minutes as shown, so the parts add up to the trip', () => {
    const seg = (type: string, start: string, end: string) => ({ type, start_time: start, end_time: end });
    const segments = [
      seg('dock', '2026-11-29T02:00:00Z', '2026-11-29T03:00:00Z'),
      // re-planned at 05:08:30: the truck drove 03:00 → 05:08:30 as its positions show
      seg('drive', '2026-11-29T05:08:30Z', '2026-11-29T07:00:00Z'),
      seg('dock', '2026-11-29T07:00:00Z', '2026-11-29T08:00:00Z'),
    ];
    expect(planGaps(segments)).toEqual([{ before: 1, startTime: '2026-11-29T03:00:00Z', endTime: '2026-11-29T05:08:30Z', minutes: 129 }]);
    const t = planTotals({ departureTime: '2026-11-29T02:00:00Z', arrivalTime: '2026-11-29T08:00:00Z', segments });
    expect(t.onDuty + t.rest + planGaps(segments)[0]!.minutes).toBe(t.trip);
    expect(planGaps(segments.filter((_, i) => i !== 1))).toEqual([{ before: 1, startTime: '2026-11-29T03:00:00Z', endTime: '2026-11-29T07:00:00Z', minutes: 240 }]);
    // Re-planned before the first completed stop: nothing of the driven part is kept, the gap leads.
    const fresh = segments.slice(1);
    expect(planGaps(fresh, '2026-11-29T02:00:00Z')).toEqual([{ before: 0, startTime: '2026-11-29T02:00:00Z', endTime: '2026-11-29T05:08:30Z', minutes: 189 }]);
    const f = planTotals({ departureTime: '2026-11-29T02:00:00Z', arrivalTime: '2026-11-29T08:00:00Z', segments: fresh });
    expect(f.onDuty + f.rest + 189).toBe(f.trip);
  });
});
