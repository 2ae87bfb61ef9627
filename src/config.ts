/**
 * The one reader of process.env. Every variable is parsed and validated here, once, at start-up;
 * a bad value produces one line naming the variable, and the process stops.
 */
import path from 'node:path';

/**
 * api: serves HTTP and realtime; worker: background work; migrate: applies the database migrations (alone:
 * applies them and exits; with api/worker: before serving).
 */
export type ProcessRole = 'api' | 'worker' | 'migrate';

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  /** undefined: embedded PGlite in dataDir; 'memory://': in-memory PGlite; postgres URL otherwise. */
  databaseUrl: string | undefined;
  /**
   * DATABASE_SCHEMA: PostgreSQL schema to use instead of public (created if missing). Lets a separate
   * process (the benchmark's server children) work in an isolated, disposable schema.
   */
  databaseSchema: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  processRoles: ProcessRole[];
  /**
   * MIGRATION_WAIT_SECONDS: in production an api or worker process does not migrate; finding the schema
   * behind, it waits this long for the migrate role to bring it up to date (readiness answers 503
   * meanwhile), then gives up (0: gives up at once, with a message that says what to run).
   */
  migrationWaitSeconds: number;
  /**
   * SHUTDOWN_DELAY_SECONDS: after SIGTERM an api process reports not-ready and keeps serving this long, so
   * that load balancers stop sending it new work before it stops accepting (SIGINT skips the delay).
   */
  shutdownDelayMs: number;
  /** SHUTDOWN_TIMEOUT_SECONDS: the whole shutdown, the delay included; past it the process exits anyway. */
  shutdownTimeoutMs: number;
  jwtSecret: string | undefined;
  encryptionKey: string | undefined;
  authMockLogin: boolean;
  oidc: { issuer: string; audience: string; jwksUrl: string | undefined } | undefined;
  platformAdmin: { email: string; password: string } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailOutboxDir: string;
  /** The built dashboard (web/dist), served at `/`. */
  webDistDir: string;
  publicUrl: string;
  monitoringIntervalSeconds: number;
  webhookRetrySchedule: number[];
  webhookAllowInsecureTargets: boolean;
  /** WEBHOOK_TIMEOUT_MS: one delivery attempt, connection to last byte (default 10 s). */
  webhookTimeoutMs: number;
  /**
   * WEBHOOK_LEASE_SECONDS: how long a delivery worker holds the deliveries it claimed; a crashed
   * worker's deliveries are taken over after this (longer than the timeout).
   */
  webhookLeaseSeconds: number;
  /** DISTANCE_METHOD: the plans' default distance method (a plan's options.distanceMethod overrides it). */
  distanceMethod: 'haversine' | 'haversine_road' | 'osrm';
  osrmUrl: string | undefined;
  /** The Samsara API's base URL (the sandbox's in tests and the demo); the adapter's default when unset. */
  samsaraBaseUrl: string | undefined;
  /** The Motive API's base URL (the sandbox's in tests and the demo); the adapter's default when unset. */
  motiveBaseUrl: string | undefined;
  /** The OpenWeather API's base URL (the sandbox's in tests and the demo); the adapter's default when unset. */
  openWeatherBaseUrl: string | undefined;
  /** The National Weather Service API's base URL (the sandbox's in tests and the demo); the adapter's default when unset. */
  nwsBaseUrl: string | undefined;
  /** The HERE Fuel Prices API's base URL (the sandbox's in tests and the demo); the adapter's default when unset. */
  hereBaseUrl: string | undefined;
  /** Overrides project44's hosts (both environments): the local sandbox in tests and the demo. */
  project44BaseUrl: string | undefined;
  apiKeyEnvironment: 'staging' | 'production';
  rateLimits: { stagingPerHour: number; productionPerHour: number; userPerHour: number; anonymousPerHour: number };
  /**
   * METRICS_TOKEN: when set, GET /metrics requires `Authorization: Bearer <token>`. In production
   * /metrics is not served at all (404) without it; in development and tests it is open without it.
   */
  metricsToken: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bodyLimitBytes: number;
  trustProxy: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  str(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  int(name: string, def: number, min: number, max: number): number {
    const raw = this.str(name);
    if (raw === undefined) return def;
    if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
      return def;
    }
    return Number(raw);
  }

  bool(name: string, def: boolean): boolean {
    const raw = this.str(name);
    if (raw === undefined) return def;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name}: expected true or false, got "${raw}"`);
    return def;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], def: T): T {
    const raw = this.str(name);
    if (raw === undefined) return def;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name}: expected one of ${allowed.join(', ')}, got "${raw}"`);
      return def;
    }
    return raw as T;
  }

  url(name: string, protocols: string[]): string | undefined {
    const raw = this.str(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      this.problems.push(`${name}: expected a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}, got "${redactUrl(raw)}"`);
      return undefined;
    }
  }
}

function redactUrl(raw: string): string {
  return raw.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}

export function loadConfig(env: Env = process.env): Config {
  const r = new Reader(env);
  const nodeEnv = r.oneOf('NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const isProduction = nodeEnv === 'production';
  const port = r.int('PORT', 3000, 0, 65535);
  const dataDir = path.resolve(r.str('DATA_DIR') ?? './data');

  let databaseUrl = r.str('DATABASE_URL');
  if (databaseUrl !== undefined && databaseUrl !== 'memory://' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    r.problems.push(`DATABASE_URL: expected memory:// or a postgres:// URL, got "${redactUrl(databaseUrl)}"`);
    databaseUrl = undefined;
  }
  const databaseSchema = r.str('DATABASE_SCHEMA');
  if (databaseSchema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    r.problems.push(`DATABASE_SCHEMA: expected a lower-case identifier (letters, digits, _), got "${databaseSchema}"`);
  }

  const roles = (r.str('PROCESS_ROLES') ?? 'api,worker').split(',').map((s) => s.trim()).filter(Boolean);
  const badRoles = roles.filter((x) => x !== 'api' && x !== 'worker' && x !== 'migrate');
  if (badRoles.length > 0 || roles.length === 0) {
    r.problems.push(`PROCESS_ROLES: expected a comma-separated list of api, worker and migrate, got "${r.str('PROCESS_ROLES')}"`);
  }
  const shutdownDelaySeconds = r.int('SHUTDOWN_DELAY_SECONDS', 2, 0, 300);
  const shutdownTimeoutSeconds = r.int('SHUTDOWN_TIMEOUT_SECONDS', 25, 1, 3600);
  if (shutdownDelaySeconds >= shutdownTimeoutSeconds) {
    r.problems.push(`SHUTDOWN_DELAY_SECONDS: must be shorter than SHUTDOWN_TIMEOUT_SECONDS (${shutdownTimeoutSeconds})`);
  }

  const jwtSecret = r.str('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    r.problems.push('JWT_SECRET: must be at least 32 characters');
  }
  const encryptionKey = r.str('ENCRYPTION_KEY');
  if (encryptionKey !== undefined && Buffer.from(encryptionKey, 'base64').length !== 32) {
    r.problems.push('ENCRYPTION_KEY: must be 32 bytes encoded in base64');
  }
  if (isProduction && jwtSecret === undefined) r.problems.push('JWT_SECRET: required when NODE_ENV=production');
  if (isProduction && encryptionKey === undefined) r.problems.push('ENCRYPTION_KEY: required when NODE_ENV=production');

  const issuer = r.url('OIDC_ISSUER', ['https:', 'http:']);
  const audience = r.str('OIDC_AUDIENCE');
  const jwksUrl = r.url('OIDC_JWKS_URL', ['https:', 'http:']);
  if ((issuer === undefined) !== (audience === undefined)) {
    r.problems.push('OIDC_ISSUER and OIDC_AUDIENCE: set both or neither');
  }

  const adminEmail = r.str('PLATFORM_ADMIN_EMAIL');
  const adminPassword = r.str('PLATFORM_ADMIN_PASSWORD');
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    r.problems.push('PLATFORM_ADMIN_EMAIL and PLATFORM_ADMIN_PASSWORD: set both or neither');
  } else if (adminPassword !== undefined && adminPassword.length < 12) {
    r.problems.push('PLATFORM_ADMIN_PASSWORD: must be at least 12 characters');
  }

  const schedule = (r.str('WEBHOOK_RETRY_SCHEDULE') ?? '30,120,600,1800,3600').split(',').map((s) => Number(s.trim()));
  if (schedule.some((n) => !Number.isInteger(n) || n < 0)) {
    r.problems.push(`WEBHOOK_RETRY_SCHEDULE: expected comma-separated whole seconds, got "${r.str('WEBHOOK_RETRY_SCHEDULE')}"`);
  }

  const webhookTimeoutMs = r.int('WEBHOOK_TIMEOUT_MS', 10_000, 50, 120_000);
  const webhookLeaseSeconds = r.int('WEBHOOK_LEASE_SECONDS', 60, 1, 3600);
  if (webhookLeaseSeconds * 1000 <= webhookTimeoutMs) {
    r.problems.push(`WEBHOOK_LEASE_SECONDS: must be longer than WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs} ms)`);
  }

  const distanceMethod = r.oneOf('DISTANCE_METHOD', ['haversine', 'haversine_road', 'osrm'] as const, 'haversine');
  const osrmUrl = r.url('OSRM_URL', ['http:', 'https:']);
  const samsaraBaseUrl = r.url('SAMSARA_BASE_URL', ['http:', 'https:']);
  const motiveBaseUrl = r.url('MOTIVE_BASE_URL', ['http:', 'https:']);
  const openWeatherBaseUrl = r.url('OPENWEATHER_BASE_URL', ['http:', 'https:']);
  const nwsBaseUrl = r.url('NWS_BASE_URL', ['http:', 'https:']);
  const hereBaseUrl = r.url('HERE_BASE_URL', ['http:', 'https:']);
  const project44BaseUrl = r.url('PROJECT44_BASE_URL', ['http:', 'https:']);
  const metricsToken = r.str('METRICS_TOKEN');
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    r.problems.push('METRICS_TOKEN: must be at least 16 characters without spaces');
  }
  if (distanceMethod === 'osrm' && osrmUrl === undefined) r.problems.push('OSRM_URL: required when DISTANCE_METHOD=osrm');

  const config: Config = {
    env: nodeEnv,
    isProduction,
    port,
    host: r.str('HOST') ?? '0.0.0.0',
    databaseUrl,
    databaseSchema,
    dataDir,
    redisUrl: r.url('REDIS_URL', ['redis:', 'rediss:']),
    processRoles: badRoles.length === 0 && roles.length > 0 ? [...new Set(roles as ProcessRole[])] : ['api', 'worker'],
    migrationWaitSeconds: r.int('MIGRATION_WAIT_SECONDS', 0, 0, 3600),
    shutdownDelayMs: shutdownDelaySeconds * 1000,
    shutdownTimeoutMs: shutdownTimeoutSeconds * 1000,
    jwtSecret,
    encryptionKey,
    authMockLogin: isProduction ? false : r.bool('AUTH_MOCK_LOGIN', false),
    oidc: issuer !== undefined && audience !== undefined ? { issuer, audience, jwksUrl } : undefined,
    platformAdmin: adminEmail !== undefined && adminPassword !== undefined ? { email: adminEmail, password: adminPassword } : undefined,
    smtpUrl: r.url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: r.str('MAIL_FROM') ?? 'Fleet HOS <no-reply@localhost>',
    mailOutboxDir: path.resolve(r.str('MAIL_OUTBOX_DIR') ?? path.join(dataDir, 'outbox')),
    webDistDir: path.resolve(r.str('WEB_DIST_DIR') ?? path.join(import.meta.dirname, '..', 'web', 'dist')),
    publicUrl: (r.url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/$/, ''),
    monitoringIntervalSeconds: r.int('MONITORING_INTERVAL_SECONDS', 60, 5, 3600),
    webhookRetrySchedule: schedule,
    webhookAllowInsecureTargets: r.bool('WEBHOOK_ALLOW_INSECURE_TARGETS', false),
    webhookTimeoutMs,
    webhookLeaseSeconds,
    distanceMethod,
    osrmUrl,
    samsaraBaseUrl,
    motiveBaseUrl,
    openWeatherBaseUrl,
    nwsBaseUrl,
    hereBaseUrl,
    project44BaseUrl,
    apiKeyEnvironment: r.oneOf('API_KEY_ENVIRONMENT', ['staging', 'production'] as const, 'staging'),
    rateLimits: {
      stagingPerHour: r.int('RATE_LIMIT_STAGING_PER_HOUR', 1000, 1, 1e9),
      productionPerHour: r.int('RATE_LIMIT_PRODUCTION_PER_HOUR', 10000, 1, 1e9),
      userPerHour: r.int('RATE_LIMIT_USER_PER_HOUR', 10000, 1, 1e9),
      anonymousPerHour: r.int('RATE_LIMIT_ANONYMOUS_PER_HOUR', 600, 1, 1e9),
    },
    metricsToken,
    logLevel: r.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    bodyLimitBytes: r.int('BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    trustProxy: r.bool('TRUST_PROXY', false),
  };
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}
