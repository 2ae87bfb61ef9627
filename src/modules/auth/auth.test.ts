import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { DomainError } from '../../lib/errors.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createTenant, type TenantFixture } from '../../../test/helpers/factories.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './auth.tokens.js';
import { IdTokenVerifier } from './idp.js';

type InjectResponse = LightMyRequestResponse;
type Cookie = InjectResponse['cookies'][number];

const LOGIN = '/api/v1/auth/login';
const REFRESH = '/api/v1/auth/refresh';
const LOGOUT = '/api/v1/auth/logout';
const ME = '/api/v1/auth/me';
const EXCHANGE = '/api/v1/auth/idp/exchange';
const THIRTY_DAYS_S = 30 * 24 * 3600;

function refreshCookie(res: InjectResponse): Cookie {
  const c = res.cookies.find((x) => x.name === 'refresh_token');
  if (!c) throw new Error(`no refresh cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return c;
}

function setCookieHeader(res: InjectResponse): string {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : [String(raw)];
  const c = all.find((x) => x.startsWith('refresh_token='));
  if (!c) throw new Error('no refresh_token Set-Cookie header');
  return c;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The session cookie carries the refresh token; no body field or value may repeat it. */
function expectSessionCookie(res: InjectResponse, opts: { secure: boolean }) {
  const c = refreshCookie(res);
  expect(c.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(c.httpOnly).toBe(true);
  expect(c.sameSite).toBe('Strict');
  expect(c.path).toBe('/api/v1/auth');
  expect(c.maxAge).toBe(THIRTY_DAYS_S);
  expect(Boolean(c.secure)).toBe(opts.secure);
  const header = setCookieHeader(res);
  expect(header).toMatch(/; HttpOnly/);
  expect(header).toMatch(/; SameSite=Strict/);
  expect(header).toMatch(/; Path=\/api\/v1\/auth/);
  expect(res.body).not.toContain(c.value);
  expect(res.body).not.toMatch(/refresh/i);
  expect(res.headers['cache-control']).toBe('no-store');
  return c.value;
}

describe.each(DB_KINDS)('auth: e-mail login, refresh tokens, logout, expiry, mock login (%s)', (kind) => {
  let t: TestApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    tenant = await createTenant(t.app, { name: 'Auth Test Freight' });
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const signIn = () => inject({ method: 'POST', url: LOGIN, payload: { email: tenant.email, password: tenant.password } });

  it('signs in with e-mail and password: access token and user in the body, refresh token only in a strict HTTP-only cookie', async () => {
    const res = await signIn();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'user']);
    expect(body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.user).toEqual({
      id: tenant.ownerId,
      userId: tenant.ownerId,
      email: tenant.email,
      firstName: 'Olivia',
      lastName: 'Owner',
      role: 'OWNER',
      tenantId: tenant.tenantId,
      tenantStatus: 'ACTIVE',
    });
    expectSessionCookie(res, { secure: false });

    const me = await inject({ method: 'GET', url: ME, headers: bearer(body.accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ userId: tenant.ownerId, tenantId: tenant.tenantId, role: 'OWNER', authenticatedWith: 'token', driverId: null });
  });

  it('matches the e-mail address case-insensitively and ignores surrounding spaces', async () => {
    const res = await inject({ method: 'POST', url: LOGIN, payload: { email: tenant.email.toUpperCase(), password: tenant.password } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(tenant.email);
  });

  it('answers a wrong password and an unknown e-mail with the same 401, and sets no cookie', async () => {
    const wrong = await inject({ method: 'POST', url: LOGIN, payload: { email: tenant.email, password: 'not-the-password' } });
    const unknown = await inject({ method: 'POST', url: LOGIN, payload: { email: 'nobody-here@example.test', password: 'not-the-password' } });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid email or password' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(wrong.body).toBe(unknown.body);
  });

  it('validates the login body', async () => {
    for (const payload of [{}, { email: tenant.email }, { email: 'not-an-email', password: 'x' }, { email: tenant.email, password: '' }, { email: tenant.email, password: 'x', extra: 1 }]) {
      const res = await inject({ method: 'POST', url: LOGIN, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('signs the platform administrator in as SUPER_ADMIN without a tenant', async () => {
    const res = await inject({ method: 'POST', url: LOGIN, payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: ADMIN_EMAIL, role: 'SUPER_ADMIN', tenantId: null, tenantStatus: null });
    expectSessionCookie(res, { secure: false });
  });

  it('refresh returns only a new access token and rotates the cookie', async () => {
    const login = await signIn();
    const first = refreshCookie(login).value;
    t.clock.advance(1000);
    const res = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: first } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['accessToken']);
    expect(body.accessToken).not.toBe(login.json().accessToken);
    const second = expectSessionCookie(res, { secure: false });
    expect(second).not.toBe(first);
    const me = await inject({ method: 'GET', url: ME, headers: bearer(body.accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json().userId).toBe(tenant.ownerId);

    // The rotated cookie can be rotated again.
    const third = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: second } });
    expect(third.statusCode).toBe(200);
    expect(refreshCookie(third).value).not.toBe(second);
  });

  it('reusing a rotated refresh token revokes the whole family; other sign-ins are unaffected', async () => {
    const login = await signIn();
    const other = refreshCookie(await signIn()).value;
    const old = refreshCookie(login).value;
    const rotated = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: old } });
    expect(rotated.statusCode).toBe(200);
    const fresh = refreshCookie(rotated).value;

    const replay = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: old } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.stringMatching(/reuse/i) });
    expect(replay.headers['set-cookie']).toBeUndefined();

    const afterRevocation = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: fresh } });
    expect(afterRevocation.statusCode).toBe(401);
    // The replayed token stays dead too.
    expect((await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: old } })).statusCode).toBe(401);
    // A separate sign-in (another family) keeps working.
    expect((await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: other } })).statusCode).toBe(200);
  });

  it('refresh without a cookie, or with an unknown one, is 401', async () => {
    const none = await inject({ method: 'POST', url: REFRESH });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect((await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: 'A'.repeat(43) } })).statusCode).toBe(401);
    expect((await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: 'x'.repeat(500) } })).statusCode).toBe(401);
  });

  it('signing in and refreshing set a readable hint that a session exists (no secret in it), for the dashboard to know whether to refresh', async () => {
    const login = await signIn();
    const hint = login.cookies.find((c) => c.name === 'fleet_session');
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Strict', maxAge: THIRTY_DAYS_S });
    expect(hint!.httpOnly).toBeFalsy();
    const refreshed = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: refreshCookie(login).value } });
    expect(refreshed.cookies.find((c) => c.name === 'fleet_session')?.value).toBe('1');
  });

  it('logout revokes the refresh token family and clears the cookie', async () => {
    const login = await signIn();
    const cookie = refreshCookie(login).value;
    const rotated = refreshCookie(await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: cookie } })).value;

    const res = await inject({ method: 'POST', url: LOGOUT, cookies: { refresh_token: rotated } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const cleared = refreshCookie(res);
    expect(cleared.value).toBe('');
    expect(cleared.path).toBe('/api/v1/auth');
    expect(cleared.expires!.getTime()).toBeLessThanOrEqual(Date.now());
    // The readable hint goes with it: the next page load asks for no refresh.
    expect(res.cookies.find((c) => c.name === 'fleet_session')).toMatchObject({ value: '', path: '/' });

    expect((await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: rotated } })).statusCode).toBe(401);
    expect((await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: cookie } })).statusCode).toBe(401);
    // Logging out without a cookie (or twice) is harmless.
    expect((await inject({ method: 'POST', url: LOGOUT })).statusCode).toBe(204);
    expect((await inject({ method: 'POST', url: LOGOUT, cookies: { refresh_token: rotated } })).statusCode).toBe(204);
  });

  it('access tokens expire after 15 minutes; the refresh cookie then issues a working one', async () => {
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(900);
    const login = await signIn();
    const token = login.json().accessToken as string;
    const cookie = refreshCookie(login).value;

    t.clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000 - 1000);
    expect((await inject({ method: 'GET', url: ME, headers: bearer(token) })).statusCode).toBe(200);

    t.clock.advance(1000);
    const expired = await inject({ method: 'GET', url: ME, headers: bearer(token) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Access token expired' });

    const refreshed = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: cookie } });
    expect(refreshed.statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: ME, headers: bearer(refreshed.json().accessToken) })).statusCode).toBe(200);
  });

  it('refresh tokens expire after 30 days', async () => {
    const cookie = refreshCookie(await signIn()).value;
    t.clock.advance(THIRTY_DAYS_S * 1000);
    const res = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: cookie } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/expired/i);
  });

  it('rejects missing, malformed, tampered and foreign tokens with 401', async () => {
    const token = (await signIn()).json().accessToken as string;
    const [h, p, s] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'SUPER_ADMIN' })).toString('base64url')}.${s}`;
    const otherSecret = await new SignJWT({ role: 'OWNER', tid: tenant.tenantId, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(tenant.ownerId)
      .setIssuer('fleet-hos')
      .setAudience('fleet-hos-api')
      .setIssuedAt(Math.floor(t.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 600)
      .sign(new TextEncoder().encode('some-other-secret-that-is-long-enough-0000'));
    const cases: Array<[string, Record<string, string>]> = [
      ['missing', {}],
      ['not bearer', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['garbage', bearer('garbage')],
      ['forged claims', bearer(forged)],
      ['other secret', bearer(otherSecret)],
    ];
    for (const [what, headers] of cases) {
      const res = await inject({ method: 'GET', url: ME, headers });
      expect(res.statusCode, what).toBe(401);
      expect(res.json(), what).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  describe('mock login (AUTH_MOCK_LOGIN=true)', () => {
    it('returns a genuine access token for a known user and sets the refresh cookie', async () => {
      const res = await inject({ method: 'POST', url: LOGIN, payload: { user_id: tenant.ownerId } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user).toMatchObject({ id: tenant.ownerId, userId: tenant.ownerId, email: tenant.email, role: 'OWNER', tenantId: tenant.tenantId });
      const cookie = expectSessionCookie(res, { secure: false });
      const me = await inject({ method: 'GET', url: ME, headers: bearer(body.accessToken) });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ userId: tenant.ownerId, role: 'OWNER' });
      const refreshed = await inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: cookie } });
      expect(refreshed.statusCode).toBe(200);
    });

    it('401 for an unknown user or the platform administrator, 400 for a malformed id', async () => {
      expect((await inject({ method: 'POST', url: LOGIN, payload: { user_id: 'usr_0000000000000000000000' } })).statusCode).toBe(401);
      const adminLogin = await inject({ method: 'POST', url: LOGIN, payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
      expect((await inject({ method: 'POST', url: LOGIN, payload: { user_id: adminLogin.json().user.id } })).statusCode).toBe(401);
      expect((await inject({ method: 'POST', url: LOGIN, payload: { user_id: 'tnt_abc' } })).statusCode).toBe(400);
      expect((await inject({ method: 'POST', url: LOGIN, payload: { user_id: tenant.ownerId, password: 'x' } })).statusCode).toBe(400);
    });
  });

  it('answers /auth/idp/exchange with 503 and the error body when no identity provider is configured, and keeps running', async () => {
    const res = await inject({ method: 'POST', url: EXCHANGE, payload: { idpToken: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'Identity provider is not configured' });
    expect((await signIn()).statusCode).toBe(200);
  });
});

describe('configuration of the development switches', () => {
  const prodSecrets = { JWT_SECRET: 'p'.repeat(40), ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') };

  it('ignores AUTH_MOCK_LOGIN=true in production', () => {
    const config = loadConfig({ NODE_ENV: 'production', ...prodSecrets, AUTH_MOCK_LOGIN: 'true' });
    expect(config.isProduction).toBe(true);
    expect(config.authMockLogin).toBe(false);
  });

  it('honours AUTH_MOCK_LOGIN outside production, default off', () => {
    expect(loadConfig({ NODE_ENV: 'development', AUTH_MOCK_LOGIN: 'true' }).authMockLogin).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', AUTH_MOCK_LOGIN: 'false' }).authMockLogin).toBe(false);
    expect(loadConfig({}).authMockLogin).toBe(false);
    expect(() => loadConfig({ AUTH_MOCK_LOGIN: 'maybe' })).toThrow(/AUTH_MOCK_LOGIN/);
  });

  it('requires real secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: required/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: prodSecrets.JWT_SECRET })).toThrow(/ENCRYPTION_KEY: required/);
  });

  it('configures OIDC only with both issuer and audience', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.example.test' })).toThrow(/OIDC_ISSUER and OIDC_AUDIENCE/);
    expect(loadConfig({ OIDC_ISSUER: 'https://idp.example.test', OIDC_AUDIENCE: 'fleet' }).oidc).toEqual({
      issuer: 'https://idp.example.test',
      audience: 'fleet',
      jwksUrl: undefined,
    });
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.example.test', OIDC_AUDIENCE: 'fleet', OIDC_JWKS_URL: 'ftp://x' })).toThrow(/OIDC_JWKS_URL/);
  });
});

// ---------------------------------------------------------------------------------------------
// Identity provider exchange against a local OIDC provider (JWKS served on 127.0.0.1).

const AUDIENCE = 'fleet-hos-web';
const KID = 'idp-key-1';

interface FakeIdp {
  issuer: string;
  jwksUrl: string;
  hits: { discovery: number; jwks: number };
  privateKey: CryptoKey;
  close(): Promise<void>;
}

async function startIdp(): Promise<FakeIdp> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'ES256', use: 'sig' };
  const hits = { discovery: 0, jwks: 0 };
  let issuer = '';
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      hits.discovery += 1;
      return send(200, { issuer, jwks_uri: `${issuer}/keys`, id_token_signing_alg_values_supported: ['ES256'] });
    }
    if (req.url === '/keys') {
      hits.jwks += 1;
      return send(200, { keys: [jwk] });
    }
    return send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUrl: `${issuer}/keys`,
    hits,
    privateKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface IdTokenOptions {
  email?: string;
  issuer?: string;
  audience?: string;
  key?: CryptoKey;
  kid?: string;
  iat?: number;
  exp?: number;
  claims?: JWTPayload;
}

function signIdToken(idp: FakeIdp, nowMs: number, o: IdTokenOptions = {}): Promise<string> {
  const iat = o.iat ?? Math.floor(nowMs / 1000);
  return new SignJWT({ ...(o.email !== undefined ? { email: o.email, email_verified: true } : {}), ...o.claims })
    .setProtectedHeader({ alg: 'ES256', kid: o.kid ?? KID, typ: 'JWT' })
    .setIssuer(o.issuer ?? idp.issuer)
    .setAudience(o.audience ?? AUDIENCE)
    .setSubject('idp-subject-123')
    .setIssuedAt(iat)
    .setExpirationTime(o.exp ?? iat + 300)
    .sign(o.key ?? idp.privateKey);
}

describe.each(DB_KINDS)('auth: identity provider exchange with OIDC_JWKS_URL (%s)', (kind) => {
  let idp: FakeIdp;
  let t: TestApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    idp = await startIdp();
    t = await buildTestApp(kind, {
      env: { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: AUDIENCE, OIDC_JWKS_URL: idp.jwksUrl, AUTH_MOCK_LOGIN: 'false' },
    });
    tenant = await createTenant(t.app, { name: 'IdP Carriers' });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const exchange = (idpToken: string) => t.app.inject({ method: 'POST', url: EXCHANGE, payload: { idpToken } });
  const now = () => t.clock.now().getTime();

  it('exchanges a valid ID token of a known user for an access token and a refresh cookie', async () => {
    const res = await exchange(await signIdToken(idp, now(), { email: tenant.email }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'user']);
    expect(body.user).toMatchObject({ userId: tenant.ownerId, email: tenant.email, role: 'OWNER', tenantId: tenant.tenantId });
    const cookie = expectSessionCookie(res, { secure: false });
    expect(res.body).not.toContain('idp-subject-123');

    const me = await t.app.inject({ method: 'GET', url: ME, headers: bearer(body.accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json().userId).toBe(tenant.ownerId);
    expect((await t.app.inject({ method: 'POST', url: REFRESH, cookies: { refresh_token: cookie } })).statusCode).toBe(200);
    expect(idp.hits.discovery).toBe(0);
    expect(idp.hits.jwks).toBeGreaterThanOrEqual(1);
  });

  it('matches the e-mail claim case-insensitively', async () => {
    const res = await exchange(await signIdToken(idp, now(), { email: tenant.email.toUpperCase() }));
    expect(res.statusCode).toBe(200);
    expect(res.json().user.userId).toBe(tenant.ownerId);
  });

  it('rejects expired, wrong-audience, wrong-issuer, unknown-key, badly signed and malformed tokens with 401', async () => {
    const { privateKey: strangerKey } = await generateKeyPair('ES256');
    const n = now();
    const cases: Array<[string, string, RegExp]> = [
      ['expired', await signIdToken(idp, n, { email: tenant.email, iat: Math.floor(n / 1000) - 600, exp: Math.floor(n / 1000) - 60 }), /expired/],
      ['wrong audience', await signIdToken(idp, n, { email: tenant.email, audience: 'someone-else' }), /aud/],
      ['wrong issuer', await signIdToken(idp, n, { email: tenant.email, issuer: 'https://evil.example.test' }), /iss/],
      ['unknown key', await signIdToken(idp, n, { email: tenant.email, key: strangerKey, kid: 'stranger' }), /unknown key/],
      ['known kid, wrong key', await signIdToken(idp, n, { email: tenant.email, key: strangerKey }), /Invalid identity token/],
      ['malformed', 'not.a.jwt', /Invalid identity token/],
    ];
    for (const [what, token, message] of cases) {
      const res = await exchange(token);
      expect(res.statusCode, what).toBe(401);
      expect(res.json(), what).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.stringMatching(message) });
      expect(res.headers['set-cookie'], what).toBeUndefined();
    }
  });

  it('an access token of this service (HS256) is not an ID token', async () => {
    const login = await t.app.inject({ method: 'POST', url: LOGIN, payload: { email: tenant.email, password: tenant.password } });
    expect((await exchange(login.json().accessToken)).statusCode).toBe(401);
  });

  it('rejects a valid token whose e-mail is unknown, unverified, missing, or the platform administrator', async () => {
    const n = now();
    const cases: Array<[string, string]> = [
      ['unknown e-mail', await signIdToken(idp, n, { email: 'stranger@example.test' })],
      ['unverified', await signIdToken(idp, n, { claims: { email: tenant.email, email_verified: false } })],
      ['no e-mail', await signIdToken(idp, n)],
      ['platform admin', await signIdToken(idp, n, { email: ADMIN_EMAIL })],
    ];
    for (const [what, token] of cases) {
      const res = await exchange(token);
      expect(res.statusCode, what).toBe(401);
      expect(res.json(), what).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  it('validates the body', async () => {
    expect((await t.app.inject({ method: 'POST', url: EXCHANGE, payload: {} })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: EXCHANGE, payload: { idpToken: '' } })).statusCode).toBe(400);
  });

  it('AUTH_MOCK_LOGIN=false: the mock login form answers 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: LOGIN, payload: { user_id: tenant.ownerId } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/Mock login is disabled/) });
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe.each(DB_KINDS)('auth: identity provider discovery, in production mode (%s)', (kind) => {
  let idp: FakeIdp;
  let t: TestApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    idp = await startIdp();
    // No OIDC_JWKS_URL: the keys are found through /.well-known/openid-configuration.
    t = await buildTestApp(kind, { env: { NODE_ENV: 'production', OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: AUDIENCE, AUTH_MOCK_LOGIN: 'true' } });
    tenant = await createTenant(t.app, { name: 'Discovery Lines' });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('discovers the JWKS once and exchanges valid tokens; the cookie is Secure in production', async () => {
    const n = t.clock.now().getTime();
    const first = await t.app.inject({ method: 'POST', url: EXCHANGE, payload: { idpToken: await signIdToken(idp, n, { email: tenant.email }) } });
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({ userId: tenant.ownerId, email: tenant.email, role: 'OWNER', tenantId: tenant.tenantId });
    expectSessionCookie(first, { secure: true });
    expect(setCookieHeader(first)).toMatch(/; Secure/);

    const second = await t.app.inject({ method: 'POST', url: EXCHANGE, payload: { idpToken: await signIdToken(idp, n, { email: tenant.email }) } });
    expect(second.statusCode).toBe(200);
    expect(idp.hits.discovery).toBe(1);

    const wrongAudience = await t.app.inject({ method: 'POST', url: EXCHANGE, payload: { idpToken: await signIdToken(idp, n, { email: tenant.email, audience: 'x' }) } });
    expect(wrongAudience.statusCode).toBe(401);
  });

  it('ignores AUTH_MOCK_LOGIN=true in production: the mock form answers 400', async () => {
    expect(t.app.deps.config.authMockLogin).toBe(false);
    const res = await t.app.inject({ method: 'POST', url: LOGIN, payload: { user_id: tenant.ownerId } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Mock login is disabled/);
  });
});

describe('IdTokenVerifier discovery failure', () => {
  let idp: FakeIdp;
  beforeAll(async () => {
    idp = await startIdp();
  });
  afterAll(async () => idp?.close());

  it('reports NOT_CONFIGURED (503) when the discovery document is missing', async () => {
    const verifier = new IdTokenVerifier({ issuer: `${idp.issuer}/no-such-tenant`, audience: AUDIENCE, jwksUrl: undefined });
    const token = await signIdToken(idp, Date.now(), { email: 'a@example.test', issuer: `${idp.issuer}/no-such-tenant` });
    const err = await verifier.verify(token, new Date()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('NOT_CONFIGURED');
  });

  it('reports NOT_CONFIGURED when the JWKS endpoint is unreachable', async () => {
    const verifier = new IdTokenVerifier({ issuer: idp.issuer, audience: AUDIENCE, jwksUrl: `${idp.issuer}/missing-keys` });
    const token = await signIdToken(idp, Date.now(), { email: 'a@example.test' });
    const err = await verifier.verify(token, new Date()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('NOT_CONFIGURED');
  });
});
