/**
 * The alerts page around its feed: the page's address (filters, page and the open alert), the driver
 * filter's choices, what the empty list says, the count line. Pure; tested in alert-list.test.ts.
 */
import { DEFAULT_FILTERS, STATUS_FILTERS, SNOOZE_CHOICES, searchFromFilters, type AlertFilters } from './alert-feed';

/** The alerts page's address: its filters and page, and the alert whose panel is open. */
export function alertsHref(filters: AlertFilters, page: number, alertId: string | null = null): string {
  const q = searchFromFilters(filters, page);
  const extra = alertId ? `${q ? '&' : '?'}alert=${encodeURIComponent(alertId)}` : '';
  return `/alerts${q}${extra}`;
}

/** The driver filter's choices: all drivers, then each by last name. */
export function driverFilterOptions(drivers: ReadonlyArray<{ id: string; firstName: string; lastName: string }>): Array<{ value: string; label: string }> {
  return [
    { value: '', label: 'All drivers' },
    ...drivers
      .slice()
      .sort((a, b) => `${a.lastName} ${a.firstName}`.localeCompare(`${b.lastName} ${b.firstName}`))
      .map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` })),
  ];
}

/** Whether any filter differs from the default view (open alerts, everything else open). */
export function isFiltered(filters: AlertFilters): boolean {
  return searchFromFilters(filters) !== '';
}

/** The empty list's heading: nothing open at all, or nothing matching the filters. */
export function emptyFeedTitle(filters: AlertFilters): string {
  const defaultView = filters.status === DEFAULT_FILTERS.status && !filters.priority && !filters.category && !filters.type && !filters.driverId;
  return defaultView ? 'No open alerts' : 'No alerts match these filters';
}

/** "Open: 3 alerts" — the status filter's name and the total. */
export function countLine(filters: AlertFilters, total: number): string {
  const status = STATUS_FILTERS.find((s) => s.value === filters.status)?.label ?? 'Matching';
  return `${status}: ${total} alert${total === 1 ? '' : 's'}`;
}

/** A snooze's duration in words, for the notice after it. */
export function snoozeLabel(minutes: number): string {
  return SNOOZE_CHOICES.find((c) => c.minutes === minutes)?.label ?? `${minutes} minutes`;
}
