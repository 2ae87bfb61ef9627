import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { Email, EmptyBody, IdParam, NullableTimestamp, Page, PageQuery, Password, Str, Timestamp, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { authService } from '../auth/auth.service.js';
import { sendSession } from '../auth/auth.routes.js';
import { RoleSchema } from '../users/users.routes.js';
import { invitationsService } from './invitations.service.js';

const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  driverId: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({ description: 'PENDING, ACCEPTED, REVOKED or EXPIRED' }),
  invitedBy: Type.String(),
  expiresAt: Timestamp,
  createdAt: Timestamp,
  acceptedAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
});

export function invitationsRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const invitations = invitationsService(deps, authService(deps));
  const tags = ['Users'];
  const security = TENANT_SECURITY;

  app.post(
    '/api/v1/user-invitations',
    {
      config: { access: { auth: 'tenant', permission: 'invitations:write' } },
      schema: {
        operationId: 'createInvitation',
        tags,
        security,
        summary: 'Invite a user by e-mail (expires in 7 days); a DRIVER invitation may link a driver profile',
        body: Type.Object(
          {
            email: Email,
            role: RoleSchema,
            firstName: Type.Optional(Str(100)),
            lastName: Type.Optional(Str(100)),
            driverId: Type.Optional(Str(64, { pattern: '^drv_[0-9A-Za-z]+$' })),
          },
          { additionalProperties: false },
        ),
        response: { 201: Invitation, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(await invitations.create(tenantCtx(request), request.body)),
  );

  app.get(
    '/api/v1/user-invitations',
    {
      config: { access: { auth: 'tenant', permission: 'invitations:read' } },
      schema: { operationId: 'listInvitations', tags, security, summary: 'List invitations', querystring: Type.Object(PageQuery, { additionalProperties: false }), response: { 200: Page(Invitation), ...errorResponses(400, 401, 403, 429) } },
    },
    async (request) => invitations.list(tenantCtx(request), request.query.page ?? 1, request.query.pageSize ?? 20),
  );

  app.delete(
    '/api/v1/user-invitations/:id',
    {
      config: { access: { auth: 'tenant', permission: 'invitations:write' } },
      schema: { operationId: 'revokeInvitation', tags, security, summary: 'Revoke a pending invitation', params: IdParam('id', 'inv'), body: EmptyBody, response: { 200: Invitation, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => invitations.revoke(tenantCtx(request), request.params.id),
  );

  app.post(
    '/api/v1/user-invitations/lookup',
    {
      config: { access: { auth: 'public' } },
      schema: {
        operationId: 'lookupInvitation',
        tags,
        summary: 'What an invitation offers, from the token of its e-mail (the page that accepts it shows this first)',
        description: 'The token travels in the body, not the URL, so that it stays out of access logs. An unknown, used, revoked or expired token is 400 with the reason, as for accept.',
        body: Type.Object({ token: Type.String({ minLength: 16, maxLength: 200 }) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            email: Type.String(),
            role: Type.String(),
            firstName: Type.Union([Type.String(), Type.Null()], { description: 'null: the invitee gives it when accepting' }),
            lastName: Type.Union([Type.String(), Type.Null()], { description: 'null: the invitee gives it when accepting' }),
            organizationName: Type.String(),
            invitedByName: Type.Union([Type.String(), Type.Null()]),
            linksDriverProfile: Type.Boolean({ description: 'A DRIVER invitation that links the new account to a driver profile' }),
            expiresAt: Timestamp,
          }),
          ...errorResponses(400, 403, 429),
        },
      },
    },
    async (request) => invitations.lookup(request.body.token),
  );

  app.post(
    '/api/v1/user-invitations/accept',
    {
      config: { access: { auth: 'public' } },
      schema: {
        operationId: 'acceptInvitation',
        tags,
        summary: 'Accept an invitation with the token from its e-mail; creates the account and signs it in',
        body: Type.Object(
          { token: Type.String({ minLength: 16, maxLength: 200 }), password: Password, firstName: Type.Optional(Str(100)), lastName: Type.Optional(Str(100)) },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ accessToken: Type.String(), user: Type.Object({ id: Type.String(), userId: Type.String(), email: Type.String(), firstName: Type.String(), lastName: Type.String(), role: Type.String(), tenantId: Type.Union([Type.String(), Type.Null()]), tenantStatus: Type.Union([Type.String(), Type.Null()]) }) }),
          ...errorResponses(400, 403, 429),
        },
      },
    },
    async (request, reply) => reply.status(201).send(sendSession(deps, reply, await invitations.accept(request.body))),
  );
}
