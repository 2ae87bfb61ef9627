import type { App } from '../../src/app.js';
import { randomBase62 } from '../../src/lib/ids.js';
import type { MemoryMailer } from '../../src/infra/mailer.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './app.js';

export interface TenantFixture {
  tenantId: string;
  ownerId: string;
  email: string;
  password: string;
  token: string;
  auth: { authorization: string };
}

const unique = () => randomBase62(8).toLowerCase();

export function buildRegistration(overrides: { name?: string; email?: string; password?: string } = {}) {
  const u = unique();
  return {
    organization: {
      name: overrides.name ?? `Carrier ${u}`,
      address: '100 Commerce St, Dallas, TX 75201',
      phone: '+1 214 555 0100',
      contactEmail: `ops-${u}@example.test`,
      dotNumber: '1234567',
      mcNumber: 'MC-765432',
    },
    adminUser: { firstName: 'Olivia', lastName: 'Owner', email: overrides.email ?? `owner-${u}@example.test`, password: overrides.password ?? 'correct-horse-battery' },
  };
}

export async function login(app: App, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json<{ accessToken: string }>().accessToken;
}

export async function adminToken(app: App): Promise<string> {
  return login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
}

export async function adminAction(app: App, tenantId: string, action: 'approve' | 'reject' | 'suspend' | 'reactivate', reason?: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/admin/tenants/${tenantId}/${action}`,
    headers: { authorization: `Bearer ${await adminToken(app)}` },
    ...(reason ? { payload: { reason } } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`${action} failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Registers a tenant and signs its OWNER in; approved (ACTIVE) unless told otherwise. */
export async function createTenant(app: App, opts: { approve?: boolean; name?: string } = {}): Promise<TenantFixture> {
  const body = buildRegistration({ name: opts.name });
  const res = await app.inject({ method: 'POST', url: '/api/v1/tenants/register', payload: body });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const { tenant, user } = res.json<{ tenant: { id: string }; user: { id: string } }>();
  if (opts.approve !== false) await adminAction(app, tenant.id, 'approve');
  const token = await login(app, body.adminUser.email, body.adminUser.password);
  return { tenantId: tenant.id, ownerId: user.id, email: body.adminUser.email, password: body.adminUser.password, token, auth: { authorization: `Bearer ${token}` } };
}

/** The token in the most recent invitation e-mail to this address. */
export function invitationTokenFor(mailer: MemoryMailer, email: string): string {
  const mail = [...mailer.sent].reverse().find((m) => m.to === email && /accept-invitation\?token=/.test(m.text));
  if (!mail) throw new Error(`no invitation mail to ${email}`);
  return decodeURIComponent(/accept-invitation\?token=([^\s]+)/.exec(mail.text)![1]!);
}

/** A user of the given role in the tenant, created through the real invitation flow. */
export async function createUser(app: App, mailer: MemoryMailer, tenant: TenantFixture, role: string, extra: { driverId?: string } = {}) {
  const email = `${role.toLowerCase()}-${unique()}@example.test`;
  const inv = await app.inject({ method: 'POST', url: '/api/v1/user-invitations', headers: tenant.auth, payload: { email, role, firstName: 'Test', lastName: role, ...extra } });
  if (inv.statusCode !== 201) throw new Error(`invite failed: ${inv.statusCode} ${inv.body}`);
  const res = await app.inject({ method: 'POST', url: '/api/v1/user-invitations/accept', payload: { token: invitationTokenFor(mailer, email), password: 'another-good-password' } });
  if (res.statusCode !== 201) throw new Error(`accept failed: ${res.statusCode} ${res.body}`);
  const { accessToken, user } = res.json<{ accessToken: string; user: { id: string } }>();
  return { userId: user.id, email, token: accessToken, auth: { authorization: `Bearer ${accessToken}` } };
}

export async function createApiKey(app: App, tenant: TenantFixture, name = 'integration') {
  const res = await app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: tenant.auth, payload: { name } });
  if (res.statusCode !== 201) throw new Error(`api key failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; key: string }>();
}

let license = 0;
export function buildDriver(overrides: Record<string, unknown> = {}) {
  license += 1;
  return { firstName: 'Dana', lastName: 'Driver', licenseNumber: `CDL${unique().toUpperCase()}${license}`, licenseState: 'TX', truckNumber: `T-${license}`, ...overrides };
}

export async function createDriver(app: App, auth: Record<string, string>, overrides: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/drivers', headers: auth, payload: buildDriver(overrides) });
  if (res.statusCode !== 201) throw new Error(`create driver failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; licenseNumber: string; [k: string]: unknown }>();
}

/**
 * A planned route for a new driver (Dallas, TX → Oklahoma City, OK by coordinates, departing at
 * `departureTime`), activated unless told otherwise.
 */
export async function createActiveRoute(app: App, auth: Record<string, string>, opts: { departureTime?: string; activate?: boolean; stops?: unknown[] } = {}) {
  const driver = await createDriver(app, auth);
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/routes/plan',
    headers: auth,
    payload: {
      driverId: driver.id,
      departureTime: opts.departureTime ?? new Date().toISOString(),
      stops: opts.stops ?? [
        { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
        { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, type: 'DELIVERY', dockDurationHours: 1 },
      ],
      driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
    },
  });
  if (res.statusCode !== 201) throw new Error(`plan failed: ${res.statusCode} ${res.body}`);
  const plan = res.json<{ id: string; segments: { type: string }[]; stops: unknown[] }>();
  if (opts.activate !== false) {
    const activated = await app.inject({ method: 'POST', url: `/api/v1/routes/${plan.id}/activate`, headers: auth });
    if (activated.statusCode !== 200) throw new Error(`activate failed: ${activated.statusCode} ${activated.body}`);
  }
  return { routeId: plan.id, driverId: driver.id, plan };
}
