import { Type } from '@sinclair/typebox';
import { Email, NullableTimestamp, Page, PageQuery, Str, Timestamp } from '../../lib/schemas.js';
import { LICENSE_REGIONS } from '../../lib/regions.js';

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
  },
  {
    additionalProperties: false,
    examples: [{ firstName: 'Dana', lastName: 'Rivera', licenseNumber: 'D1234567', licenseState: 'TX', truckNumber: 'T-104', phoneNumber: '+1 214 555 0142', email: 'dana.rivera@lonestarfreight.example' }],
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
});

export const DriverListItem = Type.Pick(Driver, [
  'id', 'firstName', 'lastName', 'licenseNumber', 'licenseState', 'truckNumber', 'status', 'currentHoursDriven', 'currentOnDutyTime',
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
