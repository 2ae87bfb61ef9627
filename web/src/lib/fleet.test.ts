import { describe, expect, it } from 'vitest';
import { amenitiesText, coordinates, importErrorLines, nextLoadStatuses, parseNear, vehicleDescription, vehicleStatusActions } from './fleet';

describe('fleet record rules', () => {
  it('moves a load forward one step or cancels it while it is open', () => {
    expect(nextLoadStatuses('PENDING')).toEqual(['ASSIGNED', 'CANCELLED']);
    expect(nextLoadStatuses('ASSIGNED')).toEqual(['IN_TRANSIT', 'CANCELLED']);
    expect(nextLoadStatuses('IN_TRANSIT')).toEqual(['DELIVERED', 'CANCELLED']);
    expect(nextLoadStatuses('DELIVERED')).toEqual([]);
    expect(nextLoadStatuses('CANCELLED')).toEqual([]);
    expect(nextLoadStatuses('UNKNOWN')).toEqual([]);
  });

  it('offers a vehicle every other status, deactivation as destructive', () => {
    expect(vehicleStatusActions('ACTIVE')).toEqual([
      { status: 'IN_MAINTENANCE', label: 'Send to maintenance', destructive: false },
      { status: 'INACTIVE', label: 'Deactivate', destructive: true },
    ]);
    expect(vehicleStatusActions('INACTIVE').map((a) => a.status)).toEqual(['ACTIVE', 'IN_MAINTENANCE']);
  });

  it('describes vehicles and places briefly', () => {
    expect(vehicleDescription({ year: 2019, make: 'Freightliner', model: 'Cascadia' })).toBe('2019 Freightliner Cascadia');
    expect(vehicleDescription({ year: null, make: 'Volvo', model: null })).toBe('Volvo');
    expect(vehicleDescription({ year: null, make: null, model: '' })).toBeNull();
    expect(amenitiesText({ parking: true, showers: false, diesel: true })).toBe('Parking, diesel');
    expect(amenitiesText({ parking: false, showers: false, diesel: false })).toBe('None');
    expect(coordinates(32.77671, -96.79699)).toBe('32.7767, -96.7970');
  });

  it('reads a "near" point typed by hand', () => {
    expect(parseNear('32.78, -96.8')).toBe('32.78,-96.8');
    expect(parseNear(' 32.78 -96.8 ')).toBe('32.78,-96.8');
    expect(parseNear('91,0')).toBeNull();
    expect(parseNear('Dallas')).toBeNull();
  });

  it('lists CSV import row errors', () => {
    expect(importErrorLines([{ row: 3, field: 'latitude', message: 'must be a number' }, { row: 1, field: '', message: 'a header row is required' }])).toEqual([
      'Row 3, latitude: must be a number',
      'Row 1: a header row is required',
    ]);
    expect(importErrorLines(null)).toEqual([]);
  });
});
