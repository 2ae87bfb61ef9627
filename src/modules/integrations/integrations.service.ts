import { IntegrationError, type ConnectionTestResult, type IntegrationAdapter, type IntegrationErrorCode, type VendorInfo } from '../../adapters/integrations/port.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { openSecret, sealSecret } from '../../infra/secrets.js';
import { invalid, invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Clock } from '../../lib/time.js';
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
  type LastTest,
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

/** What a manual sync answers (the spec: `any | manual sync → SYNCING`): the sync under way, for every state. */
export interface SyncAnswer {
  id: string;
  status: 'SYNCING';
  syncStartedAt: string;
  message: string;
}

/**
 * Whether a sync must run the connection test first: credentials that never passed one are not synced with
 * (a new or changed config, CONFIGURED; an ERROR left by a failed test; a DISABLED one never tested). Read
 * by the worker from the row it claimed: a passing test is the one thing that sets lastTest SUCCESS.
 */
export function needsTestBeforeSync(row: Pick<IntegrationRow, 'lastTest'>): boolean {
  return row.lastTest?.testResult !== 'SUCCESS';
}

/** A connection test under way: TESTING within its lease (one whose process died no longer counts). */
const testInProgress = (row: IntegrationRow, now: Date): boolean => row.status === 'TESTING' && row.lockedUntil !== null && row.lockedUntil > now;

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

/**
 * Runs an adapter's connection test with a sealed config. Never throws: a thrown error is a failed test;
 * what the result says is scrubbed of the config's secrets. The service's POST …/test and the sync
 * worker's test before a first sync both run it.
 */
export async function runConnectionTest(
  io: { adapter: IntegrationAdapter | undefined; encryptionKey: Buffer; clock: Clock; log: FastifyBaseLogger },
  row: Pick<IntegrationRow, 'id' | 'vendor' | 'configCiphertext'>,
  signal: AbortSignal,
): Promise<TestResponse> {
  // What may hold a credential, scrubbed out of every message and detail below.
  let secrets: Config = {};
  let result: ConnectionTestResult;
  try {
    const config = openConfig(io.encryptionKey, row.configCiphertext);
    secrets = secretsOf(io.adapter, config);
    if (!io.adapter) throw new IntegrationError('INVALID_CONFIG', `No adapter for vendor ${row.vendor} in this service`);
    result = await io.adapter.test(config, signal);
  } catch (err) {
    const failure = failureOf(err, secrets);
    io.log.warn({ integrationId: row.id, vendor: row.vendor, code: failure.code, errorName: err instanceof Error ? err.name : typeof err }, 'integration test failed');
    result = { ok: false, message: 'Connection test failed', details: {}, error: failure };
  }
  const ok = result.ok && result.error === undefined;
  const error = ok ? undefined : { code: result.error?.code ?? 'VENDOR_ERROR', details: scrub(result.error?.details ?? 'The connection test failed', secrets) };
  return {
    id: row.id,
    testResult: ok ? 'SUCCESS' : 'FAILED',
    message: scrub(result.message, secrets),
    details: scrubDeep(result.details ?? {}, secrets),
    ...(error ? { error } : {}),
    testedAt: io.clock.now().toISOString(),
  };
}

/** What a test leaves on the integration (lastTest). */
export const lastTestOf = (r: TestResponse): LastTest => ({ testResult: r.testResult, message: r.message, testedAt: r.testedAt });

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
   * only if nothing changed the integration meanwhile.
   */
  async function runTest(ctx: TenantContext, id: string, mode: 'test' | 'enable'): Promise<TestResponse> {
    const started = clock.now();
    const before = await db.tenant(ctx.tenantId, async (tx) => {
      const row = await findIntegration(tx, ctx.tenantId, id, true);
      if (!row) throw notFound('Integration');
      if (row.status === 'SYNCING') throw invalidState('A sync of this integration is in progress');
      if (testInProgress(row, started)) throw invalidState('A connection test of this integration is in progress');
      const keepsStatus = mode === 'test' && row.status === 'DISABLED';
      if (!keepsStatus) {
        await updateIntegration(tx, ctx.tenantId, id, { status: 'TESTING', locked_until: new Date(started.getTime() + TEST_LEASE_MS) }, started);
      }
      return row;
    });
    const priorStatus = before.status;
    const response = await runConnectionTest({ adapter: deps.integrations.get(before.vendor), encryptionKey: key, clock, log: deps.log }, before, AbortSignal.timeout(TEST_TIMEOUT_MS));
    const testedAt = new Date(response.testedAt);
    const lastTest = lastTestOf(response);
    const error = response.error;
    await db.tenant(ctx.tenantId, async (tx) => {
      if (mode === 'test' && priorStatus === 'DISABLED') {
        await updateIntegration(tx, ctx.tenantId, id, { last_test: lastTest, ...(error ? { last_error: { ...error, at: response.testedAt } } : {}) }, testedAt, {
          configCiphertext: before.configCiphertext,
        });
        return;
      }
      const fence = { status: 'TESTING' as const, configCiphertext: before.configCiphertext };
      if (error) {
        await updateIntegration(
          tx,
          ctx.tenantId,
          id,
          { status: priorStatus === 'DISABLED' ? 'DISABLED' : 'ERROR', last_test: lastTest, last_error: { ...error, at: response.testedAt }, next_sync_at: null, locked_until: null },
          testedAt,
          fence,
        );
        return;
      }
      const updated = await updateIntegration(
        tx,
        ctx.tenantId,
        id,
        { status: 'ACTIVE', last_test: lastTest, last_error: null, locked_until: null, next_sync_at: priorStatus === 'ACTIVE' && before.nextSyncAt ? new Date(before.nextSyncAt) : testedAt },
        testedAt,
        fence,
      );
      // A sync is due now: wake the sync worker rather than wait for its idle timer.
      if (updated) await tx.query(`NOTIFY ${INTEGRATIONS_CHANNEL}`);
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
     * A manual sync, from every state (the spec: `any | manual sync → SYNCING`): the answer is SYNCING
     * with syncStartedAt; the integrations worker runs the sync after the answer. Nothing vendor-side runs
     * inside the request: an integration that has not passed a connection test with its config (CONFIGURED,
     * ERROR after a failed test, DISABLED never tested) is tested by the worker first, and a failing test
     * is a failed sync (ERROR, lastError, `integration.sync_failed`). DISABLED: syncs once and goes back to
     * DISABLED whatever the outcome. SYNCING: the sync under way is reported. A live connection test (TESTING
     * within its lease) is the one refusal: 400.
     */
    async sync(ctx: TenantContext, id: string): Promise<SyncAnswer> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const current = await findIntegration(tx, ctx.tenantId, id, true);
        if (!current) throw notFound('Integration');
        if (current.status === 'SYNCING') return { id, status: 'SYNCING' as const, syncStartedAt: current.syncStartedAt ?? now.toISOString(), message: 'A sync is already in progress' };
        if (testInProgress(current, now)) throw invalidState('A connection test of this integration is in progress: sync once it has finished');
        const once = current.status === 'DISABLED';
        const tested = needsTestBeforeSync(current);
        await updateIntegration(tx, ctx.tenantId, id, { status: 'SYNCING', sync_started_at: now, next_sync_at: now, locked_until: null, return_to_disabled: once }, now);
        await tx.query(`NOTIFY ${INTEGRATIONS_CHANNEL}`);
        const message = [
          'Sync started',
          tested ? ': the connection test runs first (a failure shows as ERROR with lastError)' : '',
          once ? '. It runs once: the integration stays DISABLED (no scheduled syncs)' : '',
        ].join('');
        return { id, status: 'SYNCING' as const, syncStartedAt: now.toISOString(), message };
      });
    },
  };
}
