import type { Tx } from '../../db/types.js';
import { resolveAlert } from '../alerts/alerts.repository.js';
import { startMonitoring, stopMonitoring } from './monitoring.repository.js';

export { startMonitoring };

/** A route that ends leaves monitoring, and its open alerts are resolved with it (by "system"). */
export async function endMonitoring(tx: Tx, tenantId: string, routeId: string, resolution: string, now: Date): Promise<void> {
  await stopMonitoring(tx, tenantId, routeId);
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id FROM alerts WHERE tenant_id = $1 AND route_id = $2 AND status <> 'RESOLVED' ORDER BY created_at FOR UPDATE`,
    [tenantId, routeId],
  );
  for (const { id } of rows) await resolveAlert(tx, tenantId, id, 'system', resolution, now);
}
