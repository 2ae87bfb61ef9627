/** One monitoring check in a line, for the rules' tests: evaluate, then reconcile against open alerts. */
import { evaluateAlerts } from './evaluate.js';
import { reconcile } from './reconcile.js';
import { openAlert } from './test-support.js';
import type { AlertCondition, AlertType, MonitoringSnapshot, OpenAlert, Reconciliation } from './types.js';

/** The condition of one type that holds in the snapshot, if any. */
export const conditionOf = (snapshot: MonitoringSnapshot, type: AlertType): AlertCondition | undefined =>
  evaluateAlerts(snapshot).find((c) => c.type === type);

/** One monitoring check of the snapshot with these open alerts. */
export function check(snapshot: MonitoringSnapshot, open: OpenAlert[] = snapshot.open): Reconciliation {
  const s = { ...snapshot, open };
  return reconcile(s, evaluateAlerts(s));
}

/**
 * The condition of `type` in `holding`, raised as an open alert, then checked against `cleared`: the
 * reconciliation (expected to resolve it) and the alert.
 */
export function raiseThenCheck(holding: MonitoringSnapshot, cleared: MonitoringSnapshot, type: AlertType): { alert: OpenAlert; result: Reconciliation } {
  const found = conditionOf(holding, type);
  if (found === undefined) throw new Error(`${type} does not hold in the holding snapshot`);
  const alert = openAlert(found);
  return { alert, result: check(cleared, [alert]) };
}
