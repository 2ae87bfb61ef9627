/**
 * Users and invitations on the settings page: the roles one may give, who may change whom, how a driver
 * profile is offered for linking, and reading every page of a list. Pure but for the loader passed in;
 * tested in users.test.ts.
 */
import type { Body } from '../api/client';

export type Role = Body<'/api/v1/user-invitations', 'post'>['role'];

export const ROLES: Array<{ value: Role; label: string; hint: string }> = [
  { value: 'OWNER', label: 'Owner', hint: 'everything, including owners' },
  { value: 'ADMIN', label: 'Admin', hint: 'settings, users, API keys, webhooks, integrations' },
  { value: 'DISPATCHER', label: 'Dispatcher', hint: 'plans routes, manages drivers, vehicles, loads and alerts' },
  { value: 'VIEWER', label: 'Viewer', hint: 'reads everything, changes nothing' },
  { value: 'DRIVER', label: 'Driver', hint: 'sees only their own route and clocks' },
];

/** The roles `myRole` may give: only an owner makes owners. */
export function rolesGivenBy(myRole: string | null | undefined): typeof ROLES {
  return ROLES.filter((r) => r.value !== 'OWNER' || myRole === 'OWNER');
}

/** Nobody changes themselves or an inactive user; only an OWNER touches an OWNER. */
export function canChangeUser(user: { id: string; role: string; status: string }, me: { id: string | null | undefined; role: string | null | undefined }): boolean {
  return user.id !== me.id && user.status === 'ACTIVE' && (user.role !== 'OWNER' || me.role === 'OWNER');
}

/** A driver profile as offered for linking: name, licence, and truck when it has one. */
export function driverChoiceLabel(d: { firstName: string; lastName: string; licenseState: string; licenseNumber: string; truckNumber?: string | null }): string {
  return `${d.firstName} ${d.lastName} · ${d.licenseState} ${d.licenseNumber}${d.truckNumber ? ` · truck ${d.truckNumber}` : ''}`;
}

/** Every page of a list, read one page after another until the total is reached (or a page is empty). */
export async function allPages<T>(load: (page: number) => Promise<{ data: T[]; total: number }>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const p = await load(page);
    out.push(...p.data);
    if (p.data.length === 0 || out.length >= p.total) return out;
  }
}
