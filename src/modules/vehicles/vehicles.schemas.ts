import { Type, type TSchema } from '@sinclair/typebox';
import { Page, PageQuery, Str, Timestamp } from '../../lib/schemas.js';

export const VEHICLE_STATUSES = ['ACTIVE', 'INACTIVE', 'IN_MAINTENANCE'] as const;
export const VehicleStatusSchema = Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE'), Type.Literal('IN_MAINTENANCE')]);
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

/** Earliest model year accepted; the latest (next calendar year) is checked by the service against its clock. */
export const MIN_MODEL_YEAR = 1980;

const fields = {
  unitNumber: Str(50, { pattern: '\\S' }),
  // 17 characters, no I, O or Q (ISO 3779); stored upper-case.
  vin: Type.String({ minLength: 17, maxLength: 17, pattern: '^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$', description: '17 characters, letters I, O and Q excluded' }),
  make: Type.String({ maxLength: 50 }),
  model: Type.String({ maxLength: 50 }),
  year: Type.Integer({ minimum: MIN_MODEL_YEAR, maximum: 9999, description: `Model year, ${MIN_MODEL_YEAR} to next year` }),
  licensePlate: Type.String({ maxLength: 20 }),
  fuelTankGallons: Type.Number({ minimum: 10, maximum: 400, description: 'Usable tank capacity in gallons (default 150)' }),
  mpg: Type.Number({ minimum: 2, maximum: 15, description: 'Average miles per gallon (default 6.5)' }),
  status: VehicleStatusSchema,
  eldExternalId: Type.String({ maxLength: 100, description: "The vehicle's identifier at the ELD provider" }),
};

export const CreateVehicleBody = Type.Object(
  {
    unitNumber: fields.unitNumber,
    vin: Type.Optional(Nullable(fields.vin)),
    make: Type.Optional(Nullable(fields.make)),
    model: Type.Optional(Nullable(fields.model)),
    year: Type.Optional(Nullable(fields.year)),
    licensePlate: Type.Optional(Nullable(fields.licensePlate)),
    fuelTankGallons: Type.Optional(fields.fuelTankGallons),
    mpg: Type.Optional(fields.mpg),
    status: Type.Optional(fields.status),
    eldExternalId: Type.Optional(Nullable(fields.eldExternalId)),
  },
  { additionalProperties: false },
);

export const UpdateVehicleBody = Type.Object(
  {
    unitNumber: Type.Optional(fields.unitNumber),
    vin: Type.Optional(Nullable(fields.vin)),
    make: Type.Optional(Nullable(fields.make)),
    model: Type.Optional(Nullable(fields.model)),
    year: Type.Optional(Nullable(fields.year)),
    licensePlate: Type.Optional(Nullable(fields.licensePlate)),
    fuelTankGallons: Type.Optional(fields.fuelTankGallons),
    mpg: Type.Optional(fields.mpg),
    status: Type.Optional(fields.status),
    eldExternalId: Type.Optional(Nullable(fields.eldExternalId)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Vehicle = Type.Object({
  id: Type.String(),
  unitNumber: Type.String(),
  vin: Nullable(Type.String()),
  make: Nullable(Type.String()),
  model: Nullable(Type.String()),
  year: Nullable(Type.Integer()),
  licensePlate: Nullable(Type.String()),
  fuelTankGallons: Type.Number(),
  mpg: Type.Number(),
  status: VehicleStatusSchema,
  eldExternalId: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const VehicleListQuery = Type.Object(
  {
    status: Type.Optional(VehicleStatusSchema),
    search: Type.Optional(Type.String({ maxLength: 100, description: 'Matches unit number, VIN, license plate, make or model' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const VehiclePage = Page(Vehicle);
