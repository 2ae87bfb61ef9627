/**
 * The fleet's HOS compliance at a glance (issue 27): per driver over a range of days, the violations by type,
 * the days not certified (395.30(b): each 24-hour record is certified by the driver), the correction requests
 * waiting for the driver, and "driving not in the log": stretches where the positions of the driver's truck
 * show it moving while the driver's log does not show driving (what an auditor compares first).
 */
import type { Deps } from '../../deps.js';
import { haversineMiles } from '../../domain/geo/index.js';
import { statusAt } from '../../domain/logs/corrections.js';
import { addDays, daysBetween, isLogDate, logDateOf, periodOf, historyStart } from '../../domain/logs/daily-log.js';
import { invalid } from '../../lib/errors.js';
import type { TenantContext } from '../../plugins/context.js';
import { findDriver } from '../drivers/drivers.repository.js';
import { ruleSetOf } from '../hos/hos.repository.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { activeRecords, positionsOf } from './logs.repository.js';
import { logSettingsOf, logsService } from './logs.service.js';

/** Consecutive positions this far apart (great circle) with no driving logged between them count as driving not in the log. */
export const MOVING_MILES = 1;
export const MAX_COMPLIANCE_DAYS = 31;

export interface DrivingNotInLog {
  date: string;
  start: string;
  end: string;
  miles: number;
}

export function complianceService(deps: Deps, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>) {
  const { db, clock } = deps;
  const logs = logsService(deps, ports);
  return {
    async summary(ctx: TenantContext, q: { from?: string; to?: string; page: number; pageSize: number }) {
      const now = clock.now();
      for (const key of ['from', 'to'] as const) {
        const v = q[key];
        if (v !== undefined && !isLogDate(v)) throw invalid('Validation failed', [{ field: `querystring.${key}`, message: 'must be a date, YYYY-MM-DD' }]);
      }
      return db.tenant(ctx.tenantId, async (tx) => {
        const { rows: ids } = await tx.query<{ id: string }>(
          `SELECT id FROM drivers WHERE tenant_id = $1 ORDER BY last_name, first_name, id LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`,
          [ctx.tenantId],
        );
        const total = Number((await tx.query<{ n: string }>('SELECT count(*) AS n FROM drivers WHERE tenant_id = $1', [ctx.tenantId])).rows[0]!.n);
        const data = [];
        let range: { from: string; to: string } | null = null;
        for (const { id } of ids) {
          const driver = (await findDriver(tx, ctx.tenantId, id))!;
          const settings = await logSettingsOf(tx, ctx.tenantId, driver, ports);
          const today = logDateOf(now.getTime(), settings.zone, settings.periodStartTime);
          const to = q.to ?? today;
          const from = q.from ?? addDays(to, -7);
          if (daysBetween(from, to) < 0) throw invalid('Validation failed', [{ field: 'querystring.from', message: 'must not be after to' }]);
          if (daysBetween(from, to) >= MAX_COMPLIANCE_DAYS) throw invalid('Validation failed', [{ field: 'querystring.to', message: `at most ${MAX_COMPLIANCE_DAYS} days at a time` }]);
          range ??= { from, to };
          const dates: string[] = [];
          for (let d = to; daysBetween(from, d) >= 0; d = addDays(d, -1)) dates.push(d);
          const days = await logs.dayAnswers(tx, ctx.tenantId, driver, settings, dates, now.getTime());
          const violations: Record<string, number> = {};
          for (const d of days) for (const v of d.violations) violations[v.type] = (violations[v.type] ?? 0) + 1;
          // A day with any record on it that has ended is certified by the driver (395.30(b)).
          const notCertified = days
            .filter((d) => Date.parse(d.periodEnd) <= now.getTime() && d.events.length > 0 && (!d.certification.certified || d.certification.recertificationRequired))
            .map((d) => d.date);
          // Driving not in the log: the truck moved between two positions while the log says the driver did not drive.
          const start = periodOf(from, settings.zone, settings.periodStartTime).start;
          const end = periodOf(to, settings.zone, settings.periodStartTime).end;
          const records = await activeRecords(tx, ctx.tenantId, driver.id, new Date(Math.min(start, historyStart(from, settings.zone, settings.periodStartTime, ruleSetOf(settings.hos)))));
          const positions = await positionsOf(tx, ctx.tenantId, driver.id, new Date(start), new Date(end));
          const notInLog: DrivingNotInLog[] = [];
          for (let i = 1; i < positions.length; i++) {
            const a = positions[i - 1]!;
            const b = positions[i]!;
            if (a.routeId !== b.routeId) continue;
            const miles = haversineMiles(a, b);
            if (miles < MOVING_MILES || statusAt(records, (a.at + b.at) / 2) === 'ON_DUTY_DRIVING') continue;
            const date = logDateOf(a.at, settings.zone, settings.periodStartTime);
            const last = notInLog[notInLog.length - 1];
            if (last && last.date === date && last.end === new Date(a.at).toISOString()) {
              last.end = new Date(b.at).toISOString();
              last.miles = Math.round((last.miles + miles) * 10) / 10;
            } else notInLog.push({ date, start: new Date(a.at).toISOString(), end: new Date(b.at).toISOString(), miles: Math.round(miles * 10) / 10 });
          }
          data.push({
            driverId: driver.id,
            driverName: `${driver.firstName} ${driver.lastName}`,
            status: driver.status,
            timeZone: settings.zone,
            violations,
            violationCount: Object.values(violations).reduce((x, y) => x + y, 0),
            daysNotCertified: notCertified,
            pendingEditRequests: days.reduce((n, d) => n + d.pendingEditRequests, 0),
            drivingNotInLog: notInLog,
          });
        }
        return { data, total, page: q.page, pageSize: q.pageSize, from: range?.from ?? q.from ?? null, to: range?.to ?? q.to ?? null };
      });
    },
  };
}
