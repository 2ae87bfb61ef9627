import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { alertsReports } from './alerts.reports.js';
import {
  AcknowledgeBody,
  Alert,
  AlertIdParam,
  AlertListQuery,
  AlertNote,
  AlertNotePage,
  AlertPage,
  AlertStats,
  AlertWithNotes,
  AnalyticsQuery,
  NoteBody,
  NotesQuery,
  ResolutionReport,
  ResolveBody,
  ResponseTimeReport,
  SnoozeBody,
  StatsQuery,
  TopTypesQuery,
  TopTypesReport,
  VolumeReport,
} from './alerts.schemas.js';
import { alertsService } from './alerts.service.js';

export function alertsRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const alerts = alertsService(deps);
  const reports = alertsReports(deps);
  const tags = ['Alerts'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'alerts:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'alerts:write' as const } };
  const params = AlertIdParam;
  const readErrors = errorResponses(400, 401, 403, 429);
  const oneErrors = errorResponses(400, 401, 403, 404, 429);

  app.get(
    '/api/v1/alerts',
    {
      config: read,
      schema: {
        operationId: 'listAlerts',
        tags,
        security,
        summary: 'List alerts, newest first',
        description: 'Filters combine with AND; list-valued filters match any of their values. DRIVER users see their own driver\u2019s alerts only.',
        querystring: AlertListQuery,
        response: { 200: AlertPage, ...readErrors },
      },
    },
    async (request) => reports.list(tenantCtx(request), request.query),
  );

  app.get(
    '/api/v1/alerts/stats',
    { config: read, schema: { operationId: 'getAlertStats', tags, security, summary: 'Alert statistics (optionally for alerts created in [from, to))', querystring: StatsQuery, response: { 200: AlertStats, ...readErrors } } },
    async (request) => reports.stats(tenantCtx(request), request.query),
  );

  const analytics = <R extends TSchema, Q extends TSchema>(operationId: string, summary: string, response: R, querystring: Q) => ({
    config: read,
    schema: { operationId, tags, security, summary, querystring, response: { 200: response, ...readErrors } },
  });
  app.get('/api/v1/alerts/analytics/volume', analytics('getAlertVolume', 'Alert volume per UTC hour or day, by priority and category', VolumeReport, AnalyticsQuery), async (request) =>
    reports.volume(tenantCtx(request), request.query),
  );
  app.get(
    '/api/v1/alerts/analytics/response-time',
    analytics('getAlertResponseTimes', 'Minutes to acknowledge per bucket (average, p90) and per priority against its target', ResponseTimeReport, AnalyticsQuery),
    async (request) => reports.responseTime(tenantCtx(request), request.query),
  );
  app.get(
    '/api/v1/alerts/analytics/resolution',
    analytics('getAlertResolution', 'Resolution rate and time per bucket; totals split between the system and people', ResolutionReport, AnalyticsQuery),
    async (request) => reports.resolution(tenantCtx(request), request.query),
  );
  app.get('/api/v1/alerts/analytics/top-types', analytics('getTopAlertTypes', 'The most common alert types in the range', TopTypesReport, TopTypesQuery), async (request) =>
    reports.topTypes(tenantCtx(request), request.query),
  );

  app.get(
    '/api/v1/alerts/:alertId',
    { config: read, schema: { operationId: 'getAlert', tags, security, summary: 'Get an alert with its notes', params, response: { 200: AlertWithNotes, ...oneErrors } } },
    async (request) => reports.detail(tenantCtx(request), request.params.alertId),
  );

  app.get(
    '/api/v1/alerts/:alertId/notes',
    { config: read, schema: { operationId: 'listAlertNotes', tags, security, summary: 'The notes of an alert, oldest first', params, querystring: NotesQuery, response: { 200: AlertNotePage, ...oneErrors } } },
    async (request) => reports.notes(tenantCtx(request), request.params.alertId, request.query),
  );

  app.post(
    '/api/v1/alerts/:alertId/acknowledge',
    {
      config: write,
      schema: { operationId: 'acknowledgeAlert', tags, security, summary: 'Acknowledge an ACTIVE or SNOOZED alert (optional note)', params, body: AcknowledgeBody, response: { 200: Alert, ...oneErrors } },
    },
    async (request) => alerts.acknowledge(tenantCtx(request), request.params.alertId, request.body?.note),
  );

  app.post(
    '/api/v1/alerts/:alertId/resolve',
    { config: write, schema: { operationId: 'resolveAlert', tags, security, summary: 'Resolve an unresolved alert (optional resolution text)', params, body: ResolveBody, response: { 200: Alert, ...oneErrors } } },
    async (request) => alerts.resolve(tenantCtx(request), request.params.alertId, request.body?.resolution),
  );

  app.post(
    '/api/v1/alerts/:alertId/snooze',
    {
      config: write,
      schema: {
        operationId: 'snoozeAlert',
        tags,
        security,
        summary: 'Snooze an unresolved alert for some minutes',
        description: 'SNOOZED until now + minutes; monitoring does not raise it again meanwhile, and makes it ACTIVE again (alert.updated) when the time is up and the condition still holds.',
        params,
        body: SnoozeBody,
        response: { 200: Alert, ...oneErrors },
      },
    },
    async (request) => alerts.snooze(tenantCtx(request), request.params.alertId, request.body.minutes),
  );

  app.post(
    '/api/v1/alerts/:alertId/notes',
    { config: write, schema: { operationId: 'addAlertNote', tags, security, summary: 'Add a note to an alert', params, body: NoteBody, response: { 201: AlertNote, ...oneErrors } } },
    async (request, reply) => reply.status(201).send(await alerts.addNote(tenantCtx(request), request.params.alertId, request.body.text)),
  );
}
