import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { TENANT_SECURITY, errorResponses } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { CandidatesAnswer, CandidatesBody } from './dispatch.schemas.js';
import { dispatchService, type CandidatesRequest } from './dispatch.service.js';

export function dispatchRoutes(fastify: FastifyInstance, deps: Deps, ports: PlanningPorts): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const dispatch = dispatchService(deps, ports);

  app.post(
    '/api/v1/dispatch/candidates',
    {
      config: { access: { auth: 'tenant', permission: 'dispatch:read' } },
      schema: {
        operationId: 'dispatchCandidates',
        tags: ['Dispatch'],
        security: TENANT_SECURITY,
        summary: 'Who can take a load on time: every driver’s trip planned from where they are with the clocks they have, ranked feasible first',
        description:
          'For each driver (default: every ACTIVE driver): the start (the end of the PLANNED or ACTIVE route they are on, at its arrival; else the newest of their last route position, a location reported for them, a duty-status change with coordinates and the end of their last completed route; else their home terminal), the deadhead to the first stop, the clocks they start with (the ELD’s when an integration reported them, else the duty-status log; the route plan’s at its end), the trip planned by the HOS planner (rests, breaks, fuel), whether each appointment is kept, the arrival at the last stop, miles and cost. Ranked feasible first, then by `sort`; drivers whose location is unknown (locationKnown false) come last. Each infeasible driver says why; each candidate carries the POST /routes/plan body that plans it.',
        body: CandidatesBody,
        response: { 200: CandidatesAnswer, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => dispatch.candidates(tenantCtx(request), request.body as CandidatesRequest),
  );
}
