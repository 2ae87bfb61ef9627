import type { Database } from '../../db/types.js';
import type { TenantStatus } from '../../plugins/context.js';
import type { TenantRole } from '../../plugins/policies.js';

export interface TenantPrincipal {
  tenantId: string;
  tenantName: string;
  tenantStatus: TenantStatus;
  userId: string;
  role: TenantRole;
  userActive: boolean;
}

export interface ApiKeyPrincipal extends TenantPrincipal {
  apiKeyId: string;
  environment: 'staging' | 'production';
  revoked: boolean;
}

const TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

/**
 * Resolves the user behind an access token to its current role and tenant status. Cached briefly:
 * changes made in this process (suspension, role change, deactivation) clear the cache at once;
 * another process sees them within TTL_MS.
 */
export class PrincipalDirectory {
  private readonly cache = new Map<string, { at: number; value: TenantPrincipal | null }>();

  constructor(private readonly db: Database) {}

  async user(userId: string, nowMs: number): Promise<TenantPrincipal | null> {
    const hit = this.cache.get(userId);
    if (hit && nowMs - hit.at < TTL_MS) return hit.value;
    const value = await this.db.system(async (tx) => {
      const { rows } = await tx.query<Record<string, string>>(
        `SELECT u.tenant_id, u.id, u.role, u.status, t.status AS tenant_status, t.name AS tenant_name
           FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE u.id = $1`,
        [userId],
      );
      const r = rows[0];
      return r ? toPrincipal(r) : null;
    });
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(userId, { at: nowMs, value });
    return value;
  }

  async apiKey(keyHash: string): Promise<ApiKeyPrincipal | null> {
    return this.db.system(async (tx) => {
      const { rows } = await tx.query<Record<string, string | Date | null>>(
        `SELECT k.id AS key_id, k.environment, k.revoked_at, k.last_used_at, u.tenant_id, u.id, u.role, u.status,
                t.status AS tenant_status, t.name AS tenant_name
           FROM api_keys k
           JOIN users u ON u.tenant_id = k.tenant_id AND u.id = k.user_id
           JOIN tenants t ON t.id = k.tenant_id
          WHERE k.key_hash = $1`,
        [keyHash],
      );
      const r = rows[0];
      if (!r) return null;
      const lastUsed = r.last_used_at as Date | null;
      if (r.revoked_at === null && (lastUsed === null || Date.now() - lastUsed.getTime() > 60_000)) {
        await tx.query('UPDATE api_keys SET last_used_at = now() WHERE tenant_id = $1 AND id = $2', [r.tenant_id, r.key_id]);
      }
      return {
        ...toPrincipal(r as Record<string, string>),
        apiKeyId: r.key_id as string,
        environment: r.environment as 'staging' | 'production',
        revoked: r.revoked_at !== null,
      };
    });
  }

  invalidate(): void {
    this.cache.clear();
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
