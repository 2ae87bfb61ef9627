/**
 * A lockout after repeated failures (login attempts per account): the first `maxFailures` attempts in
 * a window pass; the attempt that reaches `maxFailures` locks the key for `baseDelayMs`, and every
 * further attempt after a lock has ended locks it again for twice as long, up to `maxDelayMs`. While
 * locked, attempts are refused without changing anything (hammering does not extend the lock). A key
 * left alone for `windowMs` after its window began (or after its last lock ended) is forgotten, and
 * `clear` (a successful login) forgets it at once.
 *
 * Every attempt is counted when it starts, before the password is checked, so concurrent guesses
 * cannot slip past the limit; the caller clears the key when the attempt succeeds.
 */
export interface LockoutPolicy {
  maxFailures: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Login: 5 failures in 15 minutes, then 30 s, 1 min, 2 min, … capped at 15 min per lock. */
export const LOGIN_LOCKOUT: LockoutPolicy = { maxFailures: 5, windowMs: 15 * 60_000, baseDelayMs: 30_000, maxDelayMs: 15 * 60_000 };

export interface LockoutState {
  failures: number;
  windowStart: number;
  /** 0 while not locked. */
  lockedUntil: number;
}

export interface LockoutDecision {
  allowed: boolean;
  /** When refused: milliseconds until the lock ends. */
  retryAfterMs: number;
  /** Attempts counted in the current window, this one included when allowed. */
  failures: number;
}

/** When a state may be forgotten: a window after it began, or after its last lock ended. */
export const lockoutExpiresAt = (s: LockoutState, p: LockoutPolicy): number => Math.max(s.windowStart, s.lockedUntil) + p.windowMs;

/** The lock that the n-th counted attempt sets (0 below the threshold). */
export function lockoutDelayMs(failures: number, p: LockoutPolicy): number {
  if (failures < p.maxFailures) return 0;
  return Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.min(failures - p.maxFailures, 40));
}

/** The pure step shared by the in-process store and (in Lua) the Redis one; `state` undefined: unchanged. */
export function lockoutAttempt(stored: LockoutState | undefined, p: LockoutPolicy, nowMs: number): { decision: LockoutDecision; state: LockoutState | undefined } {
  const live = stored && nowMs < lockoutExpiresAt(stored, p) ? stored : { failures: 0, windowStart: nowMs, lockedUntil: 0 };
  if (nowMs < live.lockedUntil) {
    return { decision: { allowed: false, retryAfterMs: live.lockedUntil - nowMs, failures: live.failures }, state: undefined };
  }
  const failures = live.failures + 1;
  const delay = lockoutDelayMs(failures, p);
  const state = { failures, windowStart: live.windowStart, lockedUntil: delay > 0 ? nowMs + delay : 0 };
  return { decision: { allowed: true, retryAfterMs: 0, failures }, state };
}

// KEYS[1] = key; ARGV = maxFailures, windowMs, baseDelayMs, maxDelayMs, nowMs. Unlike the GCRA
// limiter, time comes from the caller: locks last from 30 s to 15 min, so a skew of a few
// milliseconds between instances does not matter, and tests can drive the lock with a fake clock.
export const LOCKOUT_LUA = `
local maxf = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local base = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
local now = tonumber(ARGV[5])
local s = redis.call('HMGET', KEYS[1], 'f', 'w', 'l')
local failures = tonumber(s[1])
local start = tonumber(s[2])
local locked = tonumber(s[3])
if not failures or not start or not locked or now >= math.max(start, locked) + window then
  failures = 0
  start = now
  locked = 0
end
if now < locked then
  return {0, locked - now, failures}
end
failures = failures + 1
if failures >= maxf then
  local d = base * 2 ^ math.min(failures - maxf, 40)
  if d > cap then d = cap end
  locked = now + d
end
redis.call('HSET', KEYS[1], 'f', tostring(failures), 'w', tostring(start), 'l', tostring(locked))
redis.call('PEXPIRE', KEYS[1], math.max(1, math.max(start, locked) + window - now))
return {1, 0, failures}
`;
