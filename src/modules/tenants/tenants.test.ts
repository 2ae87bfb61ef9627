import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { adminAction, adminToken, buildDriver, buildRegistration, createApiKey, createTenant } from '../../../test/helpers/factories.js';

const REGISTER = '/api/v1/tenants/register';

function refreshCookieOf(res: { cookies: Array<{ name: string; value: string }> }): string {
  const c = res.cookies.find((x) => x.name === 'refresh_token');
  if (!c) throw new Error('no refresh cookie');
  return c.value;
}

describe.each(DB_KINDS)('tenants: registration, pending approval and platform administration (%s)', (kind) => {
  let t: TestApp;
  let admin: { authorization: string };

  beforeAll(async () => {
    t = await buildTestApp(kind);
    admin = { authorization: `Bearer ${await adminToken(t.app)}` };
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);

  describe('registration', () => {
    it('creates a PENDING_APPROVAL tenant and its OWNER, answers 201 with the spec fields and sends a confirmation e-mail', async () => {
      const body = buildRegistration({ name: 'Lone Star Freight LLC' });
      const sentBefore = t.mailer.sent.length;
      const res = await inject({ method: 'POST', url: REGISTER, payload: body });
      expect(res.statusCode).toBe(201);
      const json = res.json();
      expect(Object.keys(json).sort()).toEqual(['message', 'tenant', 'user']);
      expect(Object.keys(json.tenant).sort()).toEqual(['createdAt', 'dotNumber', 'id', 'mcNumber', 'name', 'status']);
      expect(json.tenant).toEqual({
        id: expect.stringMatching(/^tnt_[0-9A-Za-z]{22}$/),
        name: 'Lone Star Freight LLC',
        dotNumber: '1234567',
        mcNumber: 'MC-765432',
        status: 'PENDING_APPROVAL',
        createdAt: t.clock.now().toISOString(),
      });
      expect(json.user).toEqual({
        id: expect.stringMatching(/^usr_[0-9A-Za-z]{22}$/),
        firstName: 'Olivia',
        lastName: 'Owner',
        email: body.adminUser.email,
        role: 'OWNER',
        tenantId: json.tenant.id,
      });
      expect(json.message).toMatch(/pending approval/i);
      expect(res.body).not.toContain(body.adminUser.password);
      expect(res.body).not.toMatch(/passwordHash|password_hash|\$argon2/);

      const mails = t.mailer.sent.slice(sentBefore);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.to).toBe(body.adminUser.email);
      expect(mails[0]!.subject).toContain('Lone Star Freight LLC');
      expect(mails[0]!.text).toMatch(/pending approval/i);
    });

    it('accepts a registration without the optional dotNumber and mcNumber (returned as null) and trims text', async () => {
      const body = buildRegistration();
      const { dotNumber: _d, mcNumber: _m, ...organization } = body.organization;
      const res = await inject({ method: 'POST', url: REGISTER, payload: { ...body, organization: { ...organization, name: '  Trimmed Co  ' } } });
      expect(res.statusCode).toBe(201);
      expect(res.json().tenant).toMatchObject({ name: 'Trimmed Co', dotNumber: null, mcNumber: null, status: 'PENDING_APPROVAL' });
    });

    it('rejects a password shorter than 8 characters with 400 Validation failed and field details', async () => {
      const res = await inject({ method: 'POST', url: REGISTER, payload: buildRegistration({ password: 'short7!' }) });
      expect(res.statusCode).toBe(400);
      const json = res.json();
      expect(json).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
      expect(json.details).toEqual([{ field: 'body.adminUser.password', message: expect.stringMatching(/8/) }]);
    });

    it('accepts a password of exactly 8 characters', async () => {
      const res = await inject({ method: 'POST', url: REGISTER, payload: buildRegistration({ password: '12345678' }) });
      expect(res.statusCode).toBe(201);
    });

    it('names every missing required field', async () => {
      const res = await inject({ method: 'POST', url: REGISTER, payload: { organization: { name: 'X' }, adminUser: { email: 'a@example.test' } } });
      expect(res.statusCode).toBe(400);
      const json = res.json();
      expect(json.message).toBe('Validation failed');
      const fields = (json.details as Array<{ field: string; message: string }>).map((d) => d.field).sort();
      expect(fields).toEqual(
        [
          'body.adminUser.firstName',
          'body.adminUser.lastName',
          'body.adminUser.password',
          'body.organization.address',
          'body.organization.contactEmail',
          'body.organization.phone',
        ].sort(),
      );
      for (const d of json.details) expect(d.message).toBe('is required');
    });

    it('rejects a missing body, a whole missing section, a malformed e-mail, blank required strings and malformed JSON', async () => {
      const noBody = await inject({ method: 'POST', url: REGISTER });
      expect(noBody.statusCode).toBe(400);
      expect(noBody.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });

      const { adminUser: _a, ...orgOnly } = buildRegistration();
      const noSection = await inject({ method: 'POST', url: REGISTER, payload: orgOnly });
      expect(noSection.statusCode).toBe(400);
      expect(noSection.json().details).toEqual([{ field: 'body.adminUser', message: 'is required' }]);

      const reg = buildRegistration();
      const badEmail = await inject({ method: 'POST', url: REGISTER, payload: { ...reg, adminUser: { ...reg.adminUser, email: 'not-an-email' } } });
      expect(badEmail.statusCode).toBe(400);
      expect(badEmail.json().message).toBe('Validation failed');
      expect(badEmail.json().details.map((d: { field: string }) => d.field)).toEqual(['body.adminUser.email']);

      const blank = await inject({ method: 'POST', url: REGISTER, payload: { ...reg, organization: { ...reg.organization, name: '' } } });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().details.map((d: { field: string }) => d.field)).toEqual(['body.organization.name']);

      const wrongType = await inject({ method: 'POST', url: REGISTER, payload: { ...reg, organization: { ...reg.organization, dotNumber: 1234567 } } });
      expect(wrongType.statusCode).toBe(400);

      const malformed = await inject({ method: 'POST', url: REGISTER, headers: { 'content-type': 'application/json' }, payload: '{"organization":' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Malformed JSON body' });
    });

    it('rejects unknown fields at every level', async () => {
      const reg = buildRegistration();
      const res = await inject({
        method: 'POST',
        url: REGISTER,
        payload: { ...reg, plan: 'enterprise', organization: { ...reg.organization, status: 'ACTIVE' }, adminUser: { ...reg.adminUser, role: 'SUPER_ADMIN' } },
      });
      expect(res.statusCode).toBe(400);
      const details = res.json().details as Array<{ field: string; message: string }>;
      expect(details).toEqual(
        expect.arrayContaining([
          { field: 'body.plan', message: 'is not a known property' },
          { field: 'body.organization.status', message: 'is not a known property' },
          { field: 'body.adminUser.role', message: 'is not a known property' },
        ]),
      );
    });

    it('rejects a duplicate e-mail (any case, and the platform administrator address) with 400 and creates nothing', async () => {
      const first = buildRegistration();
      expect((await inject({ method: 'POST', url: REGISTER, payload: first })).statusCode).toBe(201);
      const countBefore = (await inject({ method: 'GET', url: '/api/v1/admin/tenants?pageSize=1', headers: admin })).json().total;

      const again = await inject({ method: 'POST', url: REGISTER, payload: buildRegistration({ email: first.adminUser.email }) });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/already exists/) });

      const upper = await inject({ method: 'POST', url: REGISTER, payload: buildRegistration({ email: first.adminUser.email.toUpperCase() }) });
      expect(upper.statusCode).toBe(400);

      const asAdmin = await inject({ method: 'POST', url: REGISTER, payload: buildRegistration({ email: ADMIN_EMAIL }) });
      expect(asAdmin.statusCode).toBe(400);

      const countAfter = (await inject({ method: 'GET', url: '/api/v1/admin/tenants?pageSize=1', headers: admin })).json().total;
      expect(countAfter).toBe(countBefore);
    });
  });

  describe('PENDING_APPROVAL', () => {
    it('may sign in and read its profile, but not create or list drivers or manage users', async () => {
      const reg = buildRegistration({ name: 'Pending Haulers' });
      expect((await inject({ method: 'POST', url: REGISTER, payload: reg })).statusCode).toBe(201);

      const login = await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: reg.adminUser.email, password: reg.adminUser.password } });
      expect(login.statusCode).toBe(200);
      expect(login.json().user).toMatchObject({ role: 'OWNER', tenantStatus: 'PENDING_APPROVAL' });
      const auth = { authorization: `Bearer ${login.json().accessToken}` };

      const me = await inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email: reg.adminUser.email, role: 'OWNER', tenantStatus: 'PENDING_APPROVAL' });

      const tenant = await inject({ method: 'GET', url: '/api/v1/tenant', headers: auth });
      expect(tenant.statusCode).toBe(200);
      expect(tenant.json()).toMatchObject({
        name: 'Pending Haulers',
        status: 'PENDING_APPROVAL',
        address: reg.organization.address,
        phone: reg.organization.phone,
        contactEmail: reg.organization.contactEmail,
      });

      const driver = await inject({ method: 'POST', url: '/api/v1/drivers', headers: auth, payload: buildDriver() });
      expect(driver.statusCode).toBe(403);
      expect(driver.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(/pending approval/) });
      expect(driver.json().message).toContain('Pending Haulers');

      for (const url of ['/api/v1/drivers', '/api/v1/users', '/api/v1/user-invitations']) {
        const res = await inject({ method: 'GET', url, headers: auth });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().message, url).toMatch(/pending approval/);
      }
      const key = await inject({ method: 'POST', url: '/api/v1/api-keys', headers: auth, payload: { name: 'too early' } });
      expect(key.statusCode).toBe(403);
    });
  });

  describe('platform administration', () => {
    it('lists tenants, filtered by status, with the review fields', async () => {
      const pending = await createTenant(t.app, { approve: false, name: 'List Pending' });
      const active = await createTenant(t.app, { name: 'List Active' });

      const pendingList = await inject({ method: 'GET', url: '/api/v1/admin/tenants?status=PENDING_APPROVAL&pageSize=100', headers: admin });
      expect(pendingList.statusCode).toBe(200);
      const pl = pendingList.json();
      expect(pl).toMatchObject({ page: 1, pageSize: 100 });
      expect(pl.data.every((x: { status: string }) => x.status === 'PENDING_APPROVAL')).toBe(true);
      expect(pl.total).toBe(pl.data.length);
      const row = pl.data.find((x: { id: string }) => x.id === pending.tenantId);
      expect(row).toMatchObject({ name: 'List Pending', status: 'PENDING_APPROVAL', statusReason: null, reviewedAt: null });
      expect(row).toHaveProperty('contactEmail');
      expect(pl.data.some((x: { id: string }) => x.id === active.tenantId)).toBe(false);

      const activeList = (await inject({ method: 'GET', url: '/api/v1/admin/tenants?status=ACTIVE&pageSize=100', headers: admin })).json();
      expect(activeList.data.some((x: { id: string }) => x.id === active.tenantId)).toBe(true);
      expect(activeList.data.some((x: { id: string }) => x.id === pending.tenantId)).toBe(false);

      const all = (await inject({ method: 'GET', url: '/api/v1/admin/tenants?pageSize=100', headers: admin })).json();
      expect(all.total).toBeGreaterThanOrEqual(pl.total + activeList.total);

      const paged = (await inject({ method: 'GET', url: '/api/v1/admin/tenants?page=2&pageSize=1', headers: admin })).json();
      expect(paged).toMatchObject({ page: 2, pageSize: 1, total: all.total });
      expect(paged.data).toHaveLength(1);

      expect((await inject({ method: 'GET', url: '/api/v1/admin/tenants?status=BOGUS', headers: admin })).statusCode).toBe(400);
    });

    it('is reserved for the platform administrator; the administrator cannot use tenant endpoints', async () => {
      const tenant = await createTenant(t.app);
      expect((await inject({ method: 'GET', url: '/api/v1/admin/tenants' })).statusCode).toBe(401);
      const asOwner = await inject({ method: 'GET', url: '/api/v1/admin/tenants', headers: tenant.auth });
      expect(asOwner.statusCode).toBe(403);
      const approveAsOwner = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${tenant.tenantId}/suspend`, headers: tenant.auth });
      expect(approveAsOwner.statusCode).toBe(403);
      const key = await createApiKey(t.app, tenant);
      expect((await inject({ method: 'GET', url: '/api/v1/admin/tenants', headers: { 'x-api-key': key.key } })).statusCode).toBe(403);
      expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: admin })).statusCode).toBe(403);
      expect((await inject({ method: 'GET', url: '/api/v1/auth/me', headers: admin })).statusCode).toBe(403);
    });

    it('approves: the tenant becomes ACTIVE, the owner is e-mailed, every feature opens', async () => {
      const tenant = await createTenant(t.app, { approve: false, name: 'Approve Me Inc' });
      const sentBefore = t.mailer.sent.length;
      const res = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${tenant.tenantId}/approve`, headers: admin });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: tenant.tenantId, status: 'ACTIVE', reviewedAt: t.clock.now().toISOString(), statusReason: null });

      const mails = t.mailer.sent.slice(sentBefore);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.to).toContain(tenant.email);
      expect(mails[0]!.subject).toMatch(/approved/i);
      expect(mails[0]!.subject).toContain('Approve Me Inc');
      expect(mails[0]!.text).toMatch(/approved/i);

      // The same access token now reaches everything (the tenant status is not baked into the token).
      const driver = await inject({ method: 'POST', url: '/api/v1/drivers', headers: tenant.auth, payload: buildDriver() });
      expect(driver.statusCode).toBe(201);
      expect((await inject({ method: 'GET', url: '/api/v1/tenant', headers: tenant.auth })).json().status).toBe('ACTIVE');
      expect((await inject({ method: 'GET', url: '/api/v1/auth/me', headers: tenant.auth })).json().tenantStatus).toBe('ACTIVE');
    });

    it('rejects with a reason: REJECTED, e-mailed with the reason, still no drivers; cannot be approved later', async () => {
      const tenant = await createTenant(t.app, { approve: false, name: 'Reject Me LLC' });
      const sentBefore = t.mailer.sent.length;
      const res = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${tenant.tenantId}/reject`, headers: admin, payload: { reason: 'DOT number does not match' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'REJECTED', statusReason: 'DOT number does not match' });
      const mail = t.mailer.sent.slice(sentBefore)[0]!;
      expect(mail.to).toContain(tenant.email);
      expect(mail.text).toContain('DOT number does not match');

      const driver = await inject({ method: 'POST', url: '/api/v1/drivers', headers: tenant.auth, payload: buildDriver() });
      expect(driver.statusCode).toBe(403);
      expect(driver.json().message).toMatch(/rejected/);
      const approve = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${tenant.tenantId}/approve`, headers: admin });
      expect(approve.statusCode).toBe(400);
      const list = (await inject({ method: 'GET', url: '/api/v1/admin/tenants?status=REJECTED&pageSize=100', headers: admin })).json();
      expect(list.data.map((x: { id: string }) => x.id)).toContain(tenant.tenantId);
    });

    it('suspends: every request of the tenant is 403 naming it and saying to contact support; login and refresh too; other tenants unaffected', async () => {
      const tenant = await createTenant(t.app, { name: 'Suspended Trucking' });
      const other = await createTenant(t.app, { name: 'Unaffected Trucking' });
      const driver = await inject({ method: 'POST', url: '/api/v1/drivers', headers: tenant.auth, payload: buildDriver() });
      expect(driver.statusCode).toBe(201);
      const key = await createApiKey(t.app, tenant);
      const session = await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: tenant.email, password: tenant.password } });
      const cookie = refreshCookieOf(session);

      const sentBefore = t.mailer.sent.length;
      const res = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${tenant.tenantId}/suspend`, headers: admin, payload: { reason: 'Unpaid invoices' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'SUSPENDED', statusReason: 'Unpaid invoices' });
      const mail = t.mailer.sent.slice(sentBefore)[0]!;
      expect(mail.subject).toMatch(/suspended/i);
      expect(mail.text).toContain('Unpaid invoices');

      const expectSuspended = (r: { statusCode: number; json(): { statusCode: number; error: string; message: string } }, what: string) => {
        expect(r.statusCode, what).toBe(403);
        const body = r.json();
        expect(body, what).toMatchObject({ statusCode: 403, error: 'Forbidden' });
        expect(body.message, what).toContain('Suspended Trucking');
        expect(body.message, what).toMatch(/contact support/i);
      };
      const requests: Array<[string, InjectOptions]> = [
        ['me', { method: 'GET', url: '/api/v1/auth/me', headers: tenant.auth }],
        ['tenant', { method: 'GET', url: '/api/v1/tenant', headers: tenant.auth }],
        ['list drivers', { method: 'GET', url: '/api/v1/drivers', headers: tenant.auth }],
        ['get driver', { method: 'GET', url: `/api/v1/drivers/${driver.json().id}`, headers: tenant.auth }],
        ['create driver', { method: 'POST', url: '/api/v1/drivers', headers: tenant.auth, payload: buildDriver() }],
        ['users', { method: 'GET', url: '/api/v1/users', headers: tenant.auth }],
        ['api keys', { method: 'GET', url: '/api/v1/api-keys', headers: tenant.auth }],
        ['api key', { method: 'GET', url: '/api/v1/drivers', headers: { 'x-api-key': key.key } }],
        ['api key bearer', { method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${key.key}` } }],
        ['login', { method: 'POST', url: '/api/v1/auth/login', payload: { email: tenant.email, password: tenant.password } }],
        ['mock login', { method: 'POST', url: '/api/v1/auth/login', payload: { user_id: tenant.ownerId } }],
        ['refresh', { method: 'POST', url: '/api/v1/auth/refresh', cookies: { refresh_token: cookie } }],
      ];
      for (const [what, req] of requests) expectSuspended(await inject(req), what);

      // A wrong password still answers 401: suspension does not reveal which passwords are right.
      expect((await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: tenant.email, password: 'wrong-password' } })).statusCode).toBe(401);
      // Other tenants carry on.
      expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: other.auth })).statusCode).toBe(200);
    });

    it('reactivates a suspended tenant: ACTIVE again, existing tokens and data work again', async () => {
      const tenant = await createTenant(t.app, { name: 'Comeback Carriers' });
      const driver = await inject({ method: 'POST', url: '/api/v1/drivers', headers: tenant.auth, payload: buildDriver() });
      await adminAction(t.app, tenant.tenantId, 'suspend', 'Audit');
      expect((await inject({ method: 'GET', url: '/api/v1/drivers', headers: tenant.auth })).statusCode).toBe(403);

      const sentBefore = t.mailer.sent.length;
      const res = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${tenant.tenantId}/reactivate`, headers: admin });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ACTIVE', statusReason: null });
      expect(t.mailer.sent.slice(sentBefore)[0]!.subject).toMatch(/active again/i);

      const list = await inject({ method: 'GET', url: '/api/v1/drivers', headers: tenant.auth });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((d: { id: string }) => d.id)).toEqual([driver.json().id]);
      expect((await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: tenant.email, password: tenant.password } })).statusCode).toBe(200);
    });

    it('refuses transitions the state machine does not allow with 400', async () => {
      const active = await createTenant(t.app);
      const pending = await createTenant(t.app, { approve: false });
      const cases: Array<[string, string, RegExp]> = [
        [active.tenantId, 'approve', /Cannot approve a tenant that is ACTIVE/],
        [active.tenantId, 'reject', /Cannot reject a tenant that is ACTIVE/],
        [active.tenantId, 'reactivate', /Cannot reactivate a tenant that is ACTIVE/],
        [pending.tenantId, 'suspend', /Cannot suspend a tenant that is PENDING_APPROVAL/],
        [pending.tenantId, 'reactivate', /Cannot reactivate a tenant that is PENDING_APPROVAL/],
      ];
      for (const [id, action, message] of cases) {
        const res = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${id}/${action}`, headers: admin });
        expect(res.statusCode, action).toBe(400);
        expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(message) });
      }
      await adminAction(t.app, active.tenantId, 'suspend');
      const twice = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${active.tenantId}/suspend`, headers: admin });
      expect(twice.statusCode).toBe(400);
      const approveSuspended = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${active.tenantId}/approve`, headers: admin });
      expect(approveSuspended.statusCode).toBe(400);
      // Nothing changed.
      const row = (await inject({ method: 'GET', url: '/api/v1/admin/tenants?status=SUSPENDED&pageSize=100', headers: admin })).json();
      expect(row.data.map((x: { id: string }) => x.id)).toContain(active.tenantId);
    });

    it('answers 404 for an unknown tenant and 400 for a malformed id or body', async () => {
      const unknown = await inject({ method: 'POST', url: '/api/v1/admin/tenants/tnt_0000000000000000000000/approve', headers: admin });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Tenant not found' });
      const suspendUnknown = await inject({ method: 'POST', url: '/api/v1/admin/tenants/tnt_0000000000000000000000/suspend', headers: admin, payload: { reason: 'x' } });
      expect(suspendUnknown.statusCode).toBe(404);

      expect((await inject({ method: 'POST', url: '/api/v1/admin/tenants/not-a-tenant/approve', headers: admin })).statusCode).toBe(400);
      const tenant = await createTenant(t.app);
      const extra = await inject({ method: 'POST', url: `/api/v1/admin/tenants/${tenant.tenantId}/suspend`, headers: admin, payload: { reason: 'x', force: true } });
      expect(extra.statusCode).toBe(400);
    });
  });
});
