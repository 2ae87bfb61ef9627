import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { EmptyBody, IdParam, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import {
  CreateDriverBody,
  Driver,
  DriverDeactivated,
  DriverListQuery,
  DriverPage,
  DriverReactivated,
  DriverUpdated,
  LocationReported,
  ReportLocationBody,
  UpdateDriverBody,
} from './drivers.schemas.js';
import { driversService } from './drivers.service.js';
import type { PlanningPorts } from '../routes/planning-ports.js';

export function driversRoutes(fastify: FastifyInstance, deps: Deps, ports: PlanningPorts): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const drivers = driversService(deps, ports);
  const tags = ['Drivers'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'drivers:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'drivers:write' as const } };
  const params = IdParam('driverId', 'drv');

  app.post(
    '/api/v1/drivers',
    { config: write, schema: { operationId: 'createDriver', tags, security, summary: 'Create a driver (status ACTIVE), with the home terminal they are based at', body: CreateDriverBody, response: { 201: Driver, ...errorResponses(400, 401, 403, 429) } } },
    async (request, reply) => reply.status(201).send(await drivers.create(tenantCtx(request), request.body)),
  );

  app.get(
    '/api/v1/drivers',
    { config: read, schema: { operationId: 'listDrivers', tags, security, summary: 'List drivers', querystring: DriverListQuery, response: { 200: DriverPage, ...errorResponses(400, 401, 403, 429) } } },
    async (request) => {
      const q = request.query;
      return drivers.list(tenantCtx(request), { status: q.status, search: q.search, page: q.page ?? 1, pageSize: q.pageSize ?? 20 });
    },
  );

  app.get(
    '/api/v1/drivers/:driverId',
    { config: read, schema: { operationId: 'getDriver', tags, security, summary: 'Get a driver, with their home terminal and where they were last known to be', params, response: { 200: Driver, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => drivers.get(tenantCtx(request), request.params.driverId),
  );

  app.put(
    '/api/v1/drivers/:driverId',
    {
      config: write,
      schema: { operationId: 'updateDriver', tags, security, summary: 'Update a driver', params, body: UpdateDriverBody, response: { 200: DriverUpdated, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => drivers.update(tenantCtx(request), request.params.driverId, request.body),
  );

  // Two spellings of one action (POST …/deactivate and DELETE): one schema, an operationId each.
  const deactivate = (operationId: string) => ({
    config: write,
    schema: { operationId, tags, security, summary: 'Deactivate a driver (soft delete)', params, body: EmptyBody, response: { 200: DriverDeactivated, ...errorResponses(400, 401, 403, 404, 429) } },
  });
  app.post('/api/v1/drivers/:driverId/deactivate', deactivate('deactivateDriver'), async (request) => drivers.deactivate(tenantCtx(request), request.params.driverId));
  app.delete('/api/v1/drivers/:driverId', deactivate('deleteDriver'), async (request) =>
    drivers.deactivate(tenantCtx(request), request.params.driverId),
  );

  app.post(
    '/api/v1/drivers/:driverId/location',
    {
      config: { access: { auth: 'tenant', permission: 'duty-status:write' } },
      schema: {
        operationId: 'reportDriverLocation',
        tags,
        security,
        summary: 'Report where a driver is, without a route (a driver app, a yard check-in, telematics)',
        description:
          'Kept as the driver’s last known location when it is newer than everything else known (route positions, duty-status changes with coordinates, the end of their last route): dispatch candidates start an idle driver there. A DRIVER user reports their own.',
        params,
        body: ReportLocationBody,
        response: { 200: LocationReported, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => drivers.reportLocation(tenantCtx(request), request.params.driverId, request.body),
  );

  app.post(
    '/api/v1/drivers/:driverId/reactivate',
    {
      config: write,
      schema: { operationId: 'reactivateDriver', tags, security, summary: 'Reactivate a driver', params, body: EmptyBody, response: { 200: DriverReactivated, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => drivers.reactivate(tenantCtx(request), request.params.driverId),
  );
}
