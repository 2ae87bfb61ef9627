import { Type, type TSchema } from '@sinclair/typebox';
import { NullableTimestamp, Page, PageQuery, Str, Timestamp } from '../../lib/schemas.js';

export const LoadStatusSchema = Type.Union([
  Type.Literal('PENDING'),
  Type.Literal('ASSIGNED'),
  Type.Literal('IN_TRANSIT'),
  Type.Literal('DELIVERED'),
  Type.Literal('CANCELLED'),
]);
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

export const MAX_LOAD_WEIGHT_POUNDS = 200_000;

const fields = {
  referenceNumber: Str(50, { pattern: '\\S' }),
  customer: Type.String({ maxLength: 200 }),
  originAddress: Type.String({ maxLength: 300 }),
  destinationAddress: Type.String({ maxLength: 300 }),
  scheduledPickup: Type.String({ format: 'date-time', maxLength: 40, description: 'ISO 8601 timestamp with offset' }),
  scheduledDelivery: Type.String({ format: 'date-time', maxLength: 40, description: 'ISO 8601 timestamp with offset; not before scheduledPickup' }),
  weight: Type.Number({ minimum: 0, maximum: MAX_LOAD_WEIGHT_POUNDS, description: 'Pounds' }),
  commodity: Type.String({ maxLength: 200 }),
  externalId: Type.String({ maxLength: 100, description: 'Your own identifier for the load (unique among manually created loads)' }),
};

const optionalFields = {
  customer: Type.Optional(Nullable(fields.customer)),
  originAddress: Type.Optional(Nullable(fields.originAddress)),
  destinationAddress: Type.Optional(Nullable(fields.destinationAddress)),
  scheduledPickup: Type.Optional(Nullable(fields.scheduledPickup)),
  scheduledDelivery: Type.Optional(Nullable(fields.scheduledDelivery)),
  weight: Type.Optional(Nullable(fields.weight)),
  commodity: Type.Optional(Nullable(fields.commodity)),
  externalId: Type.Optional(Nullable(fields.externalId)),
};

/** New loads start PENDING with source MANUAL; status changes go through POST /loads/{id}/status. */
export const CreateLoadBody = Type.Object({ referenceNumber: fields.referenceNumber, ...optionalFields }, { additionalProperties: false });

export const UpdateLoadBody = Type.Object(
  { referenceNumber: Type.Optional(fields.referenceNumber), ...optionalFields },
  { additionalProperties: false, minProperties: 1 },
);

export const ChangeLoadStatusBody = Type.Object(
  {
    status: LoadStatusSchema,
    note: Type.Optional(Type.String({ maxLength: 500, description: 'Carried in the load.status_changed event' })),
  },
  { additionalProperties: false },
);

export const Load = Type.Object({
  id: Type.String(),
  referenceNumber: Type.String(),
  customer: Nullable(Type.String()),
  originAddress: Nullable(Type.String()),
  destinationAddress: Nullable(Type.String()),
  scheduledPickup: NullableTimestamp,
  scheduledDelivery: NullableTimestamp,
  weight: Nullable(Type.Number()),
  commodity: Nullable(Type.String()),
  status: LoadStatusSchema,
  source: Type.String({ description: 'MANUAL, or the key of the integration vendor that synced the load' }),
  externalId: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  originTimeZone: Nullable(Type.String({ description: 'The IANA zone of the origin address (the pickup time is read on its clocks); null when the address is not known' })),
  destinationTimeZone: Nullable(Type.String({ description: 'The IANA zone of the destination address (the delivery time is read on its clocks); null when the address is not known' })),
});

export const LoadListQuery = Type.Object(
  {
    status: Type.Optional(LoadStatusSchema),
    search: Type.Optional(Type.String({ maxLength: 100, description: 'Matches reference number or customer' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const LoadPage = Page(Load);
