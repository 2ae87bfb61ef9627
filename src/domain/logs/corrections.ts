/**
 * Corrections of a driver's record of duty status. Pure: the ACTIVE records and the correction are arguments.
 *
 * A correction replaces the record between `from` and `to` by its entries (the first at `from`): the ACTIVE
 * records that start in [from, to) become INACTIVE_CHANGED, the entries are added, and — when no record
 * starts exactly at `to` — the status that was in force at `to` is restated there, so the log after `to`
 * reads as before. Nothing is removed (49 CFR 395.30(c): "the original record is retained"; ELD
 * specification §4.4.4.2.5: the edited record becomes inactive–changed, the new one active).
 *
 * ELD specification §4.3.2.8.2(b)–(c): "driving time that was automatically recorded by the ELD cannot be
 * shortened" nor changed into another duty status — so a correction may not overlap automatically recorded
 * driving at all: the time around it can be corrected and annotated, the driving itself stays as recorded.
 */
import type { DutyStatus } from '../hos/index.js';
import type { LogRecord } from './daily-log.js';

export interface CorrectionEntry {
  status: DutyStatus;
  at: number;
  latitude?: number | null;
  longitude?: number | null;
  note?: string | null;
}

export interface Correction {
  from: number;
  to: number;
  entries: readonly CorrectionEntry[];
}

export interface Problem {
  field: string;
  message: string;
}

/** 395.30(c)(2) and ELD specification §7.4: an annotation of 4 to 60 characters explains every correction. */
export const ANNOTATION_MIN = 4;
export const ANNOTATION_MAX = 60;

/** What is wrong with a correction's shape (before looking at the log). */
export function correctionProblems(c: Correction, now: number): Problem[] {
  const out: Problem[] = [];
  if (!(c.to > c.from)) out.push({ field: 'body.to', message: 'must be after from' });
  if (c.to > now) out.push({ field: 'body.to', message: 'must not be in the future' });
  if (c.entries.length === 0) out.push({ field: 'body.entries', message: 'must hold at least one status' });
  c.entries.forEach((e, i) => {
    if (i === 0 && e.at !== c.from) out.push({ field: 'body.entries.0.at', message: 'the first status starts at from' });
    if (i > 0 && e.at <= c.entries[i - 1]!.at) out.push({ field: `body.entries.${i}.at`, message: 'must be after the status before it' });
    if (e.at >= c.to && !(i === 0 && e.at === c.from)) out.push({ field: `body.entries.${i}.at`, message: 'must be before to' });
    if ((e.latitude === undefined || e.latitude === null) !== (e.longitude === undefined || e.longitude === null)) out.push({ field: `body.entries.${i}.latitude`, message: 'latitude and longitude go together' });
  });
  return out;
}

/** The stretches of automatically recorded driving in the ACTIVE log ([start, end); the last runs to `now`). */
export function automaticDriving(active: readonly LogRecord[], now: number): Array<{ recordId: string; start: number; end: number }> {
  const out: Array<{ recordId: string; start: number; end: number }> = [];
  active.forEach((r, i) => {
    if (r.origin === 'AUTOMATIC' && r.status === 'ON_DUTY_DRIVING') out.push({ recordId: r.id, start: r.at, end: active[i + 1]?.at ?? Math.max(now, r.at) });
  });
  return out;
}

/** The automatically recorded driving a correction over [from, to) would touch, or null. */
export function touchedAutomaticDriving(active: readonly LogRecord[], c: Pick<Correction, 'from' | 'to'>, now: number): { recordId: string; start: number; end: number } | null {
  return automaticDriving(active, now).find((d) => d.start < c.to && c.from < d.end) ?? null;
}

export interface CorrectionPlan {
  /** ACTIVE records that become INACTIVE_CHANGED. */
  inactivate: string[];
  /** Records to add as ACTIVE: the entries, and the status in force at `to` restated there when needed. */
  add: Array<CorrectionEntry & { restated: LogRecord | null }>;
}

/** What applying `c` to the ACTIVE log does. */
export function planCorrection(active: readonly LogRecord[], c: Correction): CorrectionPlan {
  const inactivate = active.filter((r) => r.at >= c.from && r.at < c.to).map((r) => r.id);
  const add: CorrectionPlan['add'] = c.entries.map((e) => ({ ...e, restated: null }));
  const startsAtTo = active.some((r) => r.at === c.to);
  const inForceAtTo = [...active].reverse().find((r) => r.at < c.to) ?? null;
  // Before the first record the driver was off duty: after the corrected stretch the log reads as before.
  const after: DutyStatus = inForceAtTo?.status ?? 'OFF_DUTY';
  if (!startsAtTo && c.entries.at(-1)?.status !== after) {
    add.push({ status: after, at: c.to, latitude: inForceAtTo?.latitude ?? null, longitude: inForceAtTo?.longitude ?? null, note: inForceAtTo?.note ?? null, restated: inForceAtTo });
  }
  return { inactivate, add };
}

/** The ACTIVE log after a correction (`newId` names the added records). */
export function applyCorrection(active: readonly LogRecord[], c: Correction, origin: LogRecord['origin'], annotation: string, newId: () => string): LogRecord[] {
  const plan = planCorrection(active, c);
  const gone = new Set(plan.inactivate);
  const added: LogRecord[] = plan.add.map((e) => ({
    id: newId(),
    status: e.status,
    at: e.at,
    latitude: e.latitude ?? null,
    longitude: e.longitude ?? null,
    // A record the correction makes, restated ones included, is the correction's: its origin and annotation.
    origin,
    note: e.note ?? null,
    annotation,
  }));
  return [...active.filter((r) => !gone.has(r.id)), ...added].sort((a, b) => a.at - b.at);
}

/** The status in force at `t` (off duty before the first record). */
export function statusAt(active: readonly LogRecord[], t: number): DutyStatus {
  let s: DutyStatus = 'OFF_DUTY';
  for (const r of active) {
    if (r.at > t) break;
    s = r.status;
  }
  return s;
}
