/**
 * The navigation badge's words (kept apart from alert-feed.ts: the badge is in every page's first load,
 * the feed's logic only in the lazily loaded alerts page). Pure (tested in alert-feed.test.ts).
 */

/** A window event the alerts page fires after changing an alert, so the navigation badge counts again at once. */
export const ALERTS_CHANGED = 'fleet:alerts-changed';

/** "3 open alerts" / "1 open alert". */
export function openAlertsLabel(count: number): string {
  return `${count} open alert${count === 1 ? '' : 's'}`;
}

/** The badge's text: the count, capped at 99+. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}
