/**
 * Corrections: examples, and a property over random sequences of driver corrections, requests, accepts,
 * rejects and cancels against a model of the log as "the status at each minute": the ACTIVE records never
 * share an instant and are in time order (so they neither overlap nor leave a gap), no record is ever lost
 * (the store only grows; a record's content never changes), a pending request changes nothing, and an
 * applied correction changes the statuses inside [from, to) to its entries and nothing outside.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DutyStatus } from '../hos/index.js';
import { applyCorrection, correctionProblems, planCorrection, statusAt, touchedAutomaticDriving, type Correction } from './corrections.js';
import type { LogRecord } from './daily-log.js';

const M = 60_000;
const T0 = Date.parse('2026-11-02T00:00:00Z');
const STATUSES: DutyStatus[] = ['OFF_DUTY', 'SLEEPER_BERTH', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING'];
let seq = 0;
const id = () => `r${++seq}`;
const rec = (minute: number, status: DutyStatus, origin: LogRecord['origin'] = 'DRIVER'): LogRecord => ({ id: id(), status, at: T0 + minute * M, latitude: null, longitude: null, origin, note: null, annotation: null });

describe('a correction', () => {
  const log = [rec(0, 'ON_DUTY_NOT_DRIVING'), rec(30, 'ON_DUTY_DRIVING'), rec(600, 'OFF_DUTY')];

  it('replaces the stretch [from, to) and restates the status in force at to', () => {
    // She went off duty at 18:00 (minute 1080), not at 10:00 (600): driving until 18:00 is wrong too — on duty from 10:00.
    const c: Correction = { from: T0 + 600 * M, to: T0 + 1200 * M, entries: [{ status: 'ON_DUTY_NOT_DRIVING', at: T0 + 600 * M }, { status: 'OFF_DUTY', at: T0 + 1080 * M }] };
    expect(planCorrection(log, c).inactivate).toEqual([log[2]!.id]);
    const after = applyCorrection(log, c, 'DRIVER', 'Forgot to go off duty', id);
    expect(after.map((r) => [(r.at - T0) / M, r.status])).toEqual([
      [0, 'ON_DUTY_NOT_DRIVING'],
      [30, 'ON_DUTY_DRIVING'],
      [600, 'ON_DUTY_NOT_DRIVING'],
      [1080, 'OFF_DUTY'],
    ]);
    expect(after.at(-1)).toMatchObject({ origin: 'DRIVER', annotation: 'Forgot to go off duty' });
  });

  it('inside a status, restates what followed at to', () => {
    const c: Correction = { from: T0 + 100 * M, to: T0 + 130 * M, entries: [{ status: 'OFF_DUTY', at: T0 + 100 * M }] };
    const after = applyCorrection(log, c, 'OTHER_USER', 'Fuel stop, not driving', id);
    expect(after.map((r) => [(r.at - T0) / M, r.status])).toEqual([
      [0, 'ON_DUTY_NOT_DRIVING'],
      [30, 'ON_DUTY_DRIVING'],
      [100, 'OFF_DUTY'],
      [130, 'ON_DUTY_DRIVING'],
      [600, 'OFF_DUTY'],
    ]);
  });

  it('has a shape: entries in order from `from`, before `to`, `to` not in the future', () => {
    const now = T0 + 1000 * M;
    expect(correctionProblems({ from: T0, to: T0 + 10 * M, entries: [{ status: 'OFF_DUTY', at: T0 }] }, now)).toEqual([]);
    expect(correctionProblems({ from: T0, to: T0 + 2000 * M, entries: [{ status: 'OFF_DUTY', at: T0 }] }, now).map((p) => p.message)).toEqual(['must not be in the future']);
    expect(correctionProblems({ from: T0, to: T0 + 10 * M, entries: [{ status: 'OFF_DUTY', at: T0 + M }] }, now).map((p) => p.field)).toEqual(['body.entries.0.at']);
    expect(correctionProblems({ from: T0, to: T0 + 10 * M, entries: [{ status: 'OFF_DUTY', at: T0 }, { status: 'SLEEPER_BERTH', at: T0 + 10 * M }] }, now).map((p) => p.field)).toEqual(['body.entries.1.at']);
    expect(correctionProblems({ from: T0 + 10 * M, to: T0, entries: [{ status: 'OFF_DUTY', at: T0 + 10 * M }] }, now).map((p) => p.field)).toContain('body.to');
  });

  it('may not touch automatically recorded driving (ELD specification §4.3.2.8.2): only the time around it', () => {
    const eld = [rec(0, 'OFF_DUTY', 'AUTOMATIC'), rec(60, 'ON_DUTY_DRIVING', 'AUTOMATIC'), rec(180, 'OFF_DUTY', 'AUTOMATIC')];
    const now = T0 + 600 * M;
    expect(touchedAutomaticDriving(eld, { from: T0 + 170 * M, to: T0 + 200 * M }, now)).toMatchObject({ start: T0 + 60 * M, end: T0 + 180 * M });
    expect(touchedAutomaticDriving(eld, { from: T0 + 30 * M, to: T0 + 61 * M }, now)).not.toBeNull();
    expect(touchedAutomaticDriving(eld, { from: T0 + 30 * M, to: T0 + 60 * M }, now)).toBeNull();
    expect(touchedAutomaticDriving(eld, { from: T0 + 180 * M, to: T0 + 300 * M }, now)).toBeNull();
    // Driving the driver entered can be corrected.
    expect(touchedAutomaticDriving([rec(60, 'ON_DUTY_DRIVING', 'DRIVER')], { from: T0 + 70 * M, to: T0 + 80 * M }, now)).toBeNull();
  });
});

/** The store: every record ever made, with its record status; content never changes. */
interface Stored extends LogRecord {
  recordStatus: 'ACTIVE' | 'INACTIVE_CHANGED' | 'INACTIVE_CHANGE_REQUESTED' | 'INACTIVE_CHANGE_REJECTED';
  editId: string | null;
}

type Op =
  | { kind: 'driver'; c: Correction }
  | { kind: 'request'; c: Correction }
  | { kind: 'accept'; pick: number }
  | { kind: 'reject'; pick: number }
  | { kind: 'cancel'; pick: number };

const DAY_MIN = 24 * 60;
const NOW = T0 + DAY_MIN * M;

const correction = fc
  .tuple(fc.integer({ min: 0, max: DAY_MIN - 2 }), fc.integer({ min: 1, max: 600 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 300 }), fc.constantFrom(...STATUSES)), { minLength: 0, maxLength: 4 }), fc.constantFrom(...STATUSES))
  .map(([fromMin, len, rest, first]): Correction => {
    const from = T0 + fromMin * M;
    const to = Math.min(NOW, from + len * M);
    const entries = [{ status: first, at: from }];
    let t = from;
    for (const [gap, status] of rest) {
      t += gap * M;
      if (t >= to) break;
      entries.push({ status, at: t });
    }
    return { from, to, entries };
  });

const op: fc.Arbitrary<Op> = fc.oneof(
  correction.map((c) => ({ kind: 'driver' as const, c })),
  correction.map((c) => ({ kind: 'request' as const, c })),
  fc.nat().map((pick) => ({ kind: 'accept' as const, pick })),
  fc.nat().map((pick) => ({ kind: 'reject' as const, pick })),
  fc.nat().map((pick) => ({ kind: 'cancel' as const, pick })),
);

const initialLog = fc.array(fc.tuple(fc.integer({ min: 0, max: DAY_MIN - 1 }), fc.constantFrom(...STATUSES), fc.boolean()), { maxLength: 8 }).map((xs) => {
  const seen = new Set<number>();
  return xs
    .filter(([m]) => (seen.has(m) ? false : (seen.add(m), true)))
    .sort((a, b) => a[0] - b[0])
    .map(([m, s, auto]): Stored => ({ ...rec(m, s, auto ? 'AUTOMATIC' : 'DRIVER'), recordStatus: 'ACTIVE', editId: null }));
});

describe('any sequence of corrections, requests, accepts, rejects and cancels', () => {
  it('keeps the ACTIVE log ordered without overlap or gap, loses no record, and changes exactly what was accepted', () => {
    fc.assert(
      fc.property(initialLog, fc.array(op, { maxLength: 12 }), (initial, ops) => {
        const store: Stored[] = initial.map((r) => ({ ...r }));
        const snapshot = new Map(store.map((r) => [r.id, JSON.stringify({ ...r, recordStatus: undefined })]));
        const pending: Array<{ id: string; c: Correction }> = [];
        let edit = 0;
        const active = () => store.filter((r) => r.recordStatus === 'ACTIVE').sort((a, b) => a.at - b.at);
        // The model: the status at each minute of the day.
        const minutes = (log: readonly LogRecord[]) => Array.from({ length: DAY_MIN }, (_, m) => statusAt(log, T0 + m * M));
        let model = minutes(active());

        const apply = (c: Correction, editId: string, origin: LogRecord['origin'], proposed: Stored[] | null): boolean => {
          const log = active();
          if (touchedAutomaticDriving(log, c, NOW) !== null || correctionProblems(c, NOW).length > 0) return false;
          const plan = planCorrection(log, c);
          for (const r of store) if (plan.inactivate.includes(r.id)) r.recordStatus = 'INACTIVE_CHANGED';
          plan.add.forEach((e, i) => {
            const existing = proposed?.[i];
            if (existing && existing.at === e.at && existing.status === e.status) existing.recordStatus = 'ACTIVE';
            else store.push({ id: id(), status: e.status, at: e.at, latitude: null, longitude: null, origin, note: null, annotation: 'Test fix', recordStatus: 'ACTIVE', editId });
          });
          for (const p of proposed ?? []) if (p.recordStatus === 'INACTIVE_CHANGE_REQUESTED') p.recordStatus = 'INACTIVE_CHANGE_REJECTED';
          // The model: inside [from, to) the entries, outside unchanged.
          for (let m = 0; m < DAY_MIN; m++) {
            const t = T0 + m * M;
            if (t >= c.from && t < c.to) model[m] = statusAt(c.entries.map((e, k) => ({ ...rec(0, e.status), at: e.at, id: `e${k}` })), t);
          }
          return true;
        };

        for (const o of ops) {
          const before = store.length;
          if (o.kind === 'driver') apply(o.c, `edit${++edit}`, 'DRIVER', null);
          else if (o.kind === 'request') {
            const editId = `edit${++edit}`;
            // Proposed records are stored, not active: nothing changes until the driver accepts.
            for (const e of o.c.entries) store.push({ id: id(), status: e.status, at: e.at, latitude: null, longitude: null, origin: 'OTHER_USER', note: null, annotation: 'Test fix', recordStatus: 'INACTIVE_CHANGE_REQUESTED', editId });
            pending.push({ id: editId, c: o.c });
          } else if (pending.length > 0) {
            const [p] = pending.splice(o.pick % pending.length, 1);
            const proposed = store.filter((r) => r.editId === p!.id);
            if (o.kind === 'accept') {
              if (!apply(p!.c, p!.id, 'OTHER_USER', proposed)) for (const r of proposed) r.recordStatus = 'INACTIVE_CHANGE_REJECTED';
            } else for (const r of proposed) r.recordStatus = 'INACTIVE_CHANGE_REJECTED';
          }
          // History only grows; no record's content ever changes.
          expect(store.length).toBeGreaterThanOrEqual(before);
          for (const r of store) {
            const was = snapshot.get(r.id);
            if (was !== undefined) expect(JSON.stringify({ ...r, recordStatus: undefined })).toBe(was);
            else snapshot.set(r.id, JSON.stringify({ ...r, recordStatus: undefined }));
          }
          // ACTIVE records: strictly increasing instants (each lasts until the next: no overlap, no gap).
          const log = active();
          for (let i = 1; i < log.length; i++) expect(log[i]!.at).toBeGreaterThan(log[i - 1]!.at);
          // The log says exactly what the model says, minute by minute.
          expect(minutes(log)).toEqual(model);
        }
        model = minutes(active());
      }),
      { numRuns: 300 },
    );
  });
});
