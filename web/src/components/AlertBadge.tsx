/**
 * The count of open (ACTIVE) alerts beside "Alerts" in the navigation: silent (no sound, no live
 * announcement; the alerts page announces arrivals), read again whenever an alert event arrives and
 * after the live connection comes back. Nothing is shown when there are none.
 */
import { useCallback, useEffect } from 'react';
import { api, unwrap } from '../api/client';
import { useRealtime } from '../api/realtime';
import { ALERTS_CHANGED, badgeText, openAlertsLabel } from '../lib/alert-badge';
import { useApi } from '../lib/use-api';
import { useDebounced, useOnReconnect } from '../lib/use-live';

export function AlertBadge() {
  const { data: count, reload } = useApi(async () => (await unwrap(api.GET('/api/v1/alerts', { params: { query: { status: 'ACTIVE', pageSize: 1 } } }))).total, []);
  const refresh = useDebounced(reload, 300);
  const onEvent = useCallback(() => refresh(), [refresh]);
  useRealtime('alert:new', onEvent);
  useRealtime('alert:updated', onEvent);
  useRealtime('alert:resolved', onEvent);
  useOnReconnect(reload);
  useEffect(() => {
    window.addEventListener(ALERTS_CHANGED, refresh);
    return () => window.removeEventListener(ALERTS_CHANGED, refresh);
  }, [refresh]);
  if (!count) return null;
  const label = openAlertsLabel(count);
  return (
    <span className="nav-badge" title={label} data-testid="alert-badge">
      <span aria-hidden="true">{badgeText(count)}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
