import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/types.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS, openTestDatabase } from '../../../test/helpers/db.js';
import { adminAction, createApiKey, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

const DRIVERS = '/api/v1/drivers';
const REDIS_URL = process.env.TEST_REDIS_URL;

/** The same database, with the credential lookups (the only `system` transactions of a read) counted. */
function counting(db: Database): { db: Database; lookups: () => number } {
  let n = 0;
  return {
    lookups: () => n,
    db: {
      kind: db.kind,
      tenant: (tenantId, fn) => db.tenant(tenantId, fn),
      system: (fn) => {
        n++;
        return db.system(fn);
      },
      systemStatement: (sql, params, options) => db.systemStatement(sql, params, options),
      listen: (channel, onNotify) => db.listen(channel, onNotify),
      exec: (sql) => db.exec(sql),
      ping: () => db.ping(),
      close: () => db.close(),
    },
  };
}

async function get(t: TestApp, headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: DRIVERS, headers });
}

describe.each(DB_KINDS)('credentials cached, revocation at once (%s)', (kind) => {
  let shared: Database;
  let t: TestApp;
  let lookups: () => number;
  let tenant: TenantFixture;

  beforeAll(async () => {
    shared = await openTestDatabase(kind);
    const c = counting(shared);
    lookups = c.lookups;
    t = await buildTestApp(kind, { db: c.db });
    tenant = await createTenant(t.app, { name: 'Cached Carriers' });
  });
  afterAll(async () => {
    await t?.close();
    await shared?.close();
  });

  it('an API key is looked up once, then served from memory; revoked, the very next request is 401', async () => {
    const { id, key } = await createApiKey(t.app, tenant);
    const headers = { 'x-api-key': key };
    expect((await get(t, headers)).statusCode).toBe(200);
    const before = lookups();
    for (let i = 0; i < 5; i++) expect((await get(t, headers)).statusCode).toBe(200);
    expect(lookups()).toBe(before); // no database work for the credential

    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: tenant.auth });
    expect(revoke.statusCode).toBe(200);
    const after = await get(t, headers);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: 'Invalid or revoked API key' });
    // The revoked key stays refused, also once its cache entry would have expired.
    t.clock.advance(120_000);
    expect((await get(t, headers)).statusCode).toBe(401);
  });

  it('a suspended tenant gets the suspended-tenant error on its next request, by key and by token; reactivated, access returns at once', async () => {
    const other = await createTenant(t.app, { name: 'Soon Suspended Freight' });
    const { key } = await createApiKey(t.app, other);
    const byKey = { 'x-api-key': key };
    expect((await get(t, byKey)).statusCode).toBe(200);
    expect((await get(t, other.auth)).statusCode).toBe(200);

    await adminAction(t.app, other.tenantId, 'suspend', 'unpaid invoices');
    for (const headers of [byKey, other.auth]) {
      const res = await get(t, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Tenant "Soon Suspended Freight" is suspended. Contact support to restore access.' });
    }
    // Other tenants are untouched.
    expect((await get(t, tenant.auth)).statusCode).toBe(200);

    await adminAction(t.app, other.tenantId, 'reactivate');
    expect((await get(t, byKey)).statusCode).toBe(200);
    expect((await get(t, other.auth)).statusCode).toBe(200);
  });

  it('an approved tenant can create at once (no stale "pending approval")', async () => {
    const pending = await createTenant(t.app, { approve: false });
    const create = () => t.app.inject({ method: 'POST', url: DRIVERS, headers: pending.auth, payload: { firstName: 'A', lastName: 'B', licenseNumber: 'PEND1', licenseState: 'TX' } });
    expect((await create()).statusCode).toBe(403);
    await adminAction(t.app, pending.tenantId, 'approve');
    expect((await create()).statusCode).toBe(201);
  });

  it('a demoted user and their keys lose the role at once; a deactivated user and their keys are 401 at once', async () => {
    const admin = await createUser(t.app, t.mailer, tenant, 'ADMIN');
    // A key acts with the role of the user who created it.
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: admin.auth, payload: { name: 'admin key' } });
    const byKey = { 'x-api-key': created.json<{ key: string }>().key };
    const invite = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/v1/user-invitations', headers, payload: { email: `x${Math.random()}@example.test`, role: 'DISPATCHER' } });
    expect((await invite(byKey)).statusCode).toBe(201);
    expect((await invite(admin.auth)).statusCode).toBe(201);

    const demote = await t.app.inject({ method: 'PUT', url: `/api/v1/users/${admin.userId}`, headers: tenant.auth, payload: { role: 'VIEWER' } });
    expect(demote.statusCode).toBe(200);
    expect((await invite(byKey)).statusCode).toBe(403);
    expect((await invite(admin.auth)).statusCode).toBe(403);
    expect((await get(t, byKey)).statusCode).toBe(200); // still a reader

    const deactivate = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${admin.userId}`, headers: tenant.auth });
    expect(deactivate.statusCode).toBe(200);
    expect((await get(t, byKey)).statusCode).toBe(401);
    expect((await get(t, admin.auth)).statusCode).toBe(401);
  });

  it("records a key's last use in the background, at most once a minute, never on the request path", async () => {
    const { id, key } = await createApiKey(t.app, tenant, 'usage');
    const lastUsed = async () =>
      (await shared.system((tx) => tx.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [id]))).rows[0]!.last_used_at;
    const firstUse = t.clock.now();
    expect((await get(t, { 'x-api-key': key })).statusCode).toBe(200);
    expect(await lastUsed()).toBeNull(); // the request wrote nothing
    await t.app.deps.apiKeyUsage.flush();
    expect((await lastUsed())?.toISOString()).toBe(firstUse.toISOString());

    // Used again within the minute: nothing new to write.
    t.clock.advance(30_000);
    expect((await get(t, { 'x-api-key': key })).statusCode).toBe(200);
    await t.app.deps.apiKeyUsage.flush();
    expect((await lastUsed())?.toISOString()).toBe(firstUse.toISOString());

    // A minute after the last write, the next use is recorded.
    t.clock.advance(31_000);
    const later = t.clock.now();
    expect((await get(t, { 'x-api-key': key })).statusCode).toBe(200);
    await t.app.deps.apiKeyUsage.flush();
    expect((await lastUsed())?.toISOString()).toBe(later.toISOString());

    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: tenant.auth });
    expect(listed.json<{ data: { id: string; lastUsedAt: string }[] }>().data.find((k) => k.id === id)?.lastUsedAt).toBe(later.toISOString());
  });
});

/**
 * Two instances of the service on one PostgreSQL database and one Redis, as in a scaled-out
 * deployment: a change made through instance A reaches instance B's cache before B's next request.
 */
describe.skipIf(!REDIS_URL || !process.env.TEST_DATABASE_URL)('two instances, one database, one Redis', () => {
  let shared: Database;
  let a: TestApp;
  let b: TestApp;
  let bLookups: () => number;
  let tenant: TenantFixture;

  beforeAll(async () => {
    shared = await openTestDatabase('postgres');
    const env = { REDIS_URL: REDIS_URL! };
    a = await buildTestApp('postgres', { db: shared, env });
    const cb = counting(shared);
    bLookups = cb.lookups;
    b = await buildTestApp('postgres', { db: cb.db, env });
    tenant = await createTenant(a.app, { name: 'Two Instance Trucking' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.close();
  });

  /** B has the credential in its cache: a further request costs B no lookup. */
  async function cachedOnB(headers: Record<string, string>) {
    expect((await get(b, headers)).statusCode).toBe(200);
    const before = bLookups();
    expect((await get(b, headers)).statusCode).toBe(200);
    expect(bLookups()).toBe(before);
  }

  it('a key revoked on instance A is refused by instance B on the next request', async () => {
    const { id, key } = await createApiKey(a.app, tenant);
    const headers = { 'x-api-key': key };
    await cachedOnB(headers);
    expect((await a.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: tenant.auth })).statusCode).toBe(200);
    expect((await get(b, headers)).statusCode).toBe(401);
  });

  it('a tenant suspended through instance A is refused by instance B on the next request, by key and by token', async () => {
    const other = await createTenant(a.app, { name: 'Suspended Across Instances' });
    const { key } = await createApiKey(a.app, other);
    await cachedOnB({ 'x-api-key': key });
    await cachedOnB(other.auth);
    await adminAction(a.app, other.tenantId, 'suspend');
    expect((await get(b, { 'x-api-key': key })).statusCode).toBe(403);
    expect((await get(b, other.auth)).statusCode).toBe(403);
  });

  it('without Redis, a second instance would still accept the key for its short TTL: the cache is real, and Redis is what makes revocation reach it at once', async () => {
    const lonely = counting(shared);
    const c = await buildTestApp('postgres', { db: lonely.db });
    try {
      const { id, key } = await createApiKey(a.app, tenant);
      const headers = { 'x-api-key': key };
      expect((await get(c, headers)).statusCode).toBe(200);
      expect((await a.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: tenant.auth })).statusCode).toBe(200);
      expect((await get(c, headers)).statusCode).toBe(200); // stale within its short TTL (5 s without Redis)
      c.clock.advance(5_000);
      expect((await get(c, headers)).statusCode).toBe(401);
    } finally {
      await c.close();
    }
  });
});
