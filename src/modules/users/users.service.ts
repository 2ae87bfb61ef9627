import type { Deps } from '../../deps.js';
import { forbidden, invalidState, notFound } from '../../lib/errors.js';
import type { TenantContext } from '../../plugins/context.js';
import type { TenantRole } from '../../plugins/policies.js';
import { revokeSubjectTokens } from '../auth/refresh-tokens.js';
import { countActiveOwners, findUser, listUsers, type UserRecord } from './users.repository.js';

/** Who may change whom: only an OWNER grants, removes or touches the OWNER role; nobody changes themselves. */
function guardChange(ctx: TenantContext, target: UserRecord, newRole?: TenantRole): void {
  if (target.id === ctx.userId) throw forbidden('You cannot change or deactivate your own account here');
  if ((target.role === 'OWNER' || newRole === 'OWNER') && ctx.role !== 'OWNER') throw forbidden('Only an OWNER may grant, change or remove the OWNER role');
}

export function usersService(deps: Deps) {
  const { db, clock } = deps;
  return {
    async list(ctx: TenantContext, page: number, pageSize: number) {
      const { rows, total } = await db.tenant(ctx.tenantId, (tx) => listUsers(tx, ctx.tenantId, page, pageSize));
      return { data: rows, total, page, pageSize };
    },

    async get(ctx: TenantContext, id: string) {
      const user = await db.tenant(ctx.tenantId, (tx) => findUser(tx, ctx.tenantId, id));
      if (!user) throw notFound('User');
      return user;
    },

    async update(ctx: TenantContext, id: string, changes: { role?: TenantRole; firstName?: string; lastName?: string }) {
      const now = clock.now();
      const user = await db.tenant(ctx.tenantId, async (tx) => {
        const target = await findUser(tx, ctx.tenantId, id);
        if (!target) throw notFound('User');
        if (changes.role !== undefined && changes.role !== target.role) {
          guardChange(ctx, target, changes.role);
          if (target.role === 'OWNER' && target.status === 'ACTIVE' && (await countActiveOwners(tx, ctx.tenantId)) <= 1) {
            throw invalidState('The organization must keep at least one active OWNER');
          }
        }
        await tx.query(
          `UPDATE users SET role = coalesce($3, role), first_name = coalesce($4, first_name), last_name = coalesce($5, last_name), updated_at = $6
            WHERE tenant_id = $1 AND id = $2`,
          [ctx.tenantId, id, changes.role ?? null, changes.firstName?.trim() ?? null, changes.lastName?.trim() ?? null, now],
        );
        return (await findUser(tx, ctx.tenantId, id))!;
      });
      await deps.principals.changed({ tenantId: ctx.tenantId, userId: id });
      return user;
    },

    async deactivate(ctx: TenantContext, id: string) {
      const now = clock.now();
      const user = await db.tenant(ctx.tenantId, async (tx) => {
        const target = await findUser(tx, ctx.tenantId, id);
        if (!target) throw notFound('User');
        guardChange(ctx, target);
        if (target.status === 'DEACTIVATED') throw invalidState('User is already deactivated');
        if (target.role === 'OWNER' && (await countActiveOwners(tx, ctx.tenantId)) <= 1) {
          throw invalidState('The organization must keep at least one active OWNER');
        }
        await tx.query("UPDATE users SET status = 'DEACTIVATED', deactivated_at = $3, updated_at = $3 WHERE tenant_id = $1 AND id = $2", [ctx.tenantId, id, now]);
        return (await findUser(tx, ctx.tenantId, id))!;
      });
      // Sessions end now; the user's API keys stop working because their owner is inactive.
      await db.system((tx) => revokeSubjectTokens(tx, id, now));
      await deps.principals.changed({ tenantId: ctx.tenantId, userId: id });
      return user;
    },
  };
}
