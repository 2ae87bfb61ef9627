import type { Deps } from '../../deps.js';
import { emitEvent } from '../../db/outbox.js';
import type { Tx } from '../../db/types.js';
import { invalid, invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import { alertUpdate, findAlert, resolveAlert, type AlertRecord } from './alerts.repository.js';

/** Longest snooze: a week (an alert snoozed for longer is one that should be resolved). */
export const MAX_SNOOZE_MINUTES = 7 * 24 * 60;

export interface AlertNote {
  id: string;
  alertId: string;
  authorId: string;
  text: string;
  createdAt: string;
}

/**
 * The driver profile a DRIVER user is linked to (null: none), which limits what they see to their own
 * alerts; undefined for every other role (they see the whole tenant).
 */
export async function driverScope(tx: Tx, ctx: Pick<TenantContext, 'tenantId' | 'role' | 'userId'>): Promise<string | null | undefined> {
  if (ctx.role !== 'DRIVER') return undefined;
  const { rows } = await tx.query<{ id: string }>('SELECT id FROM drivers WHERE tenant_id = $1 AND user_id = $2', [ctx.tenantId, ctx.userId]);
  return rows[0]?.id ?? null;
}

/** The alert if this caller may see it (another tenant's, or another driver's for a DRIVER user: not found). */
export async function visibleAlert(tx: Tx, ctx: TenantContext, id: string, forUpdate: boolean): Promise<AlertRecord> {
  const alert = await findAlert(tx, ctx.tenantId, id, forUpdate);
  if (!alert) throw notFound('Alert');
  const scope = await driverScope(tx, ctx);
  // A DRIVER user linked to no driver sees nothing, not the alerts that have no driver either.
  if (scope !== undefined && (scope === null || alert.driverId !== scope)) throw notFound('Alert');
  return alert;
}

/**
 * What people do with alerts: acknowledge, resolve, snooze and annotate. Each change commits with its
 * event (alert.updated / alert.resolved) in the outbox, so SSE, Socket.IO and webhooks all hear of it.
 * Used by the REST API and by Socket.IO's `alert:acknowledge` (reading alerts and notes: alerts.reports.ts).
 */
export function alertsService(deps: Pick<Deps, 'db' | 'clock'>) {
  const { db, clock } = deps;

  async function addNoteIn(tx: Tx, ctx: TenantContext, alertId: string, text: string, now: Date): Promise<AlertNote> {
    const id = newId('alertNote');
    await tx.query('INSERT INTO alert_notes (tenant_id, id, alert_id, author_id, text, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      ctx.tenantId,
      id,
      alertId,
      ctx.userId,
      text,
      now,
    ]);
    return { id, alertId, authorId: ctx.userId, text, createdAt: now.toISOString() };
  }

  return {
    /** ACTIVE or SNOOZED → ACKNOWLEDGED (someone is on it). Acknowledging twice is a 400. */
    async acknowledge(ctx: TenantContext, id: string, note?: string): Promise<AlertRecord> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const alert = await visibleAlert(tx, ctx, id, true);
        if (alert.status === 'ACKNOWLEDGED') throw invalidState('Alert is already acknowledged');
        if (alert.status === 'RESOLVED') throw invalidState('Alert is already resolved');
        await tx.query(
          `UPDATE alerts SET status = 'ACKNOWLEDGED', acknowledged_by = $3, acknowledged_at = $4, snoozed_until = NULL, updated_at = $4
            WHERE tenant_id = $1 AND id = $2`,
          [ctx.tenantId, id, ctx.userId, now],
        );
        if (note?.trim()) await addNoteIn(tx, ctx, id, note.trim(), now);
        const updated = (await findAlert(tx, ctx.tenantId, id))!;
        await emitEvent(tx, ctx.tenantId, 'alert.updated', alertUpdate(updated, ctx.userId, 'acknowledged'), now);
        return updated;
      });
    },

    /** Any unresolved state → RESOLVED, by this user, with an optional resolution text. */
    async resolve(ctx: TenantContext, id: string, resolution?: string): Promise<AlertRecord> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const alert = await visibleAlert(tx, ctx, id, true);
        if (alert.status === 'RESOLVED') throw invalidState('Alert is already resolved');
        return resolveAlert(tx, ctx.tenantId, id, ctx.userId, resolution?.trim() || null, now);
      });
    },

    /**
     * → SNOOZED until now + minutes; monitoring does not raise it again meanwhile and turns it ACTIVE
     * again (an update event) when the time is up and the condition still holds.
     */
    async snooze(ctx: TenantContext, id: string, minutes: number): Promise<AlertRecord> {
      if (!Number.isFinite(minutes) || minutes < 1 || minutes > MAX_SNOOZE_MINUTES) {
        throw invalid('Validation failed', [{ field: 'body.minutes', message: `must be between 1 and ${MAX_SNOOZE_MINUTES}` }]);
      }
      const now = clock.now();
      const until = new Date(now.getTime() + Math.round(minutes * 60_000));
      return db.tenant(ctx.tenantId, async (tx) => {
        const alert = await visibleAlert(tx, ctx, id, true);
        if (alert.status === 'RESOLVED') throw invalidState('Alert is already resolved');
        await tx.query(
          `UPDATE alerts SET status = 'SNOOZED', snoozed_by = $3, snoozed_until = $4, updated_at = $5 WHERE tenant_id = $1 AND id = $2`,
          [ctx.tenantId, id, ctx.userId, until, now],
        );
        const updated = (await findAlert(tx, ctx.tenantId, id))!;
        await emitEvent(tx, ctx.tenantId, 'alert.updated', alertUpdate(updated, ctx.userId, 'snoozed'), now);
        return updated;
      });
    },

    /** A note on the alert (an update event with change "annotated"; the status stays). */
    async addNote(ctx: TenantContext, id: string, text: string): Promise<AlertNote> {
      const trimmed = text.trim();
      if (!trimmed) throw invalid('Validation failed', [{ field: 'body.text', message: 'must not be empty' }]);
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const alert = await visibleAlert(tx, ctx, id, true);
        const note = await addNoteIn(tx, ctx, id, trimmed, now);
        await tx.query('UPDATE alerts SET updated_at = $3 WHERE tenant_id = $1 AND id = $2', [ctx.tenantId, id, now]);
        await emitEvent(tx, ctx.tenantId, 'alert.updated', { ...alertUpdate({ ...alert, updatedAt: now.toISOString() }, ctx.userId, 'annotated'), note }, now);
        return note;
      });
    },
  };
}

