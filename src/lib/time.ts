/** The clock is injected so that services and tests agree on "now" (fake clocks in tests). */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
