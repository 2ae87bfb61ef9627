import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/errors.js';
import type { TenantContext } from '../../plugins/context.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { buildDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { usersService } from './users.service.js';

const USERS = '/api/v1/users';

describe.each(DB_KINDS)('users (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const setRole = (auth: Record<string, string>, id: string, role: string) => inject({ method: 'PUT', url: `${USERS}/${id}`, headers: auth, payload: { role } });
  const activeOwners = async (tenant: TenantFixture) => {
    const list = (await inject({ method: 'GET', url: `${USERS}?pageSize=100`, headers: tenant.auth })).json();
    return (list.data as Array<{ id: string; role: string; status: string }>).filter((u) => u.role === 'OWNER' && u.status === 'ACTIVE').map((u) => u.id);
  };

  it("lists the organization's users with their fields, never a password", async () => {
    const tenant = await createTenant(t.app, { name: 'Users List Co' });
    const dispatcher = await createUser(t.app, t.mailer, tenant, 'DISPATCHER');
    const res = await inject({ method: 'GET', url: USERS, headers: tenant.auth });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    // Ordered by creation time (then id); both were created at the same fake-clock instant here.
    expect(page.data.map((u: { id: string }) => u.id).sort()).toEqual([tenant.ownerId, dispatcher.userId].sort());
    expect(page.data.find((u: { id: string }) => u.id === dispatcher.userId)).toEqual({
      id: dispatcher.userId,
      userId: dispatcher.userId,
      tenantId: tenant.tenantId,
      email: dispatcher.email,
      firstName: 'Test',
      lastName: 'DISPATCHER',
      role: 'DISPATCHER',
      status: 'ACTIVE',
      driverId: null,
      lastLoginAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      deactivatedAt: null,
    });
    expect(res.body).not.toMatch(/password|argon2/i);

    const one = await inject({ method: 'GET', url: `${USERS}/${dispatcher.userId}`, headers: tenant.auth });
    expect(one.statusCode).toBe(200);
    expect(one.json().email).toBe(dispatcher.email);
    expect((await inject({ method: 'GET', url: `${USERS}/usr_0000000000000000000000`, headers: tenant.auth })).statusCode).toBe(404);

    // Paging.
    const p1 = (await inject({ method: 'GET', url: `${USERS}?page=1&pageSize=1`, headers: tenant.auth })).json();
    const p2 = (await inject({ method: 'GET', url: `${USERS}?page=2&pageSize=1`, headers: tenant.auth })).json();
    expect(p2).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect([...p1.data, ...p2.data].map((u: { id: string }) => u.id)).toEqual(page.data.map((u: { id: string }) => u.id));
    expect((await inject({ method: 'GET', url: `${USERS}?pageSize=101`, headers: tenant.auth })).statusCode).toBe(400);

    // Tenant isolation: another tenant neither lists nor reads these users.
    const other = await createTenant(t.app);
    const otherList = (await inject({ method: 'GET', url: USERS, headers: other.auth })).json();
    expect(otherList.data.map((u: { id: string }) => u.id)).toEqual([other.ownerId]);
    expect((await inject({ method: 'GET', url: `${USERS}/${dispatcher.userId}`, headers: other.auth })).statusCode).toBe(404);
    expect((await setRole(other.auth, dispatcher.userId, 'VIEWER')).statusCode).toBe(404);
    expect((await inject({ method: 'DELETE', url: `${USERS}/${dispatcher.userId}`, headers: other.auth })).statusCode).toBe(404);

    // Only OWNER and ADMIN manage users.
    expect((await inject({ method: 'GET', url: USERS, headers: dispatcher.auth })).statusCode).toBe(403);
  });

  it('changes roles with immediate effect; only an OWNER touches the OWNER role; nobody changes their own role', async () => {
    const tenant = await createTenant(t.app);
    const admin = await createUser(t.app, t.mailer, tenant, 'ADMIN');
    const dispatcher = await createUser(t.app, t.mailer, tenant, 'DISPATCHER');

    // The dispatcher can create drivers until demoted to VIEWER; the same token loses the right at once.
    expect((await inject({ method: 'POST', url: '/api/v1/drivers', headers: dispatcher.auth, payload: buildDriver() })).statusCode).toBe(201);
    const demoted = await setRole(admin.auth, dispatcher.userId, 'VIEWER');
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json()).toMatchObject({ id: dispatcher.userId, role: 'VIEWER' });
    expect((await inject({ method: 'POST', url: '/api/v1/drivers', headers: dispatcher.auth, payload: buildDriver() })).statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: '/api/v1/auth/me', headers: dispatcher.auth })).json().role).toBe('VIEWER');

    // ADMIN cannot grant OWNER, nor change an OWNER.
    const grant = await setRole(admin.auth, dispatcher.userId, 'OWNER');
    expect(grant.statusCode).toBe(403);
    expect(grant.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(/OWNER/) });
    expect((await setRole(admin.auth, tenant.ownerId, 'ADMIN')).statusCode).toBe(403);

    // Nobody changes their own role (not even an OWNER, not even to the same role class).
    const ownSelf = await setRole(admin.auth, admin.userId, 'VIEWER');
    expect(ownSelf.statusCode).toBe(403);
    expect(ownSelf.json().message).toMatch(/your own/);
    expect((await setRole(tenant.auth, tenant.ownerId, 'ADMIN')).statusCode).toBe(403);

    // An OWNER may grant OWNER.
    const promoted = await setRole(tenant.auth, admin.userId, 'OWNER');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().role).toBe('OWNER');
    expect((await activeOwners(tenant)).sort()).toEqual([tenant.ownerId, admin.userId].sort());

    // Renaming does not need a role change; a body must change something valid.
    const renamed = await inject({ method: 'PUT', url: `${USERS}/${dispatcher.userId}`, headers: tenant.auth, payload: { firstName: ' Dana ' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ firstName: 'Dana', role: 'VIEWER' });
    expect((await inject({ method: 'PUT', url: `${USERS}/${dispatcher.userId}`, headers: tenant.auth, payload: {} })).statusCode).toBe(400);
    expect((await setRole(tenant.auth, dispatcher.userId, 'SUPER_ADMIN')).statusCode).toBe(400);
    expect((await setRole(tenant.auth, 'usr_0000000000000000000000', 'VIEWER')).statusCode).toBe(404);
  });

  it('an OWNER can demote another OWNER while another active OWNER remains', async () => {
    const tenant = await createTenant(t.app);
    const second = await createUser(t.app, t.mailer, tenant, 'OWNER');
    const res = await setRole(tenant.auth, second.userId, 'ADMIN');
    expect(res.statusCode).toBe(200);
    expect(await activeOwners(tenant)).toEqual([tenant.ownerId]);
  });

  it('keeps at least one active OWNER when two OWNERs demote each other at the same time', async () => {
    const tenant = await createTenant(t.app);
    const second = await createUser(t.app, t.mailer, tenant, 'OWNER');
    const [a, b] = await Promise.all([setRole(tenant.auth, second.userId, 'ADMIN'), setRole(second.auth, tenant.ownerId, 'ADMIN')]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([400, 403]).toContain(statuses[1]);
    const failed = a.statusCode === 200 ? b : a;
    if (failed.statusCode === 400) expect(failed.json().message).toMatch(/at least one active OWNER/);
    expect(await activeOwners(tenant)).toHaveLength(1);
  });

  it('keeps at least one active OWNER when two OWNERs deactivate each other, or one demotes while the other deactivates, at the same time', async () => {
    for (const second of ['deactivate', 'demote'] as const) {
      const tenant = await createTenant(t.app);
      const other = await createUser(t.app, t.mailer, tenant, 'OWNER');
      const [a, b] = await Promise.all([
        inject({ method: 'DELETE', url: `${USERS}/${other.userId}`, headers: tenant.auth }),
        second === 'deactivate' ? inject({ method: 'DELETE', url: `${USERS}/${tenant.ownerId}`, headers: other.auth }) : setRole(other.auth, tenant.ownerId, 'ADMIN'),
      ]);
      const statuses = [a.statusCode, b.statusCode].sort();
      expect(statuses[0], second).toBe(200);
      expect([400, 401, 403], second).toContain(statuses[1]);
      // Read with a fresh owner session: whichever request won, exactly one active OWNER is left.
      const survivor = a.statusCode === 200 ? tenant : { ...tenant, auth: other.auth };
      const list = (await inject({ method: 'GET', url: `${USERS}?pageSize=100`, headers: survivor.auth })).json();
      const owners = (list.data as Array<{ role: string; status: string }>).filter((u) => u.role === 'OWNER' && u.status === 'ACTIVE');
      expect(owners, second).toHaveLength(1);
    }
  });

  it('an OWNER may change the role of a deactivated OWNER (it does not lower the number of active OWNERs)', async () => {
    const tenant = await createTenant(t.app);
    const other = await createUser(t.app, t.mailer, tenant, 'OWNER');
    expect((await inject({ method: 'DELETE', url: `${USERS}/${other.userId}`, headers: tenant.auth })).statusCode).toBe(200);
    const res = await setRole(tenant.auth, other.userId, 'VIEWER');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: 'VIEWER', status: 'DEACTIVATED' });
    expect(await activeOwners(tenant)).toEqual([tenant.ownerId]);
  });

  it('refuses to demote or deactivate the last active OWNER with 400, even for a caller whose OWNER role was just removed', async () => {
    // A request authorized a moment before its caller lost the OWNER role (the race above, made deterministic).
    const tenant = await createTenant(t.app);
    const second = await createUser(t.app, t.mailer, tenant, 'OWNER');
    expect((await setRole(tenant.auth, second.userId, 'ADMIN')).statusCode).toBe(200);
    const stale: TenantContext = { kind: 'tenant', requestId: 'test', tenantId: tenant.tenantId, tenantStatus: 'ACTIVE', userId: second.userId, role: 'OWNER', via: 'token' };
    const users = usersService(t.app.deps);

    const demote = await users.update(stale, tenant.ownerId, { role: 'ADMIN' }).catch((e: unknown) => e);
    expect(demote).toBeInstanceOf(DomainError);
    expect((demote as DomainError).code).toBe('INVALID_STATE');
    expect((demote as DomainError).message).toMatch(/at least one active OWNER/);

    const deactivate = await users.deactivate(stale, tenant.ownerId).catch((e: unknown) => e);
    expect(deactivate).toBeInstanceOf(DomainError);
    expect((deactivate as DomainError).code).toBe('INVALID_STATE');
    expect(await activeOwners(tenant)).toEqual([tenant.ownerId]);
  });

  it('deactivates a user: sessions end at once (refresh and access token 401), login refused, API keys dead', async () => {
    const tenant = await createTenant(t.app);
    const dispatcher = await createUser(t.app, t.mailer, tenant, 'DISPATCHER');
    const login = await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: dispatcher.email, password: 'another-good-password' } });
    expect(login.statusCode).toBe(200);
    const cookie = login.cookies.find((c) => c.name === 'refresh_token')!.value;
    const token = login.json().accessToken as string;
    // Warm the principal cache so that the test proves it is invalidated.
    expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);

    t.clock.advance(1000);
    const res = await inject({ method: 'DELETE', url: `${USERS}/${dispatcher.userId}`, headers: tenant.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: dispatcher.userId, status: 'DEACTIVATED', deactivatedAt: t.clock.now().toISOString() });

    const refresh = await inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: { refresh_token: cookie } });
    expect(refresh.statusCode).toBe(401);
    for (const auth of [{ authorization: `Bearer ${token}` }, dispatcher.auth]) {
      const r = await inject({ method: 'GET', url: '/api/v1/drivers', headers: auth });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
    const again = await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: dispatcher.email, password: 'another-good-password' } });
    expect(again.statusCode).toBe(401);
    expect((await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { user_id: dispatcher.userId } })).statusCode).toBe(401);

    // Still listed, as DEACTIVATED; deactivating twice is 400.
    const listed = (await inject({ method: 'GET', url: `${USERS}/${dispatcher.userId}`, headers: tenant.auth })).json();
    expect(listed.status).toBe('DEACTIVATED');
    expect((await inject({ method: 'DELETE', url: `${USERS}/${dispatcher.userId}`, headers: tenant.auth })).statusCode).toBe(400);
    // The e-mail address stays taken.
    const reinvite = await inject({ method: 'POST', url: '/api/v1/user-invitations', headers: tenant.auth, payload: { email: dispatcher.email, role: 'DISPATCHER' } });
    expect(reinvite.statusCode).toBe(400);
  });

  it('nobody deactivates themselves; an ADMIN cannot deactivate an OWNER', async () => {
    const tenant = await createTenant(t.app);
    const admin = await createUser(t.app, t.mailer, tenant, 'ADMIN');
    const self = await inject({ method: 'DELETE', url: `${USERS}/${tenant.ownerId}`, headers: tenant.auth });
    expect(self.statusCode).toBe(403);
    expect((await inject({ method: 'DELETE', url: `${USERS}/${admin.userId}`, headers: admin.auth })).statusCode).toBe(403);
    expect((await inject({ method: 'DELETE', url: `${USERS}/${tenant.ownerId}`, headers: admin.auth })).statusCode).toBe(403);
    expect((await inject({ method: 'DELETE', url: `${USERS}/usr_0000000000000000000000`, headers: tenant.auth })).statusCode).toBe(404);
    expect(await activeOwners(tenant)).toEqual([tenant.ownerId]);
  });
});
