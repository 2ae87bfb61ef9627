import type { SyncContext, SyncResult } from '../../adapters/integrations/port.js';
import { emitEvent } from '../../db/outbox.js';
import type { Database, Tx } from '../../db/types.js';
import { pathAhead, samplePath } from '../../domain/geo/route-sample.js';
import type { Segment } from '../../domain/planning/types.js';
import type { Clock } from '../../lib/time.js';
import type { Worker } from '../../lib/worker.js';
import type { FastifyBaseLogger } from 'fastify';
import { applySyncResult } from './apply/index.js';
import { raiseSyncFailedAlert, resolveSyncFailedAlert } from './integrations.alerts.js';
import type { IntegrationRegistry } from './integrations.registry.js';
import { claimDueSyncs, releaseSyncs, updateIntegration, type ClaimedSync } from './integrations.repository.js';
import { secretsOf } from './integrations.config.js';
import { failureOf, lastTestOf, needsTestBeforeSync, openConfig, runConnectionTest, TEST_TIMEOUT_MS } from './integrations.service.js';
import type { LastTest } from './integrations.repository.js';

export interface SyncOptions {
  /** Integrations claimed per pass. */
  batch: number;
  /** How long a claim holds (longer than a sync may take): a crashed worker's sync is retaken after it. */
  leaseMs: number;
  /** A sync running longer is aborted (TIMEOUT). */
  timeoutMs: number;
}

export const DEFAULT_SYNC_OPTIONS: SyncOptions = { batch: 8, leaseMs: 10 * 60_000, timeoutMs: 5 * 60_000 };

/** How many records of each kind a sync returned (beside what applying them changed). */
export function syncCounts(r: SyncResult): Record<string, number> {
  switch (r.kind) {
    case 'ELD':
      return { clocks: r.clocks.length, logs: r.logs.length, locations: r.locations.length, faults: r.faults.length, unassignedDriving: r.unassignedDriving?.length ?? 0, unmatchedDrivers: r.unmatched.drivers, unmatchedVehicles: r.unmatched.vehicles };
    case 'TMS_LOADS':
      return { loads: r.loads.length };
    case 'VISIBILITY':
      return { shipments: r.shipments.length, exceptions: r.shipments.reduce((n, s) => n + s.exceptions.length, 0) };
    case 'FUEL':
      return { stations: r.stations.length };
    case 'WEATHER':
      return { points: r.points.length, alerts: r.points.reduce((n, p) => n + p.alerts.length, 0) };
  }
}

async function loadContext(tx: Tx, tenantId: string, now: Date, signal: AbortSignal): Promise<SyncContext> {
  const drivers = await tx.query<{ id: string; license_number: string; external_id: string | null; first_name: string; last_name: string }>(
    `SELECT id, license_number, external_id, first_name, last_name FROM drivers WHERE tenant_id = $1 AND status <> 'INACTIVE' ORDER BY id`,
    [tenantId],
  );
  const vehicles = await tx.query<{ id: string; unit_number: string; eld_external_id: string | null }>(
    `SELECT id, unit_number, eld_external_id FROM vehicles WHERE tenant_id = $1 ORDER BY id`,
    [tenantId],
  );
  return {
    now,
    drivers: drivers.rows.map((d) => ({ id: d.id, licenseNumber: d.license_number, externalId: d.external_id, firstName: d.first_name, lastName: d.last_name })),
    vehicles: vehicles.rows.map((v) => ({ id: v.id, unitNumber: v.unit_number, eldExternalId: v.eld_external_id })),
    routePoints: await activeRoutePoints(tx, tenantId, now),
    signal,
  };
}

/** Points along the rest of each ACTIVE route (from its latest position), for weather and fuel. */
async function activeRoutePoints(tx: Tx, tenantId: string, now: Date): Promise<SyncContext['routePoints']> {
  const { rows } = await tx.query<{ id: string; segments: unknown; latitude: number | null; longitude: number | null }>(
    `SELECT r.id, r.segments, p.latitude, p.longitude
       FROM route_plans r
       LEFT JOIN LATERAL (SELECT latitude, longitude FROM route_positions
                           WHERE tenant_id = r.tenant_id AND route_id = r.id ORDER BY recorded_at DESC LIMIT 1) p ON true
      WHERE r.tenant_id = $1 AND r.status = 'ACTIVE'
      ORDER BY r.id`,
    [tenantId],
  );
  return rows.flatMap((r) => {
    const segments = (typeof r.segments === 'string' ? JSON.parse(r.segments) : r.segments) as Segment[];
    const drives = segments.flatMap((s) => (s.type === 'drive' ? [{ from: s.from, to: s.to, endsAt: Date.parse(s.end_time) }] : []));
    const position = r.latitude === null || r.longitude === null ? null : { latitude: Number(r.latitude), longitude: Number(r.longitude) };
    return samplePath(pathAhead(drives, now.getTime(), position)).map((p) => ({ routeId: r.id, latitude: p.latitude, longitude: p.longitude }));
  });
}

/**
 * Syncs due integrations of every tenant: claims them under a lease (FOR UPDATE SKIP LOCKED), calls the
 * vendor adapter outside any transaction, then records the outcome fenced by the lease (a disable, a
 * config change or a delete meanwhile wins): ACTIVE with lastSyncAt / nextSyncAt and an
 * `integration.sync_completed` event, or ERROR with lastError, `integration.sync_failed` and an
 * INTEGRATION_SYNC_FAILED alert. Credentials that never passed a connection test are tested first, and a
 * failing test is recorded as the sync's failure (lastTest too). A one-off manual sync of a DISABLED integration (returnToDisabled) ends
 * DISABLED either way, with nothing scheduled: the same events, but no alert for an integration paused on purpose.
 */
export class IntegrationSyncWorker implements Worker {
  readonly name = 'integrations';
  /** Syncs claimed and not yet recorded: what a shutdown gives back. */
  private readonly held = new Set<ClaimedSync>();

  constructor(
    private readonly db: Database,
    private readonly io: { registry: IntegrationRegistry; encryptionKey: Buffer; clock: Clock; log: FastifyBaseLogger },
    private readonly opts: SyncOptions = DEFAULT_SYNC_OPTIONS,
  ) {}

  /** A shutdown (`stopping`) aborts the syncs under way; they are given back (release), not recorded as failed. */
  async runOnce(now: Date, stopping?: AbortSignal): Promise<number> {
    if (stopping?.aborted) return 0;
    const lease = new Date(now.getTime() + this.opts.leaseMs);
    const claimed = await this.db.system((tx) => claimDueSyncs(tx, now, this.opts.batch, lease));
    for (const c of claimed) this.held.add(c);
    await Promise.all(claimed.map((c) => this.syncOne(c, now, stopping)));
    return claimed.length;
  }

  async release(): Promise<void> {
    const claims = [...this.held];
    this.held.clear();
    await this.db.system((tx) => releaseSyncs(tx, claims));
  }

  private async syncOne(c: ClaimedSync, now: Date, stopping?: AbortSignal): Promise<void> {
    await this.runSync(c, now, stopping);
    if (!stopping?.aborted) this.held.delete(c);
  }

  private async runSync(c: ClaimedSync, now: Date, stopping?: AbortSignal): Promise<void> {
    const { tenantId, row } = c;
    const adapter = this.io.registry.get(row.vendor);
    const within = (ms: number) => (stopping ? AbortSignal.any([AbortSignal.timeout(ms), stopping]) : AbortSignal.timeout(ms));
    let config: Record<string, unknown> = {};
    let outcome: { ok: true; result: SyncResult } | { ok: false; error: { code: string; details: string } };
    // Credentials that never passed a connection test are tested first (a manual sync of a CONFIGURED
    // integration, say); a failing test is this sync's failure, with the test's error.
    let lastTest: LastTest | undefined;
    if (needsTestBeforeSync(row)) {
      const test = await runConnectionTest({ adapter, encryptionKey: this.io.encryptionKey, clock: this.io.clock, log: this.io.log }, row, within(TEST_TIMEOUT_MS));
      if (stopping?.aborted) return;
      lastTest = lastTestOf(test);
      if (test.error) {
        await this.recordFailure(c, test.error, this.io.clock.now(), lastTest);
        return;
      }
    }
    try {
      config = openConfig(this.io.encryptionKey, row.configCiphertext);
      if (!adapter) throw Object.assign(new Error('no adapter'), { name: 'NoAdapter' });
      const signal = within(this.opts.timeoutMs);
      const ctx = await this.db.tenant(tenantId, (tx) => loadContext(tx, tenantId, now, signal));
      const result = await adapter.sync(config, ctx);
      outcome = { ok: true, result };
    } catch (err) {
      const failure =
        err instanceof Error && err.name === 'NoAdapter' ? { code: 'INVALID_CONFIG' as const, details: `No adapter for vendor ${row.vendor} in this service` } : failureOf(err, secretsOf(adapter, config));
      if (!stopping?.aborted) this.io.log.warn({ tenantId, integrationId: row.id, vendor: row.vendor, code: failure.code, errorName: err instanceof Error ? err.name : typeof err }, 'integration sync failed');
      outcome = { ok: false, error: failure };
    }
    // Interrupted by the shutdown: neither a success nor a failure; the sync is given back (release).
    if (stopping?.aborted) return;
    const at = this.io.clock.now();
    if (outcome.ok) {
      try {
        await this.recordSuccess(c, outcome.result, at, lastTest);
        return;
      } catch (err) {
        // Data the vendor sent that cannot be stored (a constraint, a shape the applier does not expect): the
        // transaction rolled back; the sync fails cleanly rather than staying SYNCING until its lease ends.
        this.io.log.error({ tenantId, integrationId: row.id, vendor: row.vendor, errorName: err instanceof Error ? err.name : typeof err }, 'integration sync data could not be applied');
        outcome = { ok: false, error: { code: 'VENDOR_ERROR', details: `The data ${row.vendor} returned could not be applied` } };
      }
    }
    await this.recordFailure(c, outcome.error, at, lastTest);
  }

  private async recordSuccess(c: ClaimedSync, result: SyncResult, at: Date, lastTest?: LastTest): Promise<void> {
    const { tenantId, row } = c;
    const fence = { status: 'SYNCING' as const, lockedUntil: c.lease, configCiphertext: row.configCiphertext };
    await this.db.tenant(tenantId, async (tx) => {
      const next = row.returnToDisabled ? null : new Date(at.getTime() + row.syncIntervalMinutes * 60_000);
      const done = await updateIntegration(
        tx,
        tenantId,
        row.id,
        { status: row.returnToDisabled ? 'DISABLED' : 'ACTIVE', last_sync_at: at, next_sync_at: next, last_error: null, last_test: lastTest, locked_until: null, sync_started_at: null, return_to_disabled: false },
        at,
        fence,
      );
      if (!done) return;
      // The row is locked by the update: the data lands with the status, or neither does.
      const applied = await applySyncResult(tx, { tenantId, integrationId: row.id, vendor: row.vendor }, result, at);
      const counts = { ...syncCounts(result), ...applied };
      await updateIntegration(tx, tenantId, row.id, { last_sync_counts: counts }, at);
      await resolveSyncFailedAlert(tx, tenantId, row.id, `${row.vendor} synced again`, at);
      await emitEvent(tx, tenantId, 'integration.sync_completed', { integrationId: row.id, vendor: row.vendor, category: row.category, counts, syncedAt: at.toISOString(), nextSyncAt: next?.toISOString() ?? null }, at);
    });
  }

  private async recordFailure(c: ClaimedSync, failure: { code: string; details: string }, at: Date, lastTest?: LastTest): Promise<void> {
    const { tenantId, row } = c;
    const fence = { status: 'SYNCING' as const, lockedUntil: c.lease, configCiphertext: row.configCiphertext };
    const error = failure as { code: 'VENDOR_ERROR'; details: string };
    await this.db.tenant(tenantId, async (tx) => {
      const done = await updateIntegration(
        tx,
        tenantId,
        row.id,
        { status: row.returnToDisabled ? 'DISABLED' : 'ERROR', last_error: { ...error, at: at.toISOString() }, last_test: lastTest, next_sync_at: null, locked_until: null, sync_started_at: null, return_to_disabled: false },
        at,
        fence,
      );
      if (!done) return;
      await emitEvent(tx, tenantId, 'integration.sync_failed', { integrationId: row.id, vendor: row.vendor, category: row.category, error: { code: error.code, details: error.details }, failedAt: at.toISOString() }, at);
      if (row.returnToDisabled) return;
      await raiseSyncFailedAlert(tx, tenantId, { integrationId: row.id, name: row.name, vendor: row.vendor, category: row.category, code: error.code, details: error.details, failedAt: at.toISOString() }, at);
    });
  }
}
