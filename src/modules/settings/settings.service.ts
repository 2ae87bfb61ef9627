import type { Deps } from '../../deps.js';
import { invalid, notFound } from '../../lib/errors.js';
import type { TenantContext } from '../../plugins/context.js';
import { defaultAlertSettings, defaultHosSettings, defaultMonitoringSettings, isTimeZone, type AlertSettings, type HosSettings, type MonitoringSettings } from './settings.defaults.js';

export interface TenantSettings {
  alerts: AlertSettings;
  monitoring: MonitoringSettings;
  hos: HosSettings;
}

type Row = Partial<TenantSettings>;

export function settingsService(deps: Deps) {
  const { db, clock } = deps;
  const defaults = (): TenantSettings => ({
    alerts: defaultAlertSettings(),
    monitoring: defaultMonitoringSettings(deps.config.monitoringIntervalSeconds),
    hos: defaultHosSettings(),
  });
  /** Stored sections over the defaults, field by field (a section stored before a field existed keeps working). */
  const withDefaults = (row: Row | undefined): TenantSettings => {
    const d = defaults();
    return { alerts: { ...d.alerts, ...row?.alerts }, monitoring: { ...d.monitoring, ...row?.monitoring }, hos: { ...d.hos, ...row?.hos } };
  };

  async function update<K extends keyof TenantSettings>(ctx: TenantContext, section: K, changes: Partial<TenantSettings[K]>): Promise<TenantSettings> {
    return db.tenant(ctx.tenantId, async (tx) => {
      const { rows } = await tx.query<Row>('SELECT alerts, monitoring, hos FROM tenant_settings WHERE tenant_id = $1 FOR UPDATE', [ctx.tenantId]);
      if (!rows[0]) throw notFound('Tenant settings');
      const merged = withDefaults(rows[0]);
      merged[section] = { ...merged[section], ...changes };
      await tx.query(`UPDATE tenant_settings SET ${section} = $2, updated_at = $3 WHERE tenant_id = $1`, [ctx.tenantId, JSON.stringify(merged[section]), clock.now()]);
      return merged;
    });
  }

  return {
    /** What a tenant has before changing anything (the monitoring interval comes from MONITORING_INTERVAL_SECONDS). */
    defaults,
    async get(ctx: TenantContext): Promise<TenantSettings> {
      const row = await db.tenant(ctx.tenantId, async (tx) => {
        const { rows } = await tx.query<Row>('SELECT alerts, monitoring, hos FROM tenant_settings WHERE tenant_id = $1', [ctx.tenantId]);
        return rows[0];
      });
      return withDefaults(row);
    },
    updateAlerts: (ctx: TenantContext, changes: Partial<AlertSettings>) => update(ctx, 'alerts', changes),
    updateMonitoring: (ctx: TenantContext, changes: Partial<MonitoringSettings>) => update(ctx, 'monitoring', changes),
    updateHos: (ctx: TenantContext, changes: Partial<HosSettings>) => {
      if (typeof changes.homeTerminalTimeZone === 'string' && !isTimeZone(changes.homeTerminalTimeZone)) {
        throw invalid('Validation failed', [{ field: 'body.homeTerminalTimeZone', message: `${changes.homeTerminalTimeZone} is not an IANA time zone (e.g. America/Chicago)` }]);
      }
      return update(ctx, 'hos', changes);
    },
  };
}
