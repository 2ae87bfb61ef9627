import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { EmptyBody, IdParam, TENANT_SECURITY, errorResponses } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import type { PlanningPorts } from './planning-ports.js';
import { CancelBody, PlanRouteBody, Position, PositionBody, ReplanAnswer, ReplanBody, ReplanQuery, RevisionList, RouteListQuery, RoutePage, RoutePlan } from './routes.schemas.js';
import type { ReplanRequest } from './routes.replan.js';
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

  app.post(
    '/api/v1/routes/:planId/replan',
    {
      config: write,
      schema: {
        operationId: 'replanRoute',
        tags,
        security,
        summary: 'Re-plan an ACTIVE route from the truck’s position and the driver’s clocks now (preview or apply; webhook route.replanned)',
        description:
          'Plans the stops not yet completed again from the last reported position (or `position`) with the driver’s current clocks (the ELD’s when an integration reported them recently, else the duty-status log), with the route’s own options (overridable). With `?preview=true` (or `"preview": true`) nothing changes. Otherwise the new plan becomes the route’s current plan (revision + 1), the old one is kept (GET /routes/{planId}/revisions), `route.replanned` goes to webhooks, SSE and Socket.IO, and monitoring checks the route against the new plan at its next pass. Completed stops and the driven part stay as they were.',
        params,
        querystring: ReplanQuery,
        body: ReplanBody,
        response: { 200: ReplanAnswer, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as ReplanRequest;
      return routes.replan(tenantCtx(request), request.params.planId, { ...body, preview: request.query.preview === true || body.preview === true });
    },
  );

  app.get(
    '/api/v1/routes/:planId/revisions',
    { config: read, schema: { operationId: 'listRouteRevisions', tags, security, summary: 'The route’s plans, oldest first: revision 1 as planned, one more per re-plan; the last is current', params, response: { 200: RevisionList, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => routes.revisions(tenantCtx(request), request.params.planId),
  );

  app.get(
    '/api/v1/routes/:planId/revisions/:revision',
    {
      config: read,
      schema: {
        operationId: 'getRouteRevision',
        tags,
        security,
        summary: 'One revision of the route’s plan, whole (stops, segments, summary) as it was',
        params: Type.Object({ planId: params.properties.planId, revision: Type.Integer({ minimum: 1, maximum: 100000 }) }, { additionalProperties: false }),
        response: { 200: RoutePlan, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => routes.revision(tenantCtx(request), request.params.planId, request.params.revision),
  );
}
