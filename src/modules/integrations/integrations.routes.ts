import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { EmptyBody, IdParam, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { CreateIntegrationBody, Deleted, Integration, IntegrationList, SyncAnswer, TestResult, UpdateIntegrationBody, VendorList } from './integrations.schemas.js';
import { integrationsService } from './integrations.service.js';

export function integrationsRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const integrations = integrationsService(deps);
  const tags = ['Integrations'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'integrations:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'integrations:write' as const } };
  const params = IdParam('integrationId', 'int');

  app.get(
    '/api/v1/integrations/vendors',
    { config: read, schema: { operationId: 'listIntegrationVendors', tags, security, summary: 'The vendor registry: adapters this service offers and their config fields', response: { 200: VendorList, ...errorResponses(401, 403, 429) } } },
    async () => ({ data: integrations.vendors() }),
  );

  app.post(
    '/api/v1/integrations',
    {
      config: write,
      schema: {
        operationId: 'createIntegration',
        tags,
        security,
        summary: 'Configure an integration (status CONFIGURED; the config is encrypted and never returned)',
        body: CreateIntegrationBody,
        response: { 201: Integration, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(await integrations.create(tenantCtx(request), request.body)),
  );

  app.get(
    '/api/v1/integrations',
    { config: read, schema: { operationId: 'listIntegrations', tags, security, summary: 'List integrations', response: { 200: IntegrationList, ...errorResponses(401, 403, 429) } } },
    async (request) => integrations.list(tenantCtx(request)),
  );

  app.get(
    '/api/v1/integrations/:integrationId',
    { config: read, schema: { operationId: 'getIntegration', tags, security, summary: 'Get an integration', params, response: { 200: Integration, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => integrations.get(tenantCtx(request), request.params.integrationId),
  );

  app.put(
    '/api/v1/integrations/:integrationId',
    {
      config: write,
      schema: {
        operationId: 'updateIntegration',
        tags,
        security,
        summary: 'Update name, sync interval or config (a new config needs a new connection test: CONFIGURED)',
        params,
        body: UpdateIntegrationBody,
        response: { 200: Integration, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => integrations.update(tenantCtx(request), request.params.integrationId, request.body),
  );

  app.delete(
    '/api/v1/integrations/:integrationId',
    { config: write, schema: { operationId: 'deleteIntegration', tags, security, summary: 'Remove an integration and its credentials', params, body: EmptyBody, response: { 200: Deleted, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => {
      await integrations.remove(tenantCtx(request), request.params.integrationId);
      return { id: request.params.integrationId, deleted: true as const };
    },
  );

  app.post(
    '/api/v1/integrations/:integrationId/test',
    {
      config: write,
      schema: {
        operationId: 'testIntegration',
        tags,
        security,
        summary: 'Test the connection (SUCCESS → ACTIVE, first sync due now; FAILED → ERROR). A failed test is a 200 with testResult FAILED.',
        params,
        body: EmptyBody,
        response: { 200: TestResult, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => integrations.test(tenantCtx(request), request.params.integrationId),
  );

  app.post(
    '/api/v1/integrations/:integrationId/sync',
    {
      config: write,
      schema: {
        operationId: 'syncIntegration',
        tags,
        security,
        summary: 'Sync now, from any status (status SYNCING; the integrations worker runs it after the answer)',
        description: [
          'A manual sync works from every status (the spec: any → SYNCING): the answer is status SYNCING with syncStartedAt, and the integrations worker runs the sync after it. Nothing is asked of the vendor inside the request.',
          'Afterwards: ACTIVE on its interval (lastSyncAt, nextSyncAt, integration.sync_completed), or ERROR with lastError, integration.sync_failed and an INTEGRATION_SYNC_FAILED alert.',
          'An integration that has not passed a connection test with its config (CONFIGURED, ERROR after a failed test, DISABLED never tested) is tested first; a failing test is a failed sync (ERROR, lastError with the test\'s code, lastTest FAILED, integration.sync_failed).',
          'DISABLED: syncs once and is DISABLED again when the sync ends, whatever its outcome (the same events, no alert), with no scheduled syncs until POST …/enable. SYNCING: the sync under way is reported.',
          'A connection test in progress (TESTING): 400.',
        ].join(' '),
        params,
        body: EmptyBody,
        response: { 200: SyncAnswer, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => integrations.sync(tenantCtx(request), request.params.integrationId),
  );

  app.post(
    '/api/v1/integrations/:integrationId/disable',
    { config: write, schema: { operationId: 'disableIntegration', tags, security, summary: 'Pause syncing (DISABLED; credentials kept; no scheduled syncs, a manual sync still runs once on request)', params, body: EmptyBody, response: { 200: Integration, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => integrations.disable(tenantCtx(request), request.params.integrationId),
  );

  app.post(
    '/api/v1/integrations/:integrationId/enable',
    {
      config: write,
      schema: { operationId: 'enableIntegration', tags, security, summary: 'Run the connection test and resume syncing when it passes (ACTIVE)', params, body: EmptyBody, response: { 200: TestResult, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => integrations.enable(tenantCtx(request), request.params.integrationId),
  );
}
