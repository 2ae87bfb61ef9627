import type { Deps } from '../../deps.js';
import { selectPage } from '../../db/sql.js';
import { invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashPassword } from '../../lib/passwords.js';
import { isoOrNull } from '../../lib/rows.js';
import type { PlatformContext, TenantStatus } from '../../plugins/context.js';
import { toTenant } from '../tenants/tenants.repository.js';
import { localAdmin, usesLocalAdmin } from '../../infra/local-admin.js';

/**
 * Creates or updates the platform administrator named by PLATFORM_ADMIN_EMAIL / PASSWORD; on a
 * development instance that names none, the local administrator (local-admin.ts), whose password the
 * log prints when it is first made.
 */
export async function bootstrapPlatformAdmin(deps: Deps): Promise<void> {
  const local = usesLocalAdmin(deps.config) ? localAdmin(deps.config.dataDir) : undefined;
  const admin = deps.config.platformAdmin ?? local;
  if (!admin) return;
  const hash = await hashPassword(admin.password);
  // One upsert, not an update then an insert: replicas starting together (two api and two worker processes)
  // each run this, and the insert of the one that lost the race failed its start on the unique e-mail.
  await deps.db.system((tx) =>
    tx.query(
      `INSERT INTO platform_admins (id, email, password_hash, first_name, last_name) VALUES ($1, $2, $3, 'Platform', 'Administrator')
       ON CONFLICT (lower(email)) DO UPDATE SET password_hash = excluded.password_hash, updated_at = now()`,
      [newId('user'), admin.email, hash],
    ),
  );
  if (!local) {
    deps.log.info({ email: admin.email }, 'platform administrator ready');
    return;
  }
  const where = `${deps.config.publicUrl}/login`;
  deps.log.warn(
    { email: local.email, file: local.file },
    local.created
      ? `No platform administrator is configured (PLATFORM_ADMIN_EMAIL, PLATFORM_ADMIN_PASSWORD), so this development instance made a local one to approve new organizations: sign in at ${where} as ${local.email} with the password ${local.password} (kept in ${local.file}; never in production)`
      : `Development instance: new organizations are approved by the local platform administrator: sign in at ${where} as ${local.email} (its password is in ${local.file}; set PLATFORM_ADMIN_EMAIL and PLATFORM_ADMIN_PASSWORD to use your own)`,
  );
}

type Transition = 'approve' | 'reject' | 'suspend' | 'reactivate';

const TRANSITIONS: Record<Transition, { from: TenantStatus[]; to: TenantStatus }> = {
  approve: { from: ['PENDING_APPROVAL'], to: 'ACTIVE' },
  reject: { from: ['PENDING_APPROVAL'], to: 'REJECTED' },
  suspend: { from: ['ACTIVE'], to: 'SUSPENDED' },
  reactivate: { from: ['SUSPENDED'], to: 'ACTIVE' },
};

function adminTenant(r: Record<string, unknown>) {
  const t = toTenant(r);
  return {
    id: t.id,
    name: t.name,
    dotNumber: t.dotNumber,
    mcNumber: t.mcNumber,
    status: t.status,
    createdAt: t.createdAt,
    address: t.address,
    phone: t.phone,
    contactEmail: t.contactEmail,
    updatedAt: t.updatedAt,
    statusReason: t.statusReason,
    reviewedAt: isoOrNull(r.reviewed_at),
  };
}

/** Platform administration: review of registrations, suspension. Runs outside tenant scope by design. */
export function adminService(deps: Deps) {
  const { db, clock } = deps;
  return {
    async list(status: TenantStatus | undefined, page: number, pageSize: number) {
      const { rows, total } = await db.system((tx) =>
        selectPage(tx, { from: 'tenants', where: status ? 'status = $1' : 'true', orderBy: 'created_at DESC, id' }, status ? [status] : [], page, pageSize),
      );
      return { data: rows.map(adminTenant), total, page, pageSize };
    },

    async transition(ctx: PlatformContext, tenantId: string, action: Transition, reason?: string) {
      const rule = TRANSITIONS[action];
      const now = clock.now();
      const { tenant, owners } = await db.system(async (tx) => {
        const { rows } = await tx.query('SELECT * FROM tenants WHERE id = $1 FOR UPDATE', [tenantId]);
        const current = rows[0];
        if (!current) throw notFound('Tenant');
        if (!rule.from.includes(current.status as TenantStatus)) {
          throw invalidState(`Cannot ${action} a tenant that is ${String(current.status)}`);
        }
        const { rows: updated } = await tx.query(
          `UPDATE tenants SET status = $2, status_reason = $3, reviewed_by = $4, reviewed_at = $5, updated_at = $5 WHERE id = $1 RETURNING *`,
          [tenantId, rule.to, reason ?? null, ctx.adminId, now],
        );
        const { rows: ownerRows } = await tx.query<{ email: string; first_name: string }>(
          "SELECT email, first_name FROM users WHERE tenant_id = $1 AND role = 'OWNER' AND status = 'ACTIVE'",
          [tenantId],
        );
        return { tenant: adminTenant(updated[0]!), owners: ownerRows };
      });
      await deps.principals.changed({ tenantId });
      deps.log.info({ tenantId, action, adminId: ctx.adminId }, 'tenant status changed');
      await notify(deps, action, tenant, owners.map((o) => o.email), reason);
      return tenant;
    },
  };
}

async function notify(deps: Deps, action: Transition, tenant: { name: string; contactEmail: string }, owners: string[], reason?: string) {
  const to = [...new Set([...owners, tenant.contactEmail])].join(', ');
  const url = deps.config.publicUrl;
  const messages: Record<Transition, { subject: string; text: string }> = {
    approve: {
      subject: `Your organization ${tenant.name} is approved`,
      text: `Good news: ${tenant.name} has been approved. Every feature is now available: add drivers, vehicles and loads, and plan routes.\n\nSign in: ${url}/\n`,
    },
    reject: {
      subject: `Your registration of ${tenant.name} was not approved`,
      text: `The registration of ${tenant.name} was not approved.${reason ? `\nReason: ${reason}` : ''}\nContact support if you believe this is a mistake.\n`,
    },
    suspend: {
      subject: `Your organization ${tenant.name} is suspended`,
      text: `Access for ${tenant.name} has been suspended.${reason ? `\nReason: ${reason}` : ''}\nActive routes keep being monitored and your data is preserved. Contact support to restore access.\n`,
    },
    reactivate: {
      subject: `Your organization ${tenant.name} is active again`,
      text: `Access for ${tenant.name} has been restored.\n\nSign in: ${url}/\n`,
    },
  };
  try {
    await deps.mailer.send({ to, ...messages[action] });
  } catch (err) {
    deps.log.warn({ err, action }, 'tenant notification mail failed');
  }
}
