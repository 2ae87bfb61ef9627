import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { DB_KINDS } from '../../test/helpers/db.js';
import { createActiveRoute, createDriver, createTenant, type TenantFixture } from '../../test/helpers/factories.js';
import { MemoryMailer } from '../infra/mailer.js';
import type { ApiCaller } from './api.js';
import { createDriverAccount, DEMO_DRIVER, DemoMailbox, invitationToken } from './driver-user.js';

describe('the demo mailbox', () => {
  it('forwards every message, keeps the last ones, and finds the latest invitation token to an address', async () => {
    const forward = new MemoryMailer();
    const box = new DemoMailbox(forward, 3);
    await box.send({ to: 'a@x.test', subject: 'Welcome', text: 'Your organization is approved.' });
    await box.send({ to: 'd@x.test', subject: 'Invited', text: 'Accept:\nhttp://localhost:3000/accept-invitation?token=first%2Dtoken\n' });
    await box.send({ to: 'd@x.test', subject: 'Invited', text: 'Accept:\nhttp://localhost:3000/accept-invitation?token=second_token\nbye' });
    expect(forward.sent).toHaveLength(3);
    expect(invitationToken(box.sent, 'd@x.test')).toBe('second_token');
    expect(invitationToken(box.sent.slice(0, 2), 'd@x.test')).toBe('first-token');
    expect(invitationToken(box.sent, 'a@x.test')).toBeNull();
    await box.send({ to: 'b@x.test', subject: 'x', text: 'y' });
    expect(box.sent.map((m) => m.to)).toEqual(['d@x.test', 'd@x.test', 'b@x.test']);
    expect(forward.sent).toHaveLength(4);
  });
});

describe.each(DB_KINDS)("the demo's driver account (%s)", (kind) => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await buildTestApp(kind);
    tenant = await createTenant(t.app, { name: 'Demo Freight Lines' });
  });
  afterAll(async () => t?.close());

  const caller = (headers: Record<string, string>): ApiCaller => ({
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await t.app.inject({ method: method as 'GET', url: path, headers, ...(body === undefined ? {} : { payload: body as object }) });
      if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode}: ${res.body}`);
      return res.json() as T;
    },
  });

  it('invites the driver through the API and accepts it: the account signs in as a DRIVER linked to that driver and sees only their routes', async () => {
    const mine = await createActiveRoute(t.app, tenant.auth);
    const other = await createActiveRoute(t.app, tenant.auth);
    const account = await createDriverAccount(caller(tenant.auth), caller({}), () => t.mailer.sent, {
      driverId: mine.driverId,
      spec: { unit: 'T-101', driver: { firstName: 'Maria', lastName: 'Lopez', licenseNumber: 'TX1' } },
    });
    expect(account).toMatchObject({ email: DEMO_DRIVER.email, password: DEMO_DRIVER.password, driverId: mine.driverId, name: 'Maria Lopez', unit: 'T-101' });

    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: DEMO_DRIVER.email, password: DEMO_DRIVER.password } });
    expect(login.statusCode, login.body).toBe(200);
    const auth = { authorization: `Bearer ${login.json().accessToken}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth })).json()).toMatchObject({ userId: account.userId, role: 'DRIVER', driverId: mine.driverId, firstName: 'Maria', lastName: 'Lopez' });
    const routes = (await t.app.inject({ method: 'GET', url: '/api/v1/routes', headers: auth })).json();
    expect(routes.data.map((r: { id: string }) => r.id)).toEqual([mine.routeId]);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${other.driverId}/hos`, headers: auth })).statusCode).toBe(404);

    // A second account for the same driver is refused (the profile is linked), and says why.
    const again = createDriverAccount(caller(tenant.auth), caller({}), () => t.mailer.sent, { driverId: mine.driverId, spec: { unit: 'T-101', driver: { firstName: 'M', lastName: 'L', licenseNumber: 'x' } } }, { email: 'second@demo.fleet', password: 'another-password' });
    await expect(again).rejects.toThrow(/already linked/);
    const unknown = await createDriver(t.app, tenant.auth);
    await expect(createDriverAccount(caller(tenant.auth), caller({}), () => [], { driverId: unknown.id, spec: { unit: 'X', driver: { firstName: 'N', lastName: 'O', licenseNumber: 'y' } } }, { email: 'nomail@demo.fleet', password: 'another-password' })).rejects.toThrow(
      /invitation e-mail to nomail@demo.fleet was not found/,
    );
  });
});
