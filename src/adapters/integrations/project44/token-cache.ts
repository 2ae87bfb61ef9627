/**
 * project44 OAuth2 access tokens, cached per (environment, clientId) until shortly before they expire,
 * so every request of a sync — and the next sync — reuses one token. A cached token is only handed to a
 * caller presenting the same secret it was obtained with (a wrong secret never rides on a good token).
 * Concurrent callers share one token request. Tokens live in memory only; they are never logged.
 */
import { createHash } from 'node:crypto';

/** Refresh this long before the vendor's expiry (or a tenth of the lifetime, if shorter). */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** When the vendor answers without expires_in: how long the token is trusted. */
export const TOKEN_DEFAULT_LIFETIME_S = 300;

export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number | null;
}

interface Entry {
  token: string;
  fingerprint: string;
  refreshAt: number;
}

const fingerprintOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(private readonly now: () => number) {}

  /** The cached token for this key and secret, or a new one from `issue` (then cached). */
  async get(key: string, secret: string, issue: () => Promise<IssuedToken>): Promise<{ token: string; cached: boolean }> {
    const fingerprint = fingerprintOf(secret);
    const entry = this.entries.get(key);
    if (entry && entry.fingerprint === fingerprint && this.now() < entry.refreshAt) return { token: entry.token, cached: true };
    const flightKey = `${key}\u0000${fingerprint}`;
    let pending = this.inflight.get(flightKey);
    if (!pending) {
      pending = (async () => {
        const issued = await issue();
        const lifetimeMs = (issued.expiresInSeconds ?? TOKEN_DEFAULT_LIFETIME_S) * 1000;
        const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 10);
        this.entries.set(key, { token: issued.accessToken, fingerprint, refreshAt: this.now() + lifetimeMs - margin });
        return issued.accessToken;
      })().finally(() => this.inflight.delete(flightKey));
      this.inflight.set(flightKey, pending);
    }
    return { token: await pending, cached: false };
  }

  /** Forgets the token (the vendor refused it); a newer one cached meanwhile stays. */
  drop(key: string, token: string): void {
    if (this.entries.get(key)?.token === token) this.entries.delete(key);
  }
}
