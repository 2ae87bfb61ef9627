import { Type } from '@sinclair/typebox';
import { NullableTimestamp, Str, Timestamp } from '../../lib/schemas.js';
import { PlanOptions, RoutePlan, RouteSummary, SegmentSchema, StopEtaSchema, StopInput } from '../routes/routes.schemas.js';

const DriverId = Str(64, { pattern: '^drv_[0-9A-Za-z]+$' });

/** Most drivers one request ranks (a fleet's ACTIVE drivers beyond it: give driverIds). */
export const MAX_CANDIDATE_DRIVERS = 500;

export const CandidatesBody = Type.Object(
  {
    loadId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^ld_[0-9A-Za-z]+$', description: 'The load to cover: its pickup (not before scheduledPickup) and delivery (by scheduledDelivery). Give loadId or stops.' })),
    stops: Type.Optional(
      Type.Array(StopInput, {
        minItems: 2,
        maxItems: 24,
        description:
          'The load’s stops in order, given like a plan request’s but without an origin (each driver starts where they are): the first is the pickup, the last the delivery, unless `type` says otherwise. Give loadId or stops.',
      }),
    ),
    driverIds: Type.Optional(Type.Array(DriverId, { minItems: 1, maxItems: MAX_CANDIDATE_DRIVERS, uniqueItems: true, description: 'The drivers to consider. Default: every ACTIVE driver of the organization.' })),
    departureNotBefore: Type.Optional(Type.String({ format: 'date-time', description: 'No driver leaves before this. Default: now.' })),
    sort: Type.Optional(
      Type.Union([Type.Literal('arrival'), Type.Literal('deadhead'), Type.Literal('cost')], {
        description: 'The order among feasible (then among infeasible) candidates: arrival at the last stop (default), deadhead miles, or the trip’s fuel cost.',
      }),
    ),
    includePlans: Type.Optional(Type.Boolean({ description: 'Include each candidate’s whole plan (stops and segments). Default: false (the summary only).' })),
    planCandidate: Type.Optional(
      Type.Boolean({
        description:
          'Also plan the best feasible candidate as a route (PLANNED, assigned to that driver; the load, when given, becomes ASSIGNED), exactly as POST /routes/plan with its planRequest. Needs the routes:write permission.',
      }),
    ),
    options: Type.Optional(Type.Omit(PlanOptions, ['optimizeStopOrder', 'startingFuelGallons'], { additionalProperties: false })),
  },
  {
    additionalProperties: false,
    examples: [{ loadId: 'ld_7Hq2mK9pLx4TnR8sWc3YbZ', sort: 'arrival' }],
  },
);

const StartSchema = Type.Object({
  name: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  source: Type.Union(
    [Type.Literal('CURRENT_ROUTE'), Type.Literal('POSITION'), Type.Literal('LOCATION_REPORT'), Type.Literal('DUTY_STATUS'), Type.Literal('LAST_ROUTE'), Type.Literal('HOME_TERMINAL')],
    {
      description:
        'CURRENT_ROUTE: the last stop of the PLANNED or ACTIVE route the driver is on (they leave at its arrival). Otherwise the newest of: POSITION (a position of a route they drove), LOCATION_REPORT (POST /drivers/{id}/location), DUTY_STATUS (a duty-status change with coordinates), LAST_ROUTE (where their last completed route ended). Else HOME_TERMINAL: the terminal they are based at.',
    },
  ),
  at: Type.Union([Timestamp, Type.Null()], { description: 'When the driver was (or will be) there; null for a home terminal' }),
  routeId: Type.Union([Type.String(), Type.Null()]),
  timeZone: Type.String({ description: 'The IANA zone of the start (the departure is read on its clocks)' }),
});

const StartClocks = Type.Object({
  source: Type.String({ description: 'LOG (the duty-status log replayed), ROUTE_PLAN (the clocks the current route’s plan ends with) or the ELD integration that reported them' }),
  hoursDriven: Type.Number(),
  onDutyHours: Type.Number(),
  hoursSinceBreak: Type.Number(),
  cycleHoursUsed: Type.Number(),
  driveHoursRemaining: Type.Number(),
  dutyHoursRemaining: Type.Number(),
  cycleHoursRemaining: Type.Number(),
});

export const Candidate = Type.Object({
  driverId: Type.String(),
  driverName: Type.String(),
  feasible: Type.Boolean({ description: 'true when the plan keeps every appointment with zero HOS violations' }),
  locationKnown: Type.Boolean({
    description: 'false when nothing says where the driver is (no route, no reported location, no home terminal): no trip can be planned. Such drivers come last, after the ones the HOS or the appointments rule out.',
  }),
  reasons: Type.Array(Type.String(), { description: 'Why not, in sentences; empty when feasible' }),
  deadheadMiles: Type.Union([Type.Number(), Type.Null()], { description: 'Miles from the start to the first stop; null when the driver’s location is unknown' }),
  departureTime: Timestamp,
  arrivalTime: NullableTimestamp,
  summary: Type.Union([RouteSummary, Type.Null()]),
  start: Type.Union([StartSchema, Type.Null()]),
  startClocks: Type.Union([StartClocks, Type.Null()]),
  stops: Type.Array(StopEtaSchema, { description: 'The load’s stops with this driver’s ETAs and whether each window is kept' }),
  segments: Type.Optional(Type.Array(SegmentSchema, { description: 'The whole plan (with includePlans)' })),
  planRequest: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The POST /api/v1/routes/plan body that plans this candidate’s trip (the same plan)' }),
});

export const CandidatesAnswer = Type.Object({
  data: Type.Array(Candidate, { description: 'In rank order: feasible first, then by `sort`' }),
  load: Type.Union([Type.Object({ id: Type.String(), referenceNumber: Type.String() }), Type.Null()]),
  planned: Type.Union([RoutePlan, Type.Null()], { description: 'The route planned for the best feasible candidate (planCandidate); null otherwise' }),
});
