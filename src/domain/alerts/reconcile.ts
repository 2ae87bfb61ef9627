/**
 * From the conditions that hold now to what to do with the route's open alerts. One open alert per type:
 * a condition without one is created; one whose priority or material facts (the rule's fingerprint of
 * the metadata) changed is updated; one whose condition is gone is resolved with the reason.
 *
 * SNOOZED: while the snooze runs, neither updated nor re-raised (its type counts as open), but resolved
 * if its condition cleared; once the snooze has ended, resurfaced (and updated too if it changed).
 * ACKNOWLEDGED: updated and resolved like ACTIVE, never re-raised as new (it is still open).
 */
import { buildContext } from './context.js';
import { RULES } from './rules.js';
import type { AlertCondition, MonitoringSnapshot, OpenAlert, Reconciliation, RouteAlertType } from './types.js';

const snoozing = (alert: OpenAlert, now: number): boolean =>
  alert.status === 'SNOOZED' && alert.snoozedUntil !== null && alert.snoozedUntil > now;

/**
 * Open alerts by type, oldest first (the oldest is the one kept if the store ever holds two). Only the
 * types a route's rules judge: an integration's INTEGRATION_SYNC_FAILED is never a route's to resolve.
 */
function openByType(open: readonly OpenAlert[]): Map<RouteAlertType, OpenAlert[]> {
  const byType = new Map<RouteAlertType, OpenAlert[]>();
  for (const alert of [...open].sort((a, b) => a.createdAt - b.createdAt)) {
    if (!(alert.type in RULES)) continue;
    const type = alert.type as RouteAlertType;
    byType.set(type, [...(byType.get(type) ?? []), alert]);
  }
  return byType;
}

export function reconcile(snapshot: MonitoringSnapshot, conditions: AlertCondition[]): Reconciliation {
  const ctx = buildContext(snapshot);
  const result: Reconciliation = { create: [], update: [], resolve: [], resurface: [] };
  const open = openByType(snapshot.open);
  const holding = new Map<RouteAlertType, AlertCondition>();
  // Conditions come from the route's rules (evaluateAlerts): their types are the route's.
  for (const c of conditions) if (!holding.has(c.type as RouteAlertType)) holding.set(c.type as RouteAlertType, c);

  for (const [type, condition] of holding) {
    const alert = open.get(type)?.[0];
    if (alert === undefined) {
      result.create.push(condition);
      continue;
    }
    if (snoozing(alert, snapshot.now)) continue;
    if (alert.status === 'SNOOZED') result.resurface.push(alert);
    const rule = RULES[type];
    const priorityChanged = alert.priority !== condition.priority;
    if (priorityChanged || rule.fingerprint(alert.metadata) !== rule.fingerprint(condition.metadata)) {
      result.update.push({ alert, condition, priorityChanged });
    }
  }

  for (const [type, alerts] of open) {
    const [kept, ...duplicates] = alerts;
    if (!holding.has(type)) {
      for (const alert of alerts) result.resolve.push({ alert, resolution: RULES[type].cleared(ctx, alert) });
    } else {
      for (const alert of duplicates) result.resolve.push({ alert, resolution: `Duplicate of ${kept!.id}` });
    }
  }
  return result;
}
