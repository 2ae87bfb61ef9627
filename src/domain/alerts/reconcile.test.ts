import { describe, expect, it } from 'vitest';
import { reconcile } from './reconcile.js';
import { check, conditionOf } from './test-checks.js';
import { at, bareAlert, buildSnapshot, MIN, openAlert } from './test-support.js';
import type { AlertCondition, OpenAlert } from './types.js';

const now = at(0.5);
/** A snapshot where the drive limit is `hours` away (MEDIUM at 0.75, HIGH at 0.25) and nothing else holds. */
const driveLeft = (hours: number) => buildSnapshot({ now, clocks: { driveRemaining: hours } });
const driveAlert = (hours: number, overrides: Partial<OpenAlert> = {}) => openAlert(conditionOf(driveLeft(hours), 'HOS_APPROACHING_DRIVE_LIMIT')!, overrides);

describe('reconcile', () => {
  it('creates conditions that have no open alert', () => {
    const r = check(driveLeft(0.75), []);
    expect(r.create.map((c) => c.type)).toEqual(['HOS_APPROACHING_DRIVE_LIMIT']);
    expect(r).toMatchObject({ update: [], resolve: [], resurface: [] });
  });

  it('leaves an open alert whose condition is unchanged alone (at most one per type)', () => {
    expect(check(driveLeft(0.75), [driveAlert(0.75)])).toEqual({ create: [], update: [], resolve: [], resurface: [] });
  });

  it('updates on escalation and on de-escalation, flagging the priority change', () => {
    const up = check(driveLeft(0.25), [driveAlert(0.75)]);
    expect(up.update).toMatchObject([{ priorityChanged: true, condition: { priority: 'HIGH' } }]);
    const down = check(driveLeft(0.75), [driveAlert(0.25)]);
    expect(down.update).toMatchObject([{ priorityChanged: true, condition: { priority: 'MEDIUM' } }]);
  });

  it('updates when the material facts change, not for a small drift', () => {
    expect(check(driveLeft(0.77), [driveAlert(0.8)]).update).toEqual([]);
    expect(check(driveLeft(0.6), [driveAlert(0.8)]).update).toMatchObject([{ priorityChanged: false }]);
  });

  it('an open alert stored without facts (an older rule version) is brought up to date once', () => {
    const stored = bareAlert('HOS_APPROACHING_DRIVE_LIMIT', { priority: 'MEDIUM' });
    expect(check(driveLeft(0.75), [stored]).update).toMatchObject([{ alert: stored, priorityChanged: false }]);
  });

  it('resolves open alerts whose condition is gone, saying why', () => {
    const alert = driveAlert(0.75);
    expect(check(driveLeft(9), [alert]).resolve).toEqual([{ alert, resolution: 'Driving time: 9:00 left again, above the 1:00 alert threshold' }]);
  });

  it('never creates a type that is already open, whatever its status', () => {
    for (const status of ['ACTIVE', 'ACKNOWLEDGED', 'SNOOZED'] as const) {
      const r = check(driveLeft(0.25), [driveAlert(0.75, { status, snoozedUntil: status === 'SNOOZED' ? now + 10 * MIN : null })]);
      expect(r.create).toEqual([]);
    }
  });

  describe('SNOOZED', () => {
    const snoozed = (until: number | null, hours = 0.75) => driveAlert(hours, { status: 'SNOOZED', snoozedUntil: until });

    it('while the snooze runs: neither updated nor re-raised, even on escalation', () => {
      expect(check(driveLeft(0.25), [snoozed(now + 1)])).toEqual({ create: [], update: [], resolve: [], resurface: [] });
    });

    it('while the snooze runs: resolved if the condition cleared', () => {
      const alert = snoozed(now + 30 * MIN);
      expect(check(driveLeft(9), [alert]).resolve).toMatchObject([{ alert }]);
    });

    it('once the snooze has ended: resurfaced, and updated too if the condition changed', () => {
      const ended = snoozed(now);
      expect(check(driveLeft(0.75), [ended])).toEqual({ create: [], update: [], resolve: [], resurface: [ended] });
      const changed = check(driveLeft(0.25), [ended]);
      expect(changed.resurface).toEqual([ended]);
      expect(changed.update).toMatchObject([{ alert: ended, priorityChanged: true }]);
    });

    it('a snooze without an end time is treated as ended (an alert is never lost)', () => {
      expect(check(driveLeft(0.75), [snoozed(null)]).resurface).toHaveLength(1);
    });

    it('an ended snooze whose condition cleared is resolved, not resurfaced', () => {
      const r = check(driveLeft(9), [snoozed(now - 1)]);
      expect(r.resurface).toEqual([]);
      expect(r.resolve).toHaveLength(1);
    });
  });

  describe('ACKNOWLEDGED', () => {
    const acked = (hours: number) => driveAlert(hours, { status: 'ACKNOWLEDGED' });

    it('is updated like an ACTIVE one and never re-raised', () => {
      const r = check(driveLeft(0.25), [acked(0.75)]);
      expect(r.create).toEqual([]);
      expect(r.update).toMatchObject([{ priorityChanged: true }]);
      expect(r.resurface).toEqual([]);
    });

    it('is resolved when the condition clears', () => {
      expect(check(driveLeft(9), [acked(0.75)]).resolve).toHaveLength(1);
    });
  });

  it('keeps the oldest of two open alerts of a type and resolves the other as a duplicate', () => {
    const older = driveAlert(0.75, { createdAt: at(0.1) });
    const newer = driveAlert(0.75, { createdAt: at(0.2) });
    const r = check(driveLeft(0.75), [newer, older]);
    expect(r.resolve).toEqual([{ alert: newer, resolution: `Duplicate of ${older.id}` }]);
    expect(r.create).toEqual([]);
  });

  it('takes the first condition of a type if given two', () => {
    const c = conditionOf(driveLeft(0.75), 'HOS_APPROACHING_DRIVE_LIMIT')!;
    const twice: AlertCondition[] = [c, { ...c, priority: 'HIGH' }];
    expect(reconcile(driveLeft(0.75), twice).create).toEqual([c]);
  });

  it('handles each type on its own', () => {
    const s = buildSnapshot({ now, clocks: { driveRemaining: 0.75 }, weatherDelayHours: 2 });
    const delay = openAlert(conditionOf(s, 'WEATHER_DELAY')!);
    const stale = bareAlert('TELEMETRY_STALE');
    const r = check(s, [delay, stale]);
    expect(r.create.map((c) => c.type)).toEqual(['HOS_APPROACHING_DRIVE_LIMIT']);
    expect(r.update).toEqual([]);
    expect(r.resolve.map((x) => x.alert.type)).toEqual(['TELEMETRY_STALE']);
  });
});
