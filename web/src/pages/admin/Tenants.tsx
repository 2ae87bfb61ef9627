/**
 * The platform administrator's page: organizations by status (pending approval first), with approve,
 * reject (reason), suspend (reason) and reactivate, each confirmed. The status is in the address
 * (/?status=ACTIVE) so a view can be bookmarked.
 */
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api, unwrap, type Item } from '../../api/client';
import { ErrorBanner, Loading, PageHeader, Pagination, StatusBadge, Tabs, Button, TableWrap } from '../../components/ui';
import { dateTime, humanize } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { useActions, useConfirm } from '../settings/common';
import './admin.css';

type Tenant = Item<'/api/v1/admin/tenants'>;
type Status = 'PENDING_APPROVAL' | 'ACTIVE' | 'SUSPENDED' | 'REJECTED';
type Filter = Status | 'ALL';
type Action = 'approve' | 'reject' | 'suspend' | 'reactivate';

const FILTERS: Array<{ id: Filter; label: string }> = [
  { id: 'PENDING_APPROVAL', label: 'Pending approval' },
  { id: 'ACTIVE', label: 'Active' },
  { id: 'SUSPENDED', label: 'Suspended' },
  { id: 'REJECTED', label: 'Rejected' },
  { id: 'ALL', label: 'All' },
];
const PAGE_SIZE = 20;

/** What each action does, for its button and confirmation. */
const ACTIONS: Record<Action, { label: string; done: string; from: Status; danger: boolean; reason?: string; explain: string }> = {
  approve: { label: 'Approve', done: 'approved', from: 'PENDING_APPROVAL', danger: false, explain: 'Its users can sign in and use the service; the owner is told by e-mail.' },
  reject: { label: 'Reject', done: 'rejected', from: 'PENDING_APPROVAL', danger: true, reason: 'Reason (optional, sent to the owner)', explain: 'The registration is refused; the owner is told by e-mail.' },
  suspend: { label: 'Suspend', done: 'suspended', from: 'ACTIVE', danger: true, reason: 'Reason (optional, sent to the owner)', explain: 'Its users and API keys are refused until it is reactivated; its data is kept and the owner is told by e-mail.' },
  reactivate: { label: 'Reactivate', done: 'reactivated', from: 'SUSPENDED', danger: false, explain: 'Its users and API keys work again; the owner is told by e-mail.' },
};

function isFilter(v: string | null): v is Filter {
  return FILTERS.some((f) => f.id === v);
}

export function AdminTenantsPage() {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const raw = search.get('status');
  const filter: Filter = isFilter(raw) ? raw : 'PENDING_APPROVAL';
  const [page, setPage] = useState(1);
  const [tick, setTick] = useState(0);
  const list = useApi(
    () => unwrap(api.GET('/api/v1/admin/tenants', { params: { query: { page, pageSize: PAGE_SIZE, ...(filter === 'ALL' ? {} : { status: filter }) } } })),
    [filter, page, tick],
  );
  // How many are waiting in each status (the tab labels).
  const counts = useApi(async () => {
    const entries = await Promise.all(
      (['PENDING_APPROVAL', 'ACTIVE', 'SUSPENDED', 'REJECTED'] as const).map(async (s) => [s, (await unwrap(api.GET('/api/v1/admin/tenants', { params: { query: { status: s, pageSize: 1 } } }))).total] as const),
    );
    return Object.fromEntries(entries) as Record<Status, number>;
  }, [tick]);
  const { feedback, setNotice } = useActions();
  const { confirm, dialog } = useConfirm();

  function act(t: Tenant, action: Action) {
    const a = ACTIONS[action];
    confirm({
      title: `${a.label} ${t.name}`,
      message: (
        <p>
          {a.label} <strong>{t.name}</strong>? {a.explain}
        </p>
      ),
      confirmLabel: a.label,
      danger: a.danger,
      reasonLabel: a.reason,
      run: async (reason) => {
        const path = { params: { path: { id: t.id } } };
        if (action === 'approve') await unwrap(api.POST('/api/v1/admin/tenants/{id}/approve', { ...path, body: {} }));
        else if (action === 'reactivate') await unwrap(api.POST('/api/v1/admin/tenants/{id}/reactivate', { ...path, body: {} }));
        else if (action === 'reject') await unwrap(api.POST('/api/v1/admin/tenants/{id}/reject', { ...path, body: reason ? { reason } : {} }));
        else await unwrap(api.POST('/api/v1/admin/tenants/{id}/suspend', { ...path, body: reason ? { reason } : {} }));
        setTick((x) => x + 1);
        setNotice(`${t.name} ${a.done}.`);
      },
    });
  }

  const tabs = FILTERS.map((f) => ({ id: f.id, label: f.id !== 'ALL' && counts.data ? `${f.label} (${counts.data[f.id]})` : f.label }));
  const current = FILTERS.find((f) => f.id === filter)!;

  return (
    <section className="admin-tenants">
      <PageHeader title="Organizations">
        <p className="muted">Review registrations and suspend or reactivate organizations.</p>
      </PageHeader>
      <Tabs
        label="Organizations by status"
        tabs={tabs}
        current={filter}
        onChange={(f) => {
          setPage(1);
          setNotice(null);
          navigate(f === 'PENDING_APPROVAL' ? '/' : `/?status=${f}`);
        }}
      />
      <div role="tabpanel" aria-label={current.label}>
        {feedback}
        {list.error && <ErrorBanner error={list.error} />}
        {!list.data ? (
          !list.error && <Loading />
        ) : list.data.data.length === 0 ? (
          <p className="empty">{filter === 'PENDING_APPROVAL' ? 'No registration is waiting for approval.' : filter === 'ALL' ? 'No organizations yet.' : `No ${current.label.toLowerCase()} organizations.`}</p>
        ) : (
          <>
            <TableWrap>
              <table>
                <caption className="visually-hidden">{current.label} organizations</caption>
                <thead>
                  <tr>
                    <th scope="col">Organization</th>
                    <th scope="col">Contact</th>
                    <th scope="col">DOT / MC</th>
                    <th scope="col">Registered</th>
                    <th scope="col">Status</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.data.map((t) => (
                    <tr key={t.id}>
                      <td>
                        <strong>{t.name}</strong>
                        <div className="muted small">{t.address}</div>
                      </td>
                      <td className="tenant-contact">
                        <a href={`mailto:${t.contactEmail}`}>{t.contactEmail}</a>
                        <div>{t.phone}</div>
                      </td>
                      <td>
                        <div>DOT {t.dotNumber ?? '—'}</div>
                        <div>{t.mcNumber ? (t.mcNumber.toUpperCase().startsWith('MC') ? t.mcNumber : `MC ${t.mcNumber}`) : 'MC —'}</div>
                      </td>
                      <td>{dateTime(t.createdAt)}</td>
                      <td>
                        <StatusBadge value={t.status} />
                        {t.statusReason && <div className="muted small">Reason: {t.statusReason}</div>}
                        {t.reviewedAt && <div className="muted small">{humanize(t.status)} {dateTime(t.reviewedAt)}</div>}
                      </td>
                      <td className="actions">
                        <div className="action-row">
                          {(Object.keys(ACTIONS) as Action[])
                            .filter((a) => ACTIONS[a].from === t.status)
                            .map((a) => (
                              <Button key={a} variant={ACTIONS[a].danger ? 'secondary' : 'primary'} className={ACTIONS[a].danger ? 'danger-outline' : undefined} onClick={() => act(t, a)} aria-label={`${ACTIONS[a].label} ${t.name}`}>
                                {ACTIONS[a].label}
                              </Button>
                            ))}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />
          </>
        )}
      </div>
      {dialog}
    </section>
  );
}
