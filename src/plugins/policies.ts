/**
 * Roles and permissions (DESIGN §4), in one declarative place. Every route names the permission it
 * needs in its `config.access`; the auth plugin enforces it. A route without an access declaration
 * fails at start-up.
 */
export const TENANT_ROLES = ['OWNER', 'ADMIN', 'DISPATCHER', 'DRIVER', 'VIEWER'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];
export type Role = TenantRole | 'SUPER_ADMIN';

const ALL: readonly TenantRole[] = TENANT_ROLES;
const ADMINS: readonly TenantRole[] = ['OWNER', 'ADMIN'];
const OPERATIONS: readonly TenantRole[] = ['OWNER', 'ADMIN', 'DISPATCHER'];
const READERS: readonly TenantRole[] = ['OWNER', 'ADMIN', 'DISPATCHER', 'VIEWER'];

export const POLICIES = {
  'profile:read': ALL,
  'tenant:read': ALL,
  'settings:read': READERS,
  'settings:write': ADMINS,
  'users:read': ADMINS,
  'users:write': ADMINS,
  'invitations:read': ADMINS,
  'invitations:write': ADMINS,
  'api-keys:manage': ADMINS,
  // DRIVER users read their own driver profile only (the service narrows the scope).
  'drivers:read': ALL,
  'drivers:write': OPERATIONS,
  // A DRIVER user reads the HOS of, and records duty status for, their own driver profile only.
  'hos:read': ALL,
  'duty-status:write': ['OWNER', 'ADMIN', 'DISPATCHER', 'DRIVER'],
  // Corrections of a record of duty status: the driver makes them (applied at once); others request them.
  'logs:edit': ['OWNER', 'ADMIN', 'DISPATCHER', 'DRIVER'],
  // 49 CFR 395.30: only the driver accepts or rejects a requested correction and certifies a day.
  'logs:decide': ['DRIVER'],
  // The fleet's compliance: every driver's violations and records, not for DRIVER users.
  'compliance:read': ['OWNER', 'ADMIN', 'DISPATCHER', 'VIEWER'],
  // Unassigned driving (49 CFR 395.32): the carrier reviews it, assigns it to a driver or annotates it.
  'unassigned:read': READERS,
  'unassigned:write': OPERATIONS,
  'vehicles:read': READERS,
  'vehicles:write': OPERATIONS,
  'loads:read': READERS,
  'loads:write': OPERATIONS,
  'locations:read': READERS,
  'locations:write': OPERATIONS,
  // A DRIVER user sees their own routes and reports positions on them.
  'routes:read': ALL,
  'routes:write': OPERATIONS,
  // Dispatch candidates show every driver's location and clocks: not to DRIVER users.
  'dispatch:read': READERS,
  'positions:write': ['OWNER', 'ADMIN', 'DISPATCHER', 'DRIVER'],
  'rest:recommend': OPERATIONS,
  // A DRIVER user sees, acknowledges and annotates the alerts of their own driver profile only.
  'alerts:read': ALL,
  'alerts:write': ['OWNER', 'ADMIN', 'DISPATCHER', 'DRIVER'],
  'webhooks:read': READERS,
  'webhooks:write': ADMINS,
  'integrations:read': READERS,
  'integrations:write': ADMINS,
} as const satisfies Record<string, readonly TenantRole[]>;

export type Permission = keyof typeof POLICIES;

export function can(role: Role, permission: Permission): boolean {
  return role !== 'SUPER_ADMIN' && (POLICIES[permission] as readonly string[]).includes(role);
}

/** Who may call a route, and how. */
export type Access =
  /** No credentials. Rate-limited per client address unless rateLimit is false. */
  | { auth: 'public'; rateLimit?: boolean }
  /**
   * A tenant credential: a user access token, or (when apiKey is not false) an API key; with
   * queryApiKey, the key may also come as the `apiKey` query parameter (SSE: EventSource cannot set headers).
   */
  | { auth: 'tenant'; permission: Permission; apiKey?: boolean; allowPending?: boolean; queryApiKey?: boolean }
  /** The platform administrator's access token. */
  | { auth: 'platform' };
