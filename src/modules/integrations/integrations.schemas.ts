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

export const SyncStarted = Type.Object(
  {
    id: Type.String(),
    status: Type.Literal('SYNCING'),
    syncStartedAt: Timestamp,
    message: Type.String(),
    connectionTest: Type.Optional(TestResult),
  },
  {
    description:
      'The sync started, or one already under way (the integrations worker runs it). connectionTest: the passing connection test the sync ran first, present only when the integration had not passed one (CONFIGURED, or DISABLED without a passing test).',
  },
);

export const SyncNotStarted = Type.Object(
  {
    id: Type.String(),
    status: Type.Unsafe<'ERROR' | 'DISABLED'>({ type: 'string', enum: ['ERROR', 'DISABLED'] }),
    message: Type.String(),
    error: Failure,
    connectionTest: TestResult,
  },
  {
    description:
      "The connection test the sync ran first failed (connectionTest.testResult FAILED, as POST …/test answers it): no sync started. status is the integration's status now: ERROR, or DISABLED for a DISABLED integration (it stays paused). error is the test's error, also the integration's lastError. Like a failed test, this is a 200, not an HTTP error.",
  },
);

/** A manual sync's answer: SYNCING, or the failed connection test that kept it from starting. */
export const SyncAnswer = Type.Union([SyncStarted, SyncNotStarted]);

export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
