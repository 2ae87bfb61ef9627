import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { isRestInputError, recommendRest, validateRestRequest } from '../../domain/rest/rest-optimizer.js';
import { DomainError } from '../../lib/errors.js';
import { Str, TENANT_SECURITY, errorResponses } from '../../lib/schemas.js';

const Hours = (max: number) => Type.Number({ minimum: 0, maximum: max });

const RecommendBody = Type.Object(
  {
    current_location: Type.Object(
      { latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }), name: Str(200) },
      { additionalProperties: false },
    ),
    driver_state: Type.Object(
      { hours_driven: Hours(24), on_duty_hours: Hours(24), hours_since_break: Hours(24), cycle_hours_used: Hours(120) },
      { additionalProperties: false },
    ),
    dock_duration_hours: Hours(72),
    remaining_route_hours: Hours(500),
    is_dedicated_rest_stop: Type.Boolean(),
    next_segment_hours: Type.Optional(Hours(500)),
  },
  { additionalProperties: false },
);

const HosStateAfter = Type.Object({
  hours_driven: Type.Number(),
  on_duty_hours: Type.Number(),
  hours_since_break: Type.Number(),
  drive_hours_remaining: Type.Number(),
  duty_hours_remaining: Type.Number(),
  cycle_hours_used: Type.Number(),
  cycle_hours_remaining: Type.Number(),
});

const RecommendResponse = Type.Object({
  recommendation: Type.Union([Type.Literal('FULL_REST'), Type.Literal('PARTIAL_REST'), Type.Literal('NO_REST')]),
  duration_hours: Type.Number(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  feasibility: Type.Union([Type.Literal('NOT_FEASIBLE'), Type.Literal('FEASIBLE_BUT_TIGHT'), Type.Literal('FEASIBLE')]),
  reasoning: Type.String(),
  opportunity_score: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]),
  rest_location: Type.Object({ name: Type.String(), latitude: Type.Number(), longitude: Type.Number(), type: Type.String() }),
  category: Type.String(),
  rest_type: Type.Union([Type.String(), Type.Null()]),
  limited_by: Type.Array(Type.String()),
  added_time_hours: Type.Number(),
  split_complement_hours: Type.Union([Type.Number(), Type.Null()]),
  hos_state_after: HosStateAfter,
  decision_factors: Type.Array(
    Type.Object({ name: Type.String(), importance: Type.String(), weight: Type.Number(), value: Type.Union([Type.Number(), Type.Null()]), assessment: Type.String() }),
  ),
});

/** The planner's internal rest optimizer, exposed for inspection (the spec's "Rest recommendation"). */
export function restRoutes(fastify: FastifyInstance, _deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/v1/rest/recommend',
    {
      config: { access: { auth: 'tenant', permission: 'rest:recommend' } },
      schema: {
        operationId: 'recommendRest',
        tags: ['Routes'],
        security: TENANT_SECURITY,
        summary: 'Rest recommendation (internal: the planner calls the same component for every rest)',
        body: RecommendBody,
        response: { 200: RecommendResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      try {
        return recommendRest(validateRestRequest(request.body) as never);
      } catch (err) {
        if (isRestInputError(err)) throw new DomainError('VALIDATION', err.message, err.details.map((d) => ({ field: `body.${d.field}`, message: d.message })));
        throw err;
      }
    },
  );
}
