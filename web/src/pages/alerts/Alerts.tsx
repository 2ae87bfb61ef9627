/**
 * The live alerts feed (/alerts). The list comes from GET /alerts with the filters in the address bar
 * (open alerts by default); Socket.IO keeps it current: a new alert appears on top (once, highlighted
 * for a moment and announced to screen readers), updates and resolutions change their rows, and after
 * the connection comes back the list is read again (missed alerts are recovered that way). Each alert
 * can be acknowledged, snoozed, resolved and annotated; its details and notes open in a side panel.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { useMe, useRoleAtLeast } from '../../api/session';
import { Button, Dialog, ErrorBanner, Loading, Notice, PageHeader, Pagination, SelectField, StatusBadge } from '../../components/ui';
import {
  ALERT_TYPES,
  CATEGORIES,
  DEFAULT_FILTERS,
  HOS_APPROACHING_LIMIT,
  PRIORITIES,
  SNOOZE_CHOICES,
  STATUS_FILTERS,
  addNewAlert,
  alertFromEvent,
  announcement,
  applyChange,
  filtersFromSearch,
  kindLabel,
  raisedLabel,
  listQuery,
  searchFromFilters,
  type AlertFilters,
  type AlertRow,
} from '../../lib/alert-feed';
import { ALERTS_CHANGED } from '../../lib/alert-badge';
import { dateTime, humanize } from '../../lib/format';
import { useApi, useInterval } from '../../lib/use-api';
import { useDebounced, useOnReconnect } from '../../lib/use-live';
import { AlertPanel } from './AlertPanel';
import { TextArea } from '../../components/TextArea';
import './alerts.css';

const PAGE_SIZE = 20;
const FRESH_MS = 8_000;


type Pending = { kind: 'snooze' | 'resolve'; alert: AlertRow } | null;

export function AlertsPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const { filters, page } = useMemo(() => filtersFromSearch(search), [search]);
  const selectedId = useMemo(() => new URLSearchParams(search).get('alert'), [search]);
  const listKey = searchFromFilters(filters, page);
  const me = useMe();
  const canWrite = useRoleAtLeast('DISPATCHER');

  const go = useCallback(
    (f: AlertFilters, p: number, alertId: string | null = null) => {
      const q = searchFromFilters(f, p);
      const extra = alertId ? `${q ? '&' : '?'}alert=${encodeURIComponent(alertId)}` : '';
      navigate(`/alerts${q}${extra}`, { replace: true });
    },
    [navigate],
  );

  const list = useApi(() => unwrap(api.GET('/api/v1/alerts', { params: { query: listQuery(filters, page, PAGE_SIZE) } })), [listKey]);
  const drivers = useApi(() => unwrap(api.GET('/api/v1/drivers', { params: { query: { pageSize: 100 } } })), []);

  // Live: the latest list and filters, read by the event handlers (which stay the same functions).
  const latest = useRef({ data: list.data, filters, page });
  latest.current = { data: list.data, filters, page };
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [said, setSaid] = useState('');
  const [elsewhere, setElsewhere] = useState(0);
  const [panelVersion, setPanelVersion] = useState(0);
  const reloadSoon = useDebounced(list.reload, 300);
  const latestSelected = useRef(selectedId);
  latestSelected.current = selectedId;

  useEffect(() => setElsewhere(0), [listKey]);

  const onNew = useCallback(
    (payload: unknown) => {
      const alert = alertFromEvent(payload);
      const { data, filters: f, page: p } = latest.current;
      if (!alert || !data) return;
      const { feed, outcome } = addNewAlert({ rows: data.data, total: data.total }, alert, f, p, PAGE_SIZE);
      if (outcome === 'duplicate' || outcome === 'filtered') return;
      // Events can come faster than React renders: the next one must see this one's result.
      const next = { ...data, data: feed.rows, total: feed.total };
      latest.current = { ...latest.current, data: next };
      list.setData(() => next);
      setSaid(announcement(alert));
      if (outcome === 'other-page') return setElsewhere((n) => n + 1);
      setFresh((s) => new Set(s).add(alert.id));
      setTimeout(
        () =>
          setFresh((s) => {
            const next = new Set(s);
            next.delete(alert.id);
            return next;
          }),
        FRESH_MS,
      );
    },
    [list],
  );

  const onChange = useCallback(
    (payload: Record<string, unknown>) => {
      const { data, filters: f } = latest.current;
      if (!data) return;
      const { feed, missing } = applyChange({ rows: data.data, total: data.total }, payload, f);
      if (missing) reloadSoon();
      else if (feed.rows !== data.data) {
        const next = { ...data, data: feed.rows };
        latest.current = { ...latest.current, data: next };
        list.setData(() => next);
      }
      if (payload.id === latestSelected.current) setPanelVersion((v) => v + 1);
    },
    [list, reloadSoon],
  );

  useRealtime('alert:new', onNew);
  useRealtime('alert:updated', onChange);
  useRealtime('alert:resolved', onChange);
  useOnReconnect(list.reload);

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

  const replaceRow = useCallback(
    (updated: AlertRow) => {
      const data = latest.current.data;
      if (data) {
        const next = { ...data, data: data.data.map((r) => (r.id === updated.id ? { ...r, ...updated } : r)) };
        latest.current = { ...latest.current, data: next };
        list.setData(() => next);
      }
      setPanelVersion((v) => v + 1);
      window.dispatchEvent(new Event(ALERTS_CHANGED));
    },
    [list],
  );

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
    act(a, 'snooze', () => unwrap(api.POST('/api/v1/alerts/{alertId}/snooze', { params: { path: { alertId: a.id } }, body: { minutes } })), `Snoozed for ${SNOOZE_CHOICES.find((c) => c.minutes === minutes)?.label ?? `${minutes} minutes`}`);
  const resolve = (a: AlertRow, resolution: string) =>
    act(a, 'resolve', () => unwrap(api.POST('/api/v1/alerts/{alertId}/resolve', { params: { path: { alertId: a.id } }, body: resolution ? { resolution } : {} })), 'Resolved');

  const actions = (a: AlertRow, where: 'row' | 'panel') =>
    canWrite && a.status !== 'RESOLVED' ? (
      <div className="alert-actions" role="group" aria-label={`Actions for ${a.title}`}>
        {(a.status === 'ACTIVE' || a.status === 'SNOOZED') && (
          <Button variant="primary" busy={busy === `${a.id}:ack`} onClick={() => void acknowledge(a)}>
            Acknowledge
          </Button>
        )}
        <Button onClick={() => setPending({ kind: 'snooze', alert: a })}>Snooze…</Button>
        <Button onClick={() => setPending({ kind: 'resolve', alert: a })}>Resolve…</Button>
        {where === 'row' && (
          <Button variant="link" onClick={() => go(filters, page, a.id)}>
            Details &amp; notes
          </Button>
        )}
      </div>
    ) : where === 'row' ? (
      <div className="alert-actions">
        <Button variant="link" onClick={() => go(filters, page, a.id)}>
          Details &amp; notes
        </Button>
      </div>
    ) : null;

  const driverOptions = useMemo(
    () => [
      { value: '', label: 'All drivers' },
      ...(drivers.data?.data ?? [])
        .slice()
        .sort((a, b) => `${a.lastName} ${a.firstName}`.localeCompare(`${b.lastName} ${b.firstName}`))
        .map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` })),
    ],
    [drivers.data],
  );
  const set = (k: keyof AlertFilters) => (e: { target: { value: string } }) => go({ ...filters, [k]: e.target.value }, 1);
  const filtered = searchFromFilters(filters) !== '';
  const rows = list.data?.data ?? [];
  const statusLabel = STATUS_FILTERS.find((s) => s.value === filters.status)?.label ?? 'Matching';

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
        <p className="muted">Live feed: new alerts appear at the top as they happen.</p>
      </PageHeader>

      <div className="visually-hidden" role="status" aria-live="polite" data-testid="alerts-live-region">
        {said}
      </div>

      <form className="alerts-filters card" aria-label="Filter alerts" onSubmit={(e: FormEvent) => e.preventDefault()}>
        <SelectField label="Status" value={filters.status} onChange={set('status')} options={STATUS_FILTERS} />
        <SelectField label="Priority" value={filters.priority} onChange={set('priority')} options={[{ value: '', label: 'All priorities' }, ...PRIORITIES.map((p) => ({ value: p, label: humanize(p) }))]} />
        <SelectField label="Category" value={filters.category} onChange={set('category')} options={[{ value: '', label: 'All categories' }, ...CATEGORIES.map((c) => ({ value: c, label: kindLabel(c) }))]} />
        <SelectField
          label="Type"
          value={filters.type}
          onChange={set('type')}
          options={[{ value: '', label: 'All types' }, { value: HOS_APPROACHING_LIMIT, label: 'Approaching an HOS limit (any)' }, ...ALERT_TYPES.map((t) => ({ value: t, label: kindLabel(t) }))]}
        />
        <SelectField label="Driver" value={filters.driverId} onChange={set('driverId')} options={driverOptions} />
        {filtered && (
          <Button variant="link" onClick={() => go(DEFAULT_FILTERS, 1)}>
            Reset filters
          </Button>
        )}
      </form>

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
          <h2>{filters.status === 'ACTIVE' && !filters.priority && !filters.category && !filters.type && !filters.driverId ? 'No open alerts' : 'No alerts match these filters'}</h2>
          <p className="muted">New alerts appear here as soon as monitoring raises them; nothing needs to be reloaded.</p>
        </div>
      ) : (
        <>
          <p className="muted alerts-count" aria-live="off">
            {statusLabel}: {list.data.total} alert{list.data.total === 1 ? '' : 's'}
            {list.loading ? ' · refreshing…' : ''}
          </p>
          <ol className="alert-feed" aria-label="Alerts, newest first">
            {rows.map((a) => (
              <li key={a.id}>
                <AlertCard alert={a} fresh={fresh.has(a.id)} now={now} actions={actions(a, 'row')} />
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
          actions={(a) => actions(a, 'panel')}
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

function AlertCard({ alert: a, fresh, now, actions }: { alert: AlertRow; fresh: boolean; now: number; actions: ReactNode }) {
  const titleId = `alert-${a.id}-title`;
  return (
    <article className={`alert-card prio-${a.priority.toLowerCase()}${fresh ? ' alert-fresh' : ''}`} aria-labelledby={titleId} data-alert-id={a.id}>
      <div className="alert-head">
        <span className="alert-priority">
          <span className="visually-hidden">Priority: </span>
          <StatusBadge value={a.priority} />
        </span>
        <h3 id={titleId}>{a.title}</h3>
        {fresh && <span className="badge alert-new-badge">New</span>}
        <span className="alert-status">
          <span className="visually-hidden">Status: </span>
          <StatusBadge value={a.status} />
        </span>
      </div>
      <p className="alert-message">{a.message}</p>
      <dl className="alert-meta">
        <div>
          <dt>Type</dt>
          <dd>{kindLabel(a.type)}</dd>
        </div>
        <div>
          <dt>Driver</dt>
          <dd>{a.driverId ? <Link href={`/drivers/${a.driverId}`}>{a.driverName ?? 'Driver'}</Link> : '—'}</dd>
        </div>
        <div>
          <dt>Vehicle</dt>
          <dd>{a.vehicleId ? <Link href={`/vehicles/${a.vehicleId}`}>{a.vehicleUnit ?? 'Vehicle'}</Link> : '—'}</dd>
        </div>
        <div>
          <dt>Route</dt>
          <dd>{a.routePlanId ? <Link href={`/routes/${a.routePlanId}`}>View route</Link> : '—'}</dd>
        </div>
        <div>
          <dt>Raised</dt>
          <dd>
            <time dateTime={a.createdAt} title={dateTime(a.createdAt)}>
              {raisedLabel(a.createdAt, Math.max(now, Date.now()))}
            </time>
          </dd>
        </div>
        {a.status === 'SNOOZED' && a.snoozedUntil && (
          <div>
            <dt>Snoozed until</dt>
            <dd>
              <time dateTime={a.snoozedUntil}>{dateTime(a.snoozedUntil)}</time>
            </dd>
          </div>
        )}
        {a.status === 'RESOLVED' && a.resolution && (
          <div>
            <dt>Resolution</dt>
            <dd>{a.resolution}</dd>
          </div>
        )}
      </dl>
      {actions}
    </article>
  );
}

function SnoozeForm({ alert, busy, onSnooze, onCancel }: { alert: AlertRow; busy: boolean; onSnooze: (minutes: number) => void; onCancel: () => void }) {
  const [minutes, setMinutes] = useState(60);
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        onSnooze(minutes);
      }}
    >
      <p>
        <strong>{alert.title}</strong> will be set aside and become active again when the time is up if its condition still holds. Monitoring does not raise it again meanwhile.
      </p>
      <SelectField label="Snooze for" value={String(minutes)} onChange={(e) => setMinutes(Number(e.target.value))} options={SNOOZE_CHOICES.map((c) => ({ value: String(c.minutes), label: c.label }))} />
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          Snooze
        </Button>
      </div>
    </form>
  );
}

function ResolveForm({ alert, busy, onResolve, onCancel }: { alert: AlertRow; busy: boolean; onResolve: (resolution: string) => void; onCancel: () => void }) {
  const [text, setText] = useState('');
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        onResolve(text.trim());
      }}
    >
      <p>
        Resolve <strong>{alert.title}</strong>? A resolved alert is closed: it cannot be acknowledged or snoozed any more.
      </p>
      <TextArea label="Resolution" hint="Optional: what was done (kept with the alert)." maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} rows={3} />
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="danger" busy={busy}>
          Resolve alert
        </Button>
      </div>
    </form>
  );
}
