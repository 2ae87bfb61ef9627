import { Type } from '@sinclair/typebox';
import { Email, NullableTimestamp, Page, PageQuery, Str, Timestamp } from '../../lib/schemas.js';
import { LICENSE_REGIONS } from '../../lib/regions.js';
import { ClockSourceSchema, DisagreementSchema } from '../hos/hos.schemas.js';

export const DriverStatusSchema = Type.Union([Type.Literal('PENDING'), Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]);
const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

const fields = {
  firstName: Str(100),
  lastName: Str(100),
  licenseNumber: Str(25, { pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$' }),
  licenseState: Type.String({ minLength: 2, maxLength: 2, pattern: '^[A-Za-z]{2}$', description: `Two-letter state or province code: ${LICENSE_REGIONS.join(', ')}` }),
  truckNumber: Type.String({ maxLength: 50 }),
  phoneNumber: Type.String({ maxLength: 40, pattern: '^[+0-9 ().x-]*$' }),
  email: Type.Union([Email, Type.Literal('')]),
  externalId: Type.String({ maxLength: 100, description: "The driver's id in the fleet's ELD or payroll system: ELD syncs match drivers by it first, then by license number" }),
};

const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });

export const HomeTerminalInput = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, description: 'Default: the place the address or coordinates resolve to ("Dallas, TX")' })),
    address: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'A US, Canadian or Mexican city and state/province or a ZIP code, geocoded offline. Give address or latitude and longitude.' })),
    latitude: Type.Optional(Latitude),
    longitude: Type.Optional(Longitude),
  },
  {
    additionalProperties: false,
    description: 'The terminal or yard the driver is based at: dispatch candidates start an idle driver there when nothing newer is known about where they are.',
    examples: [{ name: 'Dallas yard', address: 'Dallas, TX' }],
  },
);

export const HomeTerminal = Type.Object({
  name: Type.String(),
  address: Type.Union([Type.String(), Type.Null()]),
  latitude: Type.Number(),
  longitude: Type.Number(),
  timeZone: Type.String({ description: 'The IANA time zone at the terminal ("America/Chicago")' }),
});

export const KnownLocation = Type.Object(
  {
    latitude: Type.Number(),
    longitude: Type.Number(),
    name: Type.String({ description: 'The nearest known place ("near Dallas, TX"), or the stop of the route that ended there' }),
    recordedAt: Timestamp,
    timeZone: Type.String({ description: 'The IANA time zone there (to show recordedAt in local time)' }),
    source: Type.Union([Type.Literal('POSITION'), Type.Literal('LOCATION_REPORT'), Type.Literal('DUTY_STATUS'), Type.Literal('LAST_ROUTE')], {
      description:
        'POSITION: a position of a route they drove; LOCATION_REPORT: POST /drivers/{id}/location; DUTY_STATUS: a duty-status change with coordinates; LAST_ROUTE: where their last completed route ended',
    }),
    routeId: Type.Union([Type.String(), Type.Null()]),
  },
  { description: 'The newest of everything that says where the driver was' },
);

export const ReportLocationBody = Type.Object(
  {
    latitude: Latitude,
    longitude: Longitude,
    recordedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the driver was there. Default: now. A report older than the location kept does not replace it.' })),
  },
  { additionalProperties: false, examples: [{ latitude: 32.7767, longitude: -96.797, recordedAt: '2026-11-29T14:05:00Z' }] },
);

export const LocationReported = Type.Object({
  driverId: Type.String(),
  accepted: Type.Boolean({ description: 'false when a newer location was already known (the report is not kept)' }),
  lastKnownLocation: KnownLocation,
});

export const CreateDriverBody = Type.Object(
  {
    firstName: fields.firstName,
    lastName: fields.lastName,
    licenseNumber: fields.licenseNumber,
    licenseState: fields.licenseState,
    truckNumber: Type.Optional(fields.truckNumber),
    phoneNumber: Type.Optional(fields.phoneNumber),
    email: Type.Optional(fields.email),
    externalId: Type.Optional(fields.externalId),
    homeTerminal: Type.Optional(HomeTerminalInput),
  },
  {
    additionalProperties: false,
    examples: [
      {
        firstName: 'Dana',
        lastName: 'Rivera',
        licenseNumber: 'D1234567',
        licenseState: 'TX',
        truckNumber: 'T-104',
        phoneNumber: '+1 214 555 0142',
        email: 'dana.rivera@lonestarfreight.example',
        homeTerminal: { name: 'Dallas yard', address: 'Dallas, TX' },
      },
    ],
  },
);

export const UpdateDriverBody = Type.Object(
  {
    firstName: Type.Optional(fields.firstName),
    lastName: Type.Optional(fields.lastName),
    licenseNumber: Type.Optional(fields.licenseNumber),
    licenseState: Type.Optional(fields.licenseState),
    truckNumber: Type.Optional(Nullable(fields.truckNumber)),
    phoneNumber: Type.Optional(Nullable(fields.phoneNumber)),
    email: Type.Optional(Type.Union([fields.email, Type.Null()])),
    externalId: Type.Optional(Nullable(fields.externalId)),
    homeTerminal: Type.Optional(Type.Union([HomeTerminalInput, Type.Null()], { description: 'null removes it' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Driver = Type.Object({
  id: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  licenseNumber: Type.String(),
  licenseState: Type.String(),
  truckNumber: Type.Union([Type.String(), Type.Null()]),
  phoneNumber: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  externalId: Type.Union([Type.String(), Type.Null()]),
  status: DriverStatusSchema,
  userId: Type.Union([Type.String(), Type.Null()]),
  currentHoursDriven: Type.Number(),
  currentOnDutyTime: Type.Number(),
  currentCycleUsed: Type.Number(),
  lastRestartDate: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deactivatedAt: NullableTimestamp,
  reactivatedAt: NullableTimestamp,
  homeTerminal: Type.Union([HomeTerminal, Type.Null()]),
  lastKnownLocation: Type.Union([KnownLocation, Type.Null()], { description: 'Where the driver was last known to be (GET of one driver; null on create)' }),
});

export const DriverListItem = Type.Composite([
  Type.Pick(Driver, ['id', 'firstName', 'lastName', 'licenseNumber', 'licenseState', 'truckNumber', 'status', 'currentHoursDriven', 'currentOnDutyTime']),
  Type.Object(
    {
      driveTimeRemaining: Type.Number({ description: 'hours of driving left, as GET /drivers/{id}/hos says' }),
      dutyTimeRemaining: Type.Number({ description: 'hours left in the duty window, as GET /drivers/{id}/hos says' }),
      currentDutyStatus: Type.String(),
      clockSource: ClockSourceSchema,
      disagreement: DisagreementSchema,
    },
    { description: "The driver's hours now: the same clocks, source and disagreement as GET /drivers/{id}/hos (currentHoursDriven and currentOnDutyTime too)" },
  ),
]);

export const DriverUpdated = Type.Pick(Driver, [
  'id', 'firstName', 'lastName', 'licenseNumber', 'licenseState', 'truckNumber', 'phoneNumber', 'email', 'status', 'updatedAt',
]);

export const DriverDeactivated = Type.Object({ id: Type.String(), firstName: Type.String(), lastName: Type.String(), status: DriverStatusSchema, deactivatedAt: Timestamp });
export const DriverReactivated = Type.Object({ id: Type.String(), firstName: Type.String(), lastName: Type.String(), status: DriverStatusSchema, reactivatedAt: Timestamp });

export const DriverListQuery = Type.Object(
  { status: Type.Optional(DriverStatusSchema), search: Type.Optional(Type.String({ maxLength: 100 })), ...PageQuery },
  { additionalProperties: false },
);

export const DriverPage = Page(DriverListItem);
