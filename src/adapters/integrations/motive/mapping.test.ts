import { describe, expect, it } from 'vitest';
import { mapClocks, mapDutyStatus, mapFaults, mapLocations, mapLogs, mapUnassigned, matchDrivers, matchVehicles } from './mapping.js';
import type { MotiveDrivingPeriod, MotiveFaultCode, MotiveHosLog } from './sandbox.js';

const HOUR = 3_600_000;
const driver = (id: string, licenseNumber: string, externalId: string | null) => ({ id, licenseNumber, externalId, firstName: '', lastName: '' });

describe('Motive mapping', () => {
  it('maps every Motive duty status, and nothing for an unknown one', () => {
    const statuses = ['off_duty', 'personal_conveyance', 'waiting', 'sleeper', 'driving', 'on_duty', 'yard_move', '', 'disconnected'];
    expect(statuses.map(mapDutyStatus)).toEqual([
      'OFF_DUTY',
      'OFF_DUTY',
      'OFF_DUTY',
      'SLEEPER_BERTH',
      'ON_DUTY_DRIVING',
      'ON_DUTY_NOT_DRIVING',
      'ON_DUTY_NOT_DRIVING',
      undefined,
      undefined,
    ]);
  });

  it("matches drivers by driver_company_id before the Motive user id, then the license", () => {
    const { byVendorId, unmatched } = matchDrivers(
      [
        { id: 7, first_name: 'A', last_name: 'A', role: 'driver', status: 'active', driver_company_id: 'PAY-7', drivers_license_number: 'L7' },
        { id: 8, first_name: 'B', last_name: 'B', role: 'driver', status: 'active', driver_company_id: null, drivers_license_number: 'l8 ' },
        { id: 9, first_name: 'C', last_name: 'C', role: 'driver', status: 'active' },
      ],
      [driver('by-user-id', 'L7', '7'), driver('by-company-id', 'X', 'pay-7'), driver('by-license', 'L8', null)],
    );
    expect([...byVendorId]).toEqual([
      ['7', 'by-company-id'],
      ['8', 'by-license'],
    ]);
    expect(unmatched).toBe(1);
  });

  it('matches vehicles by the Motive id before the unit number', () => {
    const { byVendorId } = matchVehicles(
      [{ id: 77, number: 'T-1', status: 'active' }],
      [
        { id: 'by-unit', unitNumber: 't-1', eldExternalId: null },
        { id: 'by-eld', unitNumber: 'OTHER', eldExternalId: '77' },
      ],
    );
    expect(byVendorId.get('77')).toBe('by-eld');
  });

  it('turns available seconds into ms, keeps a missing break as null, and skips a clock it cannot read', () => {
    const drivers = new Map([['1', 'd-1'], ['2', 'd-2'], ['3', 'd-3'], ['4', 'd-4']]);
    const result = mapClocks(
      [
        { user: { id: 1, duty_status: 'waiting', available_time: { drive: 3600.5, shift: 7200, cycle: 0 } } },
        { user: { id: 2, duty_status: 'driving', available_time: null } },
        { user: { id: 3, duty_status: 'unknown', available_time: { drive: 1, shift: 1, cycle: 1, break: 1 } } },
        { user: { id: 4, duty_status: 'driving', available_time: { drive: 1, shift: '2' as never, cycle: 1 } } },
        { user: { id: 5, duty_status: 'driving', available_time: { drive: 1, shift: 1, cycle: 1 } } },
      ],
      drivers,
    );
    expect(result).toEqual([{ driverId: 'd-1', vendorDriverId: '1', currentStatus: 'OFF_DUTY', driveRemainingMs: 3_600_500, shiftRemainingMs: 2 * HOUR, cycleRemainingMs: 0, breakRemainingMs: null }]);
  });

  it('keeps the logs that overlap the window, current ones included, and skips malformed ones', () => {
    const window = { start: new Date('2026-01-14T18:00:00Z'), end: new Date('2026-01-15T18:00:00Z') };
    const log = (id: number, start_time: string, duration: number | null, over: Partial<MotiveHosLog> = {}): { hos_log: MotiveHosLog } => ({
      hos_log: { id, status: 'on_duty', start_time, duration, driver: { id: 1, first_name: '', last_name: '' }, ...over },
    });
    const result = mapLogs(
      [
        log(1, '2026-01-14T10:00:00Z', 7 * 3600), // ended 17:00, before the window
        log(2, '2026-01-14T10:00:00Z', 8 * 3600), // ends exactly at the window's start
        log(3, '2026-01-14T10:00:00Z', null, { lat: 1, lon: 2 }), // still current
        log(4, '2026-01-15T18:00:01Z', null), // after the window
        log(5, 'not a time', null),
        log(6, '2026-01-15T12:00:00Z', null, { driver: { id: 99, first_name: '', last_name: '' } }), // unmatched driver
        log(7, '2026-01-15T12:00:00Z', null, { status: 'mystery' }),
      ],
      new Map([['1', 'd-1']]),
      window,
    );
    expect(result).toEqual([
      { driverId: 'd-1', status: 'ON_DUTY_NOT_DRIVING', startedAt: '2026-01-14T10:00:00.000Z', latitude: null, longitude: null },
      { driverId: 'd-1', status: 'ON_DUTY_NOT_DRIVING', startedAt: '2026-01-14T10:00:00.000Z', latitude: 1, longitude: 2 },
    ]);
  });

  it('converts a metric vehicle speed, keeps a location without speed, bearing or fuel, and drops one without coordinates', () => {
    const vehicles = new Map([['1', 'v-1'], ['2', 'v-2'], ['3', 'v-3']]);
    const result = mapLocations(
      [
        { vehicle: { id: 1, number: 'A', current_location: { lat: 1, lon: 2, located_at: '2026-01-15T10:00:00Z', speed: 88.5 } } },
        { vehicle: { id: 2, number: 'B', current_location: { lat: 3, lon: 4, located_at: '2026-01-15T10:00:00Z' } } },
        { vehicle: { id: 3, number: 'C', current_location: null } },
        { vehicle: { id: 3, number: 'C', current_location: { lat: null as never, lon: 4, located_at: '2026-01-15T10:00:00Z' } } },
        { vehicle: { id: 3, number: 'C', current_location: { lat: 3, lon: 4, located_at: 'yesterday-ish' } } },
      ],
      vehicles,
      new Set(['1']),
    );
    expect(result).toEqual([
      { vehicleId: 'v-1', latitude: 1, longitude: 2, speedMph: 55, headingDegrees: null, recordedAt: '2026-01-15T10:00:00.000Z', fuelLevelPercent: null },
      { vehicleId: 'v-2', latitude: 3, longitude: 4, speedMph: null, headingDegrees: null, recordedAt: '2026-01-15T10:00:00.000Z', fuelLevelPercent: null },
    ]);
  });

  const fault = (over: Partial<MotiveFaultCode>): { fault_code: MotiveFaultCode } => ({
    fault_code: { id: 1, code: '91', status: 'open', first_observed_at: '2026-01-15T10:00:00Z', vehicle: { id: 1, number: 'A' }, ...over },
  });

  it.each([
    ['FMI 0 (most severe, above range)', 0, 'CRITICAL'],
    ['FMI 1 (most severe, below range)', 1, 'CRITICAL'],
    ['FMI 3', 3, 'WARNING'],
    ['FMI 16 (moderately severe)', 16, 'WARNING'],
    ['FMI 18', 18, 'WARNING'],
  ] as const)('fault severity: %s → %s', (_name, fmi, severity) => {
    const [f] = mapFaults([fault({ fmi })], new Map([['1', 'v-1']]));
    expect(f).toEqual({ vehicleId: 'v-1', code: `SPN 91 FMI ${fmi}`, description: `SPN 91 FMI ${fmi}`, severity, active: true, since: '2026-01-15T10:00:00.000Z' });
  });

  it('keeps an OBD-II code as given, describes a fault by its label when it has no description, reports closed codes inactive and skips what it cannot place', () => {
    const result = mapFaults(
      [
        fault({ code: 'P0420', fmi: null, code_label: 'Catalyst efficiency', status: 'closed' }),
        fault({ code: '  ', fmi: 3 }),
        fault({ first_observed_at: 'never' }),
        fault({ vehicle: { id: 2, number: 'B' } }),
      ],
      new Map([['1', 'v-1']]),
    );
    expect(result).toEqual([{ vehicleId: 'v-1', code: 'P0420', description: 'Catalyst efficiency', severity: 'WARNING', active: false, since: '2026-01-15T10:00:00.000Z' }]);
  });

  it('keeps the driving periods with no driver of our vehicles, in miles (km converted), and skips the rest', () => {
    const period = (over: Partial<MotiveDrivingPeriod>): MotiveDrivingPeriod => ({
      id: 1, start_time: '2026-01-15T10:00:00Z', end_time: '2026-01-15T10:40:00Z', type: 'driving', driver: null, distance: 20, origin_lat: 34, origin_lon: -118, destination_lat: null, destination_lon: -117, vehicle: { id: 1, number: 'A' }, ...over,
    });
    const result = mapUnassigned(
      [
        period({}),
        period({ id: 2, vehicle: { id: 2, number: 'B' }, distance: 16.09344 }),
        period({ id: 3, driver: { id: 9, first_name: 'A', last_name: 'B' } }),
        period({ id: 4, type: 'ym' }),
        period({ id: 5, type: 'pc' }),
        period({ id: 6, annotation_status: 'annotated' }),
        period({ id: 7, vehicle: { id: 3, number: 'C' } }),
        period({ id: 8, end_time: 'later' }),
      ],
      new Map([['1', 'v-1'], ['2', 'v-2']]),
      new Set(['2']),
    );
    expect(result).toEqual([
      { vehicleId: 'v-1', vendorSegmentId: '1', startedAt: '2026-01-15T10:00:00.000Z', endedAt: '2026-01-15T10:40:00.000Z', startLatitude: 34, startLongitude: -118, endLatitude: null, endLongitude: null, miles: 20 },
      { vehicleId: 'v-2', vendorSegmentId: '2', startedAt: '2026-01-15T10:00:00.000Z', endedAt: '2026-01-15T10:40:00.000Z', startLatitude: 34, startLongitude: -118, endLatitude: null, endLongitude: null, miles: expect.closeTo(10, 9) },
    ]);
  });
});
