import { Type, type TSchema } from '@sinclair/typebox';
import { ALERT_TYPES } from '../../domain/alerts/types.js';
import { NullableTimestamp, Page, PageQuery, Str, Timestamp } from '../../lib/schemas.js';
import { MAX_SNOOZE_MINUTES } from './alerts.service.js';

export const ALERT_STATUSES = ['ACTIVE', 'ACKNOWLEDGED', 'SNOOZED', 'RESOLVED'] as const;
export const ALERT_CATEGORIES = ['HOS_VIOLATION', 'ROUTE_DEVIATION', 'WEATHER', 'MECHANICAL', 'SCHEDULING', 'SYSTEM'] as const;
export const ALERT_PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export const ALERT_TYPE_NAMES = Object.keys(ALERT_TYPES) as (keyof typeof ALERT_TYPES)[];
/** The filter alias (DESIGN §4): HOS_APPROACHING_DRIVE_LIMIT, _DUTY_LIMIT, _CYCLE_LIMIT and HOS_BREAK_REQUIRED. */
export const HOS_APPROACHING_LIMIT = 'HOS_APPROACHING_LIMIT';

const literals = (values: readonly string[], description?: string) =>
  Type.Union(values.map((v) => Type.Literal(v)), description ? { description } : {});
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const NullableString = Nullable(Type.String());
const Minutes = Type.Number({ description: 'minutes, rounded to 2 decimals' });
const NullableMinutes = Type.Union([Minutes, Type.Null()], { description: 'minutes, rounded to 2 decimals; null when there is nothing to average' });

/** Counts keyed by every known value (0 included). */
const CountsBy = (values: readonly string[]) => Type.Object(Object.fromEntries(values.map((v) => [v, Type.Integer({ minimum: 0 })])));

export const AlertIdParam = Type.Object({ alertId: Type.String({ minLength: 1, maxLength: 64, pattern: '^alt_[0-9A-Za-z]+$' }) }, { additionalProperties: false });

export const Alert = Type.Object({
  id: Type.String({ description: 'prefix alt_' }),
  type: literals(ALERT_TYPE_NAMES, 'one of the 20 alert types (src/domain/alerts/README.md)'),
  category: literals(ALERT_CATEGORIES),
  priority: literals(ALERT_PRIORITIES),
  status: literals(ALERT_STATUSES),
  title: Type.String(),
  message: Type.String(),
  driverId: NullableString,
  driverName: NullableString,
  vehicleId: NullableString,
  vehicleUnit: NullableString,
  routePlanId: NullableString,
  metadata: Type.Object({}, { additionalProperties: true, description: 'the facts behind the alert (type-specific), e.g. driveTimeRemaining, recommendedAction' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  acknowledgedBy: Type.Union([Type.String(), Type.Null()], { description: 'user id' }),
  acknowledgedAt: NullableTimestamp,
  snoozedBy: NullableString,
  snoozedUntil: Type.Union([Timestamp, Type.Null()], { description: 'set while SNOOZED' }),
  resolvedBy: Type.Union([Type.String(), Type.Null()], { description: 'user id, or "system" when monitoring resolved it (condition cleared, route completed or cancelled)' }),
  resolvedAt: NullableTimestamp,
  resolution: NullableString,
});

export const AlertNote = Type.Object({ id: Type.String({ description: 'prefix note_' }), alertId: Type.String(), authorId: Type.String(), text: Type.String(), createdAt: Timestamp });
export const AlertWithNotes = Type.Composite([Alert, Type.Object({ notes: Type.Array(AlertNote, { description: 'oldest first' }) })]);
export const AlertPage = Page(Alert);
export const AlertNotePage = Page(AlertNote);

const enumList = (what: string, values: readonly string[]) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 30 })], {
    description: `One ${what} or several, comma-separated (or the parameter repeated): ${values.join(', ')}. An unknown value is a 400.`,
  });

const Range = {
  from: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive lower bound of createdAt' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive upper bound of createdAt' })),
};

export const AlertListQuery = Type.Object(
  {
    status: Type.Optional(enumList('status', ALERT_STATUSES)),
    type: Type.Optional(enumList('type', [...ALERT_TYPE_NAMES, `${HOS_APPROACHING_LIMIT} (= HOS_APPROACHING_DRIVE_LIMIT, _DUTY_LIMIT, _CYCLE_LIMIT and HOS_BREAK_REQUIRED)`])),
    category: Type.Optional(enumList('category', ALERT_CATEGORIES)),
    priority: Type.Optional(enumList('priority', ALERT_PRIORITIES)),
    driverId: Type.Optional(Str(64, { pattern: '^drv_[0-9A-Za-z]+$' })),
    routePlanId: Type.Optional(Str(64, { pattern: '^rte_[0-9A-Za-z]+$' })),
    sort: Type.Optional(
      Type.Union([Type.Literal('newest'), Type.Literal('priority')], {
        description: 'newest (default): newest first; priority: CRITICAL first, then HIGH, MEDIUM, LOW, each newest first (what a dispatcher handles first)',
      }),
    ),
    ...Range,
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const NotesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const AcknowledgeBody = Nullable(Type.Object({ note: Type.Optional(Type.String({ maxLength: 2000, description: 'kept as a note on the alert' })) }, { additionalProperties: false }));
export const ResolveBody = Nullable(Type.Object({ resolution: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false }));
export const SnoozeBody = Type.Object(
  { minutes: Type.Integer({ minimum: 1, maximum: MAX_SNOOZE_MINUTES, description: `1 to ${MAX_SNOOZE_MINUTES} (a week)` }) },
  { additionalProperties: false },
);
export const NoteBody = Type.Object({ text: Type.String({ minLength: 1, maxLength: 4000 }) }, { additionalProperties: false });

// ---------------------------------------------------------------------------------------------
// Statistics and analytics.

export const StatsQuery = Type.Object(Range, { additionalProperties: false });

export const AlertStats = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  byStatus: CountsBy(ALERT_STATUSES),
  byCategory: CountsBy(ALERT_CATEGORIES),
  byPriority: CountsBy(ALERT_PRIORITIES),
  hos: Type.Object(
    {
      violations: Type.Integer({ minimum: 0, description: 'HOS_VIOLATION alerts: a driver drove past a limit' }),
      limitsReached: Type.Integer({ minimum: 0, description: 'limit alerts whose limit was reached (no time left; metadata.limitReached), not a violation unless the driver drives on' }),
      approaching: Type.Integer({ minimum: 0, description: 'limit alerts that only approached a limit' }),
    },
    { description: "byCategory.HOS_VIOLATION split: the category holds every hours-of-service alert, most of them warnings, not violations" },
  ),
  averageResponseTimeMinutes: Type.Union([Minutes, Type.Null()], { description: 'createdAt → acknowledgedAt over the acknowledged alerts; null when none was acknowledged' }),
  averageResolutionTimeMinutes: Type.Union([Minutes, Type.Null()], { description: 'createdAt → resolvedAt over the resolved alerts (by people or by the system); null when none was resolved' }),
});

const Interval = Type.Union([Type.Literal('hour'), Type.Literal('day')], { description: 'bucket width, UTC (default day)' });
const AnalyticsRange = {
  from: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive; default: `to` minus 7 days' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive; default: now' })),
};
export const AnalyticsQuery = Type.Object({ ...AnalyticsRange, interval: Type.Optional(Interval) }, { additionalProperties: false });
export const TopTypesQuery = Type.Object(
  { ...AnalyticsRange, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10, description: 'how many types (default 10)' })) },
  { additionalProperties: false },
);

const Window = {
  from: Timestamp,
  to: Timestamp,
};
const BucketWindow = {
  start: Type.String({ format: 'date-time', description: 'bucket start (UTC, aligned to the interval); the first and last buckets are clipped to from/to' }),
  end: Timestamp,
};
const Rate = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'resolved / created, 4 decimals; null when nothing was created' });

export const VolumeReport = Type.Object({
  ...Window,
  interval: Interval,
  total: Type.Integer({ minimum: 0 }),
  buckets: Type.Array(
    Type.Object({ ...BucketWindow, total: Type.Integer({ minimum: 0 }), byPriority: CountsBy(ALERT_PRIORITIES), byCategory: CountsBy(ALERT_CATEGORIES) }),
    { description: 'every bucket of the range, oldest first, zeros included; alerts by createdAt' },
  ),
});

const ResponseFigures = {
  count: Type.Integer({ minimum: 0, description: 'acknowledged alerts' }),
  averageMinutes: NullableMinutes,
  p90Minutes: Type.Union([Minutes, Type.Null()], { description: '90th percentile (continuous, interpolated); null when none' }),
};
export const ResponseTimeReport = Type.Object({
  ...Window,
  interval: Interval,
  overall: Type.Object(ResponseFigures),
  byPriority: Type.Object(
    Object.fromEntries(ALERT_PRIORITIES.map((p) => [p, Type.Object({
        ...ResponseFigures,
        targetMinutes: Type.Union([Type.Integer(), Type.Null()], { description: 'the spec\u2019s response guidance: CRITICAL 5, HIGH 15, MEDIUM 60; LOW none (next check-in)' }),
        withinTarget: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'acknowledged within the target; null for LOW' }),
      })])),
  ),
  buckets: Type.Array(Type.Object({ ...BucketWindow, ...ResponseFigures }), {
    description: 'every bucket, alerts by createdAt; the minutes from createdAt to acknowledgedAt of those acknowledged',
  }),
});

const ResolutionFigures = {
  created: Type.Integer({ minimum: 0 }),
  resolved: Type.Integer({ minimum: 0, description: 'of those created, how many are resolved now' }),
  resolutionRate: Rate,
  averageResolutionMinutes: NullableMinutes,
};
export const ResolutionReport = Type.Object({
  ...Window,
  interval: Interval,
  totals: Type.Object({
    ...ResolutionFigures,
    open: Type.Integer({ minimum: 0, description: 'created in the range and not resolved' }),
    resolvedBySystem: Type.Integer({ minimum: 0, description: 'auto-resolved by monitoring (resolvedBy "system")' }),
    resolvedByUsers: Type.Integer({ minimum: 0 }),
  }),
  buckets: Type.Array(Type.Object({ ...BucketWindow, ...ResolutionFigures }), { description: 'every bucket, alerts by createdAt (cohorts)' }),
});

export const TopTypesReport = Type.Object({
  ...Window,
  total: Type.Integer({ minimum: 0, description: 'alerts created in the range' }),
  data: Type.Array(
    Type.Object({
      type: literals(ALERT_TYPE_NAMES),
      category: literals(ALERT_CATEGORIES),
      count: Type.Integer({ minimum: 1 }),
      share: Type.Number({ minimum: 0, maximum: 1, description: 'count / total, 4 decimals' }),
      resolved: Type.Integer({ minimum: 0 }),
      averageResolutionMinutes: NullableMinutes,
    }),
    { description: 'most common first (ties by type name)' },
  ),
});
