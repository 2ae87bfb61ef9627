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

/** What a manual sync answers: started (after a passing connection test, when one ran first), or not (the test failed). */
export type SyncAnswer =
  | { id: string; status: 'SYNCING'; syncStartedAt: string; message: string; connectionTest?: TestResponse }
  | { id: string; status: 'ERROR' | 'DISABLED'; message: string; error: NonNullable<TestResponse['error']>; connectionTest: TestResponse };

const ONCE_MESSAGE = 'Sync started once: the integration stays DISABLED (no scheduled syncs)';

/**
 * Whether a manual sync must run the connection test first: credentials that never passed one are not
 * synced with. CONFIGURED (new or changed config), TESTING (a test that died: a live one is refused by
 * the test), DISABLED without a passing test. ACTIVE and ERROR sync as they are (a failure is reported by the sync).
 */
function needsTestBeforeSync(row: IntegrationRow): boolean {
  if (row.status === 'CONFIGURED' || row.status === 'TESTING') return true;
  return row.status === 'DISABLED' && row.lastTest?.testResult !== 'SUCCESS';
}

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
   * plain test of a DISABLED integration reports without changing its status. `sync` (a manual sync of
   * an integration that has not passed a test) goes from SUCCESS straight to SYNCING, the sync due now,
   * returning to DISABLED afterwards if it was DISABLED; its failure is the test's. The result is written
   * only if nothing changed the integration meanwhile; `row` is the integration as written (null if not).
   */
  async function runTest(ctx: TenantContext, id: string, mode: 'test' | 'enable' | 'sync'): Promise<{ response: TestResponse; row: IntegrationRow | null }> {
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
    const row = await db.tenant(ctx.tenantId, async (tx) => {
      if (mode === 'test' && priorStatus === 'DISABLED') {
        return updateIntegration(tx, ctx.tenantId, id, { last_test: lastTest, ...(error ? { last_error: { ...error, at: response.testedAt } } : {}) }, testedAt, {
          configCiphertext: before.configCiphertext,
        });
      }
      const fence = { status: 'TESTING' as const, configCiphertext: before.configCiphertext };
      if (!ok) {
        return updateIntegration(
          tx,
          ctx.tenantId,
          id,
          { status: priorStatus === 'DISABLED' ? 'DISABLED' : 'ERROR', last_test: lastTest, last_error: { ...error!, at: response.testedAt }, next_sync_at: null, locked_until: null },
          testedAt,
          fence,
        );
      }
      const passed = { last_test: lastTest, last_error: null, locked_until: null };
      const updated =
        mode === 'sync'
          ? await updateIntegration(tx, ctx.tenantId, id, { ...passed, status: 'SYNCING', sync_started_at: testedAt, next_sync_at: testedAt, return_to_disabled: priorStatus === 'DISABLED' }, testedAt, fence)
          : await updateIntegration(
              tx,
              ctx.tenantId,
              id,
              { ...passed, status: 'ACTIVE', next_sync_at: priorStatus === 'ACTIVE' && before.nextSyncAt ? new Date(before.nextSyncAt) : testedAt },
              testedAt,
              fence,
            );
      // A sync is due now: wake the sync worker rather than wait for its idle timer.
      if (updated) await tx.query(`NOTIFY ${INTEGRATIONS_CHANNEL}`);
      return updated;
    });
    return { response, row };
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

    test: async (ctx: TenantContext, id: string) => (await runTest(ctx, id, 'test')).response,

    /** Runs the connection test; ACTIVE when it passes (from DISABLED a failure leaves it DISABLED). */
    enable: async (ctx: TenantContext, id: string) => (await runTest(ctx, id, 'enable')).response,

    /** DISABLED: no scheduled syncs (a manual one runs once), credentials kept; a sync in flight finishes without changing the status. */
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

    /**
     * A manual sync, from any state (the spec: any → SYNCING); the integrations worker runs it.
     * - ACTIVE, ERROR: SYNCING now. SYNCING: the sync under way, reported as is.
     * - CONFIGURED (or a TESTING one whose test died): its connection test first, as POST …/test runs it;
     *   SUCCESS → SYNCING (and ACTIVE after it, as the first sync of a tested integration), FAILED → ERROR
     *   with the test's error, answered 200 with status ERROR and the test result (a failed test is not an
     *   HTTP error). A test in progress: 400.
     * - DISABLED: syncs once and stays DISABLED (DISABLED after the sync, whatever its outcome, with no
     *   sync scheduled); one that never passed a connection test with its config is tested first, and a
     *   failure leaves it DISABLED.
     */
    async sync(ctx: TenantContext, id: string): Promise<SyncAnswer> {
      const now = clock.now();
      const { row: started, already } = await db.tenant(ctx.tenantId, async (tx) => {
        const current = await findIntegration(tx, ctx.tenantId, id, true);
        if (!current) throw notFound('Integration');
        if (current.status === 'SYNCING' || needsTestBeforeSync(current)) return { row: current, already: current.status === 'SYNCING' };
        const updated = await updateIntegration(
          tx,
          ctx.tenantId,
          id,
          { status: 'SYNCING', sync_started_at: now, next_sync_at: now, locked_until: null, return_to_disabled: current.status === 'DISABLED' },
          now,
        );
        await tx.query(`NOTIFY ${INTEGRATIONS_CHANNEL}`);
        return { row: updated!, already: false };
      });
      if (started.status === 'SYNCING') {
        const message = already ? 'A sync is already in progress' : started.returnToDisabled ? ONCE_MESSAGE : 'Sync started';
        return { id, status: 'SYNCING', syncStartedAt: started.syncStartedAt ?? now.toISOString(), message };
      }

      const { response, row } = await runTest(ctx, id, 'sync');
      if (!row) throw invalidState('The integration changed during its connection test: the sync did not start');
      if (response.testResult === 'SUCCESS') {
        const message = row.returnToDisabled ? `Connection test passed. ${ONCE_MESSAGE}` : 'Connection test passed; sync started';
        return { id, status: 'SYNCING', syncStartedAt: row.syncStartedAt ?? response.testedAt, message, connectionTest: response };
      }
      return {
        id,
        status: row.status === 'DISABLED' ? 'DISABLED' : 'ERROR',
        message: `Connection test failed (${response.error!.code}): the sync did not start`,
        error: response.error!,
        connectionTest: response,
      };
    },
  };
}
