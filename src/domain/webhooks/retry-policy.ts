/**
 * What happens after an attempt, as pure math over the configured schedule (WEBHOOK_RETRY_SCHEDULE,
 * seconds between attempts; the spec's 30 s, 2 m, 10 m, 30 m, 1 h by default).
 */

export type AttemptResult =
  | { kind: 'delivered' }
  /** The receiver answered 410 Gone: the webhook is disabled and the delivery fails at once. */
  | { kind: 'gone' }
  | { kind: 'failed'; retryAfterSeconds?: number };

export type Decision =
  | { kind: 'delivered' }
  | { kind: 'retry'; at: Date; delayMs: number }
  | { kind: 'failed'; disableWebhook: boolean };

export interface RetryPolicy {
  /** Seconds to wait after failed attempt 1, 2, …; its length is the number of retries. */
  schedule: readonly number[];
  /** Jitter as a fraction of the delay, added (never subtracted: a retry is never earlier than scheduled). */
  jitter: number;
  /** The longest a Retry-After answer may push a retry out. */
  maxRetryAfterSeconds: number;
}

export const DEFAULT_JITTER = 0.1;

export function retryPolicy(schedule: readonly number[]): RetryPolicy {
  return { schedule, jitter: DEFAULT_JITTER, maxRetryAfterSeconds: Math.max(3_600, ...schedule) };
}

/**
 * After attempt number `attempt` (1-based) ended at `now` with `result`: delivered, retried when
 * the schedule has a step left (the scheduled wait plus up to `jitter` of it; a longer Retry-After is
 * honoured up to `maxRetryAfterSeconds`, a shorter one never makes the retry earlier), or failed.
 * `random` is in [0, 1).
 */
export function decide(result: AttemptResult, attempt: number, now: Date, policy: RetryPolicy, random: number): Decision {
  if (result.kind === 'delivered') return { kind: 'delivered' };
  if (result.kind === 'gone') return { kind: 'failed', disableWebhook: true };
  const step = policy.schedule[attempt - 1];
  if (step === undefined) return { kind: 'failed', disableWebhook: false };
  const scheduledMs = step * 1000 * (1 + policy.jitter * random);
  const askedMs = result.retryAfterSeconds === undefined ? 0 : Math.min(result.retryAfterSeconds, policy.maxRetryAfterSeconds) * 1000;
  const delayMs = Math.round(Math.max(scheduledMs, askedMs));
  return { kind: 'retry', at: new Date(now.getTime() + delayMs), delayMs };
}

/** A Retry-After header (delta seconds or an HTTP date) as seconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d{1,10}$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.round((at - now.getTime()) / 1000));
}
