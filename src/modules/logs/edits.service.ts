/**
 * Corrections of a driver's record of duty status (49 CFR 395.30; ELD specification §4.3.2.8 and §4.4.4.2).
 *
 * Made by the driver's own user: applied at once (origin DRIVER). Made by anyone else: a request (PENDING)
 * whose proposed records are stored INACTIVE_CHANGE_REQUESTED and change nothing until the driver accepts
 * (395.30(c)(2): "edits requested by anyone other than the driver ... must be confirmed by the driver");
 * the driver may reject it, its author cancel it while it is pending. Accepting or applying makes the ACTIVE
 * records of [from, to) INACTIVE_CHANGED and the new ones ACTIVE; nothing is deleted or rewritten.
 */
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { emitEvent } from '../../db/outbox.js';
import { applyCorrection, correctionProblems, planCorrection, touchedAutomaticDriving, type Correction } from '../../domain/logs/corrections.js';
import { addDays, daysBetween, historyStart, isLogDate, logDateOf, type LogRecord } from '../../domain/logs/daily-log.js';
import type { DutyStatus } from '../../domain/hos/index.js';
import { forbidden, invalid, invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { clockAt } from '../../domain/words.js';
import { iso } from '../../lib/rows.js';
import type { TenantContext } from '../../plugins/context.js';
import { findDriver, type DriverRecord } from '../drivers/drivers.repository.js';
import { startMonitoring } from '../monitoring/monitoring.service.js';
import { insertDutyEvent, ruleSetOf } from '../hos/hos.repository.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { activeRecords } from './logs.repository.js';
import { logDriverFor, logSettingsOf, logsService, type DayAnswer } from './logs.service.js';

export type EditStatus = 'PENDING' | 'ACCEPTED' | 'REJECTED' | 'CANCELLED' | 'APPLIED';

export interface EditInput {
  from: string;
  to: string;
  entries: Array<{ status: DutyStatus; at: string; latitude?: number; longitude?: number; note?: string }>;
  annotation: string;
}

export interface EditAnswer {
  id: string;
  driverId: string;
  status: EditStatus;
  origin: 'DRIVER' | 'OTHER_USER' | 'UNIDENTIFIED_ASSUMED';
  from: string;
  to: string;
  entries: Array<{ status: string; at: string; latitude: number | null; longitude: number | null; note: string | null }>;
  annotation: string;
  requestedBy: string | null;
  requestedByName: string | null;
  requestedAt: string;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: string | null;
  decisionAnnotation: string | null;
  dates: string[];
  /** The days it touches as they are (or were, when it was decided) and as they would be (or became). */
  before: DayAnswer[];
  after: DayAnswer[];
}

interface EditRow {
  id: string;
  driver_id: string;
  status: EditStatus;
  origin: EditAnswer['origin'];
  range_from: unknown;
  range_to: unknown;
  entries: unknown;
  annotation: string;
  requested_by: string | null;
  requested_at: unknown;
  decided_by: string | null;
  decided_at: unknown;
  decision_annotation: string | null;
  dates: string[];
  days_before: unknown;
  days_after: unknown;
  unassigned_id: string | null;
  requested_by_name?: string | null;
  decided_by_name?: string | null;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const ms = (v: unknown) => Date.parse(iso(v));

function correctionOf(row: EditRow): Correction {
  const entries = json<EditAnswer['entries']>(row.entries);
  return { from: ms(row.range_from), to: ms(row.range_to), entries: entries.map((e) => ({ status: e.status as DutyStatus, at: Date.parse(e.at), latitude: e.latitude, longitude: e.longitude, note: e.note })) };
}

export function editsService(deps: Deps, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>) {
  const { db, clock } = deps;
  const logs = logsService(deps, ports);

  /** The driver's own user, signed in (an API key is never the driver). */
  const isDriversOwn = (ctx: TenantContext, driver: DriverRecord) => ctx.via === 'token' && driver.userId !== null && driver.userId === ctx.userId;

  /** The days a correction touches, and the log as it is (from far enough back for the recap and the violations). */
  async function context(tx: Tx, ctx: TenantContext, driver: DriverRecord, c: Correction, now: number) {
    const settings = await logSettingsOf(tx, ctx.tenantId, driver, ports);
    const first = logDateOf(c.from, settings.zone, settings.periodStartTime);
    const last = logDateOf(Math.max(c.from, c.to - 1), settings.zone, settings.periodStartTime);
    const dates: string[] = [];
    for (let d = last; daysBetween(first, d) >= 0; d = addDays(d, -1)) dates.push(d);
    const since = historyStart(first, settings.zone, settings.periodStartTime, ruleSetOf(settings.hos));
    const active = await activeRecords(tx, ctx.tenantId, driver.id, new Date(Math.min(since, c.from)));
    return { settings, dates, active, now };
  }

  /** 400 unless the correction leaves automatically recorded driving as it was. */
  function checkAutomatic(active: readonly LogRecord[], c: Correction, now: number, zone: string): void {
    const touched = touchedAutomaticDriving(active, c, now);
    if (touched) {
      throw invalid('Automatically recorded driving cannot be changed', [
        {
          field: 'body.from',
          message: `the correction overlaps driving the ELD recorded automatically from ${clockAt(touched.start, zone)} to ${clockAt(touched.end, zone)}: ELD specification (49 CFR Part 395 Subpart B, Appendix A) §4.3.2.8.2 — automatically recorded driving time cannot be shortened or changed to another duty status; correct the time around it`,
        },
      ]);
    }
  }

  async function beforeAfter(tx: Tx, ctx: TenantContext, driver: DriverRecord, c: Correction, origin: LogRecord['origin'], annotation: string, now: number) {
    const x = await context(tx, ctx, driver, c, now);
    const before = await logs.dayAnswers(tx, ctx.tenantId, driver, x.settings, x.dates, now);
    let n = 0;
    const after = await logs.dayAnswers(tx, ctx.tenantId, driver, x.settings, x.dates, now, applyCorrection(x.active, c, origin, annotation, () => `proposed-${++n}`));
    return { ...x, before, after };
  }

  /** Applies `c`: the ACTIVE records of [from, to) become INACTIVE_CHANGED, the new ones ACTIVE (the proposed ones when a request is accepted). */
  async function apply(tx: Tx, ctx: TenantContext, driver: DriverRecord, editId: string, c: Correction, origin: LogRecord['origin'], annotation: string, active: readonly LogRecord[], now: Date): Promise<void> {
    const plan = planCorrection(active, c);
    if (plan.inactivate.length > 0) {
      await tx.query(
        `UPDATE duty_status_events SET record_status = 'INACTIVE_CHANGED', status_changed_at = $4, status_changed_by = $5, status_changed_by_edit = $6
          WHERE tenant_id = $1 AND driver_id = $2 AND id = ANY($3::text[]) AND record_status = 'ACTIVE'`,
        [ctx.tenantId, driver.id, plan.inactivate, now, ctx.userId, editId],
      );
    }
    const proposed = (
      await tx.query<{ id: string; started_at: unknown; status: string }>(`SELECT id, started_at, status FROM duty_status_events WHERE tenant_id = $1 AND edit_id = $2 AND record_status = 'INACTIVE_CHANGE_REQUESTED'`, [ctx.tenantId, editId])
    ).rows;
    for (const e of plan.add) {
      const match = proposed.find((p) => ms(p.started_at) === e.at && p.status === e.status && e.restated === null);
      if (match) {
        await tx.query(`UPDATE duty_status_events SET record_status = 'ACTIVE', status_changed_at = $3, status_changed_by = $4, status_changed_by_edit = $2 WHERE tenant_id = $1 AND id = $5`, [ctx.tenantId, editId, now, ctx.userId, match.id]);
        continue;
      }
      await insertDutyEvent(
        tx,
        ctx.tenantId,
        { id: newId('dutyStatus'), driverId: driver.id, status: e.status, at: new Date(e.at), latitude: e.latitude ?? null, longitude: e.longitude ?? null, note: e.note ?? null, source: 'MANUAL', createdBy: ctx.userId, origin, editId, annotation },
        now,
      );
    }
    // The driver's active route is checked at the next monitoring pass: HOS alerts follow the corrected log at once.
    const routes = await tx.query<{ id: string }>(`SELECT id FROM route_plans WHERE tenant_id = $1 AND status = 'ACTIVE' AND (driver_id = $2 OR co_driver_id = $2)`, [ctx.tenantId, driver.id]);
    for (const r of routes.rows) await startMonitoring(tx, ctx.tenantId, r.id, now);
  }

  async function answer(tx: Tx, ctx: TenantContext, row: EditRow, now: number): Promise<EditAnswer> {
    const ids = [row.requested_by, row.decided_by].filter((x): x is string => x !== null);
    const names = new Map(
      ids.length === 0 ? [] : (await tx.query<{ id: string; name: string }>(`SELECT id, first_name || ' ' || last_name AS name FROM users WHERE tenant_id = $1 AND id = ANY($2::text[])`, [ctx.tenantId, ids])).rows.map((u) => [u.id, u.name] as const),
    );
    let before = row.days_before === null ? null : json<DayAnswer[]>(row.days_before);
    let after = row.days_after === null ? null : json<DayAnswer[]>(row.days_after);
    if (before === null || after === null) {
      const driver = (await findDriver(tx, ctx.tenantId, row.driver_id))!;
      const c = correctionOf(row);
      const x = await beforeAfter(tx, ctx, driver, c, row.origin, row.annotation, now);
      before = x.before;
      after = x.after;
    }
    return {
      id: row.id,
      driverId: row.driver_id,
      status: row.status,
      origin: row.origin,
      from: iso(row.range_from),
      to: iso(row.range_to),
      entries: json<EditAnswer['entries']>(row.entries),
      annotation: row.annotation,
      requestedBy: row.requested_by,
      requestedByName: names.get(row.requested_by ?? '') ?? null,
      requestedAt: iso(row.requested_at),
      decidedBy: row.decided_by,
      decidedByName: names.get(row.decided_by ?? '') ?? null,
      decidedAt: row.decided_at === null ? null : iso(row.decided_at),
      decisionAnnotation: row.decision_annotation,
      dates: row.dates,
      before,
      after,
    };
  }

  async function editFor(tx: Tx, ctx: TenantContext, editId: string, forUpdate = false): Promise<{ row: EditRow; driver: DriverRecord }> {
    const { rows } = await tx.query<EditRow>(`SELECT * FROM log_edits WHERE tenant_id = $1 AND id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`, [ctx.tenantId, editId]);
    const row = rows[0];
    if (!row) throw notFound('Log edit');
    const driver = await findDriver(tx, ctx.tenantId, row.driver_id, forUpdate);
    // A DRIVER user sees only the corrections of their own log.
    if (!driver || (ctx.role === 'DRIVER' && driver.userId !== ctx.userId)) throw notFound('Log edit');
    return { row, driver };
  }

  /**
   * A correction of the driver's log, in the caller's transaction. `assumed`: the driving of an unassigned
   * driving segment that the driver is to assume (origin UNIDENTIFIED_ASSUMED, ELD specification §7.22 origin 4).
   */
  async function createIn(tx: Tx, ctx: TenantContext, driverId: string, input: EditInput, assumed?: { unassignedId: string }): Promise<EditAnswer> {
    const now = clock.now();
    const c: Correction = {
      from: Date.parse(input.from),
      to: Date.parse(input.to),
      entries: input.entries.map((e) => ({ status: e.status, at: Date.parse(e.at), latitude: e.latitude ?? null, longitude: e.longitude ?? null, note: e.note ?? null })),
    };
    const problems = correctionProblems(c, now.getTime());
    if (problems.length > 0) throw invalid('Validation failed', problems);
    const annotation = input.annotation.trim();
    const driver = await logDriverFor(tx, ctx, driverId, true);
    const own = isDriversOwn(ctx, driver);
    const origin = assumed ? 'UNIDENTIFIED_ASSUMED' : own ? 'DRIVER' : 'OTHER_USER';
    const x = await beforeAfter(tx, ctx, driver, c, origin, annotation, now.getTime());
    checkAutomatic(x.active, c, now.getTime(), x.settings.zone);
    const id = newId('logEdit');
    const entries = c.entries.map((e) => ({ status: e.status, at: new Date(e.at).toISOString(), latitude: e.latitude ?? null, longitude: e.longitude ?? null, note: e.note ?? null }));
    const { rows } = await tx.query<EditRow>(
      `INSERT INTO log_edits (tenant_id, id, driver_id, status, origin, range_from, range_to, entries, annotation, requested_by, requested_at, decided_by, decided_at, dates, days_before, days_after, unassigned_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING *`,
      [
        ctx.tenantId, id, driver.id, own ? 'APPLIED' : 'PENDING', origin, new Date(c.from), new Date(c.to), JSON.stringify(entries), annotation, ctx.userId, now,
        own ? ctx.userId : null, own ? now : null, x.dates, own ? JSON.stringify(x.before) : null, own ? JSON.stringify(x.after) : null, assumed?.unassignedId ?? null,
      ],
    );
    if (own) {
      await apply(tx, ctx, driver, id, c, origin, annotation, x.active, now);
    } else {
      // ELD specification §4.4.4.2.6: the requested records are stored as "inactive – change requested".
      for (const e of c.entries) {
        await insertDutyEvent(
          tx,
          ctx.tenantId,
          { id: newId('dutyStatus'), driverId: driver.id, status: e.status, at: new Date(e.at), latitude: e.latitude ?? null, longitude: e.longitude ?? null, note: e.note ?? null, source: 'MANUAL', createdBy: ctx.userId, origin, recordStatus: 'INACTIVE_CHANGE_REQUESTED', editId: id, annotation },
          now,
        );
      }
      await emitEvent(tx, ctx.tenantId, 'log.edit_requested', { editId: id, driverId: driver.id, from: new Date(c.from).toISOString(), to: new Date(c.to).toISOString(), annotation, requestedBy: ctx.userId, dates: x.dates, unassignedDrivingId: assumed?.unassignedId ?? null }, now);
    }
    return { ...(await answer(tx, ctx, rows[0]!, now.getTime())), before: x.before, after: x.after };
  }

  /** An assignment of unassigned driving follows its edit request: accepted → ASSIGNED; rejected or cancelled → UNASSIGNED again (395.32). */
  async function settleUnassigned(tx: Tx, ctx: TenantContext, row: EditRow, status: 'ASSIGNED' | 'UNASSIGNED', now: Date): Promise<void> {
    if (row.unassigned_id === null) return;
    await tx.query(
      `UPDATE unassigned_driving SET status = $3, driver_id = CASE WHEN $3 = 'ASSIGNED' THEN driver_id END, status_changed_at = $4, status_changed_by = $5
        WHERE tenant_id = $1 AND id = $2 AND edit_id = $6 AND status = 'ASSIGNMENT_PENDING'`,
      [ctx.tenantId, row.unassigned_id, status, now, ctx.userId, row.id],
    );
  }

  return {
    async create(ctx: TenantContext, driverId: string, input: EditInput): Promise<EditAnswer> {
      return db.tenant(ctx.tenantId, (tx) => createIn(tx, ctx, driverId, input));
    },

    createIn,

    async decide(ctx: TenantContext, editId: string, decision: 'accept' | 'reject', annotation?: string): Promise<EditAnswer> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const { row, driver } = await editFor(tx, ctx, editId, true);
        if (!isDriversOwn(ctx, driver)) throw forbidden(`Only ${driver.firstName} ${driver.lastName}, signed in, can ${decision} a correction of their log (49 CFR 395.30(c))`);
        if (row.status !== 'PENDING') throw invalidState(`This correction is ${row.status.toLowerCase()}; only a pending one can be ${decision}ed`);
        const c = correctionOf(row);
        const x = await beforeAfter(tx, ctx, driver, c, row.origin, row.annotation, now.getTime());
        if (decision === 'accept') {
          checkAutomatic(x.active, c, now.getTime(), x.settings.zone);
          await apply(tx, ctx, driver, editId, c, row.origin, row.annotation, x.active, now);
        } else {
          await tx.query(
            `UPDATE duty_status_events SET record_status = 'INACTIVE_CHANGE_REJECTED', status_changed_at = $3, status_changed_by = $4, status_changed_by_edit = $2
              WHERE tenant_id = $1 AND edit_id = $2 AND record_status = 'INACTIVE_CHANGE_REQUESTED'`,
            [ctx.tenantId, editId, now, ctx.userId],
          );
        }
        const status = decision === 'accept' ? 'ACCEPTED' : 'REJECTED';
        const { rows } = await tx.query<EditRow>(
          `UPDATE log_edits SET status = $3, decided_by = $4, decided_at = $5, decision_annotation = $6, days_before = $7, days_after = $8 WHERE tenant_id = $1 AND id = $2 RETURNING *`,
          [ctx.tenantId, editId, status, ctx.userId, now, annotation ?? null, JSON.stringify(x.before), JSON.stringify(decision === 'accept' ? x.after : x.before)],
        );
        await settleUnassigned(tx, ctx, row, decision === 'accept' ? 'ASSIGNED' : 'UNASSIGNED', now);
        await emitEvent(tx, ctx.tenantId, decision === 'accept' ? 'log.edit_accepted' : 'log.edit_rejected', { editId, driverId: driver.id, from: new Date(c.from).toISOString(), to: new Date(c.to).toISOString(), annotation: row.annotation, decidedBy: ctx.userId, decisionAnnotation: annotation ?? null, dates: row.dates }, now);
        return answer(tx, ctx, rows[0]!, now.getTime());
      });
    },

    /** The carrier withdraws a pending request (its author or another of its users; recorded as decidedBy). */
    async cancel(ctx: TenantContext, editId: string): Promise<EditAnswer> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const { row, driver } = await editFor(tx, ctx, editId, true);
        // The carrier's side withdraws its request (its author, or a colleague: who is recorded); the driver rejects it instead.
        if (isDriversOwn(ctx, driver) || ctx.role === 'DRIVER') throw invalidState('A driver answers a correction request with reject, not cancel');
        if (row.status !== 'PENDING') throw invalidState(`This correction is ${row.status.toLowerCase()}; only a pending one can be cancelled`);
        await tx.query(
          `UPDATE duty_status_events SET record_status = 'INACTIVE_CHANGE_REJECTED', status_changed_at = $3, status_changed_by = $4, status_changed_by_edit = $2
            WHERE tenant_id = $1 AND edit_id = $2 AND record_status = 'INACTIVE_CHANGE_REQUESTED'`,
          [ctx.tenantId, editId, now, ctx.userId],
        );
        await settleUnassigned(tx, ctx, row, 'UNASSIGNED', now);
        const { rows } = await tx.query<EditRow>(`UPDATE log_edits SET status = 'CANCELLED', decided_by = $3, decided_at = $4 WHERE tenant_id = $1 AND id = $2 RETURNING *`, [ctx.tenantId, editId, ctx.userId, now]);
        return answer(tx, ctx, rows[0]!, now.getTime());
      });
    },

    async get(ctx: TenantContext, editId: string): Promise<EditAnswer> {
      const now = clock.now().getTime();
      return db.tenant(ctx.tenantId, async (tx) => answer(tx, ctx, (await editFor(tx, ctx, editId)).row, now));
    },

    async list(ctx: TenantContext, q: { driverId?: string; status?: EditStatus; page: number; pageSize: number }) {
      const now = clock.now().getTime();
      return db.tenant(ctx.tenantId, async (tx) => {
        const own = ctx.role === 'DRIVER' ? ((await tx.query<{ id: string }>('SELECT id FROM drivers WHERE tenant_id = $1 AND user_id = $2', [ctx.tenantId, ctx.userId])).rows[0]?.id ?? null) : undefined;
        if (own === null || (own !== undefined && q.driverId !== undefined && q.driverId !== own)) return { data: [], total: 0, page: q.page, pageSize: q.pageSize };
        const driverId = own ?? q.driverId ?? null;
        const where = `tenant_id = $1 AND ($2::text IS NULL OR driver_id = $2) AND ($3::text IS NULL OR status = $3)`;
        const params = [ctx.tenantId, driverId, q.status ?? null];
        const total = Number((await tx.query<{ n: string }>(`SELECT count(*) AS n FROM log_edits WHERE ${where}`, params)).rows[0]!.n);
        const { rows } = await tx.query<EditRow>(`SELECT * FROM log_edits WHERE ${where} ORDER BY requested_at DESC, id DESC LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`, params);
        const data: EditAnswer[] = [];
        for (const r of rows) data.push(await answer(tx, ctx, r, now));
        return { data, total, page: q.page, pageSize: q.pageSize };
      });
    },
  };
}

/** 395.30(b)(2)'s statement, as the ELD specification (§4.3.3.1.3(c)) words it. */
export const CERTIFICATION_STATEMENT = 'I hereby certify that my data entries and my record of duty status for this 24-hour period are true and correct.';

export function certificationService(deps: Deps, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>) {
  const { db, clock } = deps;
  const logs = logsService(deps, ports);
  return {
    /**
     * 395.30(b)(1): the driver certifies each 24-hour record, by their own hand — their own user, signed in
     * (anyone else: 403). Today or a past day; certifying again (after a correction) is a recertification,
     * and every certification is kept.
     */
    async certify(ctx: TenantContext, driverId: string, date: string) {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const driver = await logDriverFor(tx, ctx, driverId, true);
        if (!(ctx.via === 'token' && driver.userId !== null && driver.userId === ctx.userId)) {
          throw forbidden(`Only ${driver.firstName} ${driver.lastName}, signed in, can certify their own log (49 CFR 395.30(b))`);
        }
        if (!isLogDate(date)) throw invalid('Validation failed', [{ field: 'params.date', message: 'must be a date, YYYY-MM-DD' }]);
        const settings = await logSettingsOf(tx, ctx.tenantId, driver, ports);
        const today = logDateOf(now.getTime(), settings.zone, settings.periodStartTime);
        if (daysBetween(date, today) < 0) throw invalid('Validation failed', [{ field: 'params.date', message: `a day that has not begun cannot be certified (today is ${today} on the home terminal's clocks)` }]);
        if (daysBetween(date, today) >= 184) throw invalid('Validation failed', [{ field: 'params.date', message: 'more than 184 days ago' }]);
        const id = newId('certification');
        await tx.query(
          `INSERT INTO log_certifications (tenant_id, id, driver_id, log_date, certified_at, certified_by, statement) VALUES ($1, $2, $3, $4::date, $5, $6, $7)`,
          [ctx.tenantId, id, driver.id, date, now, ctx.userId, CERTIFICATION_STATEMENT],
        );
        const [day] = await logs.dayAnswers(tx, ctx.tenantId, driver, settings, [date], now.getTime());
        await emitEvent(tx, ctx.tenantId, 'log.certified', { driverId: driver.id, date, certifiedAt: now.toISOString(), certifications: day!.certification.certifications }, now);
        return { id, driverId: driver.id, date, certifiedAt: now.toISOString(), statement: CERTIFICATION_STATEMENT, recertification: day!.certification.certifications > 1, day: day! };
      });
    },
  };
}
