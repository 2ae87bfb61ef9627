import { Type } from '@sinclair/typebox';
import { NullableTimestamp, Timestamp } from '../../lib/schemas.js';

const ERROR_CODES = ['AUTH_FAILED', 'TIMEOUT', 'NOT_FOUND', 'RATE_LIMITED', 'VENDOR_ERROR', 'NETWORK_ERROR', 'INVALID_CONFIG'] as const;
const ErrorCode = Type.Unsafe<(typeof ERROR_CODES)[number]>({ type: 'string', enum: [...ERROR_CODES] });
const Category = Type.Unsafe<'ELD' | 'TMS' | 'FUEL' | 'WEATHER'>({ type: 'string', enum: ['ELD', 'TMS', 'FUEL', 'WEATHER'] });
const STATUSES = ['CONFIGURED', 'TESTING', 'ACTIVE', 'SYNCING', 'DISABLED', 'ERROR'] as const;
const Status = Type.Unsafe<(typeof STATUSES)[number]>({ type: 'string', enum: [...STATUSES] });

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Interval = Type.Integer({ minimum: 1, maximum: 10_080, description: 'Minutes between syncs (default: the vendor\'s)' });
/** Checked against the vendor's registry entry by the service (required, known keys); write-only. */
const Config = Type.Object({}, { additionalProperties: true, maxProperties: 32, description: 'Credentials and options per vendor (see the vendor registry): write-only, encrypted at rest, never returned' });

export const VendorInfoSchema = Type.Object({
  vendor: Type.String(),
  name: Type.String(),
  category: Category,
  description: Type.String(),
  requiredFields: Type.Array(Type.String()),
  optionalFields: Type.Array(Type.String()),
  defaultSyncInterval: Type.Integer(),
  documentationUrl: Type.Optional(Type.String()),
  secretFields: Type.Optional(Type.Array(Type.String(), { description: 'The config fields that hold credentials (a form shows them as passwords)' })),
});
export const VendorList = Type.Object({ data: Type.Array(VendorInfoSchema) });

export const CreateIntegrationBody = Type.Object(
  { vendor: Type.String({ minLength: 1, maxLength: 64 }), name: Name, config: Config, syncIntervalMinutes: Type.Optional(Interval) },
  { additionalProperties: false },
);

export const UpdateIntegrationBody = Type.Object(
  { name: Type.Optional(Name), syncIntervalMinutes: Type.Optional(Interval), config: Type.Optional(Config) },
  { additionalProperties: false, minProperties: 1 },
);

const Failure = Type.Object({ code: ErrorCode, details: Type.String() });

export const Integration = Type.Object({
  id: Type.String(),
  vendor: Type.String(),
  category: Category,
  name: Type.String(),
  status: Status,
  syncIntervalMinutes: Type.Integer(),
  lastSyncAt: NullableTimestamp,
  nextSyncAt: NullableTimestamp,
  syncStartedAt: NullableTimestamp,
  lastTest: Type.Union([Type.Object({ testResult: Type.String(), message: Type.String(), testedAt: Timestamp }), Type.Null()]),
  lastError: Type.Union([Type.Object({ code: ErrorCode, details: Type.String(), at: Timestamp }), Type.Null()]),
  lastSyncCounts: Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export const IntegrationList = Type.Object({ data: Type.Array(Integration) });

export const TestResult = Type.Object({
  id: Type.String(),
  testResult: Type.Unsafe<'SUCCESS' | 'FAILED'>({ type: 'string', enum: ['SUCCESS', 'FAILED'] }),
  message: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
  error: Type.Optional(Failure),
  testedAt: Timestamp,
});

/** A manual sync's answer (the spec: `any | manual sync → SYNCING`), whatever the integration's state. */
export const SyncAnswer = Type.Object(
  {
    id: Type.String(),
    status: Type.Literal('SYNCING'),
    syncStartedAt: Timestamp,
    message: Type.String(),
  },
  {
    description:
      'The sync started, or the one already under way. The integrations worker runs it after the answer: its outcome shows on the integration (ACTIVE or ERROR with lastError) and as integration.sync_completed or integration.sync_failed.',
  },
);

export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
