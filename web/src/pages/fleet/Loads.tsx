/** The organization's loads, newest first: search, status filter, pages; a load is created from here. */
import { label } from '../../lib/glossary';
import { useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap, type Body, type Item, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Loading, Notice, PageHeader, Pagination, SelectField, StatusBadge } from '../../components/ui';
import { LOAD_STATUSES } from '../../lib/fleet';
import { dateTime, humanize } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { EmptyState, ListSearch, oneOf, PAGE_SIZE, RecordTable, useCanEdit, useListQuery, type Column } from './common';
import { LOAD_FIELDS } from './fields';
import { RecordForm } from './RecordForm';

type Row = Item<'/api/v1/loads'>;
type Load = Ok<'/api/v1/loads', 'post'>;

const COLUMNS: Array<Column<Row>> = [
  { header: 'Reference', cell: (l) => <Link href={`/loads/${l.id}`}>{l.referenceNumber}</Link> },
  { header: 'Customer', cell: (l) => l.customer ?? '—' },
  { header: 'From', cell: (l) => l.originAddress ?? '—' },
  { header: 'To', cell: (l) => l.destinationAddress ?? '—' },
  { header: 'Pickup', cell: (l) => dateTime(l.scheduledPickup, l.originTimeZone ?? undefined) },
  { header: 'Delivery', cell: (l) => dateTime(l.scheduledDelivery, l.destinationTimeZone ?? undefined) },
  { header: 'Status', cell: (l) => <StatusBadge value={l.status} /> },
  { header: 'Source', cell: (l) => label('vendor', l.source) },
];

export function LoadsPage() {
  const [q, change] = useListQuery(['status']);
  const canEdit = useCanEdit();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Load | null>(null);
  const status = oneOf(q.filters.status ?? '', LOAD_STATUSES);
  const list = useApi(
    () => unwrap(api.GET('/api/v1/loads', { params: { query: { page: q.page, pageSize: PAGE_SIZE, search: q.search || undefined, status } } })),
    [q.page, q.search, status],
  );
  const newButton = canEdit && (
    <Button variant="primary" onClick={() => setCreating(true)}>
      New load
    </Button>
  );

  return (
    <>
      <PageHeader title="Loads" actions={newButton}>
        <p className="muted">Freight to move, newest first: created here or synced from your TMS.</p>
      </PageHeader>
      {created && (
        <Notice tone="success">
          Load {created.referenceNumber} created. <Link href={`/loads/${created.id}`}>Open its page</Link>
        </Notice>
      )}
      <div className="toolbar fleet-toolbar">
        <ListSearch label="Search by reference or customer" value={q.search} onChange={(search) => change({ search })} />
        <SelectField
          label="Status"
          value={status ?? ''}
          onChange={(e) => change({ filters: { status: e.target.value } })}
          options={[{ value: '', label: 'All statuses' }, ...LOAD_STATUSES.map((s) => ({ value: s, label: humanize(s) }))]}
        />
      </div>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? (
        <Loading label="Loading loads…" />
      ) : list.data && list.data.data.length === 0 ? (
        <EmptyState query={q} noun="loads" onClear={() => change({ search: '', filters: { status: '' } })} action={newButton} />
      ) : (
        list.data && (
          <div className="fleet-table" aria-busy={list.loading}>
            <RecordTable caption="Loads" columns={COLUMNS} rows={list.data.data} />
          </div>
        )
      )}
      {list.data && list.data.total > 0 && <Pagination page={q.page} pageSize={PAGE_SIZE} total={list.data.total} onPage={(page) => change({ page })} />}
      <Dialog open={creating} title="New load" onClose={() => setCreating(false)}>
        <RecordForm
          fields={LOAD_FIELDS}
          submitLabel="Create load"
          onCancel={() => setCreating(false)}
          onSubmit={async (body) => {
            const load = await unwrap(api.POST('/api/v1/loads', { body: body as Body<'/api/v1/loads'> }));
            setCreated(load);
            setCreating(false);
            list.reload();
          }}
        />
      </Dialog>
    </>
  );
}
