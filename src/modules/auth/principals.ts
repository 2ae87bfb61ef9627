import type { Database } from '../../db/types.js';
import type { CredentialsEpoch } from '../../infra/credentials-epoch.js';
import type { ApiKeyPrincipal, PrincipalLookup, TenantPrincipal } from '../../plugins/auth.port.js';
import type { TenantStatus } from '../../plugins/context.js';
import type { TenantRole } from '../../plugins/policies.js';

/**
 * What changed, after it was committed: a whole tenant (status), one user (role, deactivation; their
 * API keys act with their role, so those go too) or one API key (revocation).
 */
export interface PrincipalChange {
  tenantId: string;
  userId?: string;
  apiKeyId?: string;
}

export interface PrincipalDirectoryOptions {
  /**
   * How long an entry is trusted. With a shared epoch (Redis) or a single process (PGlite) every
   * change is seen at once and this is only a backstop; when other processes may share the database
   * without a shared epoch (PostgreSQL without Redis), it bounds how long they act on a stale entry.
   */
  ttlMs: number;
  /** How long an entry is trusted while the shared epoch cannot be read (Redis unreachable); default 5 s. */
  unreachableTtlMs?: number;
  /** Tells the other processes of a change (Redis); absent: one process, or nobody to tell. */
  epoch?: CredentialsEpoch;
  /** Where a failure to tell the other processes is reported. */
  onEpochError?: (err: unknown) => void;
  maxEntries?: number;
}

interface Entry<P> {
  at: number;
  value: P;
}

/**
 * The current role, status and tenant status behind an access token or an API key, cached in the
 * process so that an authenticated request costs no database work of its own.
 *
 * Changes take effect at once. In this process: `changed` forgets the matching entries before the
 * change's response is sent. In the others: `changed` moves the shared credentials epoch, every
 * request reads it (`observe`, fed by the rate limiter's round trip to Redis) and a process that sees
 * it move forgets everything. A lookup that was reading the database while a change was made must not
 * cache what it read: each lookup notes the generation it started in, and every change moves it on.
 */
export class PrincipalDirectory implements PrincipalLookup {
  private readonly users = new Map<string, Entry<TenantPrincipal>>();
  private readonly keys = new Map<string, Entry<ApiKeyPrincipal>>();
  private generation = 0;
  private knownEpoch: string | undefined;
  /** The shared epoch could not be read lately: entries are trusted for the short TTL. */
  private epochUnreachable = false;
  /** A change could not be announced (Redis unreachable): announced again once the epoch can be read. */
  private announcePending = false;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly db: Database,
    private readonly opts: PrincipalDirectoryOptions,
  ) {
    this.ttlMs = opts.ttlMs;
    this.maxEntries = opts.maxEntries ?? 50_000;
  }

  async user(userId: string, nowMs: number): Promise<TenantPrincipal | null> {
    const cached = this.read(this.users, userId, nowMs);
    if (cached) return cached;
    return this.load(this.users, userId, nowMs, async () => {
      const rows = await this.db.system(async (tx) =>
        (
          await tx.query<Record<string, string>>(
            `SELECT u.tenant_id, u.id, u.role, u.status, t.status AS tenant_status, t.name AS tenant_name
               FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE u.id = $1`,
            [userId],
          )
        ).rows,
      );
      return rows[0] ? toPrincipal(rows[0]) : null;
    });
  }

  /** The principal behind an API key, by the key's SHA-256 (the plaintext is never kept). */
  async apiKey(keyHash: string, nowMs: number): Promise<ApiKeyPrincipal | null> {
    const cached = this.read(this.keys, keyHash, nowMs);
    if (cached) return cached;
    return this.load(this.keys, keyHash, nowMs, async () => {
      const rows = await this.db.system(async (tx) =>
        (
          await tx.query<Record<string, string | null>>(
            `SELECT k.id AS key_id, k.environment, k.revoked_at, u.tenant_id, u.id, u.role, u.status,
                    t.status AS tenant_status, t.name AS tenant_name
               FROM api_keys k
               JOIN users u ON u.tenant_id = k.tenant_id AND u.id = k.user_id
               JOIN tenants t ON t.id = k.tenant_id
              WHERE k.key_hash = $1`,
            [keyHash],
          )
        ).rows,
      );
      const r = rows[0];
      if (!r) return null;
      return {
        ...toPrincipal(r as Record<string, string>),
        apiKeyId: r.key_id!,
        environment: r.environment as 'staging' | 'production',
        revoked: r.revoked_at !== null,
      };
    });
  }

  /**
   * Announces a committed change: forgotten here before this returns, and the epoch moved so that
   * every other process forgets before its next request. Should Redis be unreachable, the entries
   * elsewhere expire within the TTL (and requests there fail anyway: their rate limit needs Redis).
   */
  async changed(change: PrincipalChange): Promise<void> {
    this.forget(change);
    await this.announce();
  }

  private async announce(): Promise<void> {
    if (!this.opts.epoch) return;
    try {
      this.announcePending = false;
      await this.opts.epoch.advance();
    } catch (err) {
      this.announcePending = true;
      this.opts.onEpochError?.(err);
    }
  }

  /**
   * The epoch as the request's round trip to Redis found it (undefined: no shared epoch; null: there is
   * one but it could not be read, Redis being unreachable). Returns true when it moved since last seen:
   * the cache was emptied, and what was read from it must be read again.
   *
   * While it cannot be read, entries are trusted for seconds only (changes elsewhere are not heard of);
   * when it can be read again everything cached meanwhile is forgotten, and a change made here meanwhile
   * is announced then.
   */
  observe(epoch: string | null | undefined): boolean {
    if (epoch === undefined) return false;
    if (epoch === null) {
      this.epochUnreachable = true;
      return false;
    }
    if (this.announcePending) void this.announce();
    if (epoch === this.knownEpoch && !this.epochUnreachable) return false;
    // Also on the first sighting: what was cached before it may predate a change.
    this.knownEpoch = epoch;
    this.epochUnreachable = false;
    this.forget(null);
    return true;
  }

  private read<P>(map: Map<string, Entry<P>>, key: string, nowMs: number): P | undefined {
    const hit = map.get(key);
    if (!hit) return undefined;
    const ttl = this.epochUnreachable ? (this.opts.unreachableTtlMs ?? 5_000) : this.ttlMs;
    if (nowMs - hit.at < ttl && nowMs >= hit.at) return hit.value;
    map.delete(key);
    return undefined;
  }

  /** Unknown credentials are not cached: they cannot become valid, and must not crowd out real ones. */
  private async load<P>(map: Map<string, Entry<P>>, key: string, nowMs: number, fetch: () => Promise<P | null>): Promise<P | null> {
    const startedIn = this.generation;
    const value = await fetch();
    if (value !== null && startedIn === this.generation) {
      if (map.size >= this.maxEntries) map.clear();
      map.set(key, { at: nowMs, value });
    }
    return value;
  }

  /** Drops the entries a change touches (null: all of them) and fences off lookups in flight. */
  private forget(change: PrincipalChange | null): void {
    this.generation++;
    if (change === null) {
      this.users.clear();
      this.keys.clear();
      return;
    }
    const touched = (p: TenantPrincipal & { apiKeyId?: string }) =>
      p.tenantId === change.tenantId &&
      (change.userId === undefined || p.userId === change.userId) &&
      (change.apiKeyId === undefined || p.apiKeyId === change.apiKeyId);
    for (const map of [this.users, this.keys] as Map<string, Entry<TenantPrincipal>>[]) {
      for (const [key, entry] of map) if (touched(entry.value)) map.delete(key);
    }
  }
}

function toPrincipal(r: Record<string, string>): TenantPrincipal {
  return {
    tenantId: r.tenant_id!,
    tenantName: r.tenant_name!,
    tenantStatus: r.tenant_status as TenantStatus,
    userId: r.id!,
    role: r.role as TenantRole,
    userActive: r.status === 'ACTIVE',
  };
}
