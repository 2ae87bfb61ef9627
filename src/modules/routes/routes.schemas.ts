import { Type } from '@sinclair/typebox';
import { NullableTimestamp, Page, PageQuery, Str, Timestamp } from '../../lib/schemas.js';

export const RouteStatusSchema = Type.Union(['PLANNED', 'ACTIVE', 'COMPLETED', 'CANCELLED'].map((s) => Type.Literal(s)));
const StopTypeSchema = Type.Union(['ORIGIN', 'PICKUP', 'DELIVERY', 'WAYPOINT'].map((s) => Type.Literal(s)));
const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });
const Hours = (max: number) => Type.Number({ minimum: 0, maximum: max });

/** The plan options' fixed defaults: the planner uses these, and the OpenAPI document states them. */
export const PLAN_DEFAULTS = { averageSpeedMph: 55, fuelTankGallons: 150, mpg: 6.5, fuelPricePerGallon: 3.85 } as const;
/** optimizeStopOrder handles at most this many stops (exact search). */
export const MAX_OPTIMIZED_STOPS = 10;

export const StopInput = Type.Object(
  {
    name: Type.Optional(Str(200)),
    address: Type.Optional(Str(300)),
    latitude: Type.Optional(Latitude),
    longitude: Type.Optional(Longitude),
    type: Type.Optional(StopTypeSchema),
    appointment: Type.Optional(
      Type.Object(
        { earliest: Type.Optional(Type.String({ format: 'iso-date-time' })), latest: Type.Optional(Type.String({ format: 'iso-date-time' })) },
        {
          additionalProperties: false,
          description:
            'The appointment window, ISO 8601 date-times. A time without an offset ("2026-03-02T08:00:00") is the stop’s local time (its time zone found from its coordinates); with "Z" or an offset ("2026-03-02T08:00:00-06:00") it is taken as given.',
        },
      ),
    ),
    dockDurationHours: Type.Optional(Hours(48)),
    shipmentId: Type.Optional(Str(64)),
  },
  { additionalProperties: false },
);

/** The planning options of a plan request (also of a re-plan and of dispatch candidates). */
export const PlanOptions = Type.Object(
  {
    averageSpeedMph: Type.Optional(
      Type.Number({ minimum: 15, maximum: 80, default: PLAN_DEFAULTS.averageSpeedMph, description: `Average driving speed in mph, used to turn distance into drive time. Default: ${PLAN_DEFAULTS.averageSpeedMph}.` }),
    ),
    distanceMethod: Type.Optional(
      Type.Union([Type.Literal('haversine'), Type.Literal('haversine_road'), Type.Literal('osrm')], {
        description:
          'How leg distances are measured. haversine: great-circle (straight-line) miles, offline; road distances run longer (median +13 % on published US city pairs), and the plan warns so. haversine_road: great-circle × a road factor (1.13) calibrated on published US road distances, offline; median error about 4 % (worst 20 %) on published US road distances. osrm: real road distances from the OSRM server at OSRM_URL (400 when it is not set). Default: the server’s DISTANCE_METHOD setting, which is haversine unless set.',
        // No `default` keyword: the validator applies defaults (useDefaults), which would override DISTANCE_METHOD.
      }),
    ),
    optimizeStopOrder: Type.Optional(
      Type.Boolean({ default: false, description: `Reorder the stops after the origin (at most ${MAX_OPTIMIZED_STOPS} stops) to minimise trip time, each pickup before its delivery and appointment windows kept where possible. Default: false.` }),
    ),
    includeFuelStops: Type.Optional(Type.Boolean({ default: true, description: 'Insert fuel stops where the tank would run low. Default: true.' })),
    fuelTankGallons: Type.Optional(
      Type.Number({ minimum: 10, maximum: 400, description: `Usable tank size in gallons. Default: the vehicle's fuelTankGallons when vehicleId is given, otherwise ${PLAN_DEFAULTS.fuelTankGallons}.` }),
    ),
    mpg: Type.Optional(Type.Number({ minimum: 2, maximum: 15, description: `Fuel economy in miles per gallon. Default: the vehicle's mpg when vehicleId is given, otherwise ${PLAN_DEFAULTS.mpg}.` })),
    startingFuelGallons: Type.Optional(
      Type.Number({ minimum: 0, maximum: 400, description: 'Fuel in the tank at departure, in gallons; at most the tank size. Default: a full tank (fuelTankGallons).' }),
    ),
    fuelPricePerGallon: Type.Optional(
      Type.Number({
        minimum: 0.5,
        maximum: 20,
        default: PLAN_DEFAULTS.fuelPricePerGallon,
        description: `Diesel price in USD per gallon wherever no station price is known (no fuel integration, or a pump without a price). Default: ${PLAN_DEFAULTS.fuelPricePerGallon}.`,
      }),
    ),
  },
  { additionalProperties: false, description: 'Planning options; each one omitted takes the default stated on it.' },
);

export const PlanRouteBody = Type.Object(
  {
    driverId: Str(64, { pattern: '^drv_[0-9A-Za-z]+$' }),
    vehicleId: Type.Optional(Str(64, { pattern: '^veh_[0-9A-Za-z]+$' })),
    loadId: Type.Optional(Str(64, { pattern: '^ld_[0-9A-Za-z]+$' })),
    departureTime: Type.Optional(Type.String({ format: 'date-time' })),
    stops: Type.Optional(Type.Array(StopInput, { minItems: 2, maxItems: 25 })),
    driverState: Type.Optional(
      Type.Object(
        { hoursDriven: Hours(24), onDutyHours: Hours(24), hoursSinceBreak: Hours(24), cycleHoursUsed: Hours(120) },
        { additionalProperties: false, description: 'Manual HOS state; default: the driver’s current HOS from the duty-status log' },
      ),
    ),
    coDriverId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^drv_[0-9A-Za-z]+$',
        description:
          'Team driving: a second ACTIVE driver in the same truck. The plan alternates the two (one drives while the other is in the sleeper berth), changing over at short stops; each drive segment says who drives; both logs are audited. Default: one driver.',
      }),
    ),
    coDriverState: Type.Optional(
      Type.Object(
        { hoursDriven: Hours(24), onDutyHours: Hours(24), hoursSinceBreak: Hours(24), cycleHoursUsed: Hours(120) },
        { additionalProperties: false, description: 'The co-driver’s HOS state typed in by hand; default: their duty-status log' },
      ),
    ),
    options: Type.Optional(PlanOptions),
  },
  {
    additionalProperties: false,
    examples: [
      {
        driverId: 'drv_4Vx9kQ2mLp7TnR8sWc3YbZ',
        departureTime: '2026-03-03T13:00:00Z',
        stops: [
          { name: 'Dallas yard', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
          { name: 'Chicago DC', latitude: 41.8781, longitude: -87.6298, type: 'DELIVERY', dockDurationHours: 1.5 },
          {
            name: 'Columbus customer',
            latitude: 39.9612,
            longitude: -82.9988,
            type: 'DELIVERY',
            appointment: { earliest: '2026-03-05T14:00:00Z', latest: '2026-03-05T20:00:00Z' },
            dockDurationHours: 1,
          },
        ],
        driverState: { hoursDriven: 6, onDutyHours: 7, hoursSinceBreak: 6, cycleHoursUsed: 30 },
        options: { averageSpeedMph: 55, includeFuelStops: true, mpg: 6.5, fuelTankGallons: 150, startingFuelGallons: 90 },
      },
    ],
  },
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
const Appointment = Type.Union([Type.Object({ earliest: NullableTimestamp, latest: NullableTimestamp }), Type.Null()]);
const segmentBase = {
  sequence: Type.Integer(),
  start_time: Timestamp,
  end_time: Timestamp,
  duration_hours: Type.Number(),
  hos_state_after: HosStateAfter,
};
const LocalTime = (what: string) =>
  Type.Optional(Type.String({ description: `${what} in local time, ISO 8601 with the UTC offset there (e.g. 2026-03-02T07:00:00-06:00); absent on plans stored before local times existed` }));
const TimeZone = (what: string) => Type.Optional(Type.String({ description: `IANA time zone of ${what} (e.g. America/Chicago), from its coordinates` }));
const place = {
  location: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  time_zone: TimeZone('the place'),
  local_start_time: LocalTime('The start'),
  local_end_time: LocalTime('The end'),
};
const DrivePoint = Type.Object({ name: Type.String(), latitude: Type.Number(), longitude: Type.Number(), time_zone: TimeZone('the point') });

export const SegmentSchema = Type.Union([
  Type.Object({
    ...segmentBase,
    type: Type.Literal('drive'),
    from: DrivePoint,
    to: DrivePoint,
    distance_miles: Type.Number(),
    driver_id: Type.Optional(Type.String({ description: 'Team plans: the driver at the wheel (the route’s driver or its co-driver); absent on a one-driver plan' })),
    local_start_time: LocalTime('The start, in the time zone of `from`,'),
    local_end_time: LocalTime('The end, in the time zone of `to`,'),
  }),
  Type.Object({
    ...segmentBase,
    type: Type.Literal('rest'),
    ...place,
    rest_type: Type.Union([Type.Literal('full_rest'), Type.Literal('partial_rest'), Type.Literal('break')]),
    restart: Type.Optional(Type.Boolean({ description: 'true for a 34-hour restart (rest_type full_rest), which also resets the 60/70-hour cycle; absent on plans recorded before it existed' })),
    duty_status: Type.String(),
    reason: Type.String(),
  }),
  Type.Object({ ...segmentBase, type: Type.Literal('dock'), ...place, stop_type: Type.String(), appointment: Appointment }),
  Type.Object({ ...segmentBase, type: Type.Literal('fuel'), ...place, gallons: Type.Number(), price_per_gallon: Type.Number(), cost: Type.Number() }),
  Type.Object({
    ...segmentBase,
    type: Type.Literal('wait'),
    ...place,
    reason: Type.String(),
    driver_id: Type.Optional(Type.String({ description: 'A team’s driver change: the driver who takes the wheel (absent on other waits)' })),
  }),
]);

export const RouteSummary = Type.Object({
  totalDistanceMiles: Type.Number(),
  totalDriveHours: Type.Number({ description: 'Exact: the drive segments’ duration_hours added up (7 decimals)' }),
  totalOnDutyHours: Type.Number(),
  totalRestHours: Type.Number(),
  totalTripHours: Type.Number(),
  // Optional only because plans stored before it existed lack it; every new plan has it.
  minutes: Type.Optional(
    Type.Object(
      { drive: Type.Integer(), onDuty: Type.Integer(), rest: Type.Integer(), trip: Type.Integer() },
      {
        description:
          'The durations in whole minutes as the plan’s timeline adds them up: each segment from its start to its end, each rounded to the nearest minute, so the parts add up to these totals (drives to drive; docks, fuel stops and drives to onDuty; rests and waits to rest; everything to trip). What to show a person, the same on every screen.',
      },
    ),
  ),
  restStops: Type.Integer(),
  breaks: Type.Integer(),
  fuelStops: Type.Integer(),
  estimatedFuelCost: Type.Number({
    description:
      'Cost of the fuel the trip burns (totalDistanceMiles / mpg): the fuel in the tank at departure priced at options.fuelPricePerGallon (default 3.85), each purchase at its planned price, the tank priced at its running weighted average. Not what is bought at the stops (fuelPurchasedCost).',
  }),
  // Optional only because plans stored before these three fields existed lack them; every new plan has them.
  fuelBurnedGallons: Type.Optional(Type.Number({ description: 'Fuel the trip burns: totalDistanceMiles / mpg (absent on plans made before it was reported).' })),
  fuelPurchasedGallons: Type.Optional(Type.Number({ description: 'Fuel bought at the planned fuel stops (the sum of the fuel segments’ gallons).' })),
  fuelPurchasedCost: Type.Optional(Type.Number({ description: 'What the planned fuel stops cost (the sum of the fuel segments’ cost); 0 without fuel stops.' })),
  hosViolations: Type.Integer(),
  appointmentsMissed: Type.Integer(),
  distanceMethod: Type.String({ description: 'The distance method the plan used (haversine, haversine_road or osrm; haversine when osrm was asked for and the mapping service did not answer).' }),
});

const StopResolutionSchema = Type.Object(
  {
    matched: Type.Union([Type.String(), Type.Null()], { description: 'The place the address was matched to ("Dallas, TX", "Dallas, TX 75201"); null when coordinates were given' }),
    precision: Type.Union(['ADDRESS', 'ZIP', 'CITY', 'COORDINATES'].map((p) => Type.Literal(p)), {
      description:
        'CITY: a city centre (also a street address whose street could not be placed: the offline geocoder places none); ZIP: a ZIP code centroid; COORDINATES: latitude/longitude given; ADDRESS: the street address itself (reserved for a street-level geocoder)',
    }),
    latitude: Type.Number(),
    longitude: Type.Number(),
  },
  { description: 'How the stop was placed' },
);

export const StopEtaSchema = Type.Object({
  sequence: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  arrivalTime: Timestamp,
  departureTime: Timestamp,
  appointment: Appointment,
  withinWindow: Type.Union([Type.Boolean(), Type.Null()]),
  lateByHours: Type.Number(),
  timeZone: TimeZone('the stop'),
  localArrivalTime: LocalTime('The arrival'),
  localDepartureTime: LocalTime('The departure'),
  resolution: Type.Optional(StopResolutionSchema),
  prediction: Type.Optional(
    Type.Union([
      Type.Object(
        {
          arrivalTime: Timestamp,
          source: Type.String({ description: 'The visibility integration’s vendor, e.g. project44' }),
          estimatedAt: Type.String({ format: 'date-time', description: 'When the provider computed the estimate' }),
        },
        { description: 'The visibility provider’s newest predicted arrival at this stop' },
      ),
      Type.Null(),
    ], { description: 'GET /routes/{planId} on an ACTIVE route: the visibility provider’s predicted arrival (the figure monitoring uses for appointment alerts); null when no provider predicts this stop. Absent elsewhere.' }),
  ),
});

export const RoutePlan = Type.Object({
  id: Type.String(),
  status: RouteStatusSchema,
  driverId: Type.String(),
  coDriverId: Type.Union([Type.String(), Type.Null()], { description: 'Team driving: the second driver in the truck; null for one driver' }),
  vehicleId: Type.Union([Type.String(), Type.Null()]),
  loadId: Type.Union([Type.String(), Type.Null()]),
  departureTime: Timestamp,
  arrivalTime: Timestamp,
  distanceMethod: Type.String({ description: 'The distance method the plan used (the same as summary.distanceMethod).' }),
  summary: RouteSummary,
  stops: Type.Array(StopEtaSchema),
  segments: Type.Array(SegmentSchema),
  warnings: Type.Array(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  activatedAt: NullableTimestamp,
  completedAt: NullableTimestamp,
  cancelledAt: NullableTimestamp,
  cancelReason: Type.Union([Type.String(), Type.Null()]),
  revision: Type.Integer({ minimum: 1, description: 'The plan’s revision: 1 as planned, one more at every re-plan (GET /routes/{planId}/revisions lists them)' }),
  revisedAt: Type.Union([Timestamp, Type.Null()], { description: 'When the current revision was made by a re-plan; null for revision 1' }),
  revisedBy: Type.Union([Type.String(), Type.Null()], { description: 'The user (or API key’s user) who re-planned; null for revision 1' }),
  revisionReason: Type.Union([Type.String(), Type.Null()], { description: 'Why the route was re-planned, as given; null for revision 1' }),
});


export const RouteListQuery = Type.Object(
  {
    status: Type.Optional(RouteStatusSchema),
    driverId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^drv_[0-9A-Za-z]+$', description: 'Routes this driver drives, as the driver or the co-driver' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const CancelBody = Type.Union([Type.Object({ reason: Type.Optional(Str(500)) }, { additionalProperties: false }), Type.Null()]);

export const PositionBody = Type.Object(
  {
    latitude: Latitude,
    longitude: Longitude,
    recordedAt: Type.Optional(Type.String({ format: 'date-time' })),
    speedMph: Type.Optional(Type.Number({ minimum: 0, maximum: 120 })),
    headingDegrees: Type.Optional(Type.Number({ minimum: 0, maximum: 360 })),
    fuelLevelPercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  },
  { additionalProperties: false },
);

export const Position = Type.Object({
  id: Type.String(),
  routeId: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  recordedAt: Timestamp,
  speedMph: Type.Union([Type.Number(), Type.Null()]),
  headingDegrees: Type.Union([Type.Number(), Type.Null()]),
  fuelLevelPercent: Type.Union([Type.Number(), Type.Null()]),
  source: Type.String(),
  createdAt: Timestamp,
  timeZone: Type.String({ description: 'The IANA time zone where the position is (recordedAt on the clocks there)' }),
});

export const RouteListItem = Type.Composite([
  Type.Pick(RoutePlan, ['id', 'status', 'driverId', 'coDriverId', 'vehicleId', 'loadId', 'departureTime', 'arrivalTime', 'summary', 'createdAt', 'activatedAt', 'completedAt', 'cancelledAt', 'revision']),
  Type.Object({
    driverName: Type.String({ description: 'The driver’s first and last name' }),
    coDriverName: Type.Union([Type.String(), Type.Null()], { description: 'Team routes: the co-driver’s first and last name; null for one driver' }),
    vehicleUnit: Type.Union([Type.String(), Type.Null()], { description: 'The vehicle’s unit number; null without a vehicle' }),
    lastPosition: Type.Union([Position, Type.Null()], { description: 'The newest reported position (by recordedAt); null when none was reported' }),
    origin: Type.Object(
      { name: Type.String(), timeZone: Type.Union([Type.String(), Type.Null()]) },
      { description: 'The first stop: its name and IANA time zone (the zone of departureTime; null on plans made before stops had one)' },
    ),
    destination: Type.Object({ name: Type.String(), timeZone: Type.Union([Type.String(), Type.Null()]) }, { description: 'The last stop, the same way (the zone of arrivalTime)' }),
  }),
]);
export const RoutePage = Page(RouteListItem);

export const ReplanQuery = Type.Object(
  { preview: Type.Optional(Type.Boolean({ description: 'true: return the new plan and what changed without changing anything (also `"preview": true` in the body)' })) },
  { additionalProperties: false },
);

export const ReplanBody = Type.Union([
  Type.Object(
    {
      preview: Type.Optional(Type.Boolean({ description: 'Return the new plan and the difference without changing anything. Default: false.' })),
      reason: Type.Optional(Str(500, { min: 1 })),
      position: Type.Optional(
        Type.Object({ latitude: Latitude, longitude: Longitude }, { additionalProperties: false, description: 'Where the truck is now. Default: its last reported position (400 when none was reported).' }),
      ),
      nextStop: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 24, description: 'The index (from 0) of the first stop not yet completed. Default: worked out from the position on the plan (a stop the truck is at or past counts as completed).' }),
      ),
      options: Type.Optional(Type.Omit(PlanOptions, ['optimizeStopOrder'], { additionalProperties: false, description: 'Planning options; each one omitted is the route’s own (as it was planned). startingFuelGallons defaults to the fuel level reported with the position.' })),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

const StopOnPlan = Type.Object({
  kind: Type.Union(['rest', 'break', 'restart', 'fuel'].map((k) => Type.Literal(k))),
  location: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  startTime: Timestamp,
  durationHours: Type.Number(),
});
const TripPart = Type.Object({ distanceMiles: Type.Number(), driveHours: Type.Number(), arrivalTime: Timestamp, restStops: Type.Integer(), fuelStops: Type.Integer() });

export const ReplanChanges = Type.Object({
  stops: Type.Array(
    Type.Object({
      index: Type.Integer(),
      sequence: Type.Integer(),
      name: Type.String(),
      type: Type.String(),
      appointment: Appointment,
      oldArrivalTime: Timestamp,
      newArrivalTime: Timestamp,
      changeHours: Type.Number({ description: 'New ETA minus old, hours (positive: later)' }),
      oldWithinWindow: Type.Union([Type.Boolean(), Type.Null()]),
      newWithinWindow: Type.Union([Type.Boolean(), Type.Null()]),
      outcome: Type.Union([Type.Literal('KEPT'), Type.Literal('MISSED'), Type.Literal('NO_WINDOW')], { description: 'Whether the stop’s appointment is kept by the new plan' }),
    }),
    { description: 'Each remaining stop: its old and new ETA and whether its appointment is now kept or missed' },
  ),
  added: Type.Array(StopOnPlan, { description: 'Rests, breaks and fuel stops the new plan has that the old one did not (ahead of the truck)' }),
  removed: Type.Array(StopOnPlan, { description: 'Rests, breaks and fuel stops of the old plan (ahead of the truck) the new one no longer has' }),
  before: Type.Composite([TripPart], { description: 'The rest of the trip, from where the truck is, on the old plan' }),
  after: Type.Composite([TripPart], { description: 'The rest of the trip on the new plan' }),
});

export const ReplanAnswer = Type.Object({
  preview: Type.Boolean(),
  route: RoutePlan,
  changes: ReplanChanges,
  start: Type.Object({
    latitude: Type.Number(),
    longitude: Type.Number(),
    name: Type.String(),
    source: Type.Union([Type.Literal('POSITION'), Type.Literal('REQUEST')]),
    recordedAt: Timestamp,
    completedStops: Type.Integer({ description: 'Stops completed (kept as they were): the re-plan covers the others' }),
    offPlanMiles: Type.Number({ description: 'How far the start is from the old plan’s path' }),
    clocks: Type.Object({ source: Type.String({ description: 'LOG, or the ELD integration that reported them' }), hoursDriven: Type.Number(), onDutyHours: Type.Number(), hoursSinceBreak: Type.Number(), cycleHoursUsed: Type.Number() }),
  }),
});

export const RevisionItem = Type.Object({
  revision: Type.Integer({ minimum: 1 }),
  current: Type.Boolean(),
  createdAt: Timestamp,
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdByName: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  departureTime: Timestamp,
  arrivalTime: Timestamp,
  supersededAt: NullableTimestamp,
  summary: RouteSummary,
  stops: Type.Array(StopEtaSchema),
});
export const RevisionList = Type.Object({ data: Type.Array(RevisionItem, { description: 'Oldest first; the last is the current plan' }) });
