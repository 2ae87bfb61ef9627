import { describe, expect, it } from 'vitest';
import { allPages, canChangeUser, driverChoiceLabel, rolesGivenBy } from './users';

describe('users and invitations', () => {
  it('lets only an owner give the owner role', () => {
    expect(rolesGivenBy('OWNER').map((r) => r.value)).toEqual(['OWNER', 'ADMIN', 'DISPATCHER', 'VIEWER', 'DRIVER']);
    expect(rolesGivenBy('ADMIN').map((r) => r.value)).toEqual(['ADMIN', 'DISPATCHER', 'VIEWER', 'DRIVER']);
  });

  it('changes nobody’s own account, no inactive user, and an owner only as an owner', () => {
    const admin = { id: 'usr_admin', role: 'ADMIN' };
    const owner = { id: 'usr_owner', role: 'OWNER' };
    expect(canChangeUser({ id: 'usr_1', role: 'DISPATCHER', status: 'ACTIVE' }, admin)).toBe(true);
    expect(canChangeUser({ id: 'usr_admin', role: 'ADMIN', status: 'ACTIVE' }, admin)).toBe(false);
    expect(canChangeUser({ id: 'usr_1', role: 'DISPATCHER', status: 'INACTIVE' }, admin)).toBe(false);
    expect(canChangeUser({ id: 'usr_2', role: 'OWNER', status: 'ACTIVE' }, admin)).toBe(false);
    expect(canChangeUser({ id: 'usr_2', role: 'OWNER', status: 'ACTIVE' }, owner)).toBe(true);
  });

  it('offers a driver profile by name, licence and truck', () => {
    const d = { firstName: 'Rosa', lastName: 'Diaz', licenseState: 'TX', licenseNumber: 'D123' };
    expect(driverChoiceLabel(d)).toBe('Rosa Diaz · TX D123');
    expect(driverChoiceLabel({ ...d, truckNumber: 'T-9' })).toBe('Rosa Diaz · TX D123 · truck T-9');
  });

  it('reads every page of a list, stopping at the total or an empty page', async () => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    const asked: number[] = [];
    const load = async (page: number) => {
      asked.push(page);
      return { data: items.slice((page - 1) * 100, page * 100), total: items.length };
    };
    expect(await allPages(load)).toEqual(items);
    expect(asked).toEqual([1, 2, 3]);
    // A total that overstates what is there does not loop forever.
    expect(await allPages(async (page) => ({ data: page === 1 ? ['a'] : [], total: 5 }))).toEqual(['a']);
  });
});
