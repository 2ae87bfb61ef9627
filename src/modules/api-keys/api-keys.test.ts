import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { buildDriver, createApiKey, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

const KEYS = '/api/v1/api-keys';
const STAGING_KEY = /^sk_staging_[0-9A-Za-z]{32}$/;

describe.each(DB_KINDS)('API keys (%s)', (kind) => {
  let t: TestApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    tenant = await createTenant(t.app, { name: 'Key Holders Inc' });
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);

  it('creates a key with a user access token and shows the secret once', async () => {
    const res = await inject({ method: 'POST', url: KEYS, headers: tenant.auth, payload: { name: 'TMS integration' } });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.key).toMatch(STAGING_KEY);
    expect(body).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{22}$/),
      name: 'TMS integration',
      key: body.key,
      prefix: body.key.slice(0, 'sk_staging_'.length + 4),
      environment: 'staging',
      createdBy: tenant.ownerId,
      createdAt: t.clock.now().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    });
    // Two keys never coincide.
    const other = await createApiKey(t.app, tenant, 'second');
    expect(other.key).not.toBe(body.key);
    expect(other.key).toMatch(STAGING_KEY);
  });

  it('validates the name', async () => {
    for (const payload of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'ok', scope: 'all' }]) {
      const res = await inject({ method: 'POST', url: KEYS, headers: tenant.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe('Validation failed');
    }
  });

  it('cannot be created with an API key as the credential (user access token only)', async () => {
    const { key } = await createApiKey(t.app, tenant);
    for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }]) {
      const res = await inject({ method: 'POST', url: KEYS, headers, payload: { name: 'minted by a key' } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(/user access token/) });
    }
  });

  it('works as X-API-Key and as Authorization: Bearer, for the creator\'s tenant', async () => {
    const { key } = await createApiKey(t.app, tenant);
    const driver = await inject({ method: 'POST', url: '/api/v1/drivers', headers: { 'x-api-key': key }, payload: buildDriver() });
    expect(driver.statusCode).toBe(201);
    for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }, { authorization: `bearer ${key}` }]) {
      const list = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((d: { id: string }) => d.id)).toContain(driver.json().id);
      const me = await inject({ method: 'GET', url: '/api/v1/auth/me', headers });
      expect(me.json()).toMatchObject({ userId: tenant.ownerId, tenantId: tenant.tenantId, role: 'OWNER', authenticatedWith: 'apiKey' });
    }
    // Another tenant's key sees only its own tenant.
    const other = await createTenant(t.app);
    const otherKey = await createApiKey(t.app, other);
    const otherList = await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': otherKey.key } });
    expect(otherList.json().data).toEqual([]);
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${driver.json().id}`, headers: { 'x-api-key': otherKey.key } })).statusCode).toBe(404);
  });

  it('rejects malformed and unknown keys with 401', async () => {
    const unknown = `sk_staging_${'A'.repeat(32)}`;
    const cases: Array<Record<string, string>> = [
      { 'x-api-key': unknown },
      { authorization: `Bearer ${unknown}` },
      { 'x-api-key': 'sk_staging_short' },
      { 'x-api-key': `sk_test_${'A'.repeat(32)}` },
      { authorization: 'Bearer sk_staging_short' },
      { authorization: `Bearer ${unknown} extra` },
    ];
    for (const headers of cases) {
      const res = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  it('lists keys without their secrets', async () => {
    const created = await createApiKey(t.app, tenant, 'listed');
    await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': created.key } });
    await t.app.deps.apiKeyUsage.flush(); // last use is written in the background
    const res = await inject({ method: 'GET', url: KEYS, headers: tenant.auth });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 1, pageSize: 20 });
    expect(page.total).toBe(page.data.length);
    const row = page.data.find((k: { id: string }) => k.id === created.id);
    expect(Object.keys(row).sort()).toEqual(['createdAt', 'createdBy', 'environment', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt']);
    expect(row).toMatchObject({ name: 'listed', environment: 'staging', createdBy: tenant.ownerId, revokedAt: null });
    expect(row.lastUsedAt).not.toBeNull();
    expect(created.key.startsWith(row.prefix)).toBe(true);
    expect(res.body).not.toContain(created.key);
    expect(res.body).not.toMatch(/sk_staging_[0-9A-Za-z]{32}/);
    expect(res.body).not.toMatch(/hash/i);

    // Listing with a key works too (JK), and shows only this tenant's keys.
    const viaKey = await inject({ method: 'GET', url: KEYS, headers: { 'x-api-key': created.key } });
    expect(viaKey.statusCode).toBe(200);
    const other = await createTenant(t.app);
    const otherKey = await createApiKey(t.app, other);
    const otherList = (await inject({ method: 'GET', url: KEYS, headers: other.auth })).json();
    expect(otherList.data.map((k: { id: string }) => k.id)).toEqual([otherKey.id]);
  });

  it('revokes: the next request with the key is 401; revoking twice is 400; unknown or foreign keys are 404', async () => {
    const { id, key } = await createApiKey(t.app, tenant, 'to revoke');
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': key } })).statusCode).toBe(200);
    t.clock.advance(1000);
    const res = await inject({ method: 'DELETE', url: `${KEYS}/${id}`, headers: tenant.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'to revoke', revokedAt: t.clock.now().toISOString() });
    expect(res.body).not.toContain(key);

    for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }]) {
      const after = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid or revoked API key' });
    }
    const listed = (await inject({ method: 'GET', url: KEYS, headers: tenant.auth })).json();
    expect(listed.data.find((k: { id: string }) => k.id === id).revokedAt).not.toBeNull();

    expect((await inject({ method: 'DELETE', url: `${KEYS}/${id}`, headers: tenant.auth })).statusCode).toBe(400);
    expect((await inject({ method: 'DELETE', url: `${KEYS}/key_0000000000000000000000`, headers: tenant.auth })).statusCode).toBe(404);
    expect((await inject({ method: 'DELETE', url: `${KEYS}/not-a-key`, headers: tenant.auth })).statusCode).toBe(400);

    const other = await createTenant(t.app);
    const foreign = await createApiKey(t.app, other);
    expect((await inject({ method: 'DELETE', url: `${KEYS}/${foreign.id}`, headers: tenant.auth })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': foreign.key } })).statusCode).toBe(200);
  });

  it('acts with the role of the user who created it, as that role is now', async () => {
    const admin = await createUser(t.app, t.mailer, tenant, 'ADMIN');
    const adminKey = await createApiKey(t.app, { ...tenant, auth: admin.auth });
    const ownerKey = await createApiKey(t.app, tenant);
    const me = (await inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-api-key': adminKey.key } })).json();
    expect(me).toMatchObject({ userId: admin.userId, role: 'ADMIN' });

    // Only an OWNER may invite an OWNER: the ADMIN's key may not, the OWNER's key may.
    const invite = (key: string, email: string) =>
      inject({ method: 'POST', url: '/api/v1/user-invitations', headers: { 'x-api-key': key }, payload: { email, role: 'OWNER', firstName: 'Co', lastName: 'Owner' } });
    const denied = await invite(adminKey.key, `co-owner-a-${Date.now()}@example.test`);
    expect(denied.statusCode).toBe(403);
    expect((await invite(ownerKey.key, `co-owner-b-${Date.now()}@example.test`)).statusCode).toBe(201);

    // Demote the creator to VIEWER: the key reads but no longer writes or manages keys.
    const demote = await inject({ method: 'PUT', url: `/api/v1/users/${admin.userId}`, headers: tenant.auth, payload: { role: 'VIEWER' } });
    expect(demote.statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': adminKey.key } })).statusCode).toBe(200);
    const write = await inject({ method: 'POST', url: '/api/v1/drivers', headers: { 'x-api-key': adminKey.key }, payload: buildDriver() });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toMatch(/VIEWER/);
    expect((await inject({ method: 'GET', url: KEYS, headers: { 'x-api-key': adminKey.key } })).statusCode).toBe(403);
  });

  it('only OWNER and ADMIN manage keys', async () => {
    const dispatcher = await createUser(t.app, t.mailer, tenant, 'DISPATCHER');
    expect((await inject({ method: 'POST', url: KEYS, headers: dispatcher.auth, payload: { name: 'nope' } })).statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: KEYS, headers: dispatcher.auth })).statusCode).toBe(403);
  });

  it("stops working when its creator is deactivated, and keeps working for other users' keys", async () => {
    const admin = await createUser(t.app, t.mailer, tenant, 'ADMIN');
    const adminKey = await createApiKey(t.app, { ...tenant, auth: admin.auth });
    const ownerKey = await createApiKey(t.app, tenant);
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': adminKey.key } })).statusCode).toBe(200);

    const res = await inject({ method: 'DELETE', url: `/api/v1/users/${admin.userId}`, headers: tenant.auth });
    expect(res.statusCode).toBe(200);
    for (const headers of [{ 'x-api-key': adminKey.key }, { authorization: `Bearer ${adminKey.key}` }]) {
      const after = await inject({ method: 'GET', url: '/api/v1/drivers', headers });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': ownerKey.key } })).statusCode).toBe(200);
  });
});

describe.each(DB_KINDS)('API keys with API_KEY_ENVIRONMENT=production (%s)', (kind) => {
  let t: TestApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind, { env: { API_KEY_ENVIRONMENT: 'production', RATE_LIMIT_PRODUCTION_PER_HOUR: '10000' } });
    tenant = await createTenant(t.app);
  });
  afterAll(async () => t?.close());

  it('issues sk_live_ keys that authenticate under the production rate limit', async () => {
    const created = await createApiKey(t.app, tenant, 'live');
    expect(created.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': created.key } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('10000');
    const listed = (await t.app.inject({ method: 'GET', url: KEYS, headers: tenant.auth })).json();
    expect(listed.data[0]).toMatchObject({ id: created.id, environment: 'production', prefix: created.key.slice(0, 'sk_live_'.length + 4) });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/drivers', headers: { authorization: `Bearer ${created.key}` } })).statusCode).toBe(200);
  });
});
