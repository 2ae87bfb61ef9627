import { describe, expect, it } from 'vitest';
import { isoTime, matchDriverKeys, matchVehicleKeys } from './eld-matching.js';

const driver = (id: string, licenseNumber: string, externalId: string | null) => ({ id, licenseNumber, externalId, firstName: '', lastName: '' });

describe('ELD matching shared by the vendor adapters', () => {
  it('tries the vendor identifiers in order, then the license number, case- and space-insensitively', () => {
    const ours = [driver('by-license', ' ab-1 ', null), driver('by-first', 'X', 'EMP-7'), driver('by-second', 'Y', '42')];
    const { byVendorId, unmatched } = matchDriverKeys(
      [
        { vendorId: 'v1', externalIds: [' emp-7', '42'], licenseNumber: 'AB-1' },
        { vendorId: 'v2', externalIds: [null, '42'] },
        { vendorId: 'v3', externalIds: ['nope'], licenseNumber: 'ab-1' },
        { vendorId: 'v4', externalIds: [], licenseNumber: 'zz' },
      ],
      ours,
    );
    expect([...byVendorId]).toEqual([
      ['v1', 'by-first'],
      ['v2', 'by-second'],
      ['v3', 'by-license'],
    ]);
    expect(unmatched).toBe(1);
  });

  it('never matches on blank identifiers on either side', () => {
    const { byVendorId, unmatched } = matchDriverKeys([{ vendorId: 'v1', externalIds: ['', '  '], licenseNumber: ' ' }], [driver('blank', '  ', '   ')]);
    expect(byVendorId.size).toBe(0);
    expect(unmatched).toBe(1);
  });

  it('matches vehicles by the vendor id (exactly) before the unit number', () => {
    const { byVendorId, unmatched } = matchVehicleKeys(
      [
        { vendorId: '77', unitNumber: 'T-1' },
        { vendorId: '78', unitNumber: ' t-2 ' },
        { vendorId: '79', unitNumber: '' },
      ],
      [
        { id: 'by-unit', unitNumber: 'T-1', eldExternalId: null },
        { id: 'by-eld', unitNumber: 'OTHER', eldExternalId: '77' },
        { id: 'unit-2', unitNumber: 'T-2', eldExternalId: null },
        { id: 'blank', unitNumber: '', eldExternalId: null },
      ],
    );
    expect([...byVendorId]).toEqual([
      ['77', 'by-eld'],
      ['78', 'unit-2'],
    ]);
    expect(unmatched).toBe(1);
  });

  it('normalizes vendor times to ISO and rejects malformed ones', () => {
    expect(isoTime('2026-01-15T10:00:00Z')).toBe('2026-01-15T10:00:00.000Z');
    expect(isoTime('2026-01-15T10:00:00-06:00')).toBe('2026-01-15T16:00:00.000Z');
    expect(isoTime('yesterday-ish')).toBeUndefined();
    expect(isoTime(null)).toBeUndefined();
  });
});
