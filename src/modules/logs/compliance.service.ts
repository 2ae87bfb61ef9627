/**
 * The fleet's HOS compliance at a glance (issue 27): per driver over a range of days, the violations by type,
 * the days not certified (395.30(b): each 24-hour record is certified by the driver), the correction requests
 * waiting for the driver, and "driving not in the log": stretches where the positions of the driver's truck
 * show it moving while the driver's log does not show driving (what an auditor compares first).
 */
import type { Deps } from '../../deps.js';
import { haversineMiles } from '../../domain/geo/index.js';
import { statusAt } from '../../domain/logs/corrections.js';
import { addDays, daysBetween, isLogDate, logDateOf, periodOf, type LogRecord } from '../../domain/logs/daily-log.js';
import type { Tx } from '../../db/types.js';
import { invalid } from '../../lib/errors.js';
import { iso } from '../../lib/rows.js';
import type { TenantContext } from '../../plugins/context.js';
import { toDriver } from '../drivers/drivers.repository.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import type { LogPosition } from './logs.repository.js';
import { buildDays, driverLogSettings, logDataOf, organizationLogSettings } from './logs.service.js';
import { unassignedFlags } from './unassigned.service.js';

/** Consecutive positions this far apart (great circle) with no driving logged between them count as driving not in the log. */
export const MOVING_MILES = 1;
export const MAX_COMPLIANCE_DAYS = 31;

export interface DrivingNotInLog {
  date: string;
  start: string;
  end: string;
  miles: number;
}

/**
 * Per vehicle with unassigned driving in [start, end): its segments and minutes, how much is still unresolved
 * (neither assumed by a driver nor annotated: 49 CFR 395.32), and the 24-hour flag of the unassigned driving list.
 */
async function unassignedByVehicle(tx: Tx, tenantId: string, start: Date, end: Date, now: number) {
  const { rows } = await tx.query<{ vehicle_id: string; unit_number: string; status: string; started_at: unknown; ended_at: unknown }>(
    `SELECT u.vehicle_id, v.unit_number, u.status, u.started_at, u.ended_at FROM unassigned_driving u JOIN vehicles v ON v.tenant_id = u.tenant_id AND v.id = u.vehicle_id
      WHERE u.tenant_id = $1 AND u.started_at < $3 AND u.ended_at > $2 ORDER BY v.unit_number, u.vehicle_id, u.started_at`,
    [tenantId, start, end],
  );
  const flagged = new Set((await unassignedFlags(tx, tenantId, now)).filter((f) => f.flagged).map((f) => f.vehicleId));
  const by = new Map<string, { vehicleId: string; vehicleUnitNumber: string; segments: number; minutes: number; unresolvedSegments: number; unresolvedMinutes: number; flagged: boolean }>();
  for (const r of rows) {
    const e = by.get(r.vehicle_id) ?? { vehicleId: r.vehicle_id, vehicleUnitNumber: r.unit_number, segments: 0, minutes: 0, unresolvedSegments: 0, unresolvedMinutes: 0, flagged: flagged.has(r.vehicle_id) };
    const minutes = Math.round((Date.parse(iso(r.ended_at)) - Date.parse(iso(r.started_at))) / 60_000);
    e.segments += 1;
    e.minutes += minutes;
    if (r.status === 'UNASSIGNED' || r.status === 'ASSIGNMENT_PENDING') {
      e.unresolvedSegments += 1;
      e.unresolvedMinutes += minutes;
    }
    by.set(r.vehicle_id, e);
  }
  return [...by.values()];
}

/**
 * Driving not in the log: the truck moved (a mile or more between two positions of the same route, both
 * in [start, end)) while the log says the driver did not drive; consecutive stretches of a day joined.
 */
export function drivingNotInLog(records: readonly LogRecord[], positions: readonly LogPosition[], settings: { zone: string; periodStartTime: string }, start: number, end: number): DrivingNotInLog[] {
  const out: DrivingNotInLog[] = [];
  const inRange = positions.filter((p) => p.at >= start && p.at < end);
  for (let i = 1; i < inRange.length; i++) {
    const a = inRange[i - 1]!;
    const b = inRange[i]!;
    if (a.routeId !== b.routeId) continue;
    const miles = haversineMiles(a, b);
    if (miles < MOVING_MILES || statusAt(records, (a.at + b.at) / 2) === 'ON_DUTY_DRIVING') continue;
    const date = logDateOf(a.at, settings.zone, settings.periodStartTime);
    const last = out[out.length - 1];
    if (last && last.date === date && last.end === new Date(a.at).toISOString()) {
      last.end = new Date(b.at).toISOString();
      last.miles = Math.round((last.miles + miles) * 10) / 10;
    } else out.push({ date, start: new Date(a.at).toISOString(), end: new Date(b.at).toISOString(), miles: Math.round(miles * 10) / 10 });
  }
  return out;
}

export function complianceService(deps: Deps, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>) {
  const { db, clock } = deps;
  return {
    async summary(ctx: TenantContext, q: { from?: string; to?: string; page: number; pageSize: number }) {
      const now = clock.now();
      for (const key of ['from', 'to'] as const) {
        const v = q[key];
        if (v !== undefined && !isLogDate(v)) throw invalid('Validation failed', [{ field: `querystring.${key}`, message: 'must be a date, YYYY-MM-DD' }]);
      }
      return db.tenant(ctx.tenantId, async (tx) => {
        // The page of drivers, and each kind of row for all of them at once (not per driver).
        const { rows } = await tx.query<Record<string, unknown>>(
          `SELECT *, count(*) OVER () AS total FROM drivers WHERE tenant_id = $1 ORDER BY last_name, first_name, id LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`,
          [ctx.tenantId],
        );
        const total = rows[0] ? Number(rows[0].total) : Number((await tx.query<{ n: string }>('SELECT count(*) AS n FROM drivers WHERE tenant_id = $1', [ctx.tenantId])).rows[0]!.n);
        const org = await organizationLogSettings(tx, ctx.tenantId, ports);
        const page = rows.map((r) => {
          const driver = toDriver(r);
          const settings = driverLogSettings(org, driver);
          const today = logDateOf(now.getTime(), settings.zone, settings.periodStartTime);
          const to = q.to ?? today;
          const from = q.from ?? addDays(to, -7);
          if (daysBetween(from, to) < 0) throw invalid('Validation failed', [{ field: 'querystring.from', message: 'must not be after to' }]);
          if (daysBetween(from, to) >= MAX_COMPLIANCE_DAYS) throw invalid('Validation failed', [{ field: 'querystring.to', message: `at most ${MAX_COMPLIANCE_DAYS} days at a time` }]);
          const dates: string[] = [];
          for (let d = to; daysBetween(from, d) >= 0; d = addDays(d, -1)) dates.push(d);
          return { driver, settings, dates, from, to };
        });
        const loaded = await logDataOf(tx, ctx.tenantId, page);
        const data = [];
        let range: { from: string; to: string; start: number; end: number } | null = null;
        for (const { driver, settings, dates, from, to } of page) {
          range ??= { from, to, start: periodOf(from, settings.zone, settings.periodStartTime).start, end: periodOf(to, settings.zone, settings.periodStartTime).end };
          const got = loaded.get(driver.id)!;
          const days = buildDays(settings, dates, now.getTime(), got, null);
          const violations: Record<string, number> = {};
          for (const d of days) for (const v of d.violations) violations[v.type] = (violations[v.type] ?? 0) + 1;
          // A day with any record on it that has ended is certified by the driver (395.30(b)).
          const notCertified = days
            .filter((d) => Date.parse(d.periodEnd) <= now.getTime() && d.events.length > 0 && (!d.certification.certified || d.certification.recertificationRequired))
            .map((d) => d.date);
          data.push({
            driverId: driver.id,
            driverName: `${driver.firstName} ${driver.lastName}`,
            status: driver.status,
            timeZone: settings.zone,
            violations,
            violationCount: Object.values(violations).reduce((x, y) => x + y, 0),
            daysNotCertified: notCertified,
            pendingEditRequests: days.reduce((n, d) => n + d.pendingEditRequests, 0),
            drivingNotInLog: drivingNotInLog(got.records, got.positions, settings, periodOf(from, settings.zone, settings.periodStartTime).start, periodOf(to, settings.zone, settings.periodStartTime).end),
          });
        }
        // Unassigned driving per vehicle over the same days (the first driver's periods; without drivers, the last 8 days).
        const end = range?.end ?? now.getTime();
        const start = range?.start ?? end - 8 * 24 * 3_600_000;
        return {
          data,
          total,
          page: q.page,
          pageSize: q.pageSize,
          from: range?.from ?? q.from ?? null,
          to: range?.to ?? q.to ?? null,
          unassignedDriving: await unassignedByVehicle(tx, ctx.tenantId, new Date(start), new Date(Math.min(end, now.getTime())), now.getTime()),
        };
      });
    },
  };
}
