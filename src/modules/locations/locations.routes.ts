import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { IdParam, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import {
  CreateLocationBody,
  ImportCsvBody,
  ImportErrorBody,
  ImportResult,
  Location,
  LocationListQuery,
  LocationPage,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  UpdateLocationBody,
} from './locations.schemas.js';
import { locationsService } from './locations.service.js';

export function locationsRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const locations = locationsService(deps);
  const tags = ['Locations'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'locations:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'locations:write' as const } };
  const params = IdParam('locationId', 'loc');

  app.post(
    '/api/v1/locations',
    {
      config: write,
      schema: {
        operationId: 'createLocation',
        tags,
        security,
        summary: "Create a location (one of the organization's own truck stops, fuel stations, rest areas, customer docks or yards)",
        description: 'The route planner prefers these places for rest and fuel stops. Amenities not given are false; externalId is unique in the organization.',
        body: CreateLocationBody,
        response: { 201: Location, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(await locations.create(tenantCtx(request), request.body)),
  );

  app.get(
    '/api/v1/locations',
    {
      config: read,
      schema: {
        operationId: 'listLocations',
        tags,
        security,
        summary: 'List locations',
        description: 'Ordered by name; with near=lat,lng only places within radiusMiles (default 50, max 500) of that point, nearest first, each with distanceMiles.',
        querystring: LocationListQuery,
        response: { 200: LocationPage, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      return locations.list(tenantCtx(request), { type: q.type, search: q.search, near: q.near, radiusMiles: q.radiusMiles, page: q.page ?? 1, pageSize: q.pageSize ?? 20 });
    },
  );

  app.get(
    '/api/v1/locations/:locationId',
    { config: read, schema: { operationId: 'getLocation', tags, security, summary: 'Get a location', params, response: { 200: Location, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => locations.get(tenantCtx(request), request.params.locationId),
  );

  app.put(
    '/api/v1/locations/:locationId',
    {
      config: write,
      schema: {
        operationId: 'updateLocation',
        tags,
        security,
        summary: 'Update a location',
        description: 'Any subset of the fields; null clears address, fuelDiscountPerGallon or externalId; amenities given in part are merged.',
        params,
        body: UpdateLocationBody,
        response: { 200: Location, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => locations.update(tenantCtx(request), request.params.locationId, request.body),
  );

  app.delete(
    '/api/v1/locations/:locationId',
    {
      config: write,
      schema: { operationId: 'deleteLocation', tags, security, summary: 'Delete a location (permanently)', description: 'Answers the deleted record.', params, response: { 200: Location, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => locations.remove(tenantCtx(request), request.params.locationId),
  );

  // The import reads text/csv; that parser, with its own size limit, exists only in this scope. The
  // plain-text parser is removed here so that only text/csv reaches the handler as text (JSON bodies
  // keep the app's parser and limit, and fail the string schema).
  void fastify.register(async (scope) => {
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/v1/locations/import',
      {
        config: write,
        schema: {
          operationId: 'importLocations',
          tags,
          security,
          summary: 'Import locations from CSV (all-or-nothing)',
          description:
            `Content-Type: text/csv, at most ${MAX_IMPORT_ROWS} data rows and ${MAX_IMPORT_BYTES / 1024 / 1024} MiB. A row whose externalId names an existing location ` +
            'updates it; other rows create locations. Every row is validated first: with any invalid row nothing is written and the answer is 400 ' +
            'with details [{row, field, message}] (the header is row 1).',
          consumes: ['text/csv'],
          body: ImportCsvBody,
          response: { 200: ImportResult, 400: ImportErrorBody, ...errorResponses(401, 403, 413, 415, 429) },
        },
      },
      async (request) => locations.importCsv(tenantCtx(request), request.body),
    );
  });
}
