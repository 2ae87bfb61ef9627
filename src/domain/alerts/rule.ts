/** The shape of one alert rule, and small helpers the rules share. */
import type { RuleContext } from './context.js';
import type { AlertCondition, AlertPriority, AlertType, OpenAlert, RouteAlertType } from './types.js';

export type Metadata = Record<string, unknown>;

export interface AlertRule {
  type: RouteAlertType;
  /** The condition that holds now, or null. */
  evaluate(ctx: RuleContext): AlertCondition | null;
  /**
   * The facts that matter to a dispatcher, coarsened (bands, sets of ids): an open alert is updated when
   * this differs between its stored metadata and the condition's, never for a small drift of a number.
   */
  fingerprint(metadata: Metadata): string;
  /** Why an open alert of this type no longer holds: its resolution text. */
  cleared(ctx: RuleContext, alert: OpenAlert): string;
}

export function condition(type: AlertType, priority: AlertPriority, title: string, message: string, metadata: Metadata): AlertCondition {
  return { type, priority, title, message, metadata };
}

/** A number from stored metadata (which may come from an older rule version): NaN when absent. */
export function num(metadata: Metadata, key: string): number {
  const value = metadata[key];
  return typeof value === 'number' ? value : Number.NaN;
}

/** The step-wide band a value falls in ("0-15 min" → 0, "15-30 min" → 1 …), as a fingerprint part. */
export function band(value: number, step: number): string {
  return Number.isFinite(value) ? String(Math.floor(value / step)) : '?';
}

/** A set of ids from metadata as a fingerprint part, order-insensitive. */
export function idSet(metadata: Metadata, listKey: string, idKey: string): string {
  const list = metadata[listKey];
  if (!Array.isArray(list)) return '?';
  const ids = list.map((item) => (item !== null && typeof item === 'object' ? String((item as Metadata)[idKey]) : String(item)));
  return [...new Set(ids)].sort().join(',');
}
