import type { FastifyRequest } from 'fastify';
import type { TenantRole } from './policies.js';
import type { Access } from './policies.js';

export type TenantStatus = 'PENDING_APPROVAL' | 'ACTIVE' | 'REJECTED' | 'SUSPENDED';

/** Who is calling, for which tenant: built once per request by the auth plugin, passed first to services. */
export interface TenantContext {
  kind: 'tenant';
  requestId: string;
  tenantId: string;
  tenantStatus: TenantStatus;
  userId: string;
  role: TenantRole;
  via: 'token' | 'apiKey';
  apiKeyId?: string;
}

export interface PlatformContext {
  kind: 'platform';
  requestId: string;
  adminId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: TenantContext | PlatformContext | null;
  }
}

export function tenantCtx(request: FastifyRequest): TenantContext {
  if (request.auth?.kind !== 'tenant') throw new Error('route reached without a tenant context');
  return request.auth;
}

export function platformCtx(request: FastifyRequest): PlatformContext {
  if (request.auth?.kind !== 'platform') throw new Error('route reached without a platform context');
  return request.auth;
}
