import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { DomainError, HTTP_STATUS, RateLimitedError, type ErrorDetail } from '../lib/errors.js';

interface AjvIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

export function errorBody(statusCode: number, message: string, extra: { details?: ErrorDetail[]; requestId?: string } = {}) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...extra };
}

function detailsOf(all: AjvIssue[], part: string | undefined): ErrorDetail[] {
  // "must match a schema in anyOf" only summarises the issues listed beside it, and "must be null"
  // comes from the no-body alternative of action endpoints.
  const specific = all.filter((i) => i.keyword !== 'anyOf' && i.keyword !== 'oneOf' && !(i.keyword === 'type' && i.params.type === 'null'));
  const issues = specific.length > 0 ? specific : all;
  return issues.slice(0, 20).map((i) => {
    let field = i.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (i.keyword === 'additionalProperties') field = [field, String(i.params.additionalProperty)].filter(Boolean).join('.');
    if (i.keyword === 'required') field = [field, String(i.params.missingProperty)].filter(Boolean).join('.');
    const message =
      i.keyword === 'additionalProperties' ? 'is not a known property' : i.keyword === 'required' ? 'is required' : (i.message ?? 'is invalid');
    return { field: [part, field].filter(Boolean).join('.') || (part ?? 'request'), message };
  });
}

/**
 * Errors that mean the database could not be reached or went away mid-request (a restart, a failover): the
 * request did not complete and may be retried, so 503 with Retry-After, not a 500. Node's socket errors,
 * pg's lost connections, and PostgreSQL's class 08 (connection exception) and 57P01–57P03 (shutting
 * down, cannot connect now).
 */
export function databaseUnavailable(err: { code?: unknown; message?: unknown }): boolean {
  const code = typeof err.code === 'string' ? err.code : '';
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03'].includes(code) || code.startsWith('08')) return true;
  const message = typeof err.message === 'string' ? err.message : '';
  return /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/.test(message);
}

type AppError = FastifyError & { validation?: AjvIssue[]; validationContext?: string };

/** One mapping from every error to the spec's error body; no stack traces leave the process. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(handleError);

  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send(errorBody(404, `Route ${request.method} ${(request.url.split('?')[0] ?? '').slice(0, 200)} not found`));
  });
}

/** The app's error handler (routes with a handler of their own hand it what they do not handle). */
export function handleError(err: AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (err instanceof DomainError) {
    const status = HTTP_STATUS[err.code];
    if (err.code === 'RATE_LIMITED') void reply.header('Retry-After', reply.getHeader('Retry-After') ?? String(err instanceof RateLimitedError ? err.retryAfterSeconds : 1));
    return reply.status(status).send(errorBody(status, err.message, err.details ? { details: err.details } : {}));
  }
  if (err.validation) {
    return reply
      .status(400)
      .send(errorBody(400, 'Validation failed', { details: detailsOf(err.validation, err.validationContext) }));
  }
  // Text PostgreSQL cannot store (a NUL character, SQLSTATE 22021 / 22P05) is the caller's mistake.
  if (err.code === '22021' || err.code === '22P05') {
    return reply.status(400).send(errorBody(400, 'Validation failed', { details: [{ field: 'request', message: 'text must not contain NUL (\\u0000) characters' }] }));
  }
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status >= 400 && status < 500) {
    const message = err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError ? 'Malformed JSON body' : err.message;
    return reply.status(status).send(errorBody(status, message));
  }
  if (databaseUnavailable(err)) {
    request.log.warn({ err: { code: err.code, message: err.message } }, 'request failed: the database is unavailable');
    return reply.header('Retry-After', '2').status(503).send(errorBody(503, 'The database is unavailable at the moment; retry shortly', { requestId: String(request.id) }));
  }
  request.log.error({ err }, 'request failed');
  return reply.status(500).send(errorBody(500, 'Internal Server Error', { requestId: String(request.id) }));
}
