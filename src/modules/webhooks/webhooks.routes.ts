import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { EmptyBody, IdParam, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import {
  CreateWebhookBody,
  Delivery,
  DeliveryListQuery,
  DeliveryPage,
  RotateSecretBody,
  SECRET_SIGNING_RULE,
  SecretRotated,
  UpdateWebhookBody,
  Webhook,
  WebhookCreated,
  WebhookListQuery,
  WebhookPage,
} from './webhooks.schemas.js';
import { webhooksService } from './webhooks.service.js';

export function webhooksRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const webhooks = webhooksService(deps);
  const tags = ['Webhooks'];
  const security = TENANT_SECURITY;
  const read = { access: { auth: 'tenant' as const, permission: 'webhooks:read' as const } };
  const write = { access: { auth: 'tenant' as const, permission: 'webhooks:write' as const } };
  const params = IdParam('webhookId', 'wh');
  const deliveryParams = IdParam('deliveryId', 'dlv');

  app.post(
    '/api/v1/webhooks',
    {
      config: write,
      schema: {
        operationId: 'createWebhook',
        tags,
        security,
        summary: 'Register a webhook (the generated secret is returned once)',
        description: `secret is optional and may be any secret you choose (16–256 printable ASCII characters, no spaces; a whsec_… one whatever follows the prefix); a secret you give is never echoed. Without one, a whsec_ secret is generated and returned in this response only. Every delivery is signed twice: ${SECRET_SIGNING_RULE}`,
        body: CreateWebhookBody,
        response: { 201: WebhookCreated, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(await webhooks.create(tenantCtx(request), request.body)),
  );

  app.get(
    '/api/v1/webhooks',
    { config: read, schema: { operationId: 'listWebhooks', tags, security, summary: 'List webhooks', querystring: WebhookListQuery, response: { 200: WebhookPage, ...errorResponses(400, 401, 403, 429) } } },
    async (request) => webhooks.list(tenantCtx(request), { page: request.query.page ?? 1, pageSize: request.query.pageSize ?? 20 }),
  );

  app.get(
    '/api/v1/webhooks/:webhookId',
    { config: read, schema: { operationId: 'getWebhook', tags, security, summary: 'Get a webhook', params, response: { 200: Webhook, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => webhooks.get(tenantCtx(request), request.params.webhookId),
  );

  app.put(
    '/api/v1/webhooks/:webhookId',
    { config: write, schema: { operationId: 'updateWebhook', tags, security, summary: 'Update a webhook (url, events, description, status)', params, body: UpdateWebhookBody, response: { 200: Webhook, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => webhooks.update(tenantCtx(request), request.params.webhookId, request.body),
  );

  app.delete(
    '/api/v1/webhooks/:webhookId',
    { config: write, schema: { operationId: 'disableWebhook', tags, security, summary: 'Disable a webhook (its delivery log is kept)', params, body: EmptyBody, response: { 200: Webhook, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => webhooks.disable(tenantCtx(request), request.params.webhookId),
  );

  app.post(
    '/api/v1/webhooks/:webhookId/test',
    { config: write, schema: { operationId: 'testWebhook', tags, security, summary: 'Send a ping event now and return the delivery', params, body: EmptyBody, response: { 200: Delivery, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => webhooks.test(tenantCtx(request), request.params.webhookId),
  );

  app.post(
    '/api/v1/webhooks/:webhookId/rotate-secret',
    {
      config: write,
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        security,
        summary: 'Replace the signing secret; the old one keeps signing for 24 h',
        description: `The body's secret, when given, may be any secret you choose (16–256 printable ASCII characters, no spaces); without it a whsec_ secret is generated. For 24 hours X-Service-Signature uses the new secret and webhook-signature lists a signature with each. Keys: ${SECRET_SIGNING_RULE}`,
        params,
        body: RotateSecretBody,
        response: { 200: SecretRotated, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => webhooks.rotateSecret(tenantCtx(request), request.params.webhookId, request.body?.secret),
  );

  app.get(
    '/api/v1/webhooks/:webhookId/deliveries',
    {
      config: read,
      schema: { operationId: 'listWebhookDeliveries', tags, security, summary: 'Delivery log, newest first, with every attempt', params, querystring: DeliveryListQuery, response: { 200: DeliveryPage, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => {
      const q = request.query;
      return webhooks.deliveries(tenantCtx(request), request.params.webhookId, { status: q.status, page: q.page ?? 1, pageSize: q.pageSize ?? 20 });
    },
  );

  app.get(
    '/api/v1/webhooks/deliveries/:deliveryId',
    { config: read, schema: { operationId: 'getWebhookDelivery', tags, security, summary: 'One delivery with its attempts', params: deliveryParams, response: { 200: Delivery, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (request) => webhooks.delivery(tenantCtx(request), request.params.deliveryId),
  );

  app.post(
    '/api/v1/webhooks/deliveries/:deliveryId/retry',
    {
      config: write,
      schema: { operationId: 'retryWebhookDelivery', tags, security, summary: 'Queue a FAILED delivery again, due now', params: deliveryParams, body: EmptyBody, response: { 200: Delivery, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => webhooks.retry(tenantCtx(request), request.params.deliveryId),
  );
}
