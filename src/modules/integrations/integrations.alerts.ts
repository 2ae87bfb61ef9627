/**
 * INTEGRATION_SYNC_FAILED, one per failing integration: raised in the transaction that records the
 * failure (so the alert, the ERROR status and the `integration.sync_failed` event land together), updated
 * by a later failure, resolved by the next successful sync, a disable or a delete. It belongs to no route
 * (a failing ELD makes every route's data stale at once); `metadata.integrationId` names the integration.
 */
import type { Tx } from '../../db/types.js';
import type { AlertCondition } from '../../domain/alerts/types.js';
import { raiseAlert, resolveAlert, reviseAlert } from '../alerts/alerts.repository.js';

export interface SyncFailure {
  integrationId: string;
  name: string;
  vendor: string;
  category: string;
  code: string;
  details: string;
  failedAt: string;
}

async function openAlertOf(tx: Tx, tenantId: string, integrationId: string): Promise<string | null> {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id FROM alerts WHERE tenant_id = $1 AND type = 'INTEGRATION_SYNC_FAILED' AND route_id IS NULL AND status <> 'RESOLVED' AND metadata->>'integrationId' = $2
      ORDER BY created_at LIMIT 1`,
    [tenantId, integrationId],
  );
  return rows[0]?.id ?? null;
}

function conditionOf(f: SyncFailure): AlertCondition {
  return {
    type: 'INTEGRATION_SYNC_FAILED',
    priority: 'MEDIUM',
    title: `Integration sync failed: ${f.name} (${f.vendor})`,
    message: `The ${f.vendor} ${f.category} integration "${f.name}" failed to sync (${f.code}: ${f.details}); its data may be out of date until it syncs again.`,
    metadata: { integrationId: f.integrationId, vendor: f.vendor, category: f.category, error: { code: f.code, details: f.details }, failedAt: f.failedAt },
  };
}

/** Raises the integration's alert, or brings the open one up to date with this failure. */
export async function raiseSyncFailedAlert(tx: Tx, tenantId: string, f: SyncFailure, now: Date): Promise<void> {
  const open = await openAlertOf(tx, tenantId, f.integrationId);
  if (open) await reviseAlert(tx, tenantId, open, conditionOf(f), 'condition changed', now);
  else await raiseAlert(tx, tenantId, { condition: conditionOf(f), driverId: null, routeId: null, vehicleId: null }, now);
}

/** Resolves the integration's open alert, if any (resolvedBy "system"). */
export async function resolveSyncFailedAlert(tx: Tx, tenantId: string, integrationId: string, resolution: string, now: Date): Promise<void> {
  const open = await openAlertOf(tx, tenantId, integrationId);
  if (open) await resolveAlert(tx, tenantId, open, 'system', resolution, now);
}
