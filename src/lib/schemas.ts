import { Type, type TObject, type TSchema, type TString } from '@sinclair/typebox';

/** The spec's error body. `details` lists field problems on validation failures. */
export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    message: Type.String(),
    error: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String(),
          message: Type.String(),
          candidates: Type.Optional(
            Type.Array(Type.String(), {
              description: 'For a stop address: the places it may mean (a city name several places bear) or the closest known names (a near miss), best first',
            }),
          ),
          routeId: Type.Optional(Type.String({ description: 'The route the problem is about (a driver already on another ACTIVE route: that route)' })),
        }),
      ),
    ),
    requestId: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const Str = (max: number, opts: { min?: number; pattern?: string } = {}) =>
  Type.String({ minLength: opts.min ?? 1, maxLength: max, ...(opts.pattern ? { pattern: opts.pattern } : {}) });

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
export const Password = Type.String({ minLength: 8, maxLength: 256 });

export const IdParam = <K extends string>(name: K, prefix: string): TObject<Record<K, TString>> =>
  Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 64, pattern: `^${prefix}_[0-9A-Za-z]+$` }) } as Record<K, TString>, {
    additionalProperties: false,
  });

/** OpenAPI security requirement of routes that take a user access token or an API key. */
export const TENANT_SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKey: [] }];

/** The SSE stream's: also an API key in the query (`?apiKey=`), which EventSource needs. */
export const SSE_SECURITY: Array<Record<string, string[]>> = [...TENANT_SECURITY, { apiKeyQuery: [] }];

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
};

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() });

/** Action endpoints take no body: an absent or empty body, or {}; anything else is a 400. */
export const EmptyBody = Type.Union([Type.Object({}, { additionalProperties: false }), Type.Null()]);

/** Responses for errors every authenticated route can produce; merged into each route's schema. */
export const errorResponses = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ErrorBody]));
