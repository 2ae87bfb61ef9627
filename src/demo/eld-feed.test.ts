import { describe, expect, it } from 'vitest';
import { advanceUse, samsaraClocks, type HosUse } from './eld-feed.js';

const H = 3_600_000;
const fresh: HosUse = { drivenMs: 0, windowMs: 0, sinceBreakMs: 0, cycleMs: 20 * H, offMs: 0 };

describe('demo ELD clocks', () => {
  it('driving uses the drive, window, break and cycle clocks; other work all but the drive', () => {
    const u = advanceUse(advanceUse(fresh, 'ON_DUTY_DRIVING', 3 * H), 'ON_DUTY_NOT_DRIVING', H);
    expect(u).toEqual({ drivenMs: 3 * H, windowMs: 4 * H, sinceBreakMs: 3 * H, cycleMs: 24 * H, offMs: 0 });
    expect(samsaraClocks(u)).toEqual({
      break: { timeUntilBreakDurationMs: 5 * H },
      drive: { driveRemainingDurationMs: 8 * H },
      shift: { shiftRemainingDurationMs: 10 * H },
      cycle: { cycleRemainingDurationMs: 46 * H },
    });
  });

  it('half an hour off resets the break clock, the window runs on; ten hours off start a new day', () => {
    const driven = advanceUse(fresh, 'ON_DUTY_DRIVING', 6 * H);
    const breakTaken = advanceUse(driven, 'OFF_DUTY', 0.5 * H);
    expect(breakTaken).toMatchObject({ drivenMs: 6 * H, windowMs: 6.5 * H, sinceBreakMs: 0 });
    expect(advanceUse(driven, 'OFF_DUTY', 0.25 * H)).toMatchObject({ sinceBreakMs: 6 * H });
    expect(advanceUse(breakTaken, 'SLEEPER_BERTH', 10 * H)).toEqual({ drivenMs: 0, windowMs: 0, sinceBreakMs: 0, cycleMs: 26 * H, offMs: 10.5 * H });
    expect(samsaraClocks(advanceUse(fresh, 'ON_DUTY_DRIVING', 12 * H)).drive.driveRemainingDurationMs).toBe(0);
  });
});
