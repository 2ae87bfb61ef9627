/**
 * The live alerts feed (/alerts). The list comes from GET /alerts with the filters in the address bar
 * (open alerts by default); Socket.IO keeps it current: a new alert appears on top (once, highlighted
 * for a moment and announced to screen readers), updates and resolutions change their rows, and after
 * the connection comes back the list is read again (missed alerts are recovered that way). Each alert
 * can be acknowledged, snoozed, resolved and annotated; its details and notes open in a side panel.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useMe, useRoleAtLeast } from '../../api/session';
import { Button, Dialog, ErrorBanner, Loading, Notice, PageHeader, Pagination } from '../../components/ui';
import { filtersFromSearch, listQuery, searchFromFilters, type AlertFilters, type AlertRow } from '../../lib/alert-feed';
import { alertsHref, countLine, driverFilterOptions, emptyFeedTitle, snoozeLabel } from '../../lib/alert-list';
import { useApi, useInterval } from '../../lib/use-api';
import { AlertActions, type AlertActionHandlers } from './AlertActions';
import { ResolveForm, SnoozeForm } from './AlertActionForms';
import { AlertCard } from './AlertCard';
import { AlertFilterForm } from './AlertFilters';
import { AlertPanel } from './AlertPanel';
import { useLiveAlerts } from './useLiveAlerts';
import './alerts.css';

const PAGE_SIZE = 20;

type Pending = { kind: 'snooze' | 'resolve'; alert: AlertRow } | null;

export function AlertsPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const { filters, page } = useMemo(() => filtersFromSearch(search), [search]);
  const selectedId = useMemo(() => new URLSearchParams(search).get('alert'), [search]);
  const listKey = searchFromFilters(filters, page);
  const me = useMe();
  const canWrite = useRoleAtLeast('DISPATCHER');

  const go = useCallback((f: AlertFilters, p: number, alertId: string | null = null) => navigate(alertsHref(f, p, alertId), { replace: true }), [navigate]);

  const list = useApi(() => unwrap(api.GET('/api/v1/alerts', { params: { query: listQuery(filters, page, PAGE_SIZE) } })), [listKey]);
  const drivers = useApi(() => unwrap(api.GET('/api/v1/drivers', { params: { query: { pageSize: 100 } } })), []);
  const { fresh, said, elsewhere, panelVersion, replaceRow } = useLiveAlerts(list, { filters, page, pageSize: PAGE_SIZE, listKey, selectedId });

  // Relative times ("3 minutes ago") move on.
  const [now, setNow] = useState(() => Date.now());
  useInterval(() => setNow(Date.now()), 30_000);

  // Actions.
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [flash, setFlash] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => setFlash(null), 6_000);
    return () => clearTimeout(t);
  }, [flash]);

  async function act(alert: AlertRow, what: string, call: () => Promise<AlertRow>, done: string) {
    setBusy(`${alert.id}:${what}`);
    setActionError(null);
    try {
      replaceRow(await call());
      setFlash(`${done}: ${alert.title}`);
      return true;
    } catch (err) {
      setActionError(err);
      return false;
    } finally {
      setBusy(null);
    }
  }

  const acknowledge = (a: AlertRow) =>
    act(a, 'ack', () => unwrap(api.POST('/api/v1/alerts/{alertId}/acknowledge', { params: { path: { alertId: a.id } }, body: {} })), 'Acknowledged');
  const snooze = (a: AlertRow, minutes: number) =>
    act(a, 'snooze', () => unwrap(api.POST('/api/v1/alerts/{alertId}/snooze', { params: { path: { alertId: a.id } }, body: { minutes } })), `Snoozed for ${snoozeLabel(minutes)}`);
  const resolve = (a: AlertRow, resolution: string) =>
    act(a, 'resolve', () => unwrap(api.POST('/api/v1/alerts/{alertId}/resolve', { params: { path: { alertId: a.id } }, body: resolution ? { resolution } : {} })), 'Resolved');

  const handlers: AlertActionHandlers = {
    canWrite,
    busy,
    onAcknowledge: (a) => void acknowledge(a),
    onSnooze: (a) => setPending({ kind: 'snooze', alert: a }),
    onResolve: (a) => setPending({ kind: 'resolve', alert: a }),
    onDetails: (a) => go(filters, page, a.id),
  };
  const driverOptions = useMemo(() => driverFilterOptions(drivers.data?.data ?? []), [drivers.data]);
  const rows = list.data?.data ?? [];

  return (
    <section className="alerts-page">
      <PageHeader
        title="Alerts"
        actions={
          <Link href="/alerts/analytics" className="btn btn-secondary">
            Alert analytics
          </Link>
        }
      >
        <p className="muted">Live feed, the most urgent first: new alerts take their place as they happen.</p>
      </PageHeader>

      <div className="visually-hidden" role="status" aria-live="polite" data-testid="alerts-live-region">
        {said}
      </div>

      <AlertFilterForm filters={filters} driverOptions={driverOptions} onChange={(f) => go(f, 1)} />

      {flash && <Notice tone="success">{flash}</Notice>}
      <ErrorBanner error={actionError} />
      {elsewhere > 0 && (
        <Notice>
          {elsewhere === 1 ? 'A new alert has' : `${elsewhere} new alerts have`} arrived.{' '}
          <Button variant="link" onClick={() => go(filters, 1)}>
            Show the newest
          </Button>
        </Notice>
      )}

      {list.error && !list.data ? (
        <>
          <ErrorBanner error={list.error} />
          <Button onClick={list.reload}>Try again</Button>
        </>
      ) : !list.data ? (
        <Loading label="Loading alerts…" />
      ) : rows.length === 0 ? (
        <div className="alerts-empty card">
          <h2>{emptyFeedTitle(filters)}</h2>
          <p className="muted">New alerts appear here as soon as monitoring raises them; nothing needs to be reloaded.</p>
        </div>
      ) : (
        <>
          <p className="muted alerts-count" aria-live="off">
            {countLine(filters, list.data.total)}
            {list.loading ? ' · refreshing…' : ''}
          </p>
          <ol className="alert-feed" aria-label="Alerts, newest first">
            {rows.map((a) => (
              <li key={a.id}>
                <AlertCard alert={a} fresh={fresh.has(a.id)} now={now} actions={<AlertActions alert={a} where="row" {...handlers} />} />
              </li>
            ))}
          </ol>
          <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={(p) => go(filters, p)} />
        </>
      )}

      {selectedId && (
        <AlertPanel
          alertId={selectedId}
          version={panelVersion}
          myUserId={me.userId}
          canWrite={canWrite}
          actions={(a) => <AlertActions alert={a} where="panel" {...handlers} />}
          onClose={() => go(filters, page)}
        />
      )}

      <Dialog open={pending?.kind === 'snooze'} title="Snooze alert" onClose={() => setPending(null)}>
        {pending?.kind === 'snooze' && <SnoozeForm alert={pending.alert} busy={busy === `${pending.alert.id}:snooze`} onCancel={() => setPending(null)} onSnooze={async (m) => (await snooze(pending.alert, m)) && setPending(null)} />}
      </Dialog>
      <Dialog open={pending?.kind === 'resolve'} title="Resolve alert" onClose={() => setPending(null)}>
        {pending?.kind === 'resolve' && <ResolveForm alert={pending.alert} busy={busy === `${pending.alert.id}:resolve`} onCancel={() => setPending(null)} onResolve={async (r) => (await resolve(pending.alert, r)) && setPending(null)} />}
      </Dialog>
    </section>
  );
}
