import { randomUUID } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { sha256Hex } from '../../lib/crypto.js';
import { DomainError, forbidden, unauthenticated } from '../../lib/errors.js';
import { API_KEY_PATTERN, tenantBlock } from '../../plugins/auth.js';
import type { TenantContext } from '../../plugins/context.js';
import { can, type Permission } from '../../plugins/policies.js';

const HOUR_MS = 3_600_000;

export type RealtimeAuthDeps = Pick<Deps, 'config' | 'clock' | 'tokens' | 'principals' | 'apiKeyUsage' | 'rateLimits'>;

/**
 * The tenant context behind a credential given outside an HTTP request (the Socket.IO handshake's
 * `auth.token`, and again before each acknowledgement and at each check of a long-lived connection):
 * an API key or a user access token, judged as the HTTP auth plugin judges them: unknown, revoked or
 * expired → UNAUTHENTICATED; a suspended or pending tenant → TENANT_SUSPENDED / TENANT_PENDING; a role
 * without the permission → FORBIDDEN. `countRequest` counts it against the credential's rate limit
 * (the handshake does; re-checks do not).
 */
export async function authenticateCredential(
  deps: RealtimeAuthDeps,
  token: unknown,
  permission: Permission,
  opts: { countRequest: boolean },
): Promise<TenantContext> {
  if (typeof token !== 'string' || token.length === 0) throw unauthenticated('Missing credentials: send auth.token (an API key or an access token)');
  const now = deps.clock.now();
  const requestId = randomUUID();
  if (token.startsWith('sk_')) {
    if (!API_KEY_PATTERN.test(token)) throw unauthenticated('Invalid or revoked API key');
    const keyHash = sha256Hex(token);
    let p = await deps.principals.apiKey(keyHash, now.getTime());
    if (!p || p.revoked || !p.userActive) throw unauthenticated('Invalid or revoked API key');
    if (opts.countRequest) {
      const limit = p.environment === 'production' ? deps.config.rateLimits.productionPerHour : deps.config.rateLimits.stagingPerHour;
      const d = await deps.rateLimits.hit(`key:${p.apiKeyId}`, limit, HOUR_MS, now.getTime());
      if (deps.principals.observe(d.epoch)) p = await deps.principals.apiKey(keyHash, now.getTime());
      if (!p || p.revoked || !p.userActive) throw unauthenticated('Invalid or revoked API key');
      if (!d.allowed) throw new DomainError('RATE_LIMITED', `Rate limit exceeded. Retry in ${Math.max(1, Math.ceil(d.retryAfterMs / 1000))} seconds.`);
      deps.apiKeyUsage.used(p.tenantId, p.apiKeyId, now.getTime());
    }
    const block = tenantBlock(p, false);
    if (block) throw block;
    if (!can(p.role, permission)) throw forbidden(`Role ${p.role} may not perform this action`);
    return { kind: 'tenant', requestId, tenantId: p.tenantId, tenantStatus: p.tenantStatus, userId: p.userId, role: p.role, via: 'apiKey', apiKeyId: p.apiKeyId };
  }

  const claims = await deps.tokens.verify(token, now);
  if (opts.countRequest) {
    const d = await deps.rateLimits.hit(`user:${claims.userId}`, deps.config.rateLimits.userPerHour, HOUR_MS, now.getTime());
    deps.principals.observe(d.epoch);
    if (!d.allowed) throw new DomainError('RATE_LIMITED', `Rate limit exceeded. Retry in ${Math.max(1, Math.ceil(d.retryAfterMs / 1000))} seconds.`);
  }
  if (claims.role === 'SUPER_ADMIN') throw forbidden('Platform administrators act through the admin endpoints');
  const p = await deps.principals.user(claims.userId, now.getTime());
  if (!p || !p.userActive) throw unauthenticated('Invalid access token');
  const block = tenantBlock(p, false);
  if (block) throw block;
  if (!can(p.role, permission)) throw forbidden(`Role ${p.role} may not perform this action`);
  return { kind: 'tenant', requestId, tenantId: p.tenantId, tenantStatus: p.tenantStatus, userId: p.userId, role: p.role, via: 'token' };
}

/**
 * The current context of a long-lived connection's principal (`apiKey`: the key it opened with, when
 * it opened with one), re-read from the principal cache (no database work most of the time): the key
 * not revoked, the user active, the tenant not suspended, the role still allowed `permission`. An
 * access token's expiry does not end a connection it opened (it was valid when the connection opened).
 */
export async function currentContext(deps: RealtimeAuthDeps, ctx: TenantContext, apiKey: string | undefined, permission: Permission): Promise<TenantContext> {
  const nowMs = deps.clock.now().getTime();
  if (ctx.via === 'apiKey') {
    const k = apiKey ? await deps.principals.apiKey(sha256Hex(apiKey), nowMs) : null;
    if (!k || k.revoked || k.apiKeyId !== ctx.apiKeyId) throw unauthenticated('Invalid or revoked API key');
  }
  const p = await deps.principals.user(ctx.userId, nowMs);
  if (!p || !p.userActive || p.tenantId !== ctx.tenantId) throw unauthenticated('Invalid access token');
  const block = tenantBlock(p, false);
  if (block) throw block;
  if (!can(p.role, permission)) throw forbidden(`Role ${p.role} may not perform this action`);
  return { ...ctx, requestId: randomUUID(), tenantStatus: p.tenantStatus, role: p.role };
}

/** Whether a long-lived connection may go on receiving alerts (see currentContext). */
export async function stillAuthorized(deps: RealtimeAuthDeps, ctx: TenantContext, apiKey: string | undefined): Promise<boolean> {
  try {
    await currentContext(deps, ctx, apiKey, 'alerts:read');
    return true;
  } catch (err) {
    // Only a verdict ends the connection; a passing failure to look (the database) does not.
    return !(err instanceof DomainError);
  }
}
