/** The schemas of a driver's hours that other modules' answers carry too (the Drivers list). */
import { Type } from '@sinclair/typebox';
import { NullableTimestamp } from '../../lib/schemas.js';

export const ClockSourceSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('ELD'), Type.Literal('LOG')], { description: "ELD: the clocks an ELD reported (run down since by the reported status); LOG: the driver's duty-status log replayed" }),
    vendor: Type.Union([Type.String(), Type.Null()], { description: 'the ELD vendor (samsara, motive); null for the log' }),
    name: Type.String({ description: 'as people say it: "Samsara", "the duty-status log"' }),
    syncedAt: NullableTimestamp,
  },
  { description: 'Where the clocks come from. Every screen, alert, plan and candidate uses these same clocks.' },
);

export const DisagreementSchema = Type.Union(
  [
    Type.Object({
      clocks: Type.Array(
        Type.Object({
          clock: Type.Union(['DRIVE', 'WINDOW', 'BREAK', 'CYCLE'].map((c) => Type.Literal(c))),
          eldHours: Type.Number({ description: "hours remaining by the ELD, in whole minutes as shown" }),
          logHours: Type.Number({ description: 'hours remaining by the log, in whole minutes as shown' }),
          differenceHours: Type.Number({ description: 'eldHours − logHours' }),
        }),
      ),
      message: Type.String(),
    }),
    Type.Null(),
  ],
  { description: "The remaining clocks on which the ELD and the duty-status log differ by more than 5 minutes; null when they agree or there is no ELD" },
);
