/**
 * Tenants, trucks and their movements, through the public API only (as a carrier's dispatcher and its
 * trucks' telematics would): registration, approval, an API key, monitoring every 5 s, a webhook for
 * every event, active Dallas → Oklahoma City routes, and positions on or off the planned path.
 */
import { randomBytes } from 'node:crypto';
import { HttpApi } from '../../src/demo/api.js';

export const ADMIN = { email: 'soak-admin@example.test', password: 'soak-admin-password-0001' };

const ORIGIN = { latitude: 32.7767, longitude: -96.797 };
const DESTINATION = { latitude: 35.4676, longitude: -97.5164 };

export interface RouteHandle {
  id: string;
  driverId: string;
}

export interface TenantHandle {
  id: string;
  name: string;
  ownerEmail: string;
  ownerPassword: string;
  /** An access token of the owner (a dashboard's). */
  token: string;
  key: string;
  api: HttpApi;
  webhook?: { id: string; secret: string };
  routes: RouteHandle[];
}

/** The API as the platform administrator. */
export async function adminApi(base: string): Promise<HttpApi> {
  const { accessToken } = await new HttpApi(base).call<{ accessToken: string }>('POST', '/api/v1/auth/login', ADMIN);
  return new HttpApi(base, { authorization: `Bearer ${accessToken}` });
}

/** A new approved tenant with an API key, monitored every 5 s, deviations auto-resolved after a minute back on path. */
export async function provisionTenant(base: string, admin: HttpApi, opts: { name: string; routes: number; webhookUrl?: string }): Promise<TenantHandle> {
  const anonymous = new HttpApi(base);
  const tag = randomBytes(3).toString('hex');
  const ownerEmail = `owner-${tag}@soak.example.test`;
  const ownerPassword = `owner-password-${tag}`;
  const reg = await anonymous.call<{ tenant: { id: string } }>('POST', '/api/v1/tenants/register', {
    organization: { name: opts.name, address: '1 Soak Way, Dallas, TX 75201', phone: '+1 214 555 0100', contactEmail: `ops-${tag}@soak.example.test` },
    adminUser: { firstName: 'Soak', lastName: 'Owner', email: ownerEmail, password: ownerPassword },
  });
  await admin.call('POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`);
  const { accessToken } = await anonymous.call<{ accessToken: string }>('POST', '/api/v1/auth/login', { email: ownerEmail, password: ownerPassword });
  const owner = anonymous.as({ authorization: `Bearer ${accessToken}` });
  const { key } = await owner.call<{ key: string }>('POST', '/api/v1/api-keys', { name: 'soak' });
  const api = anonymous.as({ 'x-api-key': key });
  await api.call('PUT', '/api/v1/tenant/settings/monitoring', { monitoringIntervalSeconds: 5, autoResolveDeviationAfterMinutes: 1 });
  const tenant: TenantHandle = { id: reg.tenant.id, name: opts.name, ownerEmail, ownerPassword, token: accessToken, key, api, routes: [] };
  if (opts.webhookUrl) {
    const hook = await api.call<{ id: string; secret: string }>('POST', '/api/v1/webhooks', { url: opts.webhookUrl, events: ['*'], description: 'soak receiver' });
    tenant.webhook = { id: hook.id, secret: hook.secret };
  }
  for (let i = 0; i < opts.routes; i++) tenant.routes.push(await activeRoute(api, `${tag}${i}`));
  return tenant;
}

async function activeRoute(api: HttpApi, tag: string): Promise<RouteHandle> {
  const driver = await api.call<{ id: string }>('POST', '/api/v1/drivers', { firstName: 'Soak', lastName: `Driver ${tag}`, licenseNumber: `SOAK${tag}`.toUpperCase(), licenseState: 'TX' });
  const plan = await api.call<{ id: string }>('POST', '/api/v1/routes/plan', {
    driverId: driver.id,
    departureTime: new Date().toISOString(),
    stops: [
      { name: 'Dallas, TX', ...ORIGIN, type: 'ORIGIN' },
      { name: 'Oklahoma City, OK', ...DESTINATION, type: 'DELIVERY', dockDurationHours: 1 },
    ],
    driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
  });
  await api.call('POST', `/api/v1/routes/${plan.id}/activate`);
  return { id: plan.id, driverId: driver.id };
}

/** A point `fraction` of the way along the planned path, or ~30 miles east of it (`off`). */
export function positionOn(fraction: number, off: boolean): { latitude: number; longitude: number } {
  return {
    latitude: ORIGIN.latitude + fraction * (DESTINATION.latitude - ORIGIN.latitude),
    longitude: ORIGIN.longitude + fraction * (DESTINATION.longitude - ORIGIN.longitude) + (off ? 0.5 : 0),
  };
}

/** Reports a truck's position (as its telematics would). */
export function reportPosition(tenant: TenantHandle, route: RouteHandle, fraction: number, off: boolean): Promise<unknown> {
  return tenant.api.call('POST', `/api/v1/routes/${route.id}/positions`, { ...positionOn(fraction, off), speedMph: 55, headingDegrees: 350, recordedAt: new Date().toISOString() });
}

export type { HttpApi };
