/**
 * The 3-day log across the end of daylight saving time (America/Chicago, 1 November 2026) that
 * src/domain/logs/daily-log.test.ts computes by hand from the rule text: status changes, UTC. The API
 * tests post it as a driver's duty statuses and read the same figures back.
 */
export const DST_LOG: ReadonlyArray<readonly [at: string, status: string]> = [
  ['2026-10-31T11:00:00.000Z', 'ON_DUTY_NOT_DRIVING'],
  ['2026-10-31T11:30:00.000Z', 'ON_DUTY_DRIVING'],
  ['2026-10-31T19:00:00.000Z', 'OFF_DUTY'],
  ['2026-10-31T19:30:00.000Z', 'ON_DUTY_DRIVING'],
  ['2026-10-31T22:30:00.000Z', 'ON_DUTY_NOT_DRIVING'],
  ['2026-10-31T23:00:00.000Z', 'OFF_DUTY'],
  ['2026-11-01T10:00:00.000Z', 'ON_DUTY_NOT_DRIVING'],
  ['2026-11-01T10:30:00.000Z', 'ON_DUTY_DRIVING'],
  ['2026-11-01T18:00:00.000Z', 'OFF_DUTY'],
  ['2026-11-01T18:30:00.000Z', 'ON_DUTY_DRIVING'],
  ['2026-11-01T23:00:00.000Z', 'OFF_DUTY'],
  ['2026-11-02T12:00:00.000Z', 'ON_DUTY_NOT_DRIVING'],
  ['2026-11-02T12:30:00.000Z', 'ON_DUTY_DRIVING'],
  ['2026-11-02T16:30:00.000Z', 'SLEEPER_BERTH'],
  ['2026-11-02T18:30:00.000Z', 'ON_DUTY_DRIVING'],
  ['2026-11-02T20:30:00.000Z', 'OFF_DUTY'],
];
