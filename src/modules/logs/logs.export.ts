/**
 * The daily logs handed to an auditor: printable (PDF, one page per day) and for spreadsheets (CSV, every
 * record with its history). 395.8(k): the carrier keeps six months of records and hands them over on request.
 */
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { addDays, daysBetween, isLogDate, logDateOf, periodOf } from '../../domain/logs/daily-log.js';
import { invalid } from '../../lib/errors.js';
import { iso } from '../../lib/rows.js';
import type { TenantContext } from '../../plugins/context.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import type { PrintDay } from './logs.print.js';
import { logDriverFor, logSettingsOf, logsService, MAX_LOG_DAYS } from './logs.service.js';

interface RouteOnDay {
  start: number;
  end: number;
  driverId: string;
  driverName: string;
  coDriverId: string | null;
  coDriverName: string | null;
  unit: string | null;
  reference: string | null;
}

/** The driver's ACTIVE and COMPLETED routes over [from, to): who drove with whom, which truck, which load. */
async function routesOf(tx: Tx, tenantId: string, driverId: string, from: Date, to: Date, now: Date): Promise<RouteOnDay[]> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT coalesce(r.activated_at, r.departure_time) AS start, coalesce(r.completed_at, r.cancelled_at, $5) AS "end",
            r.driver_id, d1.first_name || ' ' || d1.last_name AS driver_name, r.co_driver_id, d2.first_name || ' ' || d2.last_name AS co_driver_name,
            v.unit_number, l.reference_number
       FROM route_plans r
       JOIN drivers d1 ON d1.tenant_id = r.tenant_id AND d1.id = r.driver_id
       LEFT JOIN drivers d2 ON d2.tenant_id = r.tenant_id AND d2.id = r.co_driver_id
       LEFT JOIN vehicles v ON v.tenant_id = r.tenant_id AND v.id = r.vehicle_id
       LEFT JOIN loads l ON l.tenant_id = r.tenant_id AND l.id = r.load_id
      WHERE r.tenant_id = $1 AND (r.driver_id = $2 OR r.co_driver_id = $2) AND r.status IN ('ACTIVE', 'COMPLETED')
        AND coalesce(r.activated_at, r.departure_time) < $4 AND coalesce(r.completed_at, r.cancelled_at, $5) > $3`,
    [tenantId, driverId, from, to, now],
  );
  return rows.map((r) => ({
    start: Date.parse(iso(r.start)),
    end: Date.parse(iso(r.end)),
    driverId: r.driver_id as string,
    driverName: r.driver_name as string,
    coDriverId: (r.co_driver_id as string | null) ?? null,
    coDriverName: (r.co_driver_name as string | null) ?? null,
    unit: (r.unit_number as string | null) ?? null,
    reference: (r.reference_number as string | null) ?? null,
  }));
}

const uniq = (xs: Array<string | null>) => [...new Set(xs.filter((x): x is string => x !== null))].sort();

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180); formulas neutralized for spreadsheets. */
function field(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_COLUMNS = [
  'log_date', 'sequence', 'record_id', 'record_status', 'origin', 'status', 'start_utc', 'start_local', 'end_utc', 'latitude', 'longitude', 'location', 'note', 'annotation',
  'edit_id', 'created_by', 'created_at', 'status_changed_at', 'status_changed_by',
] as const;

export function logsExport(deps: Deps, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>) {
  const { db, clock } = deps;
  const logs = logsService(deps, ports);

  /** The range [from, to] as dates, with the defaults and limits of GET /logs. */
  function range(q: { from?: string; to?: string }, today: string): { from: string; to: string } {
    for (const key of ['from', 'to'] as const) {
      const v = q[key];
      if (v !== undefined && !isLogDate(v)) throw invalid('Validation failed', [{ field: `querystring.${key}`, message: 'must be a date, YYYY-MM-DD' }]);
    }
    const to = q.to ?? today;
    const from = q.from ?? addDays(to, -7);
    if (daysBetween(from, to) < 0) throw invalid('Validation failed', [{ field: 'querystring.from', message: 'must not be after to' }]);
    if (daysBetween(from, to) >= MAX_LOG_DAYS) throw invalid('Validation failed', [{ field: 'querystring.to', message: `at most ${MAX_LOG_DAYS} days at a time` }]);
    return { from, to };
  }

  return {
    /** One page per day, oldest first. */
    async pdf(ctx: TenantContext, driverId: string, q: { from?: string; to?: string }): Promise<{ pdf: Buffer; filename: string }> {
      const now = clock.now();
      const { header, days, name } = await db.tenant(ctx.tenantId, async (tx) => {
        const driver = await logDriverFor(tx, ctx, driverId);
        const settings = await logSettingsOf(tx, ctx.tenantId, driver, ports);
        const { from, to } = range(q, logDateOf(now.getTime(), settings.zone, settings.periodStartTime));
        const dates: string[] = [];
        for (let d = from; daysBetween(d, to) >= 0; d = addDays(d, 1)) dates.push(d);
        const answers = await logs.dayAnswers(tx, ctx.tenantId, driver, settings, dates, now.getTime());
        const tenant = (await tx.query<{ name: string; dot_number: string | null; address: string }>('SELECT name, dot_number, address FROM tenants WHERE id = $1', [ctx.tenantId])).rows[0]!;
        const routes = await routesOf(tx, ctx.tenantId, driver.id, new Date(periodOf(from, settings.zone, settings.periodStartTime).start), new Date(periodOf(to, settings.zone, settings.periodStartTime).end), now);
        const days: PrintDay[] = answers.map((day) => {
          const on = routes.filter((r) => r.start < Date.parse(day.periodEnd) && r.end > Date.parse(day.periodStart));
          return {
            day,
            coDrivers: uniq(on.map((r) => (r.driverId === driver.id ? r.coDriverName : r.driverName))),
            trucks: uniq(on.map((r) => r.unit)),
            trailers: [],
            shippingDocuments: uniq(on.map((r) => r.reference)),
          };
        });
        const homeTerminal = driver.homeTerminal ? driver.homeTerminal.name : tenant.address;
        return {
          header: { carrier: tenant.name, dotNumber: tenant.dot_number, homeTerminal, timeZone: settings.zone, driver: `${driver.firstName} ${driver.lastName}`, license: `${driver.licenseNumber} (${driver.licenseState})` },
          days,
          name: `${driver.lastName}-${driver.firstName}-${from}-to-${to}`,
        };
      });
      // PDFKit and what it brings (fontkit, a Brotli decoder, the standard fonts' metrics) are loaded with the
      // first printed log, not at start: several MiB of an idle process's memory (bench/README.md, issue 28).
      const { renderLogsPdf } = await import('./logs.print.js');
      return { pdf: await renderLogsPdf(header, days, now), filename: `${name.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf` };
    },

    /** Every record that began in the range's periods, its history included, in the order it was stored. */
    async csv(ctx: TenantContext, driverId: string, q: { from?: string; to?: string }): Promise<{ csv: string; filename: string }> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const driver = await logDriverFor(tx, ctx, driverId);
        const settings = await logSettingsOf(tx, ctx.tenantId, driver, ports);
        const { from, to } = range(q, logDateOf(now.getTime(), settings.zone, settings.periodStartTime));
        const start = new Date(periodOf(from, settings.zone, settings.periodStartTime).start);
        const end = new Date(periodOf(to, settings.zone, settings.periodStartTime).end);
        const { rows } = await tx.query<Record<string, unknown>>(
          `SELECT e.*, (SELECT min(n.started_at) FROM duty_status_events n WHERE n.tenant_id = e.tenant_id AND n.driver_id = e.driver_id AND n.record_status = 'ACTIVE' AND n.started_at > e.started_at) AS next_at
             FROM duty_status_events e WHERE e.tenant_id = $1 AND e.driver_id = $2 AND e.started_at >= $3 AND e.started_at < $4 ORDER BY e.started_at, e.sequence`,
          [ctx.tenantId, driver.id, start, end],
        );
        const local = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: settings.zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(ms));
        const lines = [CSV_COLUMNS.join(',')];
        for (const r of rows) {
          const at = Date.parse(iso(r.started_at));
          const active = r.record_status === 'ACTIVE';
          const lat = (r.latitude as number | null) ?? null;
          const lng = (r.longitude as number | null) ?? null;
          lines.push(
            [
              logDateOf(at, settings.zone, settings.periodStartTime),
              Number(r.sequence),
              r.id as string,
              r.record_status as string,
              r.origin as string,
              r.status as string,
              iso(r.started_at),
              `${local(at)} ${settings.zone}`,
              active ? (r.next_at ? iso(r.next_at) : null) : null,
              lat,
              lng,
              lat !== null && lng !== null ? ports.nameNear({ latitude: lat, longitude: lng }) : null,
              (r.note as string | null) ?? null,
              (r.annotation as string | null) ?? null,
              (r.edit_id as string | null) ?? null,
              (r.created_by as string | null) ?? null,
              iso(r.created_at),
              r.status_changed_at ? iso(r.status_changed_at) : null,
              (r.status_changed_by as string | null) ?? null,
            ]
              .map(field)
              .join(','),
          );
        }
        const name = `${driver.lastName}-${driver.firstName}-${from}-to-${to}`.replace(/[^A-Za-z0-9._-]+/g, '_');
        return { csv: `${lines.join('\r\n')}\r\n`, filename: `${name}.csv` };
      });
    },
  };
}
