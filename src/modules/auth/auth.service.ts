import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { sha256Hex } from '../../lib/crypto.js';
import { DomainError, RateLimitedError, invalid, unauthenticated } from '../../lib/errors.js';
import { LOGIN_LOCKOUT } from '../../infra/failure-lockout.js';
import { dummyHash, verifyPassword } from '../../lib/passwords.js';
import type { TenantContext, TenantStatus } from '../../plugins/context.js';
import { tenantBlock } from '../../plugins/auth.js';
import type { TenantRole } from '../../plugins/policies.js';
import { findUser } from '../users/users.repository.js';
import { IdTokenVerifier } from './idp.js';
import { RefreshReuseError, issueRefreshToken, revokeRefreshFamily, rotateRefreshToken } from './refresh-tokens.js';

interface Account {
  kind: 'user' | 'admin';
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: TenantRole | 'SUPER_ADMIN';
  tenantId: string | null;
  tenantName: string | null;
  tenantStatus: TenantStatus | null;
  active: boolean;
  passwordHash: string | null;
}

const ACCOUNT_BY = (column: 'email' | 'id') => `
  SELECT 'user' AS kind, u.id, u.email, u.first_name, u.last_name, u.role, u.tenant_id, t.name AS tenant_name,
         t.status AS tenant_status, u.status = 'ACTIVE' AS active, u.password_hash
    FROM users u JOIN tenants t ON t.id = u.tenant_id
   WHERE ${column === 'email' ? 'lower(u.email) = lower($1)' : 'u.id = $1'}
  UNION ALL
  SELECT 'admin', a.id, a.email, a.first_name, a.last_name, 'SUPER_ADMIN', NULL, NULL, NULL, true, a.password_hash
    FROM platform_admins a
   WHERE ${column === 'email' ? 'lower(a.email) = lower($1)' : 'a.id = $1'}
   LIMIT 1`;

async function findAccount(tx: Tx, column: 'email' | 'id', value: string): Promise<Account | null> {
  const { rows } = await tx.query<Record<string, unknown>>(ACCOUNT_BY(column), [value]);
  const r = rows[0];
  if (!r) return null;
  return {
    kind: r.kind as 'user' | 'admin',
    id: r.id as string,
    email: r.email as string,
    firstName: r.first_name as string,
    lastName: r.last_name as string,
    role: r.role as Account['role'],
    tenantId: (r.tenant_id as string | null) ?? null,
    tenantName: (r.tenant_name as string | null) ?? null,
    tenantStatus: (r.tenant_status as TenantStatus | null) ?? null,
    active: r.active === true,
    passwordHash: (r.password_hash as string | null) ?? null,
  };
}

/**
 * The per-account lockout key: the e-mail address as typed (trimmed, lower-cased), whether or not an
 * account has it, so unknown addresses are throttled exactly like known ones. Hashed: no addresses in Redis.
 */
export const loginThrottleKey = (email: string): string => `login:${sha256Hex(email.trim().toLowerCase())}`;

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: { id: string; userId: string; email: string; firstName: string; lastName: string; role: string; tenantId: string | null; tenantStatus: TenantStatus | null };
}

export function authService(deps: Deps) {
  const { db, clock, tokens } = deps;
  const idp = deps.config.oidc ? new IdTokenVerifier(deps.config.oidc) : null;

  /** The account may sign in (a suspended tenant may not); issues the access token and a new refresh family. */
  async function startSession(account: Account): Promise<Session> {
    if (!account.active) throw unauthenticated('This account is deactivated');
    if (account.tenantStatus && account.tenantName) {
      const block = tenantBlock({ tenantStatus: account.tenantStatus, tenantName: account.tenantName }, true);
      if (block) throw block;
    }
    const now = clock.now();
    const refreshToken = await db.system(async (tx) => {
      if (account.kind === 'user') await tx.query('UPDATE users SET last_login_at = $2 WHERE id = $1', [account.id, now]);
      return issueRefreshToken(tx, { tenantId: account.tenantId, subjectId: account.id }, now);
    });
    const accessToken = await tokens.issue({ userId: account.id, tenantId: account.tenantId, role: account.role }, now);
    return {
      accessToken,
      refreshToken,
      user: {
        id: account.id,
        userId: account.id,
        email: account.email,
        firstName: account.firstName,
        lastName: account.lastName,
        role: account.role,
        tenantId: account.tenantId,
        tenantStatus: account.tenantStatus,
      },
    };
  }

  return {
    startSession: (userId: string) =>
      db.system((tx) => findAccount(tx, 'id', userId)).then((a) => {
        if (!a) throw unauthenticated('Unknown user');
        return startSession(a);
      }),

    async login(email: string, password: string): Promise<Session> {
      // Every attempt counts against the address before the password is checked (so concurrent
      // guesses cannot pass the limit); a correct password clears the count.
      const throttleKey = loginThrottleKey(email);
      const gate = await deps.rateLimits.attempt(throttleKey, LOGIN_LOCKOUT, clock.now().getTime());
      if (!gate.allowed) {
        throw new RateLimitedError((s) => `Too many failed sign-in attempts for this e-mail address. Retry in ${s} seconds.`, gate.retryAfterMs);
      }
      const account = await db.system((tx) => findAccount(tx, 'email', email.trim()));
      // Verify against a dummy hash when there is no account, so the timing does not tell.
      const ok = await verifyPassword(account?.passwordHash ?? (await dummyHash()), password);
      if (!account || !account.passwordHash || !ok || !account.active) throw unauthenticated('Invalid email or password');
      await deps.rateLimits.clear(throttleKey);
      return startSession(account);
    },

    async mockLogin(userId: string): Promise<Session> {
      if (!deps.config.authMockLogin) throw invalid('Mock login is disabled; sign in with email and password');
      const account = await db.system((tx) => findAccount(tx, 'id', userId));
      if (!account || account.kind !== 'user') throw unauthenticated('Unknown user');
      return startSession(account);
    },

    async exchangeIdpToken(idToken: string): Promise<Session> {
      if (!idp) throw new DomainError('NOT_CONFIGURED', 'Identity provider is not configured');
      const claims = await idp.verify(idToken, clock.now());
      if (typeof claims.email !== 'string' || claims.email_verified === false) {
        throw unauthenticated('Identity token carries no verified email address');
      }
      const account = await db.system((tx) => findAccount(tx, 'email', claims.email as string));
      if (!account || account.kind !== 'user') throw unauthenticated('No account is linked to this identity');
      return startSession(account);
    },

    async refresh(raw: string | undefined): Promise<{ accessToken: string; refreshToken: string }> {
      if (!raw) throw unauthenticated('Missing refresh token cookie');
      const now = clock.now();
      const result = await db.system(async (tx) => {
        const rotated = await rotateRefreshToken(tx, raw, now);
        if (rotated instanceof RefreshReuseError) return rotated;
        const account = await findAccount(tx, 'id', rotated.subject.subjectId);
        return { account, token: rotated.token };
      });
      if (result instanceof RefreshReuseError) throw unauthenticated(result.message);
      const { account, token } = result;
      if (!account || !account.active) throw unauthenticated('This account is deactivated');
      if (account.tenantStatus && account.tenantName) {
        const block = tenantBlock({ tenantStatus: account.tenantStatus, tenantName: account.tenantName }, true);
        if (block) throw block;
      }
      const accessToken = await tokens.issue({ userId: account.id, tenantId: account.tenantId, role: account.role }, now);
      return { accessToken, refreshToken: token };
    },

    async logout(raw: string | undefined): Promise<void> {
      if (!raw) return;
      await db.system((tx) => revokeRefreshFamily(tx, raw, clock.now()));
    },

    async me(ctx: TenantContext) {
      const user = await db.tenant(ctx.tenantId, (tx) => findUser(tx, ctx.tenantId, ctx.userId));
      if (!user) throw unauthenticated('Unknown user');
      return {
        id: user.id,
        userId: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
        tenantId: user.tenantId,
        tenantStatus: ctx.tenantStatus,
        driverId: user.driverId,
        authenticatedWith: ctx.via,
      };
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
