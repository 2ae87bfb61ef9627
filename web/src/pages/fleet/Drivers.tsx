/** The organization's drivers: search, status filter, pages; a driver is created from here. */
import { useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap, type Body, type Item, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Loading, Notice, PageHeader, Pagination, SelectField, StatusBadge } from '../../components/ui';
import { DRIVER_STATUSES } from '../../lib/fleet';
import { hoursMinutes, humanize } from '../../lib/format';
import { clockSourceText, label } from '../../lib/glossary';
import { withHomeTerminal } from '../../lib/home-terminal';
import { useApi } from '../../lib/use-api';
import { EmptyState, ListSearch, oneOf, PAGE_SIZE, RecordTable, useCanEdit, useListQuery, type Column } from './common';
import { DRIVER_FIELDS } from './fields';
import { RecordForm } from './RecordForm';

type Row = Item<'/api/v1/drivers'>;
type Driver = Ok<'/api/v1/drivers', 'post'>;

const COLUMNS: Array<Column<Row>> = [
  { header: 'Name', cell: (d) => <Link href={`/drivers/${d.id}`}>{`${d.firstName} ${d.lastName}`}</Link> },
  { header: 'License', cell: (d) => `${d.licenseNumber} (${d.licenseState})` },
  { header: 'Truck', cell: (d) => d.truckNumber ?? '—' },
  { header: 'Status', cell: (d) => <StatusBadge value={d.status} /> },
  { header: 'Now', cell: (d) => label('dutyStatus', d.currentDutyStatus) },
  { header: 'Drive time left', cell: (d) => hoursMinutes(d.driveTimeRemaining), className: 'num' },
  { header: 'Duty window left', cell: (d) => hoursMinutes(d.dutyTimeRemaining), className: 'num' },
  {
    header: 'Clocks',
    // The same clocks as the driver's page, with their source; a disagreement with the log is flagged.
    cell: (d) => (
      <>
        {clockSourceText(d.clockSource)}
        {d.disagreement && (
          <>
            {' '}
            <span className="badge badge-amber" title={d.disagreement.message} data-testid="disagreement-flag">
              log differs
            </span>
          </>
        )}
      </>
    ),
  },
];

export function DriversPage() {
  const [q, change] = useListQuery(['status']);
  const canEdit = useCanEdit();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Driver | null>(null);
  const status = oneOf(q.filters.status ?? '', DRIVER_STATUSES);
  const list = useApi(
    () => unwrap(api.GET('/api/v1/drivers', { params: { query: { page: q.page, pageSize: PAGE_SIZE, search: q.search || undefined, status } } })),
    [q.page, q.search, status],
  );
  const newButton = canEdit && (
    <Button variant="primary" onClick={() => setCreating(true)}>
      New driver
    </Button>
  );

  return (
    <>
      <PageHeader title="Drivers" actions={newButton}>
        <p className="muted">Everyone who drives for the organization, with the hours they have left now (the same clocks as each driver’s page).</p>
      </PageHeader>
      {created && (
        <Notice tone="success">
          Driver {created.firstName} {created.lastName} created. <Link href={`/drivers/${created.id}`}>Open their page</Link>
        </Notice>
      )}
      <div className="toolbar fleet-toolbar">
        <ListSearch label="Search drivers by name, license or truck" value={q.search} onChange={(search) => change({ search })} />
        <SelectField
          label="Status"
          value={status ?? ''}
          onChange={(e) => change({ filters: { status: e.target.value } })}
          options={[{ value: '', label: 'All statuses' }, ...DRIVER_STATUSES.map((s) => ({ value: s, label: humanize(s) }))]}
        />
      </div>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? (
        <Loading label="Loading drivers…" />
      ) : list.data && list.data.data.length === 0 ? (
        <EmptyState query={q} noun="drivers" onClear={() => change({ search: '', filters: { status: '' } })} action={newButton} />
      ) : (
        list.data && (
          <div className="fleet-table" aria-busy={list.loading}>
            <RecordTable caption="Drivers" columns={COLUMNS} rows={list.data.data} />
          </div>
        )
      )}
      {list.data && list.data.total > 0 && <Pagination page={q.page} pageSize={PAGE_SIZE} total={list.data.total} onPage={(page) => change({ page })} />}
      <Dialog open={creating} title="New driver" onClose={() => setCreating(false)}>
        <RecordForm
          fields={DRIVER_FIELDS}
          submitLabel="Create driver"
          onCancel={() => setCreating(false)}
          onSubmit={async (body) => {
            const driver = await unwrap(api.POST('/api/v1/drivers', { body: withHomeTerminal(body) as Body<'/api/v1/drivers'> }));
            setCreated(driver);
            setCreating(false);
            list.reload();
          }}
        />
      </Dialog>
    </>
  );
}
