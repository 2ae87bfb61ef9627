import { buildContext } from './context.js';
import { RULES, TYPE_ORDER } from './rules.js';
import type { AlertCondition, MonitoringSnapshot } from './types.js';

/** The conditions that hold now: at most one per type, in the contract's type order. */
export function evaluateAlerts(snapshot: MonitoringSnapshot): AlertCondition[] {
  const ctx = buildContext(snapshot);
  const conditions: AlertCondition[] = [];
  for (const type of TYPE_ORDER) {
    const found = RULES[type].evaluate(ctx);
    if (found !== null) conditions.push(found);
  }
  return conditions;
}
