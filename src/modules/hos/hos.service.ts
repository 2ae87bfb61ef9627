import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { hosNow, timelineFromLog, type EldReport, type HosNow } from '../../domain/hos/index.js';
import { eldClocksOf, toEldClocks, type EldClocks } from './eld-clocks.repository.js';
import { ELD_CLOCKS_MAX_AGE_MS } from '../../domain/hos/eld-clocks.js';
import { HOUR_MS, type ClockSnapshot, type DutyPeriod, type DutyStatus, type HosClocks, type RuleSet } from '../../domain/hos/types.js';
import { invalid, invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import { findDriver, type DriverRecord } from '../drivers/drivers.repository.js';
import { cacheDriverClocks, dutyEventsSince, hoursSourcesOf, insertDutyEvent, lastDutyEvent, listDutyEvents, ruleSetOf, tenantRuleSet, type DutyEvent, type HoursSourceRow } from './hos.repository.js';

/** Long enough for every cycle (Canada cycle 2: 14 days) and a restart before it. */
export const HISTORY_DAYS = 16;
/** A status may be logged a little ahead of the server's clock (device clock drift), no more. */
const FUTURE_TOLERANCE_MS = 60_000;

const round2 = (n: number) => Math.round(n * 100) / 100;
const finite = (n: number) => (Number.isFinite(n) ? round2(n) : null);

export interface DriverHistory {
  rules: RuleSet;
  timeline: DutyPeriod[];
  events: DutyEvent[];
}

/** The driver's duty timeline up to `now` from the log, clipped to the history the rules need. */
export async function driverHistory(tx: Tx, tenantId: string, driverId: string, now: number): Promise<DriverHistory> {
  const rules = await tenantRuleSet(tx, tenantId);
  return historyFromEvents(rules, await dutyEventsSince(tx, tenantId, driverId, historySince(now)), now);
}

/** Where the history the rules need begins, for a timeline up to `now`. */
export const historySince = (now: number): Date => new Date(now - HISTORY_DAYS * 24 * HOUR_MS);

/** driverHistory from events already read (dutyEventsSince's, in log order). */
export function historyFromEvents(rules: RuleSet, events: DutyEvent[], now: number): DriverHistory {
  const timeline = timelineFromLog(events.map((e) => ({ status: e.status, at: Date.parse(e.at) })), historySince(now).getTime(), now);
  return { rules, timeline, events };
}

/** An ELD's stored clocks as the HOS engine takes them. */
export const eldReport = (eld: EldClocks | null): EldReport | null => (eld ? { vendor: eld.source, reported: eld.reported } : null);

/**
 * A driver's duty state as a plan from `at` starts with it: the one truth of hosNow (the ELD's clocks
 * when an ELD synced them recently, as a clock snapshot the planner starts from; otherwise the
 * duty-status log replayed up to `at`, which the planner audits together with the plan). Re-plans and
 * dispatch candidates use it.
 */
export async function planningHistory(tx: Tx, tenantId: string, driverId: string, at: number): Promise<{ rules: RuleSet; history: { timeline: DutyPeriod[] } | { snapshot: ClockSnapshot }; clocks: HosClocks; source: string }> {
  const h = await driverHistory(tx, tenantId, driverId, at);
  const now = hosNow(h.timeline, h.rules, at, eldReport(await eldClocksOf(tx, tenantId, driverId, at)));
  if (now.source.kind === 'LOG') return { rules: h.rules, history: { timeline: h.timeline }, clocks: now.clocks, source: 'LOG' };
  return { rules: h.rules, history: { snapshot: snapshotOf(now.clocks) }, clocks: now.clocks, source: now.source.vendor ?? 'ELD' };
}

/**
 * The four clocks a plan can start from, rounded to hundredths and made consistent the conservative way
 * (an ELD's clocks are reported one by one): never more hours since the break than driven, never less on
 * duty than driven, and a break counted only when the on-duty hours leave room for it.
 */
export function snapshotOf(c: Pick<HosClocks, 'hoursDriven' | 'onDutyHours' | 'hoursSinceBreak' | 'cycleHoursUsed'>): ClockSnapshot {
  const hoursDriven = round2(Math.max(0, c.hoursDriven));
  const onDutyHours = round2(Math.max(hoursDriven, c.onDutyHours));
  let hoursSinceBreak = round2(Math.min(hoursDriven, Math.max(0, c.hoursSinceBreak)));
  if (hoursSinceBreak < hoursDriven && onDutyHours - hoursDriven < 0.5) hoursSinceBreak = hoursDriven;
  return { hoursDriven, onDutyHours, hoursSinceBreak, cycleHoursUsed: round2(Math.max(onDutyHours, c.cycleHoursUsed)) };
}

/**
 * The hours of many drivers now, each the same truth GET /drivers/{id}/hos answers (hosNow): the tenant's
 * rules and each driver's log, ELD clocks and team route in one statement (hoursSourceColumns), whatever the
 * number of drivers — what the driver list reads with its page.
 */
export async function currentHoursOf(tx: Tx, tenantId: string, driverIds: readonly string[], now: number): Promise<Map<string, HosNow>> {
  if (driverIds.length === 0) return new Map();
  const { hos, rows } = await hoursSourcesOf(tx, tenantId, driverIds, hoursSourceParams(now));
  const rules = ruleSetOf(hos);
  return new Map(driverIds.map((id) => [id, hosNowOfRow(rules, rows.get(id) ?? { hours_log: null, hours_eld: null, hours_team: false }, now)]));
}

/** The parameters hoursSourceColumns' `since` and `eldSince` stand for, for hours at `now`. */
export const hoursSourceParams = (now: number): [Date, Date] => [historySince(now), new Date(now - ELD_CLOCKS_MAX_AGE_MS)];

/** A driver's hours now (hosNow, as currentHoursOf answers them) from the columns hoursSourceColumns read. */
export function hosNowOfRow(rules: RuleSet, row: HoursSourceRow, now: number): HosNow {
  const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  const log = (row.hours_log === null ? [] : parse(row.hours_log)).map(([status, at]) => ({ status, at: Date.parse(at) }));
  const eld = row.hours_eld === null ? null : toEldClocks(parse(row.hours_eld));
  const r = row.hours_team ? { ...rules, options: { ...rules.options, teamDriving: true } } : rules;
  return hosNow(timelineFromLog(log, historySince(now).getTime(), now), r, now, eldReport(eld));
}

/** Whether the driver drives an ACTIVE route with a co-driver (as its driver or its co-driver). */
async function onActiveTeamRoute(tx: Tx, tenantId: string, driverId: string): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM route_plans WHERE tenant_id = $1 AND status = 'ACTIVE' AND co_driver_id IS NOT NULL AND (driver_id = $2 OR co_driver_id = $2) LIMIT 1`,
    [tenantId, driverId],
  );
  return rows.length > 0;
}

/** Where the clocks come from, for the API: the vendor id and name, and the report's time. */
export function clockSourceOf(now: HosNow) {
  const src = now.source;
  return { kind: src.kind, vendor: src.vendor, name: src.name, syncedAt: src.syncedAt === null ? null : new Date(src.syncedAt).toISOString() };
}

/** The ELD and the log further apart than a few minutes, for the API: both figures and the difference, rounded as shown. */
export function disagreementOf(now: HosNow) {
  const d = now.disagreement;
  return d ? { clocks: d.clocks.map((c) => ({ ...c, eldHours: round2(c.eldHours), logHours: round2(c.logHours), differenceHours: round2(c.differenceHours) })), message: d.message } : null;
}

function hosRecord(driver: DriverRecord, h: DriverHistory, now: HosNow) {
  const c = now.clocks;
  const last = h.events[h.events.length - 1];
  const eld = now.source.kind === 'ELD';
  return {
    driverId: driver.id,
    driverName: `${driver.firstName} ${driver.lastName}`,
    currentHoursDriven: round2(c.hoursDriven),
    currentOnDutyTime: round2(c.onDutyHours),
    currentCycleUsed: round2(c.cycleHoursUsed),
    hoursSinceLastBreak: round2(c.hoursSinceBreak),
    // With nothing logged the engine assumes a rested driver; that is no restart anyone took.
    lastRestartDate: c.lastRestartAt === null || h.events.length === 0 ? null : new Date(c.lastRestartAt).toISOString(),
    driveTimeRemaining: round2(c.driveRemaining),
    dutyTimeRemaining: round2(c.windowRemaining),
    cycleTimeRemaining: round2(c.cycleRemaining),
    breakRequired: Number.isFinite(c.breakRemaining) && c.breakRemaining <= 0,
    breakRequiredWithin: finite(c.breakRemaining),
    currentDutyStatus: eld ? c.dutyStatus : last ? last.status : c.dutyStatus,
    lastStatusChange: last ? last.at : null,
    source: eld ? (now.source.vendor ?? 'ELD') : 'MANUAL',
    lastSyncedAt: eld && now.source.syncedAt !== null ? new Date(now.source.syncedAt).toISOString() : last ? last.createdAt : null,
    clockSource: clockSourceOf(now),
    disagreement: disagreementOf(now),
    ruleSet: h.rules.id,
    violations: now.violations.map((v) => ({ kind: v.kind, at: new Date(v.at).toISOString(), overHours: round2(v.overHours), rule: v.rule, explanation: v.explanation })),
    nextRequiredRest: {
      kind: now.nextRest.kind,
      requiredAfterDrivingHours: round2(now.nextRest.requiredAfterDrivingHours),
      requiredWithinHours: round2(now.nextRest.requiredWithinHours),
      durationHours: now.nextRest.durationHours,
      limitedBy: now.nextRest.limitedBy,
      explanation: now.nextRest.explanation,
    },
    explanation: now.explanation,
  };
}

export type HosRecord = ReturnType<typeof hosRecord>;

export function hosService(deps: Deps) {
  const { db, clock } = deps;

  /** A DRIVER user reaches only their own driver profile; others are "not found". */
  async function driverFor(tx: Tx, ctx: TenantContext, driverId: string, forUpdate = false): Promise<DriverRecord> {
    const driver = await findDriver(tx, ctx.tenantId, driverId, forUpdate);
    if (!driver || (ctx.role === 'DRIVER' && driver.userId !== ctx.userId)) throw notFound('Driver');
    return driver;
  }

  async function evaluateDriver(tx: Tx, tenantId: string, driver: DriverRecord, now: number) {
    const found = await driverHistory(tx, tenantId, driver.id, now);
    // A driver on an ACTIVE team route is judged by the rule set's team provisions (Canada s.19's team split), as monitoring judges them.
    const history = (await onActiveTeamRoute(tx, tenantId, driver.id)) ? { ...found, rules: { ...found.rules, options: { ...found.rules.options, teamDriving: true } } } : found;
    return hosRecord(driver, history, hosNow(history.timeline, history.rules, now, eldReport(await eldClocksOf(tx, tenantId, driver.id, now))));
  }

  return {
    async get(ctx: TenantContext, driverId: string): Promise<HosRecord> {
      const now = clock.now().getTime();
      return db.tenant(ctx.tenantId, async (tx) => evaluateDriver(tx, ctx.tenantId, await driverFor(tx, ctx, driverId), now));
    },

    async log(ctx: TenantContext, driverId: string, q: { from?: string; to?: string; limit: number; history?: boolean }) {
      const now = clock.now();
      // By default the log runs to its newest status, including one logged just now (the range is
      // half-open, [from, to)) or up to a minute ahead of the server's clock (device drift).
      const to = q.to ? new Date(q.to) : new Date(now.getTime() + FUTURE_TOLERANCE_MS + 1);
      const from = q.from ? new Date(q.from) : new Date(to.getTime() - 8 * 24 * HOUR_MS);
      if (from >= to) throw invalid('Validation failed', [{ field: 'querystring.from', message: 'must be before to' }]);
      return db.tenant(ctx.tenantId, async (tx) => {
        await driverFor(tx, ctx, driverId);
        return { data: await listDutyEvents(tx, ctx.tenantId, driverId, from, to, q.limit, q.history ?? false) };
      });
    },

    /** Appends a duty status to the driver's log and answers the HOS record that follows from it. */
    async record(ctx: TenantContext, driverId: string, input: { status: DutyStatus; at?: string; latitude?: number; longitude?: number; note?: string }) {
      const now = clock.now();
      const at = input.at ? new Date(input.at) : now;
      if (at.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) {
        throw invalid('Validation failed', [{ field: 'body.at', message: 'must not be in the future' }]);
      }
      if (at.getTime() < now.getTime() - HISTORY_DAYS * 24 * HOUR_MS) {
        throw invalid('Validation failed', [{ field: 'body.at', message: `must be within the last ${HISTORY_DAYS} days` }]);
      }
      if ((input.latitude === undefined) !== (input.longitude === undefined)) {
        throw invalid('Validation failed', [{ field: 'body.latitude', message: 'latitude and longitude go together' }]);
      }
      return db.tenant(ctx.tenantId, async (tx) => {
        // The driver row is locked so that concurrent appends see each other: the log stays append-only.
        const driver = await driverFor(tx, ctx, driverId, true);
        if (driver.status !== 'ACTIVE') throw invalidState(`Driver is ${driver.status}; only ACTIVE drivers record duty status`);
        const last = await lastDutyEvent(tx, ctx.tenantId, driverId);
        if (last && Date.parse(last.at) >= at.getTime()) {
          throw invalidState(`The log is append-only: the last status (${last.status}) starts at ${last.at}; a new one must start after it`);
        }
        if (last && last.status === input.status) throw invalidState(`Driver is already ${input.status}`);
        const event = await insertDutyEvent(
          tx,
          ctx.tenantId,
          {
            id: newId('dutyStatus'),
            driverId,
            status: input.status,
            at,
            latitude: input.latitude,
            longitude: input.longitude,
            note: input.note,
            source: 'MANUAL',
            createdBy: ctx.userId,
            // ELD specification §7.22: entered by the driver (origin 2), or by another authenticated user (3).
            origin: ctx.via === 'token' && driver.userId === ctx.userId ? 'DRIVER' : 'OTHER_USER',
          },
          now,
        );
        const hos = await evaluateDriver(tx, ctx.tenantId, driver, now.getTime());
        await cacheDriverClocks(
          tx,
          ctx.tenantId,
          driverId,
          {
            hoursDriven: hos.currentHoursDriven,
            onDutyHours: hos.currentOnDutyTime,
            cycleHoursUsed: hos.currentCycleUsed,
            lastRestartAt: hos.lastRestartDate ? Date.parse(hos.lastRestartDate) : null,
          },
          now,
        );
        return { event, hos };
      });
    },
  };
}
