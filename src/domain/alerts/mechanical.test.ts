import { describe, expect, it } from 'vitest';
import { check, conditionOf, raiseThenCheck } from './test-checks.js';
import { at, buildSnapshot, driving, onPlan, openAlert, parked, pointAt, T0 } from './test-support.js';
import type { FaultCode, PositionReport } from './types.js';

const fault = (code: string, severity: FaultCode['severity'], extra: Partial<FaultCode> = {}): FaultCode => ({
  code,
  description: code === 'SPN 110' ? 'Engine coolant temperature high' : code === 'SPN 524' ? 'Brake system failure' : 'Tire pressure low',
  severity,
  active: true,
  at: at(0.25),
  ...extra,
});
const withFaults = (faults: FaultCode[] | null, extra: Parameters<typeof buildSnapshot>[0] = {}) => buildSnapshot({ faults, ...extra });

describe('VEHICLE_FAULT', () => {
  it('fires HIGH for an active warning fault, naming the unit and the code', () => {
    const c = conditionOf(withFaults([fault('SPN 110', 'WARNING')]), 'VEHICLE_FAULT')!;
    expect(c.priority).toBe('HIGH');
    expect(c.title).toBe('Vehicle fault: SPN 110 Engine coolant temperature high');
    expect(c.message).toMatch(/^unit 1042 \(driver Jane Doe\) reports SPN 110 Engine coolant temperature high/);
    expect(c.metadata).toMatchObject({ faultCount: 1, faults: [{ code: 'SPN 110', severity: 'WARNING', at: new Date(at(0.25)).toISOString() }] });
  });

  it('does not fire for inactive, informational or critical faults (critical is a breakdown)', () => {
    expect(conditionOf(withFaults([fault('SPN 110', 'WARNING', { active: false })]), 'VEHICLE_FAULT')).toBeUndefined();
    expect(conditionOf(withFaults([fault('SPN 110', 'INFO')]), 'VEHICLE_FAULT')).toBeUndefined();
    expect(conditionOf(withFaults([fault('SPN 524', 'CRITICAL')]), 'VEHICLE_FAULT')).toBeUndefined();
  });

  it('lists each code once; a new code is material, a re-report is not', () => {
    const open = openAlert(conditionOf(withFaults([fault('SPN 110', 'WARNING')]), 'VEHICLE_FAULT')!);
    expect(check(withFaults([fault('SPN 110', 'WARNING'), fault('SPN 110', 'WARNING', { at: at(0.4) })]), [open]).update).toEqual([]);
    const two = check(withFaults([fault('SPN 110', 'WARNING'), fault('SPN 929', 'WARNING')]), [open]);
    expect(two.update).toMatchObject([{ priorityChanged: false, condition: { title: '2 vehicle faults, latest: SPN 929 Tire pressure low' } }]);
  });

  it('names the driver\'s vehicle when no vehicle is assigned', () => {
    expect(conditionOf(withFaults([fault('SPN 110', 'WARNING')], { vehicle: null }), 'VEHICLE_FAULT')?.message).toMatch(/^Jane Doe's vehicle/);
  });

  it('clears through reconcile when the code goes inactive; honours the enable flag; silent without diagnostics', () => {
    const { result } = raiseThenCheck(withFaults([fault('SPN 110', 'WARNING')]), withFaults([fault('SPN 110', 'WARNING', { active: false })]), 'VEHICLE_FAULT');
    expect(result.resolve[0]?.resolution).toBe('No active warning fault codes');
    expect(conditionOf(withFaults([fault('SPN 110', 'WARNING')], { alerts: { enableMechanicalAlerts: false } }), 'VEHICLE_FAULT')).toBeUndefined();
    expect(conditionOf(withFaults(null), 'VEHICLE_FAULT')).toBeUndefined();
    const off = raiseThenCheck(withFaults([fault('SPN 110', 'WARNING')]), withFaults([fault('SPN 110', 'WARNING')], { alerts: { enableMechanicalAlerts: false } }), 'VEHICLE_FAULT');
    expect(off.result.resolve[0]?.resolution).toBe('Mechanical alerts are disabled in the tenant settings');
  });
});

describe('VEHICLE_BREAKDOWN', () => {
  const stopped = (faults: FaultCode[]) => {
    const now = at(1);
    return buildSnapshot({ now, faults, positions: [...driving(0, T0, at(0.5)), ...parked(pointAt(30), at(0.6), now)] });
  };

  it('fires CRITICAL for an active critical fault, moving or not, and says which', () => {
    const moving = conditionOf(withFaults([fault('SPN 524', 'CRITICAL')]), 'VEHICLE_BREAKDOWN')!;
    expect(moving.priority).toBe('CRITICAL');
    expect(moving.title).toBe('Possible breakdown: unit 1042 reports SPN 524 Brake system failure');
    expect(moving.metadata).toMatchObject({ stationary: false, faultCount: 1 });
    expect(moving.message).toContain('still moving');
    const standing = conditionOf(stopped([fault('SPN 524', 'CRITICAL')]), 'VEHICLE_BREAKDOWN')!;
    expect(standing.metadata).toMatchObject({ stationary: true, stationaryMinutes: 20 });
    expect(standing.message).toContain('stationary for 20 min');
  });

  it('a vehicle with a critical fault coming to a stop is a material update', () => {
    const open = openAlert(conditionOf(withFaults([fault('SPN 524', 'CRITICAL')]), 'VEHICLE_BREAKDOWN')!);
    expect(check(stopped([fault('SPN 524', 'CRITICAL')]), [open]).update).toMatchObject([{ priorityChanged: false }]);
  });

  it('does not fire for warnings or inactive critical faults; clears through reconcile when cleared', () => {
    expect(conditionOf(withFaults([fault('SPN 110', 'WARNING')]), 'VEHICLE_BREAKDOWN')).toBeUndefined();
    expect(conditionOf(withFaults([fault('SPN 524', 'CRITICAL', { active: false })]), 'VEHICLE_BREAKDOWN')).toBeUndefined();
    const { result } = raiseThenCheck(withFaults([fault('SPN 524', 'CRITICAL')]), withFaults([]), 'VEHICLE_BREAKDOWN');
    expect(result.resolve[0]?.resolution).toBe('No active critical fault codes');
  });

  it('honours the enable flag', () => {
    expect(conditionOf(withFaults([fault('SPN 524', 'CRITICAL')], { alerts: { enableMechanicalAlerts: false } }), 'VEHICLE_BREAKDOWN')).toBeUndefined();
  });
});

describe('LOW_FUEL', () => {
  /** On plan with the last fuel reading at `percent` (older readings higher). */
  const fuelAt = (percent: number | null, extra: Parameters<typeof buildSnapshot>[0] = {}) => {
    const now = at(0.5);
    const positions: PositionReport[] = onPlan(T0, now, 5, { fuelLevelPercent: 40 });
    positions[positions.length - 1] = { ...positions[positions.length - 1]!, fuelLevelPercent: percent };
    return buildSnapshot({ now, positions, ...extra });
  };

  it('fires MEDIUM under 15 % and HIGH under 7 %', () => {
    expect(conditionOf(fuelAt(15), 'LOW_FUEL')).toBeUndefined();
    const low = conditionOf(fuelAt(12), 'LOW_FUEL')!;
    expect(low.priority).toBe('MEDIUM');
    expect(low.title).toBe('Low fuel: 12 % left');
    expect(low.message).toMatch(/^unit 1042 \(driver Jane Doe\) reports 12 % fuel/);
    expect(low.metadata).toMatchObject({ fuelLevelPercent: 12, thresholdPercent: 15, urgentThresholdPercent: 7 });
    expect(conditionOf(fuelAt(7), 'LOW_FUEL')?.priority).toBe('MEDIUM');
    expect(conditionOf(fuelAt(6.5), 'LOW_FUEL')?.priority).toBe('HIGH');
  });

  it('escalates an open alert through reconcile, and updates in 5 % steps', () => {
    const open = openAlert(conditionOf(fuelAt(12), 'LOW_FUEL')!);
    expect(check(fuelAt(11), [open]).update).toEqual([]);
    expect(check(fuelAt(9), [open]).update).toMatchObject([{ priorityChanged: false }]);
    expect(check(fuelAt(5), [open]).update).toMatchObject([{ priorityChanged: true, condition: { priority: 'HIGH' } }]);
  });

  it('uses the latest position that carries a fuel level', () => {
    expect(conditionOf(fuelAt(null), 'LOW_FUEL')).toBeUndefined(); // the one before says 40 %
    const none = buildSnapshot({ positions: onPlan(T0, at(0.5)) });
    expect(conditionOf(none, 'LOW_FUEL')).toBeUndefined();
  });

  it('an open alert clears only 5 % above the threshold (no flapping on a sloshing gauge)', () => {
    const open = openAlert(conditionOf(fuelAt(14), 'LOW_FUEL')!);
    expect(check(fuelAt(16), [open]).resolve).toEqual([]);
    expect(check(fuelAt(19.5), [open]).resolve).toEqual([]);
    const { result } = raiseThenCheck(fuelAt(14), fuelAt(95), 'LOW_FUEL');
    expect(result.resolve[0]?.resolution).toBe('Fuel level back to 95 %');
  });

  it('honours the enable flag', () => {
    expect(conditionOf(fuelAt(3, { alerts: { enableMechanicalAlerts: false } }), 'LOW_FUEL')).toBeUndefined();
  });
});
