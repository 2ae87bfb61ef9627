import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { IdParam, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { CreateVehicleBody, UpdateVehicleBody, Vehicle, VehicleListQuery, VehiclePage } from './vehicles.schemas.js';
import { vehiclesService } from './vehicles.service.js';

export function vehiclesRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const vehicles = vehiclesService(deps);
  const tags = ['Vehicles'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'vehicles:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'vehicles:write' as const } };
  const params = IdParam('vehicleId', 'veh');

  app.post(
    '/api/v1/vehicles',
    {
      config: write,
      schema: {
        operationId: 'createVehicle',
        tags,
        security,
        summary: 'Create a vehicle',
        description: 'unitNumber and vin are unique in the organization (case-insensitive). Defaults: fuelTankGallons 150, mpg 6.5, status ACTIVE.',
        body: CreateVehicleBody,
        response: { 201: Vehicle, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(await vehicles.create(tenantCtx(request), request.body)),
  );

  app.get(
    '/api/v1/vehicles',
    { config: read, schema: { operationId: 'listVehicles', tags, security, summary: 'List vehicles', querystring: VehicleListQuery, response: { 200: VehiclePage, ...errorResponses(400, 401, 403, 429) } } },
    async (request) => {
      const q = request.query;
      return vehicles.list(tenantCtx(request), { status: q.status, search: q.search, page: q.page ?? 1, pageSize: q.pageSize ?? 20 });
    },
  );

  app.get(
    '/api/v1/vehicles/:vehicleId',
    { config: read, schema: { operationId: 'getVehicle', tags, security, summary: 'Get a vehicle', params, response: { 200: Vehicle, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => vehicles.get(tenantCtx(request), request.params.vehicleId),
  );

  app.put(
    '/api/v1/vehicles/:vehicleId',
    {
      config: write,
      schema: {
        operationId: 'updateVehicle',
        tags,
        security,
        summary: 'Update a vehicle',
        description: 'Any subset of the mutable fields, status included; null clears an optional field.',
        params,
        body: UpdateVehicleBody,
        response: { 200: Vehicle, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => vehicles.update(tenantCtx(request), request.params.vehicleId, request.body),
  );

  app.delete(
    '/api/v1/vehicles/:vehicleId',
    {
      config: write,
      schema: {
        operationId: 'deactivateVehicle',
        tags,
        security,
        summary: 'Deactivate a vehicle (soft delete: status INACTIVE)',
        description: 'Answers the updated record; a vehicle that is already INACTIVE is a 400.',
        params,
        response: { 200: Vehicle, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => vehicles.deactivate(tenantCtx(request), request.params.vehicleId),
  );
}
