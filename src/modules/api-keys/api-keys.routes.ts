import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { EmptyBody, IdParam, NullableTimestamp, Page, PageQuery, Str, Timestamp, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { apiKeysService } from './api-keys.service.js';

const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
  environment: Type.String(),
  createdBy: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
});
const CreatedApiKey = Type.Composite([ApiKey, Type.Object({ key: Type.String({ description: 'The secret key; shown only in this response' }) })]);

export function apiKeysRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const keys = apiKeysService(deps);
  const tags = ['API keys'];
  const manage = { auth: 'tenant' as const, permission: 'api-keys:manage' as const };

  app.post(
    '/api/v1/api-keys',
    {
      config: { access: { ...manage, apiKey: false } },
      schema: {
        operationId: 'createApiKey',
        tags,
        summary: 'Create an API key (user access token only); the key is returned once',
        security: [{ bearerAuth: [] }],
        body: Type.Object({ name: Str(100) }, { additionalProperties: false }),
        response: { 201: CreatedApiKey, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      void reply.header('Cache-Control', 'no-store');
      return reply.status(201).send(await keys.create(tenantCtx(request), request.body.name));
    },
  );

  app.get(
    '/api/v1/api-keys',
    {
      config: { access: manage },
      schema: {
        operationId: 'listApiKeys',
        tags,
        summary: 'List API keys (never their secrets)',
        security: TENANT_SECURITY,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: Page(ApiKey), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => keys.list(tenantCtx(request), request.query.page ?? 1, request.query.pageSize ?? 20),
  );

  app.delete(
    '/api/v1/api-keys/:id',
    {
      config: { access: manage },
      schema: {
        operationId: 'revokeApiKey',
        tags,
        summary: 'Revoke an API key; requests with it answer 401 from now on',
        security: TENANT_SECURITY,
        params: IdParam('id', 'key'),
        body: EmptyBody,
        response: { 200: ApiKey, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => keys.revoke(tenantCtx(request), request.params.id),
  );
}
