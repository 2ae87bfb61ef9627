import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { Email, Str, errorResponses, TENANT_SECURITY } from '../../lib/schemas.js';
import { tenantCtx } from '../../plugins/context.js';
import { authService, type Session } from './auth.service.js';
import { REFRESH_TOKEN_TTL_MS } from './refresh-tokens.js';

export const REFRESH_COOKIE = 'refresh_token';
/**
 * A cookie the dashboard can read (it holds no secret, only "1"): that this browser holds a refresh cookie,
 * so a page load asks /auth/refresh only then — a visitor who never signed in gets no 401 in the console.
 */
export const SESSION_HINT_COOKIE = 'fleet_session';
const COOKIE_PATH = '/api/v1/auth';

const LoginBody = Type.Union(
  [
    Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
    Type.Object({ user_id: Str(64, { pattern: '^usr_[0-9A-Za-z]+$' }) }, { additionalProperties: false, description: 'Development only (AUTH_MOCK_LOGIN=true)' }),
  ],
  { examples: [{ email: 'olivia@lonestarfreight.example', password: 'correct-horse-battery' }] },
);

const SessionUser = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: Type.String(),
  tenantId: Type.Union([Type.String(), Type.Null()]),
  tenantStatus: Type.Union([Type.String(), Type.Null()]),
});
const SessionResponse = Type.Object({ accessToken: Type.String(), user: SessionUser });

const MeResponse = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: Type.String(),
  tenantId: Type.String(),
  tenantStatus: Type.String(),
  driverId: Type.Union([Type.String(), Type.Null()]),
  authenticatedWith: Type.String(),
});

export function setRefreshCookie(deps: Deps, reply: FastifyReply, token: string): void {
  void reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    secure: deps.config.isProduction,
    sameSite: 'strict',
    path: COOKIE_PATH,
    maxAge: REFRESH_TOKEN_TTL_MS / 1000,
  });
  void reply.setCookie(SESSION_HINT_COOKIE, '1', { httpOnly: false, secure: deps.config.isProduction, sameSite: 'strict', path: '/', maxAge: REFRESH_TOKEN_TTL_MS / 1000 });
}

/** The session's refresh token goes only into the HTTP-only cookie, never into the body. */
export function sendSession(deps: Deps, reply: FastifyReply, session: Session) {
  setRefreshCookie(deps, reply, session.refreshToken);
  void reply.header('Cache-Control', 'no-store');
  return { accessToken: session.accessToken, user: session.user };
}

function cookieOf(request: FastifyRequest): string | undefined {
  const v = request.cookies[REFRESH_COOKIE];
  return typeof v === 'string' && v.length > 0 && v.length < 200 ? v : undefined;
}

export function authRoutes(fastify: FastifyInstance, deps: Deps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authService(deps);
  const tags = ['Authentication'];

  app.post(
    '/api/v1/auth/login',
    {
      config: { access: { auth: 'public' } },
      schema: {
        operationId: 'login',
        tags,
        summary: 'Sign in with email and password (or, in development with AUTH_MOCK_LOGIN, with a user_id)',
        body: LoginBody,
        response: { 200: SessionResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const session = 'user_id' in body ? await auth.mockLogin(body.user_id) : await auth.login(body.email, body.password);
      return sendSession(deps, reply, session);
    },
  );

  app.post(
    '/api/v1/auth/idp/exchange',
    {
      config: { access: { auth: 'public' } },
      schema: {
        operationId: 'exchangeIdpToken',
        tags,
        summary: "Exchange an identity provider's ID token for an access token",
        body: Type.Object({ idpToken: Type.String({ minLength: 1, maxLength: 16_384 }) }, { additionalProperties: false }),
        response: { 200: SessionResponse, ...errorResponses(400, 401, 403, 429, 503) },
      },
    },
    async (request, reply) => sendSession(deps, reply, await auth.exchangeIdpToken(request.body.idpToken)),
  );

  app.post(
    '/api/v1/auth/refresh',
    {
      config: { access: { auth: 'public' } },
      schema: {
        operationId: 'refreshAccessToken',
        tags,
        summary: 'Exchange the refresh cookie for a new access token; the cookie is rotated',
        response: { 200: Type.Object({ accessToken: Type.String() }), ...errorResponses(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { accessToken, refreshToken } = await auth.refresh(cookieOf(request));
      setRefreshCookie(deps, reply, refreshToken);
      void reply.header('Cache-Control', 'no-store');
      return { accessToken };
    },
  );

  app.post(
    '/api/v1/auth/logout',
    {
      config: { access: { auth: 'public' } },
      schema: { operationId: 'logout', tags, summary: 'Revoke the refresh token family and clear the cookie', response: { 204: Type.Null(), ...errorResponses(429) } },
    },
    async (request, reply) => {
      await auth.logout(cookieOf(request));
      void reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      void reply.clearCookie(SESSION_HINT_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/v1/auth/me',
    {
      config: { access: { auth: 'tenant', permission: 'profile:read', allowPending: true } },
      schema: { operationId: 'getCurrentUser', tags, summary: 'The signed-in user', security: TENANT_SECURITY, response: { 200: MeResponse, ...errorResponses(401, 403) } },
    },
    async (request) => auth.me(tenantCtx(request)),
  );
}
