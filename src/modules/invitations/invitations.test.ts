import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { adminAction, createDriver, createTenant, createUser, invitationTokenFor, login, type TenantFixture } from '../../../test/helpers/factories.js';
import { INVITATION_TTL_MS } from './invitations.service.js';

const INVITATIONS = '/api/v1/user-invitations';
const ACCEPT = '/api/v1/user-invitations/accept';
const SEVEN_DAYS_MS = 7 * 24 * 3_600_000;

let seq = 0;
const newEmail = (what: string) => `${what}-${Date.now().toString(36)}-${++seq}@example.test`;

describe.each(DB_KINDS)('user invitations (%s)', (kind) => {
  let t: TestApp;
  let tenant: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    tenant = await createTenant(t.app, { name: 'Invite Logistics' });
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);
  /** The owner's token: fresh, because some tests move the clock past its expiry. */
  const ownerAuth = async (tn: TenantFixture = tenant) => ({ authorization: `Bearer ${await login(t.app, tn.email, tn.password)}` });
  const invite = async (payload: Record<string, unknown>, auth?: Record<string, string>) =>
    inject({ method: 'POST', url: INVITATIONS, headers: auth ?? (await ownerAuth()), payload });
  const accept = (token: string, extra: Record<string, unknown> = {}) => inject({ method: 'POST', url: ACCEPT, payload: { token, password: 'invitee-password-1', ...extra } });

  it('creates a PENDING invitation expiring 7 days after creation and e-mails a link carrying the token', async () => {
    const email = newEmail('dispatcher');
    const sentBefore = t.mailer.sent.length;
    const res = await invite({ email, role: 'DISPATCHER', firstName: 'Dee', lastName: 'Spatcher' });
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect(inv).toEqual({
      id: expect.stringMatching(/^inv_[0-9A-Za-z]{22}$/),
      email,
      role: 'DISPATCHER',
      firstName: 'Dee',
      lastName: 'Spatcher',
      driverId: null,
      status: 'PENDING',
      invitedBy: tenant.ownerId,
      expiresAt: new Date(t.clock.now().getTime() + SEVEN_DAYS_MS).toISOString(),
      createdAt: t.clock.now().toISOString(),
      acceptedAt: null,
      revokedAt: null,
    });
    expect(INVITATION_TTL_MS).toBe(SEVEN_DAYS_MS);
    expect(new Date(inv.expiresAt).getTime() - new Date(inv.createdAt).getTime()).toBe(SEVEN_DAYS_MS);

    const mails = t.mailer.sent.slice(sentBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(email);
    expect(mails[0]!.subject).toContain('Invite Logistics');
    expect(mails[0]!.text).toMatch(/http:\/\/localhost:3000\/accept-invitation\?token=[A-Za-z0-9_%-]{43,}/);
    expect(mails[0]!.text).toContain('DISPATCHER');
    const token = invitationTokenFor(t.mailer, email);
    expect(token.length).toBeGreaterThanOrEqual(43);
    // The token is only in the e-mail.
    expect(res.body).not.toContain(token);
    const list = await inject({ method: 'GET', url: `${INVITATIONS}?pageSize=100`, headers: await ownerAuth() });
    expect(list.body).not.toContain(token);
  });

  it('lists invitations newest first, with the record fields; only OWNER and ADMIN manage them', async () => {
    const other = await createTenant(t.app);
    const first = await invite({ email: newEmail('a'), role: 'VIEWER' }, other.auth);
    t.clock.advance(1000);
    const second = await invite({ email: newEmail('b'), role: 'DRIVER' }, other.auth);
    const res = await inject({ method: 'GET', url: INVITATIONS, headers: other.auth });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(page.data.map((i: { id: string }) => i.id)).toEqual([second.json().id, first.json().id]);
    expect(page.data[0]).toEqual(second.json());

    // Tenant isolation.
    const mine = (await inject({ method: 'GET', url: `${INVITATIONS}?pageSize=100`, headers: await ownerAuth() })).json();
    expect(mine.data.map((i: { id: string }) => i.id)).not.toContain(first.json().id);
    expect((await inject({ method: 'DELETE', url: `${INVITATIONS}/${first.json().id}`, headers: await ownerAuth() })).statusCode).toBe(404);

    const admin = await createUser(t.app, t.mailer, other, 'ADMIN');
    expect((await inject({ method: 'GET', url: INVITATIONS, headers: admin.auth })).statusCode).toBe(200);
    const dispatcher = await createUser(t.app, t.mailer, other, 'DISPATCHER');
    expect((await inject({ method: 'GET', url: INVITATIONS, headers: dispatcher.auth })).statusCode).toBe(403);
    expect((await invite({ email: newEmail('c'), role: 'VIEWER' }, dispatcher.auth)).statusCode).toBe(403);
    // An ADMIN may not invite an OWNER.
    const ownerInvite = await invite({ email: newEmail('d'), role: 'OWNER' }, admin.auth);
    expect(ownerInvite.statusCode).toBe(403);
  });

  it('validates the request and refuses duplicates', async () => {
    const cases: Array<Record<string, unknown>> = [
      {},
      { email: newEmail('x') },
      { email: 'not-an-email', role: 'VIEWER' },
      { email: newEmail('x'), role: 'SUPER_ADMIN' },
      { email: newEmail('x'), role: 'VIEWER', extra: true },
      { email: newEmail('x'), role: 'DRIVER', driverId: 'not-a-driver' },
    ];
    const auth = await ownerAuth();
    for (const payload of cases) {
      const res = await invite(payload, auth);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe('Validation failed');
    }
    // An existing account's address, and a second pending invitation to the same address.
    expect((await invite({ email: tenant.email, role: 'VIEWER' }, auth)).statusCode).toBe(400);
    const email = newEmail('twice');
    expect((await invite({ email, role: 'VIEWER' }, auth)).statusCode).toBe(201);
    const again = await invite({ email: email.toUpperCase(), role: 'ADMIN' }, auth);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/pending invitation/);
  });

  it('accepts: 201 with an access token and the refresh cookie; the account can sign in; a second accept is 400', async () => {
    const email = newEmail('viewer');
    const inv = (await invite({ email, role: 'VIEWER', firstName: 'Vic', lastName: 'Viewer' })).json();
    const token = invitationTokenFor(t.mailer, email);
    t.clock.advance(1000);
    const res = await accept(token);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'user']);
    expect(body.user).toMatchObject({ email, firstName: 'Vic', lastName: 'Viewer', role: 'VIEWER', tenantId: tenant.tenantId, tenantStatus: 'ACTIVE' });
    expect(body.user.id).toMatch(/^usr_/);
    const cookie = res.cookies.find((c) => c.name === 'refresh_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/auth' });
    expect(res.body).not.toContain(cookie!.value);

    const me = await inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${body.accessToken}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ userId: body.user.id, role: 'VIEWER', tenantId: tenant.tenantId });
    expect(await login(t.app, email, 'invitee-password-1')).toBeTruthy();

    const second = await accept(token);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/already been used/) });

    const listed = (await inject({ method: 'GET', url: `${INVITATIONS}?pageSize=100`, headers: await ownerAuth() })).json();
    expect(listed.data.find((i: { id: string }) => i.id === inv.id)).toMatchObject({ status: 'ACCEPTED', acceptedAt: t.clock.now().toISOString() });
    // An accepted invitation cannot be revoked.
    expect((await inject({ method: 'DELETE', url: `${INVITATIONS}/${inv.id}`, headers: await ownerAuth() })).statusCode).toBe(400);
  });

  it('accept takes names from the request when the invitation has none, and validates its body', async () => {
    const email = newEmail('nameless');
    await invite({ email, role: 'VIEWER' });
    const token = invitationTokenFor(t.mailer, email);
    const noNames = await accept(token);
    expect(noNames.statusCode).toBe(400);
    expect(noNames.json().details[0].field).toBe('body.firstName');
    expect((await accept(token, { password: 'short' })).statusCode).toBe(400);
    expect((await accept('x'.repeat(43), { firstName: 'A', lastName: 'B' })).statusCode).toBe(400);
    expect((await accept('tooshort')).statusCode).toBe(400);
    const ok = await accept(token, { firstName: 'Nia', lastName: 'Named' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().user).toMatchObject({ firstName: 'Nia', lastName: 'Named' });
  });

  it('revokes a pending invitation: then accept is 400 revoked; revoking twice is 400; unknown is 404', async () => {
    const email = newEmail('revoked');
    const inv = (await invite({ email, role: 'ADMIN', firstName: 'R', lastName: 'V' })).json();
    const token = invitationTokenFor(t.mailer, email);
    const res = await inject({ method: 'DELETE', url: `${INVITATIONS}/${inv.id}`, headers: await ownerAuth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: inv.id, status: 'REVOKED', revokedAt: t.clock.now().toISOString() });

    const accepted = await accept(token);
    expect(accepted.statusCode).toBe(400);
    expect(accepted.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/revoked/) });
    expect(accepted.headers['set-cookie']).toBeUndefined();

    expect((await inject({ method: 'DELETE', url: `${INVITATIONS}/${inv.id}`, headers: await ownerAuth() })).statusCode).toBe(400);
    expect((await inject({ method: 'DELETE', url: `${INVITATIONS}/inv_0000000000000000000000`, headers: await ownerAuth() })).statusCode).toBe(404);
    // A new invitation to the same address is possible after revocation.
    expect((await invite({ email, role: 'ADMIN', firstName: 'R', lastName: 'V' })).statusCode).toBe(201);
  });

  it('expires after 7 days: accept is 400 and the list shows EXPIRED; one second earlier it still works', async () => {
    const early = newEmail('just-in-time');
    const late = newEmail('too-late');
    const invEarly = (await invite({ email: early, role: 'VIEWER', firstName: 'J', lastName: 'T' })).json();
    const invLate = (await invite({ email: late, role: 'VIEWER', firstName: 'T', lastName: 'L' })).json();

    t.clock.advance(SEVEN_DAYS_MS - 1000);
    expect((await accept(invitationTokenFor(t.mailer, early))).statusCode).toBe(201);

    t.clock.advance(1000);
    const expired = await accept(invitationTokenFor(t.mailer, late));
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/expired/) });

    const auth = await ownerAuth();
    const list = (await inject({ method: 'GET', url: `${INVITATIONS}?pageSize=100`, headers: auth })).json();
    const byId = new Map((list.data as Array<{ id: string; status: string }>).map((i) => [i.id, i.status]));
    expect(byId.get(invLate.id)).toBe('EXPIRED');
    expect(byId.get(invEarly.id)).toBe('ACCEPTED');
    // Once the old invitation has expired, the address can be invited again.
    expect((await invite({ email: late, role: 'VIEWER', firstName: 'T', lastName: 'L' }, auth)).statusCode).toBe(201);
  });

  it('looks an invitation up by its token: who invites whom to what; then the same reasons as accept once unusable', async () => {
    const lookup = (token: string) => inject({ method: 'POST', url: '/api/v1/user-invitations/lookup', payload: { token } });
    const auth = await ownerAuth();
    const driver = await createDriver(t.app, auth);
    const email = newEmail('lookup');
    const inv = (await invite({ email, role: 'DRIVER', driverId: driver.id }, auth)).json();
    const token = invitationTokenFor(t.mailer, email);

    const res = await lookup(token);
    expect(res.statusCode, res.body).toBe(200);
    const owner = (await inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth })).json();
    expect(res.json()).toEqual({
      email,
      role: 'DRIVER',
      firstName: null,
      lastName: null,
      organizationName: 'Invite Logistics',
      invitedByName: `${owner.firstName} ${owner.lastName}`,
      linksDriverProfile: true,
      expiresAt: inv.expiresAt,
    });
    // Nothing changes: the invitation is still pending and can be accepted.
    expect((await accept(token, { firstName: 'Lu', lastName: 'Kup' })).statusCode).toBe(201);
    expect(await lookup(token).then((r) => [r.statusCode, r.json().message])).toEqual([400, 'This invitation has already been used']);
    expect(await lookup('x'.repeat(43)).then((r) => [r.statusCode, r.json().message])).toEqual([400, 'This invitation link is not valid']);
    expect((await lookup('short')).statusCode).toBe(400);

    const revokedEmail = newEmail('lookup-revoked');
    const revoked = (await invite({ email: revokedEmail, role: 'VIEWER', firstName: 'R', lastName: 'V' }, auth)).json();
    expect((await inject({ method: 'DELETE', url: `${INVITATIONS}/${revoked.id}`, headers: auth })).statusCode).toBe(200);
    expect((await lookup(invitationTokenFor(t.mailer, revokedEmail))).json().message).toBe('This invitation has been revoked');

    const lateEmail = newEmail('lookup-late');
    await invite({ email: lateEmail, role: 'VIEWER', firstName: 'L', lastName: 'T' }, auth);
    const named = await lookup(invitationTokenFor(t.mailer, lateEmail));
    expect(named.json()).toMatchObject({ firstName: 'L', lastName: 'T', linksDriverProfile: false, role: 'VIEWER' });
    t.clock.advance(SEVEN_DAYS_MS);
    const expired = await lookup(invitationTokenFor(t.mailer, lateEmail));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toMatch(/expired/);
  });

  it('a DRIVER invitation with driverId links the driver: the user sees only that driver', async () => {
    const auth = await ownerAuth();
    const mine = await createDriver(t.app, auth);
    const colleague = await createDriver(t.app, auth);
    const email = newEmail('driver');
    const inv = await invite({ email, role: 'DRIVER', driverId: mine.id, firstName: 'Dana', lastName: 'Driver' }, auth);
    expect(inv.statusCode).toBe(201);
    expect(inv.json()).toMatchObject({ role: 'DRIVER', driverId: mine.id, status: 'PENDING' });

    const res = await accept(invitationTokenFor(t.mailer, email));
    expect(res.statusCode).toBe(201);
    const driverAuth = { authorization: `Bearer ${res.json().accessToken}` };
    const userId = res.json().user.id as string;

    const me = (await inject({ method: 'GET', url: '/api/v1/auth/me', headers: driverAuth })).json();
    expect(me).toMatchObject({ userId, role: 'DRIVER', driverId: mine.id });

    const list = await inject({ method: 'GET', url: '/api/v1/drivers', headers: driverAuth });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1 });
    expect(list.json().data.map((d: { id: string }) => d.id)).toEqual([mine.id]);

    const own = await inject({ method: 'GET', url: `/api/v1/drivers/${mine.id}`, headers: driverAuth });
    expect(own.statusCode).toBe(200);
    expect(own.json().userId).toBe(userId);
    const hidden = await inject({ method: 'GET', url: `/api/v1/drivers/${colleague.id}`, headers: driverAuth });
    expect(hidden.statusCode).toBe(404);
    // A DRIVER does not write drivers.
    expect((await inject({ method: 'PUT', url: `/api/v1/drivers/${mine.id}`, headers: driverAuth, payload: { truckNumber: 'X' } })).statusCode).toBe(403);

    // The owner sees the link in both directions.
    const owner = await ownerAuth();
    expect((await inject({ method: 'GET', url: `/api/v1/drivers/${mine.id}`, headers: owner })).json().userId).toBe(userId);
    expect((await inject({ method: 'GET', url: `/api/v1/users/${userId}`, headers: owner })).json().driverId).toBe(mine.id);

    // The linked driver cannot be offered to a second user.
    const twice = await invite({ email: newEmail('driver2'), role: 'DRIVER', driverId: mine.id, firstName: 'A', lastName: 'B' }, owner);
    expect(twice.statusCode).toBe(400);
  });

  it('a DRIVER user without a linked driver sees no drivers', async () => {
    const auth = await ownerAuth();
    await createDriver(t.app, auth);
    const driverUser = await createUser(t.app, t.mailer, { ...tenant, auth }, 'DRIVER');
    const list = (await inject({ method: 'GET', url: '/api/v1/drivers', headers: driverUser.auth })).json();
    expect(list).toMatchObject({ data: [], total: 0 });
    expect((await inject({ method: 'GET', url: '/api/v1/auth/me', headers: driverUser.auth })).json().driverId).toBeNull();
  });

  it('refuses driverId with a non-DRIVER role, an unknown driver, or a driver of another tenant (400)', async () => {
    const auth = await ownerAuth();
    const driver = await createDriver(t.app, auth);
    const nonDriver = await invite({ email: newEmail('dispatcher'), role: 'DISPATCHER', driverId: driver.id }, auth);
    expect(nonDriver.statusCode).toBe(400);
    expect(nonDriver.json()).toMatchObject({ message: 'Validation failed', details: [{ field: 'body.driverId', message: expect.stringMatching(/DRIVER/) }] });

    const unknown = await invite({ email: newEmail('ghost'), role: 'DRIVER', driverId: 'drv_0000000000000000000000' }, auth);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].field).toBe('body.driverId');

    const other = await createTenant(t.app);
    const foreign = await createDriver(t.app, other.auth);
    const res = await invite({ email: newEmail('foreign'), role: 'DRIVER', driverId: foreign.id }, auth);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Validation failed', details: [{ field: 'body.driverId', message: expect.stringMatching(/this organization/) }] });
    // Nothing was created.
    const list = (await inject({ method: 'GET', url: `${INVITATIONS}?pageSize=100`, headers: auth })).json();
    expect(list.data.some((i: { driverId: string | null }) => i.driverId === foreign.id)).toBe(false);
  });

  it('an invitation of a suspended tenant cannot be accepted (403 naming the tenant)', async () => {
    const other = await createTenant(t.app, { name: 'Soon Suspended Co' });
    const email = newEmail('suspended');
    expect((await invite({ email, role: 'VIEWER', firstName: 'S', lastName: 'U' }, other.auth)).statusCode).toBe(201);
    await adminAction(t.app, other.tenantId, 'suspend', 'Compliance review');
    const res = await accept(invitationTokenFor(t.mailer, email));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('Soon Suspended Co');
    expect(res.json().message).toMatch(/contact support/i);
  });
});
