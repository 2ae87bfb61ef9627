import { describe, expect, it } from 'vitest';
import { decide, parseRetryAfter, retryPolicy } from './retry-policy.js';

const now = new Date('2026-03-02T14:00:00Z');
const spec = retryPolicy([30, 120, 600, 1800, 3600]);

describe('retry policy', () => {
  it('follows the spec schedule: 5 retries after 30 s, 2 m, 10 m, 30 m, 1 h, then fails', () => {
    const waits = [1, 2, 3, 4, 5].map((attempt) => {
      const d = decide({ kind: 'failed' }, attempt, now, spec, 0);
      if (d.kind !== 'retry') throw new Error(`attempt ${attempt}: ${d.kind}`);
      return d.delayMs / 1000;
    });
    expect(waits).toEqual([30, 120, 600, 1800, 3600]);
    expect(decide({ kind: 'failed' }, 6, now, spec, 0)).toEqual({ kind: 'failed', disableWebhook: false });
  });

  it('adds at most 10% jitter and never retries early', () => {
    const low = decide({ kind: 'failed' }, 1, now, spec, 0);
    const high = decide({ kind: 'failed' }, 1, now, spec, 0.999999);
    expect(low.kind === 'retry' && low.delayMs).toBe(30_000);
    expect(high.kind === 'retry' && high.delayMs).toBe(33_000);
  });

  it('honours a longer Retry-After up to the bound, ignores a shorter one', () => {
    const longer = decide({ kind: 'failed', retryAfterSeconds: 300 }, 1, now, spec, 0);
    expect(longer.kind === 'retry' && longer.delayMs).toBe(300_000);
    const shorter = decide({ kind: 'failed', retryAfterSeconds: 5 }, 1, now, spec, 0);
    expect(shorter.kind === 'retry' && shorter.delayMs).toBe(30_000);
    const huge = decide({ kind: 'failed', retryAfterSeconds: 86_400 }, 1, now, spec, 0);
    expect(huge.kind === 'retry' && huge.delayMs).toBe(3_600_000);
    const retry = decide({ kind: 'failed', retryAfterSeconds: 300 }, 1, now, spec, 0);
    expect(retry.kind === 'retry' && retry.at.toISOString()).toBe('2026-03-02T14:05:00.000Z');
  });

  it('delivered is delivered; 410 fails at once and disables the webhook', () => {
    expect(decide({ kind: 'delivered' }, 3, now, spec, 0)).toEqual({ kind: 'delivered' });
    expect(decide({ kind: 'gone' }, 1, now, spec, 0)).toEqual({ kind: 'failed', disableWebhook: true });
  });

  it('an empty schedule gives one attempt (the ping)', () => {
    expect(decide({ kind: 'failed' }, 1, now, retryPolicy([]), 0)).toEqual({ kind: 'failed', disableWebhook: false });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Mon, 02 Mar 2026 14:10:00 GMT', now)).toBe(600);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
