import { Type, type TSchema } from '@sinclair/typebox';
import { Page, PageQuery, Str, Timestamp } from '../../lib/schemas.js';

export const LOCATION_TYPES = ['TRUCK_STOP', 'REST_AREA', 'CUSTOMER', 'YARD', 'FUEL_STATION'] as const;
export const LocationTypeSchema = Type.Union([
  Type.Literal('TRUCK_STOP'),
  Type.Literal('REST_AREA'),
  Type.Literal('CUSTOMER'),
  Type.Literal('YARD'),
  Type.Literal('FUEL_STATION'),
]);
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

export const MAX_FUEL_DISCOUNT = 2;
export const MAX_RADIUS_MILES = 500;
export const DEFAULT_RADIUS_MILES = 50;
/** Import limits: rows after the header, and bytes of CSV text. */
export const MAX_IMPORT_ROWS = 5000;
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;

export const FIELD_LIMITS = { name: 200, address: 300, externalId: 100 } as const;

const fields = {
  name: Str(FIELD_LIMITS.name, { pattern: '\\S' }),
  address: Type.String({ maxLength: FIELD_LIMITS.address }),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  fuelDiscountPerGallon: Type.Number({ minimum: 0, maximum: MAX_FUEL_DISCOUNT, description: 'Negotiated discount in dollars per gallon' }),
  externalId: Type.String({ maxLength: FIELD_LIMITS.externalId, description: 'Your identifier for the place; unique in the organization; the CSV import updates by it' }),
};

const AmenitiesInput = Type.Object(
  { parking: Type.Optional(Type.Boolean()), showers: Type.Optional(Type.Boolean()), diesel: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const CreateLocationBody = Type.Object(
  {
    name: fields.name,
    type: LocationTypeSchema,
    address: Type.Optional(Nullable(fields.address)),
    latitude: fields.latitude,
    longitude: fields.longitude,
    amenities: Type.Optional(AmenitiesInput),
    fuelDiscountPerGallon: Type.Optional(Nullable(fields.fuelDiscountPerGallon)),
    externalId: Type.Optional(Nullable(fields.externalId)),
  },
  { additionalProperties: false },
);

export const UpdateLocationBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    type: Type.Optional(LocationTypeSchema),
    address: Type.Optional(Nullable(fields.address)),
    latitude: Type.Optional(fields.latitude),
    longitude: Type.Optional(fields.longitude),
    amenities: Type.Optional(AmenitiesInput),
    fuelDiscountPerGallon: Type.Optional(Nullable(fields.fuelDiscountPerGallon)),
    externalId: Type.Optional(Nullable(fields.externalId)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Location = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: LocationTypeSchema,
  address: Nullable(Type.String()),
  latitude: Type.Number(),
  longitude: Type.Number(),
  amenities: Type.Object({ parking: Type.Boolean(), showers: Type.Boolean(), diesel: Type.Boolean() }),
  fuelDiscountPerGallon: Nullable(Type.Number()),
  externalId: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const LocationListItem = Type.Composite([
  Location,
  Type.Object({ distanceMiles: Type.Optional(Type.Number({ description: 'Great-circle distance from `near`; present only when `near` is given' })) }),
]);

export const LocationListQuery = Type.Object(
  {
    type: Type.Optional(LocationTypeSchema),
    search: Type.Optional(Type.String({ maxLength: 100, description: 'Matches name or address' })),
    near: Type.Optional(
      Type.String({
        maxLength: 60,
        pattern: '^\\s*[-+]?[0-9]+(\\.[0-9]+)?\\s*,\\s*[-+]?[0-9]+(\\.[0-9]+)?\\s*$',
        description: '"latitude,longitude": only places within radiusMiles of this point, nearest first, each with distanceMiles',
      }),
    ),
    radiusMiles: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_MILES, description: `With near; default ${DEFAULT_RADIUS_MILES}` })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const LocationPage = Page(LocationListItem);

export const ImportCsvBody = Type.String({
  maxLength: MAX_IMPORT_BYTES,
  description:
    `CSV text (Content-Type: text/csv) with a header row naming the columns: name, type, latitude, longitude (required) and address, parking, showers, ` +
    `diesel, fuelDiscountPerGallon, externalId (optional), in any order. At most ${MAX_IMPORT_ROWS} data rows. Booleans: true/false, yes/no, y/n, 1/0 or empty (false).`,
});

export const ImportResult = Type.Object({
  imported: Type.Integer({ description: 'Rows that created a location' }),
  updated: Type.Integer({ description: 'Rows whose externalId matched an existing location, which they replaced' }),
  errors: Type.Array(Type.Object({ row: Type.Integer(), field: Type.String(), message: Type.String() }), { description: 'Always empty on success' }),
});

/** The error body of the import: like every error body, with the row (header = row 1) on each detail. */
export const ImportErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    message: Type.String(),
    error: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ row: Type.Optional(Type.Integer()), field: Type.String(), message: Type.String() }))),
    requestId: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
