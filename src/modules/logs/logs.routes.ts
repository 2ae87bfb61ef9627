import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { IdParam, NullableTimestamp, PageQuery, Str, TENANT_SECURITY, Timestamp, errorResponses } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { logsService, MAX_LOG_DAYS } from './logs.service.js';
import { certificationService, editsService } from './edits.service.js';
import { CSV_COLUMNS, logsExport } from './logs.export.js';
import { complianceService, MAX_COMPLIANCE_DAYS } from './compliance.service.js';

const Status = Type.Union(['OFF_DUTY', 'SLEEPER_BERTH', 'ON_DUTY_DRIVING', 'ON_DUTY_NOT_DRIVING'].map((s) => Type.Literal(s)));
const Hours = Type.Number({ description: 'hours' });

export const DailyLogSchema = Type.Object({
  date: Type.String({ description: 'The 24-hour period’s date on the home terminal’s clocks, YYYY-MM-DD' }),
  periodStart: Timestamp,
  periodEnd: Type.String({ format: 'date-time', description: 'The period is [periodStart, periodEnd): 24 hours, 23 or 25 on the days daylight saving time begins or ends' }),
  timeZone: Type.String({ description: 'The home terminal’s IANA zone whose clocks the period keeps' }),
  events: Type.Array(
    Type.Object({
      recordId: Type.String(),
      status: Status,
      start: Timestamp,
      end: Type.String({ format: 'date-time', description: 'Clipped to the period (and to now on today)' }),
      continued: Type.Boolean({ description: 'The record began on an earlier day' }),
      latitude: Type.Union([Type.Number(), Type.Null()]),
      longitude: Type.Union([Type.Number(), Type.Null()]),
      location: Type.Union([Type.String(), Type.Null()], { description: 'Where the status began, in words ("near Amarillo, TX"); null without coordinates' }),
      origin: Type.String({ description: 'AUTOMATIC, DRIVER, OTHER_USER or UNIDENTIFIED_ASSUMED (ELD specification §7.22)' }),
      note: Type.Union([Type.String(), Type.Null()]),
      annotation: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'The ACTIVE records overlapping the period, clipped to it, in time order' },
  ),
  totals: Type.Object(
    { OFF_DUTY: Hours, SLEEPER_BERTH: Hours, ON_DUTY_DRIVING: Hours, ON_DUTY_NOT_DRIVING: Hours },
    { description: 'Hours in each status; they add up to the length of the period (to now, today). Before the first record the driver is off duty.' },
  ),
  milesDriven: Type.Union([Type.Number(), Type.Null()], { description: 'From the positions of the driver’s routes in the period; null when none say' }),
  violations: Type.Array(
    Type.Object({
      type: Type.String({ description: 'DRIVE, WINDOW, BREAK, CYCLE, DAILY_DRIVE or DAILY_ON_DUTY' }),
      rule: Type.String(),
      start: Type.String({ format: 'date-time', description: 'When the limit was first exceeded' }),
      end: Type.String({ format: 'date-time', description: 'When the driving past it ended' }),
      overHours: Type.Number(),
      explanation: Type.String(),
    }),
    { description: 'From the HOS engine over the ACTIVE records, those first exceeded in the period' },
  ),
  certification: Type.Object({
    certified: Type.Boolean(),
    certifiedAt: NullableTimestamp,
    recertificationRequired: Type.Boolean({ description: 'A correction was applied to the day after it was last certified' }),
    certifications: Type.Integer({ description: 'How many times the day was certified (recertifications kept)' }),
  }),
  pendingEditRequests: Type.Integer(),
  recap: Type.Object(
    {
      onDutyToday: Hours,
      onDutyCycleDays: Type.Number({ description: 'On-duty hours over the cycle’s days up to this one (8 under 70 h/8 days, 7 under 60 h/7 days)' }),
      cycleDays: Type.Integer(),
      cycleHours: Type.Number(),
      availableTomorrow: Type.Number({ description: 'The cycle’s hours minus the on-duty hours of the days that still count tomorrow' }),
    },
    { description: 'The recap every log prints' },
  ),
});

const Annotation = Type.String({ minLength: 4, maxLength: 60, pattern: '\\S', description: 'Why (4 to 60 characters: 49 CFR 395.30(c)(2), ELD specification §7.4)' });
const Entry = Type.Object(
  {
    status: Status,
    at: Type.String({ format: 'date-time' }),
    latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    note: Type.Optional(Str(500)),
  },
  { additionalProperties: false },
);
const EditStatusSchema = Type.Union(['PENDING', 'ACCEPTED', 'REJECTED', 'CANCELLED', 'APPLIED'].map((s) => Type.Literal(s)));
export const LogEditSchema = Type.Object({
  id: Type.String(),
  driverId: Type.String(),
  status: Type.Union([EditStatusSchema], { description: 'APPLIED: the driver’s own correction; PENDING → ACCEPTED or REJECTED by the driver, or CANCELLED by its author' }),
  origin: Type.String({ description: 'DRIVER, OTHER_USER or UNIDENTIFIED_ASSUMED' }),
  from: Timestamp,
  to: Timestamp,
  entries: Type.Array(Type.Object({ status: Type.String(), at: Timestamp, latitude: Type.Union([Type.Number(), Type.Null()]), longitude: Type.Union([Type.Number(), Type.Null()]), note: Type.Union([Type.String(), Type.Null()]) })),
  annotation: Type.String(),
  requestedBy: Type.Union([Type.String(), Type.Null()]),
  requestedByName: Type.Union([Type.String(), Type.Null()], { description: 'Who asked for it (or made it), by name' }),
  requestedAt: Timestamp,
  decidedBy: Type.Union([Type.String(), Type.Null()]),
  decidedByName: Type.Union([Type.String(), Type.Null()], { description: 'Who accepted, rejected or cancelled it, by name' }),
  decidedAt: NullableTimestamp,
  decisionAnnotation: Type.Union([Type.String(), Type.Null()]),
  dates: Type.Array(Type.String(), { description: 'The days it touches' }),
  before: Type.Array(DailyLogSchema, { description: 'Those days as they are (a pending request) or were when it was decided' }),
  after: Type.Array(DailyLogSchema, { description: 'Those days as the correction makes them' }),
});

export function logsRoutes(fastify: FastifyInstance, deps: Deps, ports: PlanningPorts): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const logs = logsService(deps, ports);
  const tags = ['Records of duty status'];
  const params = IdParam('driverId', 'drv');
  const date = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });

  app.get(
    '/api/v1/drivers/:driverId/logs',
    {
      config: { access: { auth: 'tenant', permission: 'hos:read' } },
      schema: {
        operationId: 'listDailyLogs',
        tags,
        security: TENANT_SECURITY,
        summary: `The driver's daily logs, newest first: one per 24-hour period of the home terminal (default today and the 7 days before; at most ${MAX_LOG_DAYS} days)`,
        params,
        querystring: Type.Object({ from: Type.Optional(date), to: Type.Optional(date) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            data: Type.Array(DailyLogSchema),
            timeZone: Type.String({ description: 'The zone the periods keep: the driver’s home terminal’s, else the organization’s setting, else its address’s, else America/Chicago' }),
            periodStartTime: Type.String({ description: 'When each period starts on those clocks, HH:MM' }),
          }),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => logs.daily(tenantCtx(request), request.params.driverId, request.query),
  );

  const exports = logsExport(deps, ports);
  const range = Type.Object({ from: Type.Optional(date), to: Type.Optional(date) }, { additionalProperties: false });
  app.get(
    '/api/v1/drivers/:driverId/logs.pdf',
    {
      config: { access: { auth: 'tenant', permission: 'hos:read' } },
      schema: {
        operationId: 'printDailyLogs',
        tags,
        security: TENANT_SECURITY,
        summary: 'The daily logs as an inspector reads them: a PDF, one page per day (grid, totals, remarks, annotations, violations, certification, recap)',
        params,
        querystring: range,
        produces: ['application/pdf'],
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'application/pdf' }), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const { pdf, filename } = await exports.pdf(tenantCtx(request), request.params.driverId, request.query);
      return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${filename}"`).send(pdf);
    },
  );
  app.get(
    '/api/v1/drivers/:driverId/logs.csv',
    {
      config: { access: { auth: 'tenant', permission: 'hos:read' } },
      schema: {
        operationId: 'exportDailyLogs',
        tags,
        security: TENANT_SECURITY,
        summary: `Every record of the days (their history included) as CSV for spreadsheets; columns: ${CSV_COLUMNS.join(', ')}`,
        params,
        querystring: range,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv' }), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const { csv, filename } = await exports.csv(tenantCtx(request), request.params.driverId, request.query);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(csv);
    },
  );

  const compliance = complianceService(deps, ports);
  app.get(
    '/api/v1/compliance/hos',
    {
      config: { access: { auth: 'tenant', permission: 'compliance:read' } },
      schema: {
        operationId: 'hosCompliance',
        tags,
        security: TENANT_SECURITY,
        summary: `The fleet's HOS compliance per driver over a range of days (default the last 7 and today; at most ${MAX_COMPLIANCE_DAYS}): violations by type, days not certified, waiting correction requests, driving not in the log; and unassigned driving per vehicle`,
        querystring: Type.Object({ from: Type.Optional(date), to: Type.Optional(date), ...PageQuery }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            data: Type.Array(
              Type.Object({
                driverId: Type.String(),
                driverName: Type.String(),
                status: Type.String(),
                timeZone: Type.String(),
                violations: Type.Record(Type.String(), Type.Integer(), { description: 'Violations first exceeded in the range, by type' }),
                violationCount: Type.Integer(),
                daysNotCertified: Type.Array(Type.String(), { description: 'Ended days with records that the driver has not certified, or must certify again after a correction' }),
                pendingEditRequests: Type.Integer(),
                drivingNotInLog: Type.Array(
                  Type.Object({ date: Type.String(), start: Timestamp, end: Timestamp, miles: Type.Number() }),
                  { description: 'Stretches where the positions of the driver’s route show the truck moving (a mile or more between two positions) while the log shows no driving' },
                ),
              }),
            ),
            total: Type.Integer(),
            page: Type.Integer(),
            pageSize: Type.Integer(),
            from: Type.Union([Type.String(), Type.Null()]),
            to: Type.Union([Type.String(), Type.Null()]),
            unassignedDriving: Type.Array(
              Type.Object({
                vehicleId: Type.String(),
                vehicleUnitNumber: Type.String(),
                segments: Type.Integer(),
                minutes: Type.Integer(),
                unresolvedSegments: Type.Integer({ description: 'Neither assumed by a driver nor annotated (49 CFR 395.32)' }),
                unresolvedMinutes: Type.Integer(),
                flagged: Type.Boolean({ description: 'More than 30 minutes unresolved in the last 24 hours (ELD specification §4.6.1.6)' }),
              }),
              { description: 'Per vehicle, the unassigned driving in the range' },
            ),
          }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => compliance.summary(tenantCtx(request), { from: request.query.from, to: request.query.to, page: request.query.page ?? 1, pageSize: request.query.pageSize ?? 20 }),
  );

  const edits = editsService(deps, ports);
  const certs = certificationService(deps, ports);
  const editParams = IdParam('editId', 'edt');

  app.post(
    '/api/v1/drivers/:driverId/log-edits',
    {
      config: { access: { auth: 'tenant', permission: 'logs:edit' } },
      schema: {
        operationId: 'createLogEdit',
        tags,
        security: TENANT_SECURITY,
        summary: "Correct the driver's log between from and to: applied at once when the driver makes it, otherwise a request the driver accepts or rejects",
        params,
        body: Type.Object(
          {
            from: Type.String({ format: 'date-time' }),
            to: Type.String({ format: 'date-time', description: 'Not in the future; the status in force at `to` goes on after it' }),
            entries: Type.Array(Entry, { minItems: 1, maxItems: 100, description: 'The statuses between from and to, in order, the first at `from`' }),
            annotation: Annotation,
          },
          { additionalProperties: false },
        ),
        response: { 201: LogEditSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(await edits.create(tenantCtx(request), request.params.driverId, request.body as never)),
  );

  app.get(
    '/api/v1/log-edits',
    {
      config: { access: { auth: 'tenant', permission: 'hos:read' } },
      schema: {
        operationId: 'listLogEdits',
        tags,
        security: TENANT_SECURITY,
        summary: 'Corrections and correction requests, newest first (a DRIVER user: those of their own log)',
        querystring: Type.Object({ driverId: Type.Optional(Type.String({ maxLength: 64 })), status: Type.Optional(EditStatusSchema), ...PageQuery }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(LogEditSchema), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() }), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => edits.list(tenantCtx(request), { driverId: request.query.driverId, status: request.query.status as never, page: request.query.page ?? 1, pageSize: request.query.pageSize ?? 20 }),
  );

  app.get(
    '/api/v1/log-edits/:editId',
    {
      config: { access: { auth: 'tenant', permission: 'hos:read' } },
      schema: { operationId: 'getLogEdit', tags, security: TENANT_SECURITY, summary: 'A correction, with the days it touches before and after', params: editParams, response: { 200: LogEditSchema, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => edits.get(tenantCtx(request), request.params.editId),
  );

  for (const decision of ['accept', 'reject'] as const) {
    app.post(
      `/api/v1/log-edits/:editId/${decision}`,
      {
        config: { access: { auth: 'tenant', permission: 'logs:decide' } },
        schema: {
          operationId: decision === 'accept' ? 'acceptLogEdit' : 'rejectLogEdit',
          tags,
          security: TENANT_SECURITY,
          summary: decision === 'accept' ? 'The driver accepts a requested correction: it is applied' : 'The driver rejects a requested correction: nothing changes',
          params: editParams,
          body: Type.Union([Type.Object({ annotation: Type.Optional(Annotation) }, { additionalProperties: false }), Type.Null()]),
          response: { 200: LogEditSchema, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request) => edits.decide(tenantCtx(request), request.params.editId, decision, (request.body as { annotation?: string } | null)?.annotation),
    );
  }

  app.post(
    '/api/v1/log-edits/:editId/cancel',
    {
      config: { access: { auth: 'tenant', permission: 'logs:edit' } },
      schema: { operationId: 'cancelLogEdit', tags, security: TENANT_SECURITY, summary: 'Its author withdraws a pending correction request', params: editParams, response: { 200: LogEditSchema, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => edits.cancel(tenantCtx(request), request.params.editId),
  );

  app.post(
    '/api/v1/drivers/:driverId/logs/:date/certify',
    {
      config: { access: { auth: 'tenant', permission: 'logs:decide' } },
      schema: {
        operationId: 'certifyDailyLog',
        tags,
        security: TENANT_SECURITY,
        summary: "The driver certifies a day's record (49 CFR 395.30(b)); again after a correction: a recertification, both kept",
        params: Type.Object({ driverId: params.properties.driverId, date }),
        response: {
          201: Type.Object({ id: Type.String(), driverId: Type.String(), date: Type.String(), certifiedAt: Timestamp, statement: Type.String(), recertification: Type.Boolean(), day: DailyLogSchema }),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await certs.certify(tenantCtx(request), request.params.driverId, request.params.date)),
  );
}
