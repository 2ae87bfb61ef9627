import { describe, expect, it } from 'vitest';
import { driverChoice, loadChoice, refusedStopsMessage, stopTitle, vehicleChoice } from './plan-choices';

describe('the words of the plan-a-route form', () => {
  it('titles a stop by its type, or by its position when the type is automatic', () => {
    expect(stopTitle(0, 3, { type: '' })).toBe('Stop 1 — origin');
    expect(stopTitle(1, 3, { type: '' })).toBe('Stop 2 — waypoint');
    expect(stopTitle(2, 3, { type: '' })).toBe('Stop 3 — delivery');
    expect(stopTitle(1, 3, { type: 'PICKUP' })).toBe('Stop 2 — pickup');
  });

  it('names the driver, vehicle and load choices', () => {
    expect(driverChoice({ firstName: 'Rosa', lastName: 'Diaz', licenseState: 'TX', licenseNumber: 'D1' })).toBe('Rosa Diaz (TX D1)');
    expect(vehicleChoice({ unitNumber: 'T-1', make: 'Volvo', model: 'VNL', fuelTankGallons: 200, mpg: 7 })).toBe('T-1 — Volvo VNL (200 gal, 7 mpg)');
    expect(vehicleChoice({ unitNumber: 'T-2', make: 'Volvo', model: null, fuelTankGallons: 150, mpg: 6.5 })).toBe('T-2 — Volvo (150 gal, 6.5 mpg)');
    expect(vehicleChoice({ unitNumber: 'T-3', make: null, model: 'VNL', fuelTankGallons: 150, mpg: 6.5 })).toBe('T-3 (150 gal, 6.5 mpg)');
    expect(loadChoice({ referenceNumber: 'L-9', originAddress: 'Dallas, TX', destinationAddress: 'Tulsa, OK' })).toBe('L-9 — Dallas, TX → Tulsa, OK');
    expect(loadChoice({ referenceNumber: 'L-10', originAddress: 'Dallas, TX', destinationAddress: null })).toBe('L-10');
  });

  it('says which stops the planner could not use', () => {
    expect(refusedStopsMessage([])).toBeNull();
    expect(refusedStopsMessage([1])).toBe('The planner could not use stop 2: see below.');
    expect(refusedStopsMessage([0, 2])).toBe('The planner could not use stops 1, 3: see below.');
  });
});
