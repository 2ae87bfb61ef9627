/**
 * The benchmark's data, created through the app's public API (the real create paths: validation,
 * RLS, unique licences), and read back for the baseline.
 *
 * Two tenants: "Bench Freight" holds the drivers the read rows page through; "Bench Writes" takes the
 * rows the POST /api/v1/drivers row creates, so that they never change what the read rows read.
 */
import type { BenchSeed, SeedDriver, SeedTenant } from '../servers/seed-file.js';

const REQUEST_TIMEOUT_MS = 30_000;

export const ADMIN = { email: 'bench-admin@example.test', password: 'bench-admin-password' };
const OWNER = { email: 'bench-owner@example.test', password: 'bench-owner-password' };
const WRITER = { email: 'bench-writer@example.test', password: 'bench-writer-password' };

/**
 * The app's environment in every benchmark: production mode, fixed secrets. API keys keep their real hourly
 * limit (production keys 10,000 an hour: the harness rotates keys as a client would, lib/keys.ts); a signed-in
 * user's limit is raised, since one owner's token carries every bearer row.
 */
export const APP_ENV = {
  NODE_ENV: 'production',
  // Production api processes do not migrate (docs/operations.md): the benchmarked process is given the migrate role too.
  PROCESS_ROLES: 'migrate,api',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdefghijklmnop',
  ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
  PLATFORM_ADMIN_EMAIL: ADMIN.email,
  PLATFORM_ADMIN_PASSWORD: ADMIN.password,
  // Production keys (sk_live_, 10,000 requests an hour), what integrators run with.
  API_KEY_ENVIRONMENT: 'production',
  // Tens of thousands of requests with one user's token: the user's hourly limit would stop them.
  RATE_LIMIT_USER_PER_HOUR: '1000000000',
  RATE_LIMIT_ANONYMOUS_PER_HOUR: '1000000000',
  // Production serves /metrics only to the bearer of this token (the heap reading scrapes it).
  METRICS_TOKEN: 'bench-metrics-token-0123456789',
};

export interface Reply<T> {
  status: number;
  json: T;
}

export async function call<T>(base: string, method: string, urlPath: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply<T>> {
  const res = await fetch(base + urlPath, {
    method,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json: json as T };
}

export async function expectStatus<T>(what: string, expected: number, p: Promise<Reply<T>>): Promise<T> {
  const { status, json } = await p;
  if (status !== expected) throw new Error(`${what}: HTTP ${status} ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const apiKey = (key: string) => ({ 'x-api-key': key });

async function login(base: string, who: { email: string; password: string }): Promise<string> {
  return (await expectStatus<{ accessToken: string }>('login', 200, call(base, 'POST', '/api/v1/auth/login', { body: who }))).accessToken;
}

/** A fresh access token of the owner of the read tenant (tokens live 15 minutes). */
export const ownerLogin = (base: string) => login(base, OWNER);

/** Seconds until an access token expires (from its exp claim; the signature is the server's business). */
export function secondsLeft(jwt: string): number {
  const { exp } = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
  return exp - Date.now() / 1000;
}

const FIRST = ['Ana', 'Ben', 'Carla', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivan', 'Jo', 'Kai', 'Lena', 'Mo', 'Nia'];
const LAST = ['Adams', 'Baker', 'Chen', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jones', 'Khan', 'Lopez', 'Meyer'];

export interface Seeded {
  /** The tenant the read rows read: its drivers, its owner's token and an API key of the owner. */
  read: { tenantId: string; token: string; apiKey: string; apiKeys: string[]; driverId: string };
  /** The tenant the POST /api/v1/drivers row writes into, and an API key of its owner. */
  write: { tenantId: string; apiKey: string; apiKeys: string[] };
  /** What the baseline needs (seed-file.ts). */
  baseline: BenchSeed;
}

/** Registers a tenant, has the platform administrator approve it, signs its owner in and creates `keys` production API keys. */
async function tenant(base: string, adminToken: string, n: number, name: string, owner: { email: string; password: string }, keys: number) {
  const reg = await expectStatus<{ tenant: { id: string } }>(
    `register ${name}`,
    201,
    call(base, 'POST', '/api/v1/tenants/register', {
      body: {
        organization: {
          name,
          address: `${100 + n} Commerce St, Dallas, TX 75201`,
          phone: `+1 214 555 010${n}`,
          contactEmail: `ops${n}@bench.example.test`,
          dotNumber: `123456${n}`,
          mcNumber: `MC-76543${n}`,
        },
        adminUser: { firstName: 'Olivia', lastName: `Owner${n}`, ...owner },
      },
    }),
  );
  await expectStatus('approve', 200, call(base, 'POST', `/api/v1/admin/tenants/${reg.tenant.id}/approve`, { headers: bearer(adminToken) }));
  const token = await login(base, owner);
  const apiKeys: string[] = [];
  for (let i = 0; i < keys; i++) {
    const created = await expectStatus<{ key: string }>('create API key', 201, call(base, 'POST', '/api/v1/api-keys', { body: { name: `bench ${i + 1}` }, headers: bearer(token) }));
    apiKeys.push(created.key);
  }
  const profile = await expectStatus<SeedTenant>('read tenant', 200, call(base, 'GET', '/api/v1/tenant', { headers: bearer(token) }));
  const row: SeedTenant = {
    id: profile.id,
    name: profile.name,
    address: profile.address,
    phone: profile.phone,
    contactEmail: profile.contactEmail,
    dotNumber: profile.dotNumber,
    mcNumber: profile.mcNumber,
    status: profile.status,
    createdAt: profile.createdAt,
    updatedAt: profile.updatedAt,
  };
  const me = await expectStatus<{ userId: string }>('read the owner', 200, call(base, 'GET', '/api/v1/auth/me', { headers: bearer(token) }));
  return { tenantId: reg.tenant.id, userId: me.userId, token, apiKey: apiKeys[0]!, apiKeys, row };
}

/** Both tenants, `drivers` drivers in the read tenant (ten requests at a time), and the baseline's seed. */
export async function seed(base: string, drivers: number, keysPerTenant = 1): Promise<Seeded> {
  const adminToken = await login(base, ADMIN);
  const read = await tenant(base, adminToken, 1, 'Bench Freight', OWNER, keysPerTenant);
  const write = await tenant(base, adminToken, 2, 'Bench Writes', WRITER, keysPerTenant);

  // The full records as the app returns them (its INSERT … RETURNING *): what the baseline inserts.
  const rows: SeedDriver[] = [];
  for (let i = 0; i < drivers; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, drivers - i) }, (_, k) => {
        const n = i + k;
        return expectStatus<Omit<SeedDriver, 'tenantId'>>(
          'create driver',
          201,
          call(base, 'POST', '/api/v1/drivers', {
            body: {
              firstName: FIRST[n % FIRST.length],
              lastName: LAST[(n * 7) % LAST.length],
              licenseNumber: `CDL${String(n).padStart(6, '0')}`,
              licenseState: 'TX',
              truckNumber: `T-${n}`,
            },
            headers: bearer(read.token),
          }),
        );
      }),
    );
    rows.push(...batch.map((d) => ({ tenantId: read.tenantId, ...d })));
  }
  return {
    read: { tenantId: read.tenantId, token: read.token, apiKey: read.apiKey, apiKeys: read.apiKeys, driverId: rows[0]!.id },
    write: { tenantId: write.tenantId, apiKey: write.apiKey, apiKeys: write.apiKeys },
    baseline: {
      apiKeys: [read, write].flatMap((t) => t.apiKeys.map((key) => ({ key, tenantId: t.tenantId, userId: t.userId }))),
      tenants: [read.row, write.row],
      drivers: rows,
    },
  };
}

/** The body of one POST /api/v1/drivers of the write row; licence numbers must be unique in the tenant. */
export function newDriverBody(licenseNumber: string): string {
  return JSON.stringify({ firstName: 'Wendy', lastName: 'Writer', licenseNumber, licenseState: 'TX', truckNumber: 'T-900' });
}

/** The planning request of the end-to-end row: five stops, ~2,200 great-circle miles, fuel stops on. */
export function planBody(driverId: string, opts: { fromLog?: boolean } = {}): string {
  const stop = (name: string, latitude: number, longitude: number, type: string, dockDurationHours: number) => ({ name, latitude, longitude, type, dockDurationHours });
  return JSON.stringify({
    driverId,
    departureTime: '2026-03-02T12:00:00Z',
    stops: [
      stop('Seattle, WA', 47.6062, -122.3321, 'ORIGIN', 1),
      stop('Boise, ID', 43.615, -116.2023, 'PICKUP', 2),
      stop('Denver, CO', 39.7392, -104.9903, 'WAYPOINT', 0),
      stop('Kansas City, MO', 39.0997, -94.5786, 'PICKUP', 1.5),
      stop('Columbus, OH', 39.9612, -82.9988, 'DELIVERY', 2),
    ],
    // Without driverState the service reads the driver's clocks from their log, as for most integrators' requests.
    ...(opts.fromLog ? {} : { driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 } }),
    options: { includeFuelStops: true, startingFuelGallons: 100 },
  });
}
