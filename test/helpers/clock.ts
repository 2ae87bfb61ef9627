import type { Clock } from '../../src/lib/time.js';

/** A clock that moves only when told to. */
export class FakeClock implements Clock {
  private t: number;
  constructor(start: Date | string = '2026-03-02T14:00:00.000Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(at: Date | string): void {
    this.t = new Date(at).getTime();
  }
}
