import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { EmptyBody, IdParam, Page, PageQuery, Str, errorResponses } from '../../lib/schemas.js';
import { platformCtx } from '../../plugins/context.js';
import { AdminTenant, TenantStatusSchema } from '../tenants/tenants.schemas.js';
import { adminService } from './admin.service.js';

const ReasonBody = Type.Union([Type.Object({ reason: Type.Optional(Str(1000)) }, { additionalProperties: false }), Type.Null()]);

export function adminRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const admin = adminService(deps);
  const base = { tags: ['Platform administration'], security: [{ bearerAuth: [] }] };
  const access = { access: { auth: 'platform' as const } };
  const params = IdParam('id', 'tnt');

  app.get(
    '/api/v1/admin/tenants',
    {
      config: access,
      schema: {
        operationId: 'listTenants',
        ...base,
        summary: 'List tenants, optionally by status',
        querystring: Type.Object({ status: Type.Optional(TenantStatusSchema), ...PageQuery }, { additionalProperties: false }),
        response: { 200: Page(AdminTenant), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      platformCtx(request);
      const q = request.query;
      return admin.list(q.status as never, q.page ?? 1, q.pageSize ?? 20);
    },
  );

  for (const action of ['approve', 'reject', 'suspend', 'reactivate'] as const) {
    app.post(
      `/api/v1/admin/tenants/:id/${action}`,
      {
        config: access,
        schema: {
          ...base,
          operationId: `${action}Tenant`,
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} a tenant`,
          params,
          body: action === 'reject' || action === 'suspend' ? ReasonBody : EmptyBody,
          response: { 200: AdminTenant, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const body = request.body as { reason?: string } | null | undefined;
        return admin.transition(platformCtx(request), request.params.id, action, body?.reason);
      },
    );
  }
}
