import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { IdParam, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { ChangeLoadStatusBody, CreateLoadBody, Load, LoadListQuery, LoadPage, UpdateLoadBody } from './loads.schemas.js';
import { loadsService } from './loads.service.js';
import type { LoadRecord } from './loads.repository.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { timeZoneAt } from '../../domain/planning/local-time.js';

/**
 * A load's answer with the time zones of its origin and destination (where its pickup and delivery times
 * are read), from its addresses by the offline geocoder; null where an address is unknown. Kept per address.
 */
function zonesOf(ports: Pick<PlanningPorts, 'geocode'>) {
  const cache = new Map<string, string | null>();
  const zone = (address: string | null): string | null => {
    if (!address) return null;
    let z = cache.get(address);
    if (z === undefined) {
      const found = ports.geocode(address);
      z = found.kind === 'found' ? timeZoneAt(found.result) : null;
      if (cache.size > 5_000) cache.clear();
      cache.set(address, z);
    }
    return z;
  };
  return <L extends LoadRecord>(l: L) => ({ ...l, originTimeZone: zone(l.originAddress), destinationTimeZone: zone(l.destinationAddress) });
}

export function loadsRoutes(fastify: FastifyInstance, deps: Deps, ports: Pick<PlanningPorts, 'geocode'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const loads = loadsService(deps);
  const zoned = zonesOf(ports);
  const tags = ['Loads'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'loads:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'loads:write' as const } };
  const params = IdParam('loadId', 'ld');

  app.post(
    '/api/v1/loads',
    {
      config: write,
      schema: {
        operationId: 'createLoad',
        tags,
        security,
        summary: 'Create a load (status PENDING, source MANUAL)',
        description: 'referenceNumber is unique in the organization (case-insensitive); scheduledDelivery must not be before scheduledPickup.',
        body: CreateLoadBody,
        response: { 201: Load, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(zoned(await loads.create(tenantCtx(request), request.body))),
  );

  app.get(
    '/api/v1/loads',
    { config: read, schema: { operationId: 'listLoads', tags, security, summary: 'List loads (newest first)', querystring: LoadListQuery, response: { 200: LoadPage, ...errorResponses(400, 401, 403, 429) } } },
    async (request) => {
      const q = request.query;
      const page = await loads.list(tenantCtx(request), { status: q.status, search: q.search, page: q.page ?? 1, pageSize: q.pageSize ?? 20 });
      return { ...page, data: page.data.map(zoned) };
    },
  );

  app.get(
    '/api/v1/loads/:loadId',
    { config: read, schema: { operationId: 'getLoad', tags, security, summary: 'Get a load', params, response: { 200: Load, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => zoned(await loads.get(tenantCtx(request), request.params.loadId)),
  );

  app.put(
    '/api/v1/loads/:loadId',
    {
      config: write,
      schema: {
        operationId: 'updateLoad',
        tags,
        security,
        summary: 'Update a load',
        description: 'Any subset of the descriptive fields; null clears an optional field. status and source are not accepted here: use POST /loads/{loadId}/status.',
        params,
        body: UpdateLoadBody,
        response: { 200: Load, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => zoned(await loads.update(tenantCtx(request), request.params.loadId, request.body)),
  );

  app.post(
    '/api/v1/loads/:loadId/status',
    {
      config: write,
      schema: {
        operationId: 'changeLoadStatus',
        tags,
        security,
        summary: 'Change the status of a load',
        description:
          'PENDING → ASSIGNED → IN_TRANSIT → DELIVERED; any state but DELIVERED or CANCELLED → CANCELLED. Any other change is a 400. Emits load.status_changed.',
        params,
        body: ChangeLoadStatusBody,
        response: { 200: Load, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => zoned(await loads.changeStatus(tenantCtx(request), request.params.loadId, request.body.status, request.body.note)),
  );

  app.delete(
    '/api/v1/loads/:loadId',
    {
      config: write,
      schema: {
        operationId: 'cancelLoad',
        tags,
        security,
        summary: 'Cancel a load (soft delete: status CANCELLED)',
        description: 'Same as POST /loads/{loadId}/status {"status":"CANCELLED"}; a DELIVERED or CANCELLED load is a 400.',
        params,
        response: { 200: Load, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => zoned(await loads.changeStatus(tenantCtx(request), request.params.loadId, 'CANCELLED')),
  );
}
