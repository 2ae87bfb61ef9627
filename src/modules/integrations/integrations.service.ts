import { IntegrationError, type ConnectionTestResult, type IntegrationAdapter, type IntegrationErrorCode, type VendorInfo } from '../../adapters/integrations/port.js';
import type { Deps } from '../../deps.js';
import { openSecret, sealSecret } from '../../infra/secrets.js';
import { invalid, invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import { resolveSyncFailedAlert } from './integrations.alerts.js';
import { configProblems, scrub, scrubDeep, secretsOf } from './integrations.config.js';
import {
  deleteIntegration,
  findIntegration,
  insertIntegration,
  listIntegrations,
  publicIntegration,
  updateIntegration,
  type IntegrationRecord,
  type IntegrationRow,
} from './integrations.repository.js';

/** Woken when a sync is requested (NOTIFY at the request's commit): the sync worker listens. */
export const INTEGRATIONS_CHANNEL = 'fleet_integrations';
/** A connection test longer than this is abandoned (TIMEOUT). */
export const TEST_TIMEOUT_MS = 30_000;
/** A TESTING status older than this (its process died) no longer blocks another test. */
const TEST_LEASE_MS = TEST_TIMEOUT_MS + 30_000;

/** The spec's connection test result. */
export interface TestResponse {
  id: string;
  testResult: 'SUCCESS' | 'FAILED';
  message: string;
  details: Record<string, unknown>;
  error?: { code: IntegrationErrorCode; details: string };
  testedAt: string;
}

type Config = Record<string, unknown>;

/** The longest sync interval: a week. */
export const MAX_SYNC_INTERVAL_MINUTES = 10_080;
const isInterval = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_SYNC_INTERVAL_MINUTES;

export function openConfig(key: Buffer, sealed: string): Config {
  return JSON.parse(openSecret(key, sealed)) as Config;
}

/**
 * What a failed vendor call tells the caller: an IntegrationError's code and details (scrubbed of the
 * config's values), anything else a generic VENDOR_ERROR (its message may hold a URL with a credential).
 */
export function failureOf(err: unknown, config: Config): { code: IntegrationErrorCode; details: string } {
  if (err instanceof IntegrationError) return { code: err.code, details: scrub(err.details, config) };
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) return { code: 'TIMEOUT', details: 'The vendor did not answer in time' };
  return { code: 'VENDOR_ERROR', details: 'The vendor call failed unexpectedly' };
}

export function integrationsService(deps: Deps) {
  const { db, clock } = deps;
  const key = deps.secrets.encryptionKey;

  function adapterFor(vendor: string): IntegrationAdapter {
    const adapter = deps.integrations.get(vendor);
    if (!adapter) throw invalid('Validation failed', [{ field: 'body.vendor', message: `unknown vendor (see GET /api/v1/integrations/vendors)` }]);
    return adapter;
  }

  function checkConfig(adapter: IntegrationAdapter, config: Config): void {
    const problems = configProblems(adapter, config);
    if (problems.length > 0) throw invalid('Validation failed', problems);
  }

  async function getRow(ctx: TenantContext, id: string): Promise<IntegrationRow> {
    const row = await db.tenant(ctx.tenantId, (tx) => findIntegration(tx, ctx.tenantId, id));
    if (!row) throw notFound('Integration');
    return row;
  }

  /**
   * TESTING, the adapter's test outside any transaction, then the result: SUCCESS → ACTIVE (first sync
   * due now), FAILED → ERROR. `enable` is the same from DISABLED (a failure leaves it DISABLED); a
   * plain test of a DISABLED integration reports without changing its status. The result is written
   * only if the config did not change meanwhile.
   */
  async function runTest(ctx: TenantContext, id: string, mode: 'test' | 'enable'): Promise<TestResponse> {
    const started = clock.now();
    const before = await db.tenant(ctx.tenantId, async (tx) => {
      const row = await findIntegration(tx, ctx.tenantId, id, true);
      if (!row) throw notFound('Integration');
      if (row.status === 'SYNCING') throw invalidState('A sync of this integration is in progress');
      if (row.status === 'TESTING' && row.lockedUntil && row.lockedUntil > started) throw invalidState('A connection test of this integration is in progress');
      const keepsStatus = mode === 'test' && row.status === 'DISABLED';
      if (!keepsStatus) {
        await updateIntegration(tx, ctx.tenantId, id, { status: 'TESTING', locked_until: new Date(started.getTime() + TEST_LEASE_MS) }, started);
      }
      return row;
    });
    const priorStatus = before.status;
    // What may hold a credential, scrubbed out of every message and detail below.
    let secrets: Config = {};
    let result: ConnectionTestResult;
    try {
      const adapter = deps.integrations.get(before.vendor);
      const config = openConfig(key, before.configCiphertext);
      secrets = secretsOf(adapter, config);
      if (!adapter) throw new IntegrationError('INVALID_CONFIG', `No adapter for vendor ${before.vendor} in this service`);
      result = await adapter.test(config, AbortSignal.timeout(TEST_TIMEOUT_MS));
    } catch (err) {
      const failure = failureOf(err, secrets);
      deps.log.warn({ integrationId: id, vendor: before.vendor, code: failure.code, errorName: err instanceof Error ? err.name : typeof err }, 'integration test failed');
      result = { ok: false, message: 'Connection test failed', details: {}, error: failure };
    }
    const testedAt = clock.now();
    const ok = result.ok && result.error === undefined;
    const error = ok ? undefined : { code: result.error?.code ?? 'VENDOR_ERROR', details: scrub(result.error?.details ?? 'The connection test failed', secrets) };
    const response: TestResponse = {
      id,
      testResult: ok ? 'SUCCESS' : 'FAILED',
      message: scrub(result.message, secrets),
      details: scrubDeep(result.details ?? {}, secrets),
      ...(error ? { error } : {}),
      testedAt: testedAt.toISOString(),
    };
    const lastTest = { testResult: response.testResult, message: response.message, testedAt: response.testedAt };
    await db.tenant(ctx.tenantId, async (tx) => {
      if (mode === 'test' && priorStatus === 'DISABLED') {
        await updateIntegration(tx, ctx.tenantId, id, { last_test: lastTest, ...(error ? { last_error: { ...error, at: response.testedAt } } : {}) }, testedAt, {
          configCiphertext: before.configCiphertext,
        });
        return;
      }
      const fence = { status: 'TESTING' as const, configCiphertext: before.configCiphertext };
      if (ok) {
        const nextSyncAt = priorStatus === 'ACTIVE' && before.nextSyncAt ? new Date(before.nextSyncAt) : testedAt;
        const activated = await updateIntegration(tx, ctx.tenantId, id, { status: 'ACTIVE', last_test: lastTest, last_error: null, next_sync_at: nextSyncAt, locked_until: null }, testedAt, fence);
        // The first sync is due now: wake the sync worker rather than wait for its idle timer.
        if (activated) await tx.query(`NOTIFY ${INTEGRATIONS_CHANNEL}`);
      } else {
        await updateIntegration(
          tx,
          ctx.tenantId,
          id,
          { status: priorStatus === 'DISABLED' ? 'DISABLED' : 'ERROR', last_test: lastTest, last_error: { ...error!, at: response.testedAt }, next_sync_at: null, locked_until: null },
          testedAt,
          fence,
        );
      }
    });
    return response;
  }

  return {
    vendors(): VendorInfo[] {
      return deps.integrations.vendors();
    },

    async create(ctx: TenantContext, input: { vendor: string; name: string; config: Config; syncIntervalMinutes?: number }): Promise<IntegrationRecord> {
      const adapter = adapterFor(input.vendor);
      checkConfig(adapter, input.config);
      const fromConfig = input.config.syncIntervalMinutes;
      // The spec lists syncIntervalMinutes among the optional config fields too: the body's wins.
      const interval = input.syncIntervalMinutes ?? (isInterval(fromConfig) ? fromConfig : adapter.info.defaultSyncInterval);
      const row = await db.tenant(ctx.tenantId, (tx) =>
        insertIntegration(
          tx,
          ctx.tenantId,
          {
            id: newId('integration'),
            vendor: adapter.info.vendor,
            category: adapter.info.category,
            name: input.name.trim(),
            configCiphertext: sealSecret(key, JSON.stringify(input.config)),
            syncIntervalMinutes: interval,
            createdBy: ctx.userId,
          },
          clock.now(),
        ),
      );
      return publicIntegration(row);
    },

    async list(ctx: TenantContext): Promise<{ data: IntegrationRecord[] }> {
      return { data: await db.tenant(ctx.tenantId, (tx) => listIntegrations(tx, ctx.tenantId)) };
    },

    async get(ctx: TenantContext, id: string): Promise<IntegrationRecord> {
      return publicIntegration(await getRow(ctx, id));
    },

    /** Name and interval change in place; a new config replaces the sealed one and needs a new test (CONFIGURED). */
    async update(ctx: TenantContext, id: string, c: { name?: string; syncIntervalMinutes?: number; config?: Config }): Promise<IntegrationRecord> {
      const now = clock.now();
      const row = await db.tenant(ctx.tenantId, async (tx) => {
        const current = await findIntegration(tx, ctx.tenantId, id, true);
        if (!current) throw notFound('Integration');
        if (c.config !== undefined) {
          const adapter = deps.integrations.get(current.vendor);
          if (!adapter) throw invalidState(`The ${current.vendor} adapter is not available in this service`);
          checkConfig(adapter, c.config);
        }
        const interval = c.syncIntervalMinutes;
        const reschedule = interval !== undefined && current.status === 'ACTIVE' && current.lastSyncAt !== null;
        return updateIntegration(
          tx,
          ctx.tenantId,
          id,
          {
            name: c.name?.trim(),
            sync_interval_minutes: interval,
            ...(reschedule ? { next_sync_at: new Date(Date.parse(current.lastSyncAt!) + interval * 60_000) } : {}),
            ...(c.config !== undefined
              ? { config_ciphertext: sealSecret(key, JSON.stringify(c.config)), status: 'CONFIGURED' as const, next_sync_at: null, last_error: null, last_test: null, locked_until: null, sync_started_at: null }
              : {}),
          },
          now,
        );
      });
      return publicIntegration(row!);
    },

    async remove(ctx: TenantContext, id: string): Promise<void> {
      const gone = await db.tenant(ctx.tenantId, async (tx) => {
        const deleted = await deleteIntegration(tx, ctx.tenantId, id);
        if (deleted) await resolveSyncFailedAlert(tx, ctx.tenantId, id, 'The integration was deleted', clock.now());
        return deleted;
      });
      if (!gone) throw notFound('Integration');
    },

    test: (ctx: TenantContext, id: string) => runTest(ctx, id, 'test'),

    /** Runs the connection test; ACTIVE when it passes (from DISABLED a failure leaves it DISABLED). */
    enable: (ctx: TenantContext, id: string) => runTest(ctx, id, 'enable'),

    /** DISABLED: no syncs, credentials kept; a sync in flight finishes without changing the status. */
    async disable(ctx: TenantContext, id: string): Promise<IntegrationRecord> {
      const row = await db.tenant(ctx.tenantId, async (tx) => {
        const current = await findIntegration(tx, ctx.tenantId, id, true);
        if (!current) throw notFound('Integration');
        if (current.status === 'DISABLED') return current;
        await resolveSyncFailedAlert(tx, ctx.tenantId, id, 'The integration was disabled', clock.now());
        return updateIntegration(tx, ctx.tenantId, id, { status: 'DISABLED', next_sync_at: null, locked_until: null, sync_started_at: null }, clock.now());
      });
      return publicIntegration(row!);
    },

    /** Requests a sync now (the integrations worker runs it); a sync already under way is reported as is. */
    async sync(ctx: TenantContext, id: string): Promise<{ id: string; status: 'SYNCING'; syncStartedAt: string; message: string }> {
      const now = clock.now();
      const row = await db.tenant(ctx.tenantId, async (tx) => {
        const current = await findIntegration(tx, ctx.tenantId, id, true);
        if (!current) throw notFound('Integration');
        if (current.status === 'SYNCING') return current;
        if (current.status === 'DISABLED') throw invalidState('The integration is disabled: enable it first');
        if (current.status === 'CONFIGURED') throw invalidState('The integration has not passed a connection test yet');
        if (current.status === 'TESTING') throw invalidState('A connection test of this integration is in progress');
        const updated = await updateIntegration(tx, ctx.tenantId, id, { status: 'SYNCING', sync_started_at: now, next_sync_at: now, locked_until: null }, now);
        await tx.query(`NOTIFY ${INTEGRATIONS_CHANNEL}`);
        return updated;
      });
      return { id, status: 'SYNCING', syncStartedAt: row!.syncStartedAt ?? now.toISOString(), message: 'Sync started' };
    },
  };
}
