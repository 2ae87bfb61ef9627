import type { Database } from '../../src/db/types.js';
import { ALERT_TYPES, type AlertPriority, type AlertType } from '../../src/domain/alerts/types.js';
import { raiseAlert } from '../../src/modules/alerts/alerts.repository.js';

export interface SeedAlert {
  type: AlertType;
  /** Default: the type's default priority. */
  priority?: AlertPriority;
  /** createdAt (ISO). */
  at: string;
  driverId?: string | null;
  routeId?: string | null;
  /** Acknowledged this many minutes after createdAt. */
  ackAfter?: number;
  /** Resolved this many minutes after createdAt. */
  resolveAfter?: number;
  /** Who resolved it (default: a user id). */
  resolvedBy?: string;
  /** Snoozed until this many minutes after createdAt (status SNOOZED). */
  snoozeFor?: number;
  /** Facts besides { seeded: true } (e.g. limitReached). */
  metadata?: Record<string, unknown>;
}

const minutesAfter = (at: string, m: number) => new Date(Date.parse(at) + m * 60_000);

/**
 * Alerts with controlled times, raised the way monitoring raises them (raiseAlert, with its
 * alert.created event) and then moved along by plain updates. Returns their ids in the given order.
 */
export async function seedAlerts(db: Database, tenantId: string, alerts: SeedAlert[], userId = 'usr_seeded'): Promise<string[]> {
  return db.tenant(tenantId, async (tx) => {
    const ids: string[] = [];
    for (const a of alerts) {
      const condition = { type: a.type, priority: a.priority ?? ALERT_TYPES[a.type].priority, title: `${a.type} title`, message: `${a.type} message`, metadata: { seeded: true, ...a.metadata } };
      const alert = await raiseAlert(tx, tenantId, { condition, driverId: a.driverId ?? null, routeId: a.routeId ?? null, vehicleId: null }, new Date(a.at));
      ids.push(alert.id);
      if (a.ackAfter !== undefined) {
        const when = minutesAfter(a.at, a.ackAfter);
        await tx.query(`UPDATE alerts SET status = 'ACKNOWLEDGED', acknowledged_by = $3, acknowledged_at = $4, updated_at = $4 WHERE tenant_id = $1 AND id = $2`, [tenantId, alert.id, userId, when]);
      }
      if (a.snoozeFor !== undefined) {
        await tx.query(`UPDATE alerts SET status = 'SNOOZED', snoozed_by = $3, snoozed_until = $4 WHERE tenant_id = $1 AND id = $2`, [tenantId, alert.id, userId, minutesAfter(a.at, a.snoozeFor)]);
      }
      if (a.resolveAfter !== undefined) {
        const when = minutesAfter(a.at, a.resolveAfter);
        await tx.query(`UPDATE alerts SET status = 'RESOLVED', resolved_by = $3, resolved_at = $4, resolution = 'done', snoozed_until = NULL, updated_at = $4 WHERE tenant_id = $1 AND id = $2`, [
          tenantId,
          alert.id,
          a.resolvedBy ?? userId,
          when,
        ]);
      }
    }
    return ids;
  });
}
