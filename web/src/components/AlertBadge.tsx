/** The count of open alerts beside "Alerts" in the navigation (placeholder until the alerts feed lands). */
export function AlertBadge() {
  return null;
}
