import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { RegisterBody, RegisterResponse, TenantProfile } from './tenants.schemas.js';
import { tenantsService } from './tenants.service.js';

export function tenantsRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tenants = tenantsService(deps);

  app.post(
    '/api/v1/tenants/register',
    {
      config: { access: { auth: 'public' } },
      schema: {
        operationId: 'registerTenant',
        tags: ['Tenant'],
        summary: 'Register an organization (tenant) and its OWNER user; the tenant awaits approval',
        body: RegisterBody,
        response: { 201: RegisterResponse, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(await tenants.register(request.body)),
  );

  app.get(
    '/api/v1/tenant',
    {
      config: { access: { auth: 'tenant', permission: 'tenant:read', allowPending: true } },
      schema: { operationId: 'getTenant', tags: ['Tenant'], summary: "The caller's tenant", security: TENANT_SECURITY, response: { 200: TenantProfile, ...errorResponses(401, 403) } },
    },
    async (request) => tenants.get(tenantCtx(request)),
  );
}
