import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

describe('webhook configuration', () => {
  it('defaults: the spec schedule, https only, 10-s attempts, a 60-s lease', () => {
    const c = loadConfig({});
    expect(c.webhookRetrySchedule).toEqual([30, 120, 600, 1800, 3600]);
    expect(c.webhookAllowInsecureTargets).toBe(false);
    expect(c.webhookTimeoutMs).toBe(10_000);
    expect(c.webhookLeaseSeconds).toBe(60);
  });

  it('reads the variables', () => {
    const c = loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1, 2,3', WEBHOOK_ALLOW_INSECURE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_LEASE_SECONDS: '2' });
    expect(c).toMatchObject({ webhookRetrySchedule: [1, 2, 3], webhookAllowInsecureTargets: true, webhookTimeoutMs: 500, webhookLeaseSeconds: 2 });
  });

  it.each([
    [{ WEBHOOK_RETRY_SCHEDULE: '30,soon' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_ALLOW_INSECURE_TARGETS: 'maybe' }, 'WEBHOOK_ALLOW_INSECURE_TARGETS'],
    [{ WEBHOOK_TIMEOUT_MS: '10' }, 'WEBHOOK_TIMEOUT_MS'],
    [{ WEBHOOK_LEASE_SECONDS: '10' }, 'WEBHOOK_LEASE_SECONDS: must be longer than WEBHOOK_TIMEOUT_MS'],
  ])('refuses %o', (env, problem) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toContain(problem);
    }
  });
});
