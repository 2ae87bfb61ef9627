import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { IdParam, NullableTimestamp, Str, TENANT_SECURITY, Timestamp, errorResponses } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { hosService } from './hos.service.js';
import { ClockSourceSchema, DisagreementSchema } from './hos.schemas.js';

const DutyStatusSchema = Type.Union(['OFF_DUTY', 'SLEEPER_BERTH', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING'].map((s) => Type.Literal(s)));

export const HosRecordSchema = Type.Object({
  driverId: Type.String(),
  driverName: Type.String(),
  currentHoursDriven: Type.Number(),
  currentOnDutyTime: Type.Number(),
  currentCycleUsed: Type.Number(),
  hoursSinceLastBreak: Type.Number(),
  lastRestartDate: NullableTimestamp,
  driveTimeRemaining: Type.Number(),
  dutyTimeRemaining: Type.Number(),
  cycleTimeRemaining: Type.Number(),
  breakRequired: Type.Boolean(),
  breakRequiredWithin: Type.Union([Type.Number(), Type.Null()], { description: 'null when the rule set requires no break' }),
  currentDutyStatus: Type.String(),
  lastStatusChange: NullableTimestamp,
  source: Type.String(),
  lastSyncedAt: NullableTimestamp,
  clockSource: ClockSourceSchema,
  disagreement: DisagreementSchema,
  ruleSet: Type.String(),
  violations: Type.Array(Type.Object({ kind: Type.String(), at: Timestamp, overHours: Type.Number(), rule: Type.String(), explanation: Type.String() })),
  nextRequiredRest: Type.Object({
    kind: Type.String(),
    requiredAfterDrivingHours: Type.Number(),
    requiredWithinHours: Type.Number(),
    durationHours: Type.Number(),
    limitedBy: Type.String(),
    explanation: Type.String(),
  }),
  explanation: Type.Array(Type.String()),
});

const DutyEventSchema = Type.Object({
  id: Type.String(),
  driverId: Type.String(),
  status: Type.String(),
  at: Timestamp,
  latitude: Type.Union([Type.Number(), Type.Null()]),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
  source: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdByName: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Who made it, by name (in the duty-status list); null for a record an ELD integration stored' })),
  createdAt: Timestamp,
  recordStatus: Type.Union(['ACTIVE', 'INACTIVE_CHANGED', 'INACTIVE_CHANGE_REQUESTED', 'INACTIVE_CHANGE_REJECTED'].map((s) => Type.Literal(s)), {
    description: 'ELD specification §7.23: ACTIVE (1), INACTIVE_CHANGED (2: replaced by a correction), INACTIVE_CHANGE_REQUESTED (3: proposed by someone else, waiting for the driver), INACTIVE_CHANGE_REJECTED (4)',
  }),
  origin: Type.Union(['AUTOMATIC', 'DRIVER', 'OTHER_USER', 'UNIDENTIFIED_ASSUMED'].map((s) => Type.Literal(s)), {
    description: 'ELD specification §7.22: AUTOMATIC (1: recorded by an ELD), DRIVER (2: entered or edited by the driver), OTHER_USER (3: entered or requested by another user), UNIDENTIFIED_ASSUMED (4: unidentified driving the driver assumed)',
  }),
  sequence: Type.Integer({ description: 'The order the service stored the records in' }),
  editId: Type.Union([Type.String(), Type.Null()], { description: 'The correction (or request for one) that made this record; null for one made as it happened' }),
  annotation: Type.Union([Type.String(), Type.Null()], { description: 'Why the record was corrected (4 to 60 characters)' }),
});

export function hosRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const hos = hosService(deps);
  const tags = ['Drivers'];
  const params = IdParam('driverId', 'drv');

  app.get(
    '/api/v1/drivers/:driverId/hos',
    {
      config: { access: { auth: 'tenant', permission: 'hos:read' } },
      schema: { operationId: 'getDriverHos', tags, security: TENANT_SECURITY, summary: "The driver's HOS clocks, derived from the duty-status log", params, response: { 200: HosRecordSchema, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => hos.get(tenantCtx(request), request.params.driverId),
  );

  app.post(
    '/api/v1/drivers/:driverId/duty-status',
    {
      config: { access: { auth: 'tenant', permission: 'duty-status:write' } },
      schema: {
        operationId: 'appendDutyStatus',
        tags,
        security: TENANT_SECURITY,
        summary: "Append a duty status to the driver's log",
        params,
        body: Type.Object(
          {
            status: DutyStatusSchema,
            at: Type.Optional(Type.String({ format: 'date-time', description: 'default: now; must be after the last logged status' })),
            latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
            longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
            note: Type.Optional(Str(500)),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ event: DutyEventSchema, hos: HosRecordSchema }), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(await hos.record(tenantCtx(request), request.params.driverId, request.body as never)),
  );

  app.get(
    '/api/v1/drivers/:driverId/duty-status',
    {
      config: { access: { auth: 'tenant', permission: 'hos:read' } },
      schema: {
        operationId: 'listDutyStatuses',
        tags,
        security: TENANT_SECURITY,
        summary: "The driver's duty-status log, newest first (default: the last 8 days)",
        params,
        querystring: Type.Object(
          {
            from: Type.Optional(Type.String({ format: 'date-time' })),
            to: Type.Optional(Type.String({ format: 'date-time' })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
            history: Type.Optional(Type.Boolean({ description: 'true: the inactive records too (changed, change requested, change rejected), each kept with who made it and why; default: the ACTIVE records' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: Type.Array(DutyEventSchema) }), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => hos.log(tenantCtx(request), request.params.driverId, { from: request.query.from, to: request.query.to, limit: request.query.limit ?? 500, history: request.query.history ?? false }),
  );
}
