import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { EmptyBody, IdParam, NullableTimestamp, Page, PageQuery, Str, Timestamp, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { TENANT_ROLES } from '../../plugins/policies.js';
import { usersService } from './users.service.js';

export const RoleSchema = Type.Union(TENANT_ROLES.map((r) => Type.Literal(r)));

const User = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  tenantId: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: RoleSchema,
  status: Type.String(),
  driverId: Type.Union([Type.String(), Type.Null()]),
  lastLoginAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deactivatedAt: NullableTimestamp,
});

export function usersRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const users = usersService(deps);
  const tags = ['Users'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'users:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'users:write' as const } };
  const params = IdParam('id', 'usr');

  app.get(
    '/api/v1/users',
    { config: read, schema: { operationId: 'listUsers', tags, security, summary: "List the organization's users", querystring: Type.Object(PageQuery, { additionalProperties: false }), response: { 200: Page(User), ...errorResponses(400, 401, 403, 429) } } },
    async (request) => users.list(tenantCtx(request), request.query.page ?? 1, request.query.pageSize ?? 20),
  );

  app.get(
    '/api/v1/users/:id',
    { config: read, schema: { operationId: 'getUser', tags, security, summary: 'Get a user', params, response: { 200: User, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => users.get(tenantCtx(request), request.params.id),
  );

  app.put(
    '/api/v1/users/:id',
    {
      config: write,
      schema: {
        operationId: 'updateUser',
        tags,
        security,
        summary: "Change a user's role or name",
        params,
        body: Type.Object({ role: Type.Optional(RoleSchema), firstName: Type.Optional(Str(100)), lastName: Type.Optional(Str(100)) }, { additionalProperties: false, minProperties: 1 }),
        response: { 200: User, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => users.update(tenantCtx(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/users/:id',
    { config: write, schema: { operationId: 'deactivateUser', tags, security, summary: 'Deactivate a user: sessions end, API keys stop working', params, body: EmptyBody, response: { 200: User, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => users.deactivate(tenantCtx(request), request.params.id),
  );
}
