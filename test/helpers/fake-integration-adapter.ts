import {
  IntegrationError,
  type ConnectionTestResult,
  type IntegrationAdapter,
  type SyncContext,
  type SyncResult,
  type VendorInfo,
} from '../../src/adapters/integrations/port.js';

export const FAKE_VENDOR = 'fake_eld';

/**
 * A scriptable ELD adapter: by default its test passes and a sync returns one location per vehicle.
 * Tests set `testOutcome` / `syncOutcome` to make it fail, and read `calls` to see what it was given.
 */
export class FakeIntegrationAdapter implements IntegrationAdapter {
  readonly info: VendorInfo;
  testOutcome: 'ok' | IntegrationError | Error = 'ok';
  syncOutcome: 'ok' | IntegrationError | Error = 'ok';
  readonly calls: { op: 'test' | 'sync'; config: Record<string, unknown>; ctx?: SyncContext }[] = [];

  constructor(info: Partial<VendorInfo> = {}) {
    this.info = {
      vendor: FAKE_VENDOR,
      name: 'Fake ELD',
      category: 'ELD',
      description: 'A test double of an ELD vendor',
      requiredFields: ['apiToken'],
      optionalFields: ['orgId', 'syncIntervalMinutes'],
      defaultSyncInterval: 15,
      ...info,
    };
  }

  validateConfig(config: Record<string, unknown>): string[] {
    return typeof config.apiToken === 'string' && config.apiToken.startsWith('bad-format') ? ['apiToken has the wrong format'] : [];
  }

  async test(config: Record<string, unknown>): Promise<ConnectionTestResult> {
    this.calls.push({ op: 'test', config });
    if (this.testOutcome instanceof IntegrationError) {
      return { ok: false, message: 'Authentication failed', details: {}, error: { code: this.testOutcome.code, details: this.testOutcome.details } };
    }
    if (this.testOutcome instanceof Error) throw this.testOutcome;
    return { ok: true, message: 'Connected', details: { vehicles: 2, apiVersion: 'v1', latency: '12 ms' } };
  }

  async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<SyncResult> {
    this.calls.push({ op: 'sync', config, ctx });
    if (this.syncOutcome instanceof Error) throw this.syncOutcome;
    return {
      kind: 'ELD',
      clocks: [],
      logs: [],
      locations: ctx.vehicles.map((v) => ({ vehicleId: v.id, latitude: 32.7, longitude: -96.8, speedMph: 55, headingDegrees: 90, recordedAt: ctx.now.toISOString(), fuelLevelPercent: 70 })),
      faults: [],
      unmatched: { drivers: 1, vehicles: 0 },
    };
  }
}
