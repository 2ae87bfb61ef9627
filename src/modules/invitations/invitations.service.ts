import type { Deps } from '../../deps.js';
import { selectPage } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { DomainError, forbidden, invalid, invalidState, isUniqueViolation, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashPassword } from '../../lib/passwords.js';
import { iso, isoOrNull } from '../../lib/rows.js';
import type { TenantContext } from '../../plugins/context.js';
import { tenantBlock } from '../../plugins/auth.js';
import type { TenantRole } from '../../plugins/policies.js';
import type { AuthService } from '../auth/auth.service.js';
import { findDriver, linkDriverToUser } from '../drivers/drivers.repository.js';
import { emailTaken, insertUser } from '../users/users.repository.js';

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

export interface InvitationInput {
  email: string;
  role: TenantRole;
  firstName?: string;
  lastName?: string;
  driverId?: string;
}

/** PENDING past its expiry reads as EXPIRED; the stored row keeps what happened to it. */
function toInvitation(r: Record<string, unknown>, now: Date) {
  const expiresAt = iso(r.expires_at);
  const status = r.status === 'PENDING' && new Date(expiresAt).getTime() <= now.getTime() ? 'EXPIRED' : (r.status as string);
  return {
    id: r.id as string,
    email: r.email as string,
    role: r.role as string,
    firstName: (r.first_name as string | null) ?? null,
    lastName: (r.last_name as string | null) ?? null,
    driverId: (r.driver_id as string | null) ?? null,
    status,
    invitedBy: r.invited_by as string,
    expiresAt,
    createdAt: iso(r.created_at),
    acceptedAt: isoOrNull(r.accepted_at),
    revokedAt: isoOrNull(r.revoked_at),
  };
}

async function findInvitation(tx: Tx, tenantId: string, id: string) {
  const { rows } = await tx.query('SELECT * FROM user_invitations WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenantId, id]);
  return rows[0] ?? null;
}

export function invitationsService(deps: Deps, auth: AuthService) {
  const { db, clock } = deps;

  /** The pending invitation the token names, with its tenant and inviter; a clear 400 (403) otherwise. */
  async function usableInvitation(token: string, now: Date) {
    const found = await db.system(async (tx) => {
      const { rows } = await tx.query(
        `SELECT i.*, t.name AS tenant_name, t.status AS tenant_status, u.first_name AS inviter_first_name, u.last_name AS inviter_last_name
           FROM user_invitations i JOIN tenants t ON t.id = i.tenant_id LEFT JOIN users u ON u.tenant_id = i.tenant_id AND u.id = i.invited_by
          WHERE i.token_hash = $1`,
        [sha256Hex(token)],
      );
      return rows[0] ?? null;
    });
    if (!found) throw invalid('This invitation link is not valid');
    if (found.status === 'ACCEPTED') throw invalid('This invitation has already been used');
    if (found.status === 'REVOKED') throw invalid('This invitation has been revoked');
    if (new Date(found.expires_at as string).getTime() <= now.getTime()) throw invalid('This invitation has expired; ask for a new one');
    const block = tenantBlock({ tenantStatus: found.tenant_status as never, tenantName: found.tenant_name as string }, true);
    if (block) throw block;
    return found;
  }

  return {
    async create(ctx: TenantContext, input: InvitationInput) {
      const email = input.email.trim();
      if (input.role === 'OWNER' && ctx.role !== 'OWNER') throw forbidden('Only an OWNER may invite another OWNER');
      if (input.driverId && input.role !== 'DRIVER') throw invalid('Validation failed', [{ field: 'body.driverId', message: 'is allowed only with role DRIVER' }]);
      if (await db.system((tx) => emailTaken(tx, email))) throw new DomainError('CONFLICT', 'An account with this e-mail address already exists');
      const token = randomToken(32);
      const now = clock.now();
      const row = await db.tenant(ctx.tenantId, async (tx) => {
        if (input.driverId) {
          const driver = await findDriver(tx, ctx.tenantId, input.driverId);
          if (!driver) throw invalid('Validation failed', [{ field: 'body.driverId', message: 'does not name a driver of this organization' }]);
          if (driver.userId) throw invalidState('This driver profile is already linked to a user');
          const other = await tx.query(
            "SELECT 1 FROM user_invitations WHERE tenant_id = $1 AND driver_id = $2 AND status = 'PENDING' AND expires_at > $3",
            [ctx.tenantId, input.driverId, now],
          );
          if (other.rows.length > 0) throw new DomainError('CONFLICT', 'A pending invitation already links this driver profile; revoke it first');
        }
        const pending = await tx.query(
          "SELECT 1 FROM user_invitations WHERE tenant_id = $1 AND lower(email) = lower($2) AND status = 'PENDING' AND expires_at > $3",
          [ctx.tenantId, email, now],
        );
        if (pending.rows.length > 0) throw new DomainError('CONFLICT', 'A pending invitation for this e-mail address already exists; revoke it first');
        const { rows } = await tx.query(
          `INSERT INTO user_invitations (tenant_id, id, email, role, first_name, last_name, driver_id, token_hash, status, invited_by, expires_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING', $9, $10, $11) RETURNING *`,
          [ctx.tenantId, newId('invitation'), email, input.role, input.firstName?.trim() || null, input.lastName?.trim() || null, input.driverId ?? null, sha256Hex(token), ctx.userId, new Date(now.getTime() + INVITATION_TTL_MS), now],
        );
        const { rows: t } = await tx.query<{ name: string }>('SELECT name FROM tenants WHERE id = $1', [ctx.tenantId]);
        return { invitation: rows[0]!, tenantName: t[0]?.name ?? 'your organization' };
      });
      const link = `${deps.config.publicUrl}/accept-invitation?token=${encodeURIComponent(token)}`;
      await deps.mailer
        .send({
          to: email,
          subject: `You are invited to join ${row.tenantName}`,
          text:
            `Hello${input.firstName ? ` ${input.firstName}` : ''},\n\nYou have been invited to join ${row.tenantName} as ${input.role}.\n` +
            `Accept the invitation and create your account:\n${link}\n\nThe invitation expires in 7 days.\n`,
        })
        .catch((err: unknown) => deps.log.warn({ err }, 'invitation mail failed'));
      return toInvitation(row.invitation, now);
    },

    async list(ctx: TenantContext, page: number, pageSize: number) {
      const now = clock.now();
      const { rows, total } = await db.tenant(ctx.tenantId, (tx) =>
        selectPage(tx, { from: 'user_invitations', where: 'tenant_id = $1', orderBy: 'created_at DESC, id' }, [ctx.tenantId], page, pageSize),
      );
      return { data: rows.map((r) => toInvitation(r, now)), total, page, pageSize };
    },

    async revoke(ctx: TenantContext, id: string) {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const row = await findInvitation(tx, ctx.tenantId, id);
        if (!row) throw notFound('Invitation');
        if (row.status !== 'PENDING') throw invalidState(`Invitation is already ${String(row.status)}`);
        const { rows } = await tx.query("UPDATE user_invitations SET status = 'REVOKED', revoked_at = $3 WHERE tenant_id = $1 AND id = $2 RETURNING *", [ctx.tenantId, id, now]);
        return toInvitation(rows[0]!, now);
      });
    },

    /** What the invitation page shows before the invitee accepts: who invites whom, to what, until when. */
    async lookup(token: string) {
      const r = await usableInvitation(token, clock.now());
      const inviter = [r.inviter_first_name, r.inviter_last_name].filter(Boolean).join(' ');
      return {
        email: r.email as string,
        role: r.role as string,
        firstName: (r.first_name as string | null) ?? null,
        lastName: (r.last_name as string | null) ?? null,
        organizationName: r.tenant_name as string,
        invitedByName: inviter || null,
        linksDriverProfile: Boolean(r.driver_id),
        expiresAt: iso(r.expires_at),
      };
    },

    /** The invitee accepts with the token from the e-mail: the account is created and signed in. */
    async accept(input: { token: string; password: string; firstName?: string; lastName?: string }) {
      const now = clock.now();
      const found = await usableInvitation(input.token, now);
      const firstName = input.firstName?.trim() || (found.first_name as string | null);
      const lastName = input.lastName?.trim() || (found.last_name as string | null);
      if (!firstName || !lastName) {
        throw invalid('Validation failed', [{ field: 'body.firstName', message: 'firstName and lastName are required (the invitation does not carry them)' }]);
      }
      const passwordHash = await hashPassword(input.password);
      const tenantId = found.tenant_id as string;
      let userId: string;
      try {
        userId = await db.tenant(tenantId, async (tx) => {
          // Re-read under lock: two concurrent accepts of one token must not both succeed.
          const row = await findInvitation(tx, tenantId, found.id as string);
          if (!row || row.status !== 'PENDING') throw invalid('This invitation has already been used');
          const user = await insertUser(tx, { tenantId, id: newId('user'), email: row.email as string, passwordHash, firstName, lastName, role: row.role as TenantRole }, now);
          if (row.driver_id) {
            const driver = await findDriver(tx, tenantId, row.driver_id as string, true);
            if (!driver || driver.userId) throw invalidState('The driver profile of this invitation is no longer available; ask for a new invitation');
            await linkDriverToUser(tx, tenantId, driver.id, user.id, now);
          }
          await tx.query("UPDATE user_invitations SET status = 'ACCEPTED', accepted_at = $3, accepted_user_id = $4 WHERE tenant_id = $1 AND id = $2", [tenantId, row.id, now, user.id]);
          return user.id;
        });
      } catch (err) {
        if (isUniqueViolation(err, 'users_email_key')) throw new DomainError('CONFLICT', 'An account with this e-mail address already exists');
        throw err;
      }
      return auth.startSession(userId);
    },
  };
}
