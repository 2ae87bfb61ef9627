/**
 * What the auth plugin needs to know about credentials, as small ports: who a credential stands for,
 * and the three services that find and record it. Implemented by modules/auth (AccessTokens,
 * PrincipalDirectory) and modules/api-keys (ApiKeyUsage); declared here so that the plugin, which every
 * module builds on, does not depend on the modules.
 */
import type { TenantStatus } from './context.js';
import type { Role, TenantRole } from './policies.js';

/** The claims of a verified access token. */
export interface AccessClaims {
  userId: string;
  tenantId: string | null;
  role: Role;
}

/** The current role, status and tenant status behind a user's access token. */
export interface TenantPrincipal {
  tenantId: string;
  tenantName: string;
  tenantStatus: TenantStatus;
  userId: string;
  role: TenantRole;
  userActive: boolean;
}

/** The same, behind an API key (which acts with its user's role). */
export interface ApiKeyPrincipal extends TenantPrincipal {
  apiKeyId: string;
  environment: 'staging' | 'production';
  revoked: boolean;
}

/** Checks an access token; throws UNAUTHENTICATED when it is invalid or expired. */
export interface AccessTokenVerifier {
  verify(token: string, now: Date): Promise<AccessClaims>;
}

/** Finds the principal behind a credential (cached), and hears of the shared credentials epoch. */
export interface PrincipalLookup {
  user(userId: string, nowMs: number): Promise<TenantPrincipal | null>;
  /** By the key's SHA-256 (the plaintext is never kept). */
  apiKey(keyHash: string, nowMs: number): Promise<ApiKeyPrincipal | null>;
  /** Returns true when the epoch moved since last seen: what was looked up must be looked up again. */
  observe(epoch: string | null | undefined): boolean;
}

/** Notes that an API key was used (its `last_used_at`); cheap, called on every request made with a key. */
export interface ApiKeyUseRecorder {
  used(tenantId: string, apiKeyId: string, nowMs: number): void;
}
