import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { IdParam, NullableTimestamp, PageQuery, Str, TENANT_SECURITY, Timestamp, errorResponses } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { LogEditSchema } from './logs.routes.js';
import { FLAG_MINUTES } from '../../domain/logs/unassigned.js';
import { MAX_SEGMENT_HOURS, UNASSIGNED_STATUSES, unassignedService } from './unassigned.service.js';

const Place = Type.Object({ latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }) }, { additionalProperties: false });
const NamedPlace = Type.Union([Type.Object({ latitude: Type.Number(), longitude: Type.Number(), name: Type.String({ description: 'In words ("near Amarillo, TX")' }) }), Type.Null()]);
const StatusSchema = Type.Union(UNASSIGNED_STATUSES.map((s) => Type.Literal(s)));
const Annotation = Type.String({ minLength: 4, maxLength: 60, pattern: '\\S', description: '4 to 60 characters (ELD specification §7.4)' });

export const UnassignedDrivingSchema = Type.Object({
  id: Type.String(),
  vehicleId: Type.String(),
  vehicleUnitNumber: Type.String(),
  start: Timestamp,
  end: Timestamp,
  durationMinutes: Type.Integer(),
  startLocation: NamedPlace,
  endLocation: NamedPlace,
  miles: Type.Union([Type.Number(), Type.Null()]),
  timeZone: Type.String({ description: 'The IANA zone its times are read in: of the place it began (else ended; else the organization’s home terminal zone)' }),
  source: Type.String({ description: 'API (reported through this API) or the ELD vendor it was synced from (samsara, motive)' }),
  externalId: Type.Union([Type.String(), Type.Null()], { description: 'The id the reporting system or the vendor gave it' }),
  status: Type.Union([StatusSchema], { description: 'UNASSIGNED → ASSIGNMENT_PENDING (the driver is asked) → ASSIGNED (accepted) or UNASSIGNED again (rejected); UNASSIGNED → ANNOTATED (the carrier’s reason)' }),
  annotation: Type.Union([Type.String(), Type.Null()]),
  driverId: Type.Union([Type.String(), Type.Null()], { description: 'The driver it is assigned to, or asked of' }),
  driverName: Type.Union([Type.String(), Type.Null()]),
  editId: Type.Union([Type.String(), Type.Null()], { description: 'The log edit that assigns it' }),
  createdAt: Timestamp,
  createdBy: Type.Union([Type.String(), Type.Null()]),
  statusChangedAt: NullableTimestamp,
  statusChangedBy: Type.Union([Type.String(), Type.Null()]),
});

const VehicleFlag = Type.Object({
  vehicleId: Type.String(),
  vehicleUnitNumber: Type.String(),
  unresolvedMinutesLast24Hours: Type.Integer({ description: 'Unassigned or pending driving in the last 24 hours' }),
  flagged: Type.Boolean({ description: `More than ${FLAG_MINUTES} minutes (ELD specification §4.6.1.6)` }),
});

export function unassignedRoutes(fastify: FastifyInstance, deps: Deps, ports: PlanningPorts): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const service = unassignedService(deps, ports);
  const tags = ['Records of duty status'];
  const params = IdParam('unassignedId', 'udr');

  app.post(
    '/api/v1/vehicles/:vehicleId/unassigned-driving',
    {
      config: { access: { auth: 'tenant', permission: 'unassigned:write' } },
      schema: {
        operationId: 'reportUnassignedDriving',
        tags,
        security: TENANT_SECURITY,
        summary: 'Report driving of the vehicle with no driver logged in (from telematics other than a connected ELD); a resend with the same externalId answers the stored segment (200)',
        params: IdParam('vehicleId', 'veh'),
        body: Type.Object(
          {
            start: Type.String({ format: 'date-time' }),
            end: Type.String({ format: 'date-time', description: `After start, not in the future, at most ${MAX_SEGMENT_HOURS} hours after start` }),
            startLocation: Type.Optional(Place),
            endLocation: Type.Optional(Place),
            miles: Type.Optional(Type.Number({ minimum: 0, maximum: 2000 })),
            externalId: Type.Optional(Str(128, { min: 1 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: UnassignedDrivingSchema, 201: UnassignedDrivingSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const { created, segment } = await service.report(tenantCtx(request), request.params.vehicleId, request.body);
      return reply.status(created ? 201 : 200).send(segment);
    },
  );

  app.get(
    '/api/v1/unassigned-driving',
    {
      config: { access: { auth: 'tenant', permission: 'unassigned:read' } },
      schema: {
        operationId: 'listUnassignedDriving',
        tags,
        security: TENANT_SECURITY,
        summary: `Unassigned driving segments, newest first, and the vehicles with unresolved unassigned driving in the last 24 hours (flagged above ${FLAG_MINUTES} minutes)`,
        querystring: Type.Object({ vehicleId: Type.Optional(Type.String({ maxLength: 64 })), status: Type.Optional(StatusSchema), ...PageQuery }, { additionalProperties: false }),
        response: {
          200: Type.Object({ data: Type.Array(UnassignedDrivingSchema), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer(), vehicles: Type.Array(VehicleFlag) }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => service.list(tenantCtx(request), { vehicleId: request.query.vehicleId, status: request.query.status as never, page: request.query.page ?? 1, pageSize: request.query.pageSize ?? 20 }),
  );

  app.get(
    '/api/v1/unassigned-driving/:unassignedId',
    {
      config: { access: { auth: 'tenant', permission: 'unassigned:read' } },
      schema: { operationId: 'getUnassignedDriving', tags, security: TENANT_SECURITY, summary: 'One segment of unassigned driving', params, response: { 200: UnassignedDrivingSchema, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => service.get(tenantCtx(request), request.params.unassignedId),
  );

  app.post(
    '/api/v1/unassigned-driving/:unassignedId/assign',
    {
      config: { access: { auth: 'tenant', permission: 'unassigned:write' } },
      schema: {
        operationId: 'assignUnassignedDriving',
        tags,
        security: TENANT_SECURITY,
        summary: "Ask a driver to assume the driving (49 CFR 395.32): a correction request of the driver's log, origin UNIDENTIFIED_ASSUMED, that the driver accepts or rejects",
        params,
        body: Type.Object({ driverId: Type.String({ maxLength: 64 }), annotation: Type.Optional(Annotation) }, { additionalProperties: false }),
        response: { 200: Type.Object({ segment: UnassignedDrivingSchema, edit: LogEditSchema }), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => service.assign(tenantCtx(request), request.params.unassignedId, request.body),
  );

  app.post(
    '/api/v1/unassigned-driving/:unassignedId/annotate',
    {
      config: { access: { auth: 'tenant', permission: 'unassigned:write' } },
      schema: {
        operationId: 'annotateUnassignedDriving',
        tags,
        security: TENANT_SECURITY,
        summary: 'Close the segment with the reason no driver assumes it (a yard move, a shop test drive; 49 CFR 395.32(c))',
        params,
        body: Type.Object({ annotation: Annotation }, { additionalProperties: false }),
        response: { 200: UnassignedDrivingSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => service.annotate(tenantCtx(request), request.params.unassignedId, request.body.annotation),
  );
}
