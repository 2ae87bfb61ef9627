import type { Deps } from '../../deps.js';
import { selectPage } from '../../db/sql.js';
import { sha256Hex } from '../../lib/crypto.js';
import { invalidState, notFound } from '../../lib/errors.js';
import { newId, randomBase62 } from '../../lib/ids.js';
import { iso, isoOrNull } from '../../lib/rows.js';
import type { TenantContext } from '../../plugins/context.js';

function toKey(r: Record<string, unknown>) {
  return {
    id: r.id as string,
    name: r.name as string,
    prefix: r.prefix as string,
    environment: r.environment as string,
    createdBy: r.user_id as string,
    createdAt: iso(r.created_at),
    lastUsedAt: isoOrNull(r.last_used_at),
    revokedAt: isoOrNull(r.revoked_at),
  };
}

/** API keys: sk_staging_ (or sk_live_) + 32 base62 characters; shown once, stored as SHA-256. */
export function apiKeysService(deps: Deps) {
  const { db, clock } = deps;
  return {
    async create(ctx: TenantContext, name: string) {
      const environment = deps.config.apiKeyEnvironment;
      const key = `sk_${environment === 'production' ? 'live' : 'staging'}_${randomBase62(32)}`;
      const prefix = key.slice(0, key.indexOf('_', 3) + 5);
      const row = await db.tenant(ctx.tenantId, async (tx) => {
        const { rows } = await tx.query(
          `INSERT INTO api_keys (tenant_id, id, user_id, name, prefix, environment, key_hash, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
          [ctx.tenantId, newId('apiKey'), ctx.userId, name.trim(), prefix, environment, sha256Hex(key), clock.now()],
        );
        return rows[0]!;
      });
      return { ...toKey(row), key };
    },

    async list(ctx: TenantContext, page: number, pageSize: number) {
      const { rows, total } = await db.tenant(ctx.tenantId, (tx) =>
        selectPage(tx, { from: 'api_keys', where: 'tenant_id = $1', orderBy: 'created_at DESC, id' }, [ctx.tenantId], page, pageSize),
      );
      return { data: rows.map(toKey), total, page, pageSize };
    },

    async revoke(ctx: TenantContext, id: string) {
      const now = clock.now();
      const row = await db.tenant(ctx.tenantId, async (tx) => {
        const { rows } = await tx.query('SELECT * FROM api_keys WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [ctx.tenantId, id]);
        if (!rows[0]) throw notFound('API key');
        if (rows[0].revoked_at !== null) throw invalidState('API key is already revoked');
        const updated = await tx.query('UPDATE api_keys SET revoked_at = $3 WHERE tenant_id = $1 AND id = $2 RETURNING *', [ctx.tenantId, id, now]);
        return updated.rows[0]!;
      });
      await deps.principals.changed({ tenantId: ctx.tenantId, apiKeyId: id });
      return toKey(row);
    },
  };
}
