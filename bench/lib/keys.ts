/**
 * API keys used as a client with a real hourly limit uses them (issue 28): each key up to a margin below its
 * announced limit (X-RateLimit-Limit, the app's RATE_LIMIT_PRODUCTION_PER_HOUR), then the next one — the
 * app counts every request against its key, which is work users pay for, so the bench keeps it on. A ring
 * per server: the app's counts are what its limiter sees; the baseline, which has no limiter, rotates the
 * same way so that both do the same credential work.
 */
export class KeyRing {
  private index = 0;
  private used = 0;

  constructor(
    private readonly keys: readonly string[],
    /** Requests per key before moving on. */
    private readonly perKey: number,
    private readonly label: string,
  ) {
    if (keys.length === 0) throw new Error(`${label}: no API keys`);
  }

  /** The key for the next request. */
  next(): string {
    if (this.used >= this.perKey) {
      this.index++;
      this.used = 0;
      if (this.index >= this.keys.length) {
        throw new Error(`${this.label}: all ${this.keys.length} API keys used to ${this.perKey} requests each; raise BENCH_KEYS`);
      }
    }
    this.used++;
    return this.keys[this.index]!;
  }

  headers(): Record<string, string> {
    return { 'x-api-key': this.next() };
  }

  /** Keys used so far (the current one included) and requests on the current one. */
  state(): { keysUsed: number; onCurrent: number; keys: number } {
    return { keysUsed: this.index + 1, onCurrent: this.used, keys: this.keys.length };
  }
}
