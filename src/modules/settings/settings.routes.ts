import type { FastifyInstance } from 'fastify';
import { Type, type TSchema, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { settingsService } from './settings.service.js';

const alertFields = {
  hosApproachingThresholdHours: Type.Number({ minimum: 0.25, maximum: 11, description: 'Warn when this many hours of a clock remain' }),
  routeDeviationThresholdMiles: Type.Number({ minimum: 0.1, maximum: 100 }),
  unplannedStopThresholdMinutes: Type.Number({ minimum: 1, maximum: 720 }),
  dockDelayThresholdMinutes: Type.Number({ minimum: 5, maximum: 1440 }),
  enableWeatherAlerts: Type.Boolean(),
  enableMechanicalAlerts: Type.Boolean(),
};
const monitoringFields = {
  monitoringIntervalSeconds: Type.Integer({ minimum: 5, maximum: 3600 }),
  autoResolveDeviationAfterMinutes: Type.Number({ minimum: 1, maximum: 1440 }),
  hosWarningThresholdMinutes: Type.Number({ minimum: 5, maximum: 660 }),
  telemetryStaleMinutes: Type.Number({ minimum: 1, maximum: 1440, description: 'TELEMETRY_STALE when an active route has had no position this long (at least 3 monitoring intervals)' }),
};

const hosFields = {
  ruleSet: Type.Union(
    ['US_PROPERTY_70_8', 'US_PROPERTY_60_7', 'TEXAS_INTRASTATE', 'CALIFORNIA_INTRASTATE', 'CANADA_CYCLE_1', 'CANADA_CYCLE_2'].map((r) => Type.Literal(r)),
  ),
  adverseDrivingConditions: Type.Boolean(),
  shortHaul16Hour: Type.Boolean(),
  shortHaul150AirMile: Type.Boolean(),
  homeTerminalUtcOffsetMinutes: Type.Integer({ minimum: -720, maximum: 840, description: 'Where the cycle days begin: minutes east of UTC of the home terminal' }),
  homeTerminalTimeZone: Type.Union([Type.String({ minLength: 3, maxLength: 64, description: 'IANA time zone, e.g. America/Chicago' }), Type.Null()], {
    description: "The home terminal's time zone: the daily logs' 24-hour periods keep its clocks (49 CFR 395.8(a)(1)); null: the organization address's zone, else America/Chicago. A driver's own home terminal comes first.",
  }),
  periodStartTime: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'When each 24-hour period of the daily logs starts on the home terminal’s clocks, HH:MM (default 00:00)' }),
};

const AlertSettings = Type.Object(alertFields);
const MonitoringSettings = Type.Object(monitoringFields);
const Settings = Type.Object({ alerts: AlertSettings, monitoring: MonitoringSettings, hos: Type.Object(hosFields) });
/** The read also tells what an untouched tenant has (a settings form shows them next to each field). */
const SettingsWithDefaults = Type.Composite([Settings, Type.Object({ defaults: Settings })]);
const partial = (fields: Record<string, TSchema>) =>
  Type.Object(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])), { additionalProperties: false, minProperties: 1 });

export function settingsRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const settings = settingsService(deps);
  const tags = ['Tenant settings'];
  const security = TENANT_SECURITY;
  const write = { access: { auth: 'tenant' as const, permission: 'settings:write' as const } };

  app.get(
    '/api/v1/tenant/settings',
    { config: { access: { auth: 'tenant', permission: 'settings:read' } }, schema: { operationId: 'getSettings', tags, security, summary: 'Alert, monitoring and HOS settings, with the defaults', response: { 200: SettingsWithDefaults, ...errorResponses(401, 403, 429) } } },
    async (request) => ({ ...(await settings.get(tenantCtx(request))), defaults: settings.defaults() }),
  );

  app.put(
    '/api/v1/tenant/settings/alerts',
    {
      config: write,
      schema: { operationId: 'updateAlertSettings', tags, security, summary: 'Update alert settings (the fields given; OWNER or ADMIN)', body: partial(alertFields), response: { 200: Settings, ...errorResponses(400, 401, 403, 429) } },
    },
    async (request) => settings.updateAlerts(tenantCtx(request), request.body as never),
  );

  app.put(
    '/api/v1/tenant/settings/monitoring',
    {
      config: write,
      schema: { operationId: 'updateMonitoringSettings', tags, security, summary: 'Update monitoring settings (the fields given; OWNER or ADMIN)', body: partial(monitoringFields), response: { 200: Settings, ...errorResponses(400, 401, 403, 429) } },
    },
    async (request) => settings.updateMonitoring(tenantCtx(request), request.body as never),
  );

  app.put(
    '/api/v1/tenant/settings/hos',
    {
      config: write,
      schema: {
        operationId: 'updateHosSettings',
        tags,
        security,
        summary: 'Update the HOS rule set used for planning and driver clocks (the fields given; OWNER or ADMIN)',
        body: partial(hosFields),
        response: { 200: Settings, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => settings.updateHos(tenantCtx(request), request.body as never),
  );
}
