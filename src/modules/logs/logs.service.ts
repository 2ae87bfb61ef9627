/**
 * A driver's daily logs: one record of duty status per 24-hour period of the home terminal
 * (49 CFR 395.8), each with its events, totals, miles, violations, certification and recap.
 */
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { timeZoneAt } from '../../domain/planning/local-time.js';
import { addDays, dailyLogs, daysBetween, historyStart, isLogDate, logDateOf, periodOf, type DailyLog, type LogRecord } from '../../domain/logs/daily-log.js';
import { invalid, notFound } from '../../lib/errors.js';
import type { TenantContext } from '../../plugins/context.js';
import { findDriver, type DriverRecord } from '../drivers/drivers.repository.js';
import { ruleSetOf, type StoredHosSettings } from '../hos/hos.repository.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { activeRecords, activeRecordsOfDrivers, certificationsOfDrivers, editsOfDrivers, milesPerPeriod, positionsOfDrivers, type Certification, type EditsByDate, type LogPosition } from './logs.repository.js';

/** 395.8(k): six months of records are kept; the API hands out up to 184 days at a time (Samsara's edit horizon too). */
export const MAX_LOG_DAYS = 184;
export const DEFAULT_ZONE = 'America/Chicago';

export interface LogSettings {
  zone: string;
  periodStartTime: string;
  /** Where the zone comes from, in words (for the printable log and the API's readers). */
  zoneSource: 'DRIVER_HOME_TERMINAL' | 'SETTINGS' | 'ORGANIZATION_ADDRESS' | 'DEFAULT';
}

/** A DRIVER user reaches only their own driver profile; others are "not found". */
export async function logDriverFor(tx: Tx, ctx: TenantContext, driverId: string, forUpdate = false): Promise<DriverRecord> {
  const driver = await findDriver(tx, ctx.tenantId, driverId, forUpdate);
  if (!driver || (ctx.role === 'DRIVER' && driver.userId !== ctx.userId)) throw notFound('Driver');
  return driver;
}

/** The organization's part of every driver's log settings: its stored HOS settings and the zone of its address. */
export interface OrganizationLogSettings {
  hos: StoredHosSettings;
  addressZone: string | null;
}

export async function organizationLogSettings(tx: Tx, tenantId: string, ports: Pick<PlanningPorts, 'geocode'>): Promise<OrganizationLogSettings> {
  const { rows } = await tx.query<{ hos: StoredHosSettings | null; address: string }>(
    'SELECT s.hos, t.address FROM tenants t LEFT JOIN tenant_settings s ON s.tenant_id = t.id WHERE t.id = $1',
    [tenantId],
  );
  const address = rows[0]?.address;
  const found = address ? ports.geocode(address) : null;
  return { hos: rows[0]?.hos ?? {}, addressZone: found?.kind === 'found' ? timeZoneAt(found.result) : null };
}

/**
 * The zone and start time of a driver's 24-hour periods: the driver's home terminal's zone, else the
 * organization's setting, else the zone of the organization's address, else America/Chicago. Without a
 * driver: the organization's.
 */
export function driverLogSettings(org: OrganizationLogSettings, driver: DriverRecord | null): LogSettings & { hos: StoredHosSettings } {
  const { hos } = org;
  const periodStartTime = hos.periodStartTime ?? '00:00';
  if (driver?.homeTerminal?.timeZone) return { zone: driver.homeTerminal.timeZone, periodStartTime, zoneSource: 'DRIVER_HOME_TERMINAL', hos };
  if (hos.homeTerminalTimeZone) return { zone: hos.homeTerminalTimeZone, periodStartTime, zoneSource: 'SETTINGS', hos };
  if (org.addressZone) return { zone: org.addressZone, periodStartTime, zoneSource: 'ORGANIZATION_ADDRESS', hos };
  return { zone: DEFAULT_ZONE, periodStartTime, zoneSource: 'DEFAULT', hos };
}

export async function logSettingsOf(tx: Tx, tenantId: string, driver: DriverRecord | null, ports: Pick<PlanningPorts, 'geocode'>): Promise<LogSettings & { hos: StoredHosSettings }> {
  return driverLogSettings(await organizationLogSettings(tx, tenantId, ports), driver);
}

/** What a driver's daily logs are made of, read at once (logDataOf). */
export interface LogData {
  records: LogRecord[];
  certifications: Map<string, Certification[]>;
  edits: EditsByDate;
  positions: LogPosition[];
}

/** What the days `dates` of each driver need, in one statement per kind of row for all of them. */
export async function logDataOf(
  tx: Tx,
  tenantId: string,
  drivers: ReadonlyArray<{ driver: DriverRecord; settings: LogSettings & { hos: StoredHosSettings }; dates: readonly string[] }>,
  opts: { records?: boolean } = {},
): Promise<Map<string, LogData>> {
  const out = new Map<string, LogData>();
  const withDays = drivers.filter((d) => d.dates.length > 0);
  if (withDays.length === 0) return out;
  const all = withDays.flatMap((d) => d.dates).sort();
  const from = all[0]!;
  const to = all[all.length - 1]!;
  let since = Infinity;
  let start = Infinity;
  let end = -Infinity;
  for (const { settings, dates } of withDays) {
    const sorted = [...dates].sort();
    since = Math.min(since, historyStart(sorted[0]!, settings.zone, settings.periodStartTime, ruleSetOf(settings.hos)));
    start = Math.min(start, periodOf(sorted[0]!, settings.zone, settings.periodStartTime).start);
    end = Math.max(end, periodOf(sorted[sorted.length - 1]!, settings.zone, settings.periodStartTime).end);
  }
  const ids = withDays.map((d) => d.driver.id);
  const records = opts.records === false ? null : await activeRecordsOfDrivers(tx, tenantId, ids, new Date(since));
  const certs = await certificationsOfDrivers(tx, tenantId, ids, from, to);
  const edits = await editsOfDrivers(tx, tenantId, ids, from, to);
  const positions = await positionsOfDrivers(tx, tenantId, ids, new Date(start), new Date(end));
  for (const id of ids) out.set(id, { records: records?.get(id) ?? [], certifications: certs.get(id)!, edits: edits.get(id)!, positions: positions.get(id)! });
  return out;
}

/**
 * The answers for `dates` (in the order given) of one driver from what logDataOf read. Pure. `names`: each
 * event's place in words (the logs and the PDF show them; the fleet's compliance report does not).
 */
export function buildDays(
  settings: LogSettings & { hos: StoredHosSettings },
  dates: readonly string[],
  now: number,
  data: LogData,
  nameNear: ((p: { latitude: number; longitude: number }) => string) | null,
): DayAnswer[] {
  const rules = ruleSetOf(settings.hos);
  const logs = dailyLogs({ records: data.records, dates, zone: settings.zone, periodStartTime: settings.periodStartTime, now, rules });
  const miles = new Map<string, number | null>();
  const periods = logs.map((d) => ({ date: d.date, start: d.periodStart, end: d.periodEnd })).sort((a, b) => a.start - b.start);
  milesPerPeriod(data.positions, periods).forEach((m, i) => miles.set(periods[i]!.date, m));
  return logs.map((day): DayAnswer => {
    const certifications = data.certifications.get(day.date) ?? [];
    const latest = certifications[0] ?? null;
    const appliedAfter = latest !== null && (data.edits.applied.get(day.date) ?? []).some((t) => t > Date.parse(latest.certifiedAt));
    return {
      date: day.date,
      periodStart: isoOf(day.periodStart),
      periodEnd: isoOf(day.periodEnd),
      timeZone: day.timeZone,
      events: day.events.map((e) => ({
        recordId: e.recordId,
        status: e.status,
        start: isoOf(e.start),
        end: isoOf(e.end),
        continued: e.continued,
        latitude: e.latitude,
        longitude: e.longitude,
        location: nameNear && e.latitude !== null && e.longitude !== null ? nameNear({ latitude: e.latitude, longitude: e.longitude }) : null,
        origin: e.origin,
        note: e.note,
        annotation: e.annotation,
      })),
      totals: day.totals,
      milesDriven: miles.get(day.date) ?? null,
      violations: day.violations.map((v) => ({ type: v.kind, rule: v.rule, start: isoOf(v.start), end: isoOf(v.end), overHours: v.overHours, explanation: v.explanation })),
      certification: { certified: latest !== null, certifiedAt: latest?.certifiedAt ?? null, recertificationRequired: appliedAfter, certifications: certifications.length },
      pendingEditRequests: data.edits.pending.get(day.date) ?? 0,
      recap: day.recap,
    };
  });
}

export interface DayAnswer {
  date: string;
  periodStart: string;
  periodEnd: string;
  timeZone: string;
  events: Array<{
    recordId: string;
    status: string;
    start: string;
    end: string;
    continued: boolean;
    latitude: number | null;
    longitude: number | null;
    location: string | null;
    origin: string;
    note: string | null;
    annotation: string | null;
  }>;
  totals: DailyLog['totals'];
  milesDriven: number | null;
  violations: Array<{ type: string; rule: string; start: string; end: string; overHours: number; explanation: string }>;
  certification: { certified: boolean; certifiedAt: string | null; recertificationRequired: boolean; certifications: number };
  pendingEditRequests: number;
  recap: DailyLog['recap'];
}

const isoOf = (ms: number) => new Date(ms).toISOString();

export function logsService(deps: Deps, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>) {
  const { db, clock } = deps;

  /** The days of [from, to] (dates on the home terminal's clocks), newest first. */
  async function days(tx: Tx, ctx: TenantContext, driver: DriverRecord, q: { from?: string; to?: string }, now: number): Promise<{ settings: LogSettings; data: DayAnswer[] }> {
    const settings = await logSettingsOf(tx, ctx.tenantId, driver, ports);
    for (const key of ['from', 'to'] as const) {
      const v = q[key];
      if (v !== undefined && !isLogDate(v)) throw invalid('Validation failed', [{ field: `querystring.${key}`, message: 'must be a date, YYYY-MM-DD' }]);
    }
    const today = logDateOf(now, settings.zone, settings.periodStartTime);
    const to = q.to ?? today;
    const from = q.from ?? addDays(to, -7);
    if (daysBetween(from, to) < 0) throw invalid('Validation failed', [{ field: 'querystring.from', message: 'must not be after to' }]);
    if (daysBetween(from, to) >= MAX_LOG_DAYS) throw invalid('Validation failed', [{ field: 'querystring.to', message: `at most ${MAX_LOG_DAYS} days at a time` }]);
    const dates: string[] = [];
    for (let d = to; daysBetween(from, d) >= 0; d = addDays(d, -1)) dates.push(d);
    return { settings, data: await dayAnswers(tx, ctx.tenantId, driver, settings, dates, now) };
  }

  /** The answers for `dates` (in the order given) from the stored log, or from `records` when given (a correction's "after"). */
  async function dayAnswers(tx: Tx, tenantId: string, driver: DriverRecord, settings: LogSettings & { hos: StoredHosSettings }, dates: readonly string[], now: number, records?: readonly LogRecord[]): Promise<DayAnswer[]> {
    if (dates.length === 0) return [];
    const sorted = [...dates].sort();
    const since = new Date(historyStart(sorted[0]!, settings.zone, settings.periodStartTime, ruleSetOf(settings.hos)));
    const data = (await logDataOf(tx, tenantId, [{ driver, settings, dates }], { records: false })).get(driver.id)!;
    data.records = records ? [...records] : await activeRecords(tx, tenantId, driver.id, since);
    return buildDays(settings, dates, now, data, ports.nameNear);
  }

  return {
    async daily(ctx: TenantContext, driverId: string, q: { from?: string; to?: string }) {
      const now = clock.now().getTime();
      return db.tenant(ctx.tenantId, async (tx) => {
        const driver = await logDriverFor(tx, ctx, driverId);
        const { settings, data } = await days(tx, ctx, driver, q, now);
        return { data, timeZone: settings.zone, periodStartTime: settings.periodStartTime };
      });
    },
    dayAnswers,
  };
}
