import type { Deps } from '../../deps.js';
import { emitEvent } from '../../db/outbox.js';
import { DomainError, isUniqueViolation, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashPassword } from '../../lib/passwords.js';
import type { TenantContext } from '../../plugins/context.js';
import { defaultAlertSettings, defaultMonitoringSettings } from '../settings/settings.defaults.js';
import { approvalHint } from '../../infra/local-admin.js';
import { emailTaken, insertUser } from '../users/users.repository.js';
import { findOwnTenant, insertTenant, type TenantRecord } from './tenants.repository.js';

export interface RegistrationInput {
  organization: { name: string; address: string; phone: string; contactEmail: string; dotNumber?: string; mcNumber?: string };
  adminUser: { firstName: string; lastName: string; email: string; password: string };
}

export const REGISTRATION_MESSAGE =
  'Registration received. Your organization is pending approval by a platform administrator. You can sign in now to view your profile; ' +
  'drivers, vehicles, loads and routes become available once the organization is approved, and you will be notified by e-mail.';

export function publicTenant(t: TenantRecord) {
  return { id: t.id, name: t.name, dotNumber: t.dotNumber, mcNumber: t.mcNumber, status: t.status, createdAt: t.createdAt };
}

export function tenantsService(deps: Deps) {
  const { db, clock } = deps;
  const hint = approvalHint(deps.config);
  const registrationMessage = hint ? `${REGISTRATION_MESSAGE} ${hint}` : REGISTRATION_MESSAGE;
  return {
    async register(input: RegistrationInput) {
      const { organization: org, adminUser } = input;
      const email = adminUser.email.trim();
      const duplicate = () => new DomainError('CONFLICT', 'An account with this e-mail address already exists');
      if (await db.system((tx) => emailTaken(tx, email))) throw duplicate();
      const passwordHash = await hashPassword(adminUser.password);
      const now = clock.now();
      try {
        const result = await db.system(async (tx) => {
          const tenant = await insertTenant(
            tx,
            {
              id: newId('tenant'),
              name: org.name.trim(),
              address: org.address.trim(),
              phone: org.phone.trim(),
              contactEmail: org.contactEmail.trim(),
              dotNumber: org.dotNumber?.trim() || null,
              mcNumber: org.mcNumber?.trim() || null,
            },
            now,
          );
          const user = await insertUser(
            tx,
            { tenantId: tenant.id, id: newId('user'), email, passwordHash, firstName: adminUser.firstName.trim(), lastName: adminUser.lastName.trim(), role: 'OWNER' },
            now,
          );
          await tx.query('INSERT INTO tenant_settings (tenant_id, alerts, monitoring, updated_at) VALUES ($1, $2, $3, $4)', [
            tenant.id,
            JSON.stringify(defaultAlertSettings()),
            JSON.stringify(defaultMonitoringSettings(deps.config.monitoringIntervalSeconds)),
            now,
          ]);
          await emitEvent(tx, tenant.id, 'tenant.registered', { tenantId: tenant.id, name: tenant.name }, now);
          return { tenant, user };
        });
        await deps.mailer
          .send({
            to: email,
            subject: `Registration received: ${result.tenant.name}`,
            text: `Hello ${result.user.firstName},\n\n${registrationMessage}\n\nSign in: ${deps.config.publicUrl}/\n`,
          })
          .catch((err: unknown) => deps.log.warn({ err }, 'registration mail failed'));
        return {
          tenant: publicTenant(result.tenant),
          user: { id: result.user.id, firstName: result.user.firstName, lastName: result.user.lastName, email: result.user.email, role: result.user.role, tenantId: result.user.tenantId },
          message: registrationMessage,
        };
      } catch (err) {
        if (isUniqueViolation(err, 'users_email_key')) throw duplicate();
        throw err;
      }
    },

    async get(ctx: TenantContext) {
      const t = await db.tenant(ctx.tenantId, (tx) => findOwnTenant(tx, ctx.tenantId));
      if (!t) throw notFound('Tenant');
      return {
        ...publicTenant(t),
        address: t.address,
        phone: t.phone,
        contactEmail: t.contactEmail,
        updatedAt: t.updatedAt,
        ...(t.status === 'PENDING_APPROVAL' && hint ? { approvalHint: hint } : {}),
      };
    },
  };
}
