import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('configuration', () => {
  it('has defaults that run with nothing set: port 3000, embedded database in ./data', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', databaseUrl: undefined, env: 'development', authMockLogin: false, distanceMethod: 'haversine' });
    expect(c.dataDir).toMatch(/data$/);
    expect(c.rateLimits).toEqual({ stagingPerHour: 1000, productionPerHour: 10000, userPerHour: 10000, anonymousPerHour: 600 });
    expect(c.webhookRetrySchedule).toEqual([30, 120, 600, 1800, 3600]);
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('names each bad variable on its own line', () => {
    const lines = problems({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', AUTH_MOCK_LOGIN: 'maybe', PROCESS_ROLES: 'api,cron' });
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^PORT: /);
    expect(lines.join('\n')).toMatch(/DATABASE_URL: expected memory:\/\/ or a postgres:\/\/ URL/);
    expect(lines.join('\n')).toMatch(/LOG_LEVEL: expected one of/);
    expect(lines.join('\n')).toMatch(/AUTH_MOCK_LOGIN: expected true or false/);
    expect(lines.join('\n')).toMatch(/PROCESS_ROLES: /);
  });

  it('never echoes a password from a URL', () => {
    const lines = problems({ DATABASE_URL: 'mysql://user:hunter2@db/x' });
    expect(lines.join()).not.toContain('hunter2');
  });

  it('requires real secrets in production and turns off development switches', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      'JWT_SECRET: required when NODE_ENV=production',
      'ENCRYPTION_KEY: required when NODE_ENV=production',
    ]);
    const c = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      AUTH_MOCK_LOGIN: 'true',
    });
    expect(c.authMockLogin).toBe(false);
    expect(problems({ ENCRYPTION_KEY: 'short' })).toEqual(['ENCRYPTION_KEY: must be 32 bytes encoded in base64']);
  });

  it('accepts memory:// and postgres URLs, and OSRM only with its URL', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }).databaseUrl).toBe('memory://');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/d' }).databaseUrl).toBe('postgres://u@h:5432/d');
    expect(problems({ DISTANCE_METHOD: 'osrm' })).toEqual(['OSRM_URL: required when DISTANCE_METHOD=osrm']);
    expect(loadConfig({ DISTANCE_METHOD: 'haversine_road' }).distanceMethod).toBe('haversine_road');
    expect(problems({ DISTANCE_METHOD: 'road' })).toHaveLength(1);
    expect(problems({ OIDC_ISSUER: 'https://idp.example' })).toEqual(['OIDC_ISSUER and OIDC_AUDIENCE: set both or neither']);
  });

  it('reads the ELD vendors\' base URLs, http or https only', () => {
    expect(loadConfig({})).toMatchObject({ samsaraBaseUrl: undefined, motiveBaseUrl: undefined });
    expect(loadConfig({ MOTIVE_BASE_URL: 'http://127.0.0.1:4011', SAMSARA_BASE_URL: 'https://api.eu.samsara.com' })).toMatchObject({
      motiveBaseUrl: 'http://127.0.0.1:4011',
      samsaraBaseUrl: 'https://api.eu.samsara.com',
    });
    expect(problems({ MOTIVE_BASE_URL: 'ftp://api.gomotive.com' })).toHaveLength(1);
    expect(problems({ MOTIVE_BASE_URL: 'ftp://api.gomotive.com' })[0]).toMatch(/^MOTIVE_BASE_URL: /);
  });
});
