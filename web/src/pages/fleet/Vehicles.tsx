/** The organization's trucks: search, status filter, pages; a vehicle is created from here. */
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap, type Body, type Item, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Loading, Notice, PageHeader, Pagination, SelectField, StatusBadge } from '../../components/ui';
import { VEHICLE_STATUSES, vehicleDescription } from '../../lib/fleet';
import { humanize } from '../../lib/format';
import { flagBadgeText, flaggedVehicles, flagsByVehicle, unassignedHref, type VehicleFlag } from '../../lib/unassigned';
import { useApi } from '../../lib/use-api';
import { EmptyState, ListSearch, oneOf, PAGE_SIZE, RecordTable, useCanEdit, useListQuery, type Column } from './common';
import { VEHICLE_FIELDS } from './fields';
import { RecordForm } from './RecordForm';

type Row = Item<'/api/v1/vehicles'>;
type Vehicle = Ok<'/api/v1/vehicles', 'post'>;

/** The columns, with a badge beside each truck flagged for unassigned driving (it opens that driving). */
const columns = (flags: ReadonlyMap<string, VehicleFlag>): Array<Column<Row>> => [
  {
    header: 'Unit',
    cell: (v) => {
      const flag = flags.get(v.id);
      return (
        <>
          <Link href={`/vehicles/${v.id}`}>{v.unitNumber}</Link>
          {flag && (
            <Link href={unassignedHref({ vehicleId: v.id })} className="badge badge-red unassigned-flag" title="More than 30 minutes of driving nobody has assumed in the last 24 hours">
              {flagBadgeText(flag)}
            </Link>
          )}
        </>
      );
    },
  },
  { header: 'Vehicle', cell: (v) => vehicleDescription(v) ?? '—' },
  { header: 'VIN', cell: (v) => v.vin ?? '—' },
  { header: 'Plate', cell: (v) => v.licensePlate ?? '—' },
  { header: 'Tank (gal)', cell: (v) => v.fuelTankGallons, className: 'num' },
  { header: 'MPG', cell: (v) => v.mpg, className: 'num' },
  { header: 'Status', cell: (v) => <StatusBadge value={v.status} /> },
];

export function VehiclesPage() {
  const [q, change] = useListQuery(['status']);
  const canEdit = useCanEdit();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Vehicle | null>(null);
  const status = oneOf(q.filters.status ?? '', VEHICLE_STATUSES);
  const list = useApi(
    () => unwrap(api.GET('/api/v1/vehicles', { params: { query: { page: q.page, pageSize: PAGE_SIZE, search: q.search || undefined, status } } })),
    [q.page, q.search, status],
  );
  // The trucks flagged for unassigned driving (ELD specification §4.6.1.6): one small request, the flags only.
  const unassigned = useApi(() => unwrap(api.GET('/api/v1/unassigned-driving', { params: { query: { pageSize: 1 } } })), []);
  const flagged = flaggedVehicles(unassigned.data?.vehicles ?? []);
  const tableColumns = useMemo(() => columns(flagsByVehicle(unassigned.data?.vehicles ?? [])), [unassigned.data]);
  const newButton = canEdit && (
    <Button variant="primary" onClick={() => setCreating(true)}>
      New vehicle
    </Button>
  );

  return (
    <>
      <PageHeader title="Vehicles" actions={newButton}>
        <p className="muted">Trucks and their fuel figures, which the route planner uses for fuel stops.</p>
      </PageHeader>
      {created && (
        <Notice tone="success">
          Vehicle {created.unitNumber} created. <Link href={`/vehicles/${created.id}`}>Open its page</Link>
        </Notice>
      )}
      {flagged.length > 0 && (
        <Notice tone="warning">
          {flagged.length === 1 ? `Truck ${flagged[0]!.vehicleUnitNumber} has` : `${flagged.length} trucks have`} more than 30 minutes of driving nobody has assumed in the last 24 hours.{' '}
          <Link href={unassignedHref(flagged.length === 1 ? { vehicleId: flagged[0]!.vehicleId } : {})}>Review unassigned driving</Link>
        </Notice>
      )}
      <div className="toolbar fleet-toolbar">
        <ListSearch label="Search by unit, VIN, plate, make or model" value={q.search} onChange={(search) => change({ search })} />
        <SelectField
          label="Status"
          value={status ?? ''}
          onChange={(e) => change({ filters: { status: e.target.value } })}
          options={[{ value: '', label: 'All statuses' }, ...VEHICLE_STATUSES.map((s) => ({ value: s, label: humanize(s) }))]}
        />
      </div>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? (
        <Loading label="Loading vehicles…" />
      ) : list.data && list.data.data.length === 0 ? (
        <EmptyState query={q} noun="vehicles" onClear={() => change({ search: '', filters: { status: '' } })} action={newButton} />
      ) : (
        list.data && (
          <div className="fleet-table" aria-busy={list.loading}>
            <RecordTable caption="Vehicles" columns={tableColumns} rows={list.data.data} />
          </div>
        )
      )}
      {list.data && list.data.total > 0 && <Pagination page={q.page} pageSize={PAGE_SIZE} total={list.data.total} onPage={(page) => change({ page })} />}
      <Dialog open={creating} title="New vehicle" onClose={() => setCreating(false)}>
        <RecordForm
          fields={VEHICLE_FIELDS}
          submitLabel="Create vehicle"
          onCancel={() => setCreating(false)}
          onSubmit={async (body) => {
            const vehicle = await unwrap(api.POST('/api/v1/vehicles', { body: body as Body<'/api/v1/vehicles'> }));
            setCreated(vehicle);
            setCreating(false);
            list.reload();
          }}
        />
      </Dialog>
    </>
  );
}
