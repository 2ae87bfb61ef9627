import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { EmptyBody, IdParam, TENANT_SECURITY, errorResponses } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import type { PlanningPorts } from './planning-ports.js';
import { CancelBody, PlanRouteBody, Position, PositionBody, RouteListQuery, RoutePage, RoutePlan } from './routes.schemas.js';
import { routesService } from './routes.service.js';

export function routesRoutes(fastify: FastifyInstance, deps: Deps, ports: PlanningPorts): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const routes = routesService(deps, ports);
  const tags = ['Routes'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'routes:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'routes:write' as const } };
  const params = IdParam('planId', 'rte');

  app.post(
    '/api/v1/routes/plan',
    {
      config: write,
      schema: {
        operationId: 'planRoute',
        tags,
        security,
        summary: 'Plan an HOS-compliant route: rests, breaks and fuel stops inserted, every plan audited to zero violations',
        body: PlanRouteBody,
        response: { 201: RoutePlan, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    // The answer comes as JSON already (routeInsert): sent as it is, not serialized again.
    async (request, reply) => reply.status(201).type('application/json; charset=utf-8').send((await routes.plan(tenantCtx(request), request.body as never)).json as never),
  );

  app.get(
    '/api/v1/routes',
    { config: read, schema: { operationId: 'listRoutes', tags, security, summary: 'List route plans', querystring: RouteListQuery, response: { 200: RoutePage, ...errorResponses(400, 401, 403, 429) } } },
    async (request) => {
      const q = request.query;
      return routes.list(tenantCtx(request), { status: q.status as never, driverId: q.driverId, page: q.page ?? 1, pageSize: q.pageSize ?? 20 });
    },
  );

  app.get(
    '/api/v1/routes/:planId',
    { config: read, schema: { operationId: 'getRoute', tags, security, summary: 'Route details: stops with ETAs, segments, summary', params, response: { 200: RoutePlan, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => routes.get(tenantCtx(request), request.params.planId),
  );

  for (const action of ['activate', 'complete'] as const) {
    app.post(
      `/api/v1/routes/:planId/${action}`,
      {
        config: write,
        schema: {
          operationId: action === 'activate' ? 'activateRoute' : 'completeRoute',
          tags,
          security,
          summary: action === 'activate' ? 'Start the route: monitoring begins (webhook route.activated)' : 'Mark the route completed (webhook route.completed)',
          params,
          body: EmptyBody,
          response: { 200: RoutePlan, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request) => routes.transition(tenantCtx(request), request.params.planId, action),
    );
  }

  app.post(
    '/api/v1/routes/:planId/cancel',
    {
      config: write,
      schema: { operationId: 'cancelRoute', tags, security, summary: 'Cancel a planned or active route (webhook route.cancelled)', params, body: CancelBody, response: { 200: RoutePlan, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => routes.transition(tenantCtx(request), request.params.planId, 'cancel', (request.body as { reason?: string } | null)?.reason),
  );

  app.post(
    '/api/v1/routes/:planId/positions',
    {
      config: { access: { auth: 'tenant', permission: 'positions:write' } },
      schema: { operationId: 'reportRoutePosition', tags, security, summary: 'Report a vehicle position on an active route (driver app or telematics)', params, body: PositionBody, response: { 201: Position, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request, reply) => reply.status(201).send(await routes.addPosition(tenantCtx(request), request.params.planId, request.body)),
  );

  app.get(
    '/api/v1/routes/:planId/positions',
    {
      config: read,
      schema: {
        operationId: 'listRoutePositions',
        tags,
        security,
        summary: 'Recent positions of a route, newest first',
        params,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(Position) }), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => routes.positions(tenantCtx(request), request.params.planId, request.query.limit ?? 100),
  );
}
