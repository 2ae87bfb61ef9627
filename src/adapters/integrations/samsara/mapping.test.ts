import { describe, expect, it } from 'vitest';
import { mapClocks, mapFaults, mapLocations, mapUnassigned, matchDrivers, matchVehicles } from './mapping.js';
import type { SamsaraFaultCodes, SamsaraUnassignedSegment } from './sandbox.js';

const lamps = (over: Partial<{ emissionsIsOn: boolean; protectIsOn: boolean; stopIsOn: boolean; warningIsOn: boolean }>) => ({
  emissionsIsOn: false,
  protectIsOn: false,
  stopIsOn: false,
  warningIsOn: false,
  ...over,
});
const faults = (checkEngineLights: ReturnType<typeof lamps>, fmiId: number): SamsaraFaultCodes => ({
  time: '2026-01-15T10:00:00Z',
  j1939: { checkEngineLights, diagnosticTroubleCodes: [{ spnId: 91, fmiId }] },
});

describe('Samsara mapping', () => {
  it('prefers externalId over license number and ignores blank identifiers', () => {
    const { byVendorId, unmatched } = matchDrivers(
      [
        { id: 'v1', name: 'A', licenseNumber: 'L1', externalIds: { payrollId: ' emp-9 ' }, driverActivationStatus: 'active' },
        { id: 'v2', name: 'B', licenseNumber: '', externalIds: { payrollId: '' }, driverActivationStatus: 'active' },
      ],
      [
        { id: 'by-license', licenseNumber: 'L1', externalId: null, firstName: '', lastName: '' },
        { id: 'by-external', licenseNumber: 'L2', externalId: 'EMP-9', firstName: '', lastName: '' },
        { id: 'blank', licenseNumber: '', externalId: '', firstName: '', lastName: '' },
      ],
    );
    expect([...byVendorId]).toEqual([['v1', 'by-external']]);
    expect(unmatched).toBe(1);
  });

  it('prefers eldExternalId over unit number', () => {
    const { byVendorId } = matchVehicles(
      [{ id: '77', name: 'T-1' }],
      [
        { id: 'by-unit', unitNumber: 't-1', eldExternalId: null },
        { id: 'by-eld', unitNumber: 'OTHER', eldExternalId: '77' },
      ],
    );
    expect(byVendorId.get('77')).toBe('by-eld');
  });

  it('skips a clock whose app is disconnected and defaults missing clocks', () => {
    const drivers = new Map([['d1', 'ours-1'], ['d2', 'ours-2']]);
    const result = mapClocks(
      [
        { driver: { id: 'd1', name: '' }, currentDutyStatus: { hosStatusType: '' }, clocks: { drive: { driveRemainingDurationMs: 1 }, shift: { shiftRemainingDurationMs: 1 }, cycle: { cycleRemainingDurationMs: 1 } } },
        { driver: { id: 'd2', name: '' }, currentDutyStatus: { hosStatusType: 'personalConveyance' }, clocks: {} as never },
      ],
      drivers,
    );
    expect(result).toEqual([{ driverId: 'ours-2', vendorDriverId: 'd2', currentStatus: 'OFF_DUTY', driveRemainingMs: 0, shiftRemainingMs: 0, cycleRemainingMs: 0, breakRemainingMs: null }]);
  });

  it('keeps a location without speed or fuel, and drops one without coordinates', () => {
    const vehicles = new Map([['1', 'v-1'], ['2', 'v-2']]);
    const result = mapLocations(
      [
        { id: '1', location: { latitude: 1, longitude: 2, time: '2026-01-15T10:00:00Z' } as never },
        { id: '2', location: undefined },
        { id: '2', location: { latitude: 1, longitude: 2, time: 'yesterday-ish' } as never },
      ],
      new Map(),
      vehicles,
    );
    expect(result).toEqual([{ vehicleId: 'v-1', latitude: 1, longitude: 2, speedMph: null, headingDegrees: null, recordedAt: '2026-01-15T10:00:00.000Z', fuelLevelPercent: null }]);
  });

  it.each([
    ['amber lamp, FMI 16', lamps({ warningIsOn: true }), 16, 'WARNING'],
    ['MIL only, FMI 3', lamps({ emissionsIsOn: true }), 3, 'WARNING'],
    ['no lamp, FMI 1 (most severe)', lamps({}), 1, 'CRITICAL'],
    ['no lamp, FMI 0 (most severe)', lamps({}), 0, 'CRITICAL'],
    ['red stop lamp, FMI 18', lamps({ stopIsOn: true }), 18, 'CRITICAL'],
    ['engine-protect lamp, FMI 18', lamps({ protectIsOn: true }), 18, 'CRITICAL'],
  ] as const)('fault severity: %s → %s', (_name, checkEngineLights, fmiId, severity) => {
    const [fault] = mapFaults([{ id: '1', faultCodes: faults(checkEngineLights, fmiId) }], new Map([['1', 'v-1']]));
    expect(fault).toEqual({ vehicleId: 'v-1', code: `SPN 91 FMI ${fmiId}`, description: `SPN 91 FMI ${fmiId}`, severity, active: true, since: '2026-01-15T10:00:00.000Z' });
  });

  it('keeps the unassigned driving segments of our vehicles that Samsara shows neither assigned nor annotated', () => {
    const seg = (over: Partial<SamsaraUnassignedSegment>): SamsaraUnassignedSegment => ({
      id: 's1', startTime: '2026-01-15T10:00:00Z', endTime: '2026-01-15T10:45:00Z', createdAtTime: '2026-01-15T10:46:00Z', vehicle: { id: '1', name: 'A' }, ...over,
    });
    const result = mapUnassigned(
      [seg({}), seg({ id: 's2', driver: { id: '9', name: 'Al' } }), seg({ id: 's3', annotation: 'Yard move' }), seg({ id: 's4', annotation: '  ' }), seg({ id: 's5', vehicle: { id: '2', name: 'B' } }), seg({ id: 's6', startTime: 'soon' })],
      new Map([['1', 'v-1']]),
    );
    expect(result.map((r) => r.vendorSegmentId)).toEqual(['s1', 's4']);
    expect(result[0]).toEqual({ vehicleId: 'v-1', vendorSegmentId: 's1', startedAt: '2026-01-15T10:00:00.000Z', endedAt: '2026-01-15T10:45:00.000Z', startLatitude: null, startLongitude: null, endLatitude: null, endLongitude: null, miles: null });
  });
});
