import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { approvalHint } from '../infra/local-admin.js';
import { sha256Hex } from '../lib/crypto.js';
import { DomainError, forbidden, unauthenticated } from '../lib/errors.js';
import type { Clock } from '../lib/time.js';
import type { RateDecision, RateLimitStore } from '../infra/rate-limit-store.js';
import type { AccessTokenVerifier, ApiKeyPrincipal, ApiKeyUseRecorder, PrincipalLookup, TenantPrincipal } from './auth.port.js';
import type { TenantContext } from './context.js';
import { can, type Access } from './policies.js';

export const API_KEY_PATTERN = /^sk_(staging|live)_[0-9A-Za-z]{32}$/;
const HOUR_MS = 3_600_000;

export interface AuthDeps {
  config: Config;
  clock: Clock;
  tokens: AccessTokenVerifier;
  principals: PrincipalLookup;
  apiKeyUsage: ApiKeyUseRecorder;
  rateLimits: RateLimitStore;
}

/** One entry per method and path the app serves, with its access declaration (used by the security test suite). */
export interface CatalogRoute {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalog: CatalogRoute[];
  }
}

/** Routes that answer without a declaration of their own (documentation) are public. */
const PUBLIC_PREFIXES = ['/docs', '/api/v1/openapi.json'];

/**
 * Why a tenant's status stops this request, or null. `pendingHint`: how a pending organization gets
 * approved on this instance (a development instance's, infra/local-admin.ts), added to its 403.
 */
export function tenantBlock(p: Pick<TenantPrincipal, 'tenantStatus' | 'tenantName'>, allowPending: boolean, pendingHint?: string): DomainError | null {
  if (p.tenantStatus === 'SUSPENDED') {
    return new DomainError('TENANT_SUSPENDED', `Tenant "${p.tenantName}" is suspended. Contact support to restore access.`);
  }
  if (!allowPending && p.tenantStatus === 'PENDING_APPROVAL') {
    const message = `Tenant "${p.tenantName}" is pending approval. This action is available once a platform administrator approves the organization.`;
    return new DomainError('TENANT_PENDING', pendingHint ? `${message} ${pendingHint}` : message);
  }
  if (!allowPending && p.tenantStatus === 'REJECTED') {
    return new DomainError('TENANT_PENDING', `Tenant "${p.tenantName}" registration was rejected. Contact support for details.`);
  }
  return null;
}

/**
 * Authentication, tenant status, permission and rate limit, decided in one onRequest hook from the
 * route's declared `access`. Every route must declare one (checked as routes are added), so no route
 * can be left open by omission.
 */
export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('auth', null);
  const pendingHint = approvalHint(deps.config);
  const catalog: CatalogRoute[] = [];
  app.decorate('routeCatalog', catalog);
  const record = (route: { method: string | string[]; url: string }, access: Access) => {
    for (const method of [route.method].flat()) catalog.push({ method, url: route.url, access });
  };

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { access?: Access };
    if (config.access) return record(route, config.access);
    if (PUBLIC_PREFIXES.some((p) => route.url.startsWith(p)) || route.url === '/metrics') {
      const access: Access = { auth: 'public', rateLimit: false };
      route.config = { ...config, access } as typeof route.config;
      return record(route, access);
    }
    throw new Error(`route ${route.method} ${route.url} has no access declaration`);
  });

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    if (!access) return; // unknown route: the not-found handler answers
    if (access.auth === 'public') {
      if (access.rateLimit !== false) enforce(reply, await countRequest(deps, reply, `ip:${request.ip}`, deps.config.rateLimits.anonymousPerHour));
      return;
    }
    const credential = readCredential(request, access.auth === 'tenant' && access.queryApiKey === true);
    if (!credential) throw unauthenticated('Missing credentials: send Authorization: Bearer <token> or X-API-Key: <key>');
    const now = deps.clock.now();

    if (credential.type === 'apiKey') {
      const keyHash = sha256Hex(credential.value);
      const valid = (p: ApiKeyPrincipal | null): ApiKeyPrincipal => {
        if (!p || p.revoked || !p.userActive) throw unauthenticated('Invalid or revoked API key');
        return p;
      };
      let p = valid(await deps.principals.apiKey(keyHash, now.getTime()));
      const limit = p.environment === 'production' ? deps.config.rateLimits.productionPerHour : deps.config.rateLimits.stagingPerHour;
      const counted = await countRequest(deps, reply, `key:${p.apiKeyId}`, limit);
      // The key was found before the epoch was known: if a change happened anywhere meanwhile, look again.
      if (deps.principals.observe(counted.epoch)) p = valid(await deps.principals.apiKey(keyHash, now.getTime()));
      enforce(reply, counted);
      deps.apiKeyUsage.used(p.tenantId, p.apiKeyId, now.getTime());
      if (access.auth === 'platform') throw forbidden('This endpoint is for platform administrators');
      // A suspended or pending tenant hears about its status first, on every route.
      const block = tenantBlock(p, access.allowPending === true, pendingHint);
      if (block) throw block;
      if (access.apiKey === false) throw forbidden('This endpoint requires a user access token, not an API key');
      request.auth = authorize(request, p, access, { via: 'apiKey', apiKeyId: p.apiKeyId }, pendingHint);
      return;
    }

    const claims = await deps.tokens.verify(credential.value, now);
    const counted = await countRequest(deps, reply, `user:${claims.userId}`, deps.config.rateLimits.userPerHour);
    deps.principals.observe(counted.epoch);
    enforce(reply, counted);
    if (claims.role === 'SUPER_ADMIN') {
      if (access.auth !== 'platform') throw forbidden('Platform administrators act through the admin endpoints');
      request.auth = { kind: 'platform', requestId: String(request.id), adminId: claims.userId };
      return;
    }
    // A deactivated user's token is revoked: 401 everywhere, before any 403.
    const p = await deps.principals.user(claims.userId, now.getTime());
    if (!p || !p.userActive) throw unauthenticated('Invalid access token');
    if (access.auth === 'platform') throw forbidden('This endpoint is for platform administrators');
    request.auth = authorize(request, p, access, { via: 'token' }, pendingHint);
  });
}

function authorize(
  request: FastifyRequest,
  p: TenantPrincipal,
  access: Extract<Access, { auth: 'tenant' }>,
  via: { via: 'token' | 'apiKey'; apiKeyId?: string },
  pendingHint: string | undefined,
): TenantContext {
  const block = tenantBlock(p, access.allowPending === true, pendingHint);
  if (block) throw block;
  if (!can(p.role, access.permission)) throw forbidden(`Role ${p.role} may not perform this action`);
  return { kind: 'tenant', requestId: String(request.id), tenantId: p.tenantId, tenantStatus: p.tenantStatus, userId: p.userId, role: p.role, ...via };
}

function readCredential(request: FastifyRequest, queryApiKey: boolean): { type: 'apiKey' | 'bearer'; value: string } | null {
  const fromQuery = queryApiKey ? (request.query as Record<string, unknown> | undefined)?.apiKey : undefined;
  const key = request.headers['x-api-key'] ?? (typeof fromQuery === 'string' && request.headers.authorization === undefined ? fromQuery : undefined);
  if (typeof key === 'string' && key.length > 0) {
    if (!API_KEY_PATTERN.test(key)) throw unauthenticated('Invalid or revoked API key');
    return { type: 'apiKey', value: key };
  }
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length === 0) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) throw unauthenticated('Authorization header must be "Bearer <token>"');
  const value = m[1]!;
  if (value.startsWith('sk_')) {
    if (!API_KEY_PATTERN.test(value)) throw unauthenticated('Invalid or revoked API key');
    return { type: 'apiKey', value };
  }
  return { type: 'bearer', value };
}

/** Counts the request against the credential's allowance and sets the rate-limit headers. */
async function countRequest(deps: AuthDeps, reply: FastifyReply, key: string, limit: number): Promise<RateDecision> {
  const nowMs = deps.clock.now().getTime();
  const d = await deps.rateLimits.hit(key, limit, HOUR_MS, nowMs);
  const resetSeconds = Math.max(0, Math.ceil((d.resetAtMs - nowMs) / 1000));
  void reply.header('X-RateLimit-Limit', String(limit));
  void reply.header('X-RateLimit-Remaining', String(d.remaining));
  void reply.header('X-RateLimit-Reset', String(Math.ceil(d.resetAtMs / 1000)));
  void reply.header('RateLimit-Policy', `"hourly";q=${limit};w=3600`);
  void reply.header('RateLimit', `"hourly";r=${d.remaining};t=${resetSeconds}`);
  return d;
}

/** 429 with Retry-After when the allowance is spent. */
function enforce(reply: FastifyReply, d: RateDecision): void {
  if (d.allowed) return;
  const retry = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
  void reply.header('Retry-After', String(retry));
  throw new DomainError('RATE_LIMITED', `Rate limit exceeded. Retry in ${retry} seconds.`);
}
