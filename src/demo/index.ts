/**
 * `npm run demo`: the service on an in-memory database with a live demo fleet. It seeds a demo tenant
 * through the public API (drivers with duty-status logs, vehicles, loads, planned and active routes)
 * and runs a driver simulator that moves the trucks along their plans by posting positions and
 * duty-status changes through the public API, as a driver app or telematics would. Some trucks
 * misbehave for a while and come back (one wanders off its route, one stops where no stop is planned,
 * one goes quiet), one driver is close to the end of their driving hours, so alerts are raised and
 * resolve themselves live. Time runs DEMO_SPEED times faster along the plans than on the clock.
 *
 * The dashboard at / opens on this fleet. A driver account (driver-user.ts) is made through an invitation
 * and its acceptance, so the driver view can be tried with a known password.
 *
 * Every vendor integration runs against its sandbox in-process (integrations.ts): two trucks report
 * through their ELD in the Samsara sandbox instead of the API, the weather vendors have storms on the
 * routes, project44 predicts a load late, McLeod's orders arrive as loads.
 */
import { pino } from 'pino';
import { createMailer } from '../infra/mailer.js';
import { configFromEnvironment, startService } from '../server.js';
import { HttpApi } from './api.js';
import { createDriverAccount, DEMO_DRIVER, DemoMailbox, inviteAndAccept } from './driver-user.js';
import { driveFleet } from './drive.js';
import { seedFleet } from './fleet.js';
import { connectIntegrations, integrationBanner, pointServiceAtSandboxes, prepareVendorData, startDemoSandboxes } from './integrations.js';

const DEMO = {
  adminEmail: 'admin@demo.fleet',
  adminPassword: 'demo-admin-password',
  ownerEmail: 'owner@demo.fleet',
  ownerPassword: 'demo-owner-password',
  dispatcher: { email: 'dispatch@demo.fleet', password: 'demo-password', firstName: 'Dana', lastName: 'Dispatch' },
};
const SPEED = Math.max(1, Number(process.env.DEMO_SPEED ?? 10));
const TICK_MS = 5_000;
/** Each misbehaving truck does so once per cycle of real time. */
const CYCLE_MS = 10 * 60_000;

process.env.DATABASE_URL ??= 'memory://';
process.env.PLATFORM_ADMIN_EMAIL ??= DEMO.adminEmail;
process.env.PLATFORM_ADMIN_PASSWORD ??= DEMO.adminPassword;
process.env.LOG_LEVEL ??= 'warn';
process.env.WEBHOOK_ALLOW_INSECURE_TARGETS ??= 'true';

/** Registers and approves the demo tenant; answers a caller with its owner's API key. */
async function registerTenant(api: HttpApi): Promise<{ owner: HttpApi; apiKey: string }> {
  const reg = await api.call<{ tenant: { id: string } }>('POST', '/api/v1/tenants/register', {
    organization: { name: 'Demo Freight Lines', address: '100 Commerce St, Dallas, TX 75201', phone: '+1 214 555 0100', contactEmail: 'ops@demo.fleet', dotNumber: '3141592', mcNumber: 'MC-271828' },
    adminUser: { firstName: 'Olivia', lastName: 'Owner', email: DEMO.ownerEmail, password: DEMO.ownerPassword },
  });
  const admin = await api.call<{ accessToken: string }>('POST', '/api/v1/auth/login', { email: DEMO.adminEmail, password: DEMO.adminPassword });
  await api.as({ authorization: `Bearer ${admin.accessToken}` }).call('POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`);
  const login = await api.call<{ accessToken: string }>('POST', '/api/v1/auth/login', { email: DEMO.ownerEmail, password: DEMO.ownerPassword });
  const { key } = await api.as({ authorization: `Bearer ${login.accessToken}` }).call<{ key: string }>('POST', '/api/v1/api-keys', { name: 'demo simulator' });
  return { owner: api.as({ 'x-api-key': key }), apiKey: key };
}

async function main(): Promise<void> {
  // The sandboxes first: the service reads the vendors' base URLs from its environment.
  const sandboxes = await startDemoSandboxes();
  const elsewhere = pointServiceAtSandboxes(sandboxes);
  const config = configFromEnvironment();
  let timer: NodeJS.Timeout | undefined;
  // Mail goes to the outbox (or SMTP) as usual; the demo also keeps it, to accept its driver's invitation.
  const mailbox = new DemoMailbox(createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.mailOutboxDir, log: pino({ level: config.logLevel }) }));
  await startService(config, {
    mailer: mailbox,
    onShutdown: async () => {
      clearInterval(timer);
      await sandboxes.close();
    },
  });
  const base = `http://127.0.0.1:${config.port}`;
  const anonymous = new HttpApi(base);
  const { owner, apiKey } = await registerTenant(anonymous);
  const trucks = await seedFleet(owner, Date.now());
  const driverTruck = trucks.find((t) => t.spec.unit === DEMO_DRIVER.unit) ?? trucks[0]!;
  const driver = await createDriverAccount(owner, anonymous, () => mailbox.sent, driverTruck);
  // The dispatcher signs in as a DISPATCHER: routes, loads, drivers, alerts; the organization's settings are the owner's.
  await inviteAndAccept(owner, anonymous, () => mailbox.sent, { ...DEMO.dispatcher, role: 'DISPATCHER' });
  const { eld } = await prepareVendorData(sandboxes, trucks, owner, Date.now());
  const startedAt = Date.now();
  const drive = () => driveFleet(owner, trucks, { startedAt, now: Date.now(), speed: SPEED, cycleMs: CYCLE_MS, eld });
  // The ELD trucks' first report before Samsara's first sync.
  await drive();
  const connected = await connectIntegrations(owner, sandboxes);
  let busy = false;
  timer = setInterval(() => {
    if (busy) return;
    busy = true;
    drive()
      .catch((err: unknown) => console.error('demo simulator:', err instanceof Error ? err.message : err))
      .finally(() => (busy = false));
  }, TICK_MS);
  console.log(
    [
      '',
      `Demo fleet running. Open the dashboard:  ${config.publicUrl}/`,
      `  dispatcher sign-in:      ${DEMO.dispatcher.email} / ${DEMO.dispatcher.password}   (DISPATCHER: fleet map, routes, loads, drivers, alerts)`,
      `  owner sign-in:           ${DEMO.ownerEmail} / ${DEMO.ownerPassword}   (OWNER: the same, and settings, users, API keys, webhooks, integrations)`,
      `  driver sign-in:          ${driver.email} / ${driver.password}   (${driver.name}, ${driver.unit}: the driver view; try it on a phone-sized window)`,
      `  platform administrator:  ${DEMO.adminEmail} / ${DEMO.adminPassword}   (approve or suspend tenants)`,
      `  API reference:           ${config.publicUrl}/docs`,
      `  ${trucks.filter((t) => !t.spec.planned).length} trucks on the road, plans running ${SPEED}× faster than the clock (DEMO_SPEED);`,
      '  every 10 minutes, from the first: T-102 wanders off its route, T-103 stops where no stop is planned, T-104 goes quiet, for',
      '  4 minutes (alerts Off route, Unplanned stop, No position: raised within 3 minutes of the start), then they behave again and',
      '  the alerts resolve themselves; L. Ortiz is near her driving limit.',
      `  the demo's API key:      ${apiKey}`,
      `  watch alerts arrive and resolve:  curl -N "${base}/api/v1/sse/alerts?apiKey=${apiKey}"`,
      `  list the open ones:               curl -s "${base}/api/v1/alerts?status=ACTIVE" -H "x-api-key: ${apiKey}"`,
      ...integrationBanner(connected, base, apiKey, elsewhere),
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error('demo failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
