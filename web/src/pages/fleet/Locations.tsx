/**
 * The organization's own places (truck stops, fuel stations, rest areas, customer docks, yards), which the
 * planner prefers for rests and fuel: search, type filter, "near a point", pages; create one or import a CSV.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ApiError, api, unwrap, type Body, type Item, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Field, Loading, Notice, PageHeader, Pagination, SelectField } from '../../components/ui';
import { amenitiesText, coordinates, importErrorLines, LOCATION_TYPES, parseNear } from '../../lib/fleet';
import { humanize, money } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { EmptyState, ListSearch, oneOf, PAGE_SIZE, RecordTable, useCanEdit, useListQuery, type Column } from './common';
import { LOCATION_FIELDS } from './fields';
import { RecordForm } from './RecordForm';

type Row = Item<'/api/v1/locations'>;
type Location = Ok<'/api/v1/locations', 'post'>;
type ImportResult = Ok<'/api/v1/locations/import', 'post'>;

const RADII = ['10', '25', '50', '100', '250', '500'];

const columns = (near: boolean): Array<Column<Row>> => [
  { header: 'Name', cell: (l) => <Link href={`/locations/${l.id}`}>{l.name}</Link> },
  { header: 'Type', cell: (l) => humanize(l.type) },
  { header: 'Address', cell: (l) => l.address ?? '—' },
  { header: 'Coordinates', cell: (l) => coordinates(l.latitude, l.longitude) },
  { header: 'Amenities', cell: (l) => amenitiesText(l.amenities) },
  { header: 'Fuel discount', cell: (l) => (l.fuelDiscountPerGallon ? `${money(l.fuelDiscountPerGallon)}/gal` : '—'), className: 'num' },
  ...(near ? [{ header: 'Distance', cell: (l: Row) => (l.distanceMiles === undefined ? '—' : `${l.distanceMiles.toFixed(1)} mi`), className: 'num' }] : []),
];

const SAMPLE = `name,type,latitude,longitude,address,parking,showers,diesel,fuelDiscountPerGallon,externalId
Dallas South Yard,YARD,32.6869,-96.8064,"4000 S Lancaster Rd, Dallas, TX",yes,no,yes,,YARD-DAL
Love's #512,TRUCK_STOP,35.2220,-101.8313,"I-40 Exit 75, Amarillo, TX",yes,yes,yes,0.12,LOVES-512`;

function ImportForm({ onDone, onCancel }: { onDone: (r: ImportResult) => void; onCancel: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const [rowErrors, setRowErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = new FormData(e.currentTarget).get('file');
    setError(null);
    setRowErrors([]);
    if (!(file instanceof File) || file.size === 0) {
      setError(new Error('Choose a CSV file to import.'));
      return;
    }
    setBusy(true);
    try {
      const text = await file.text();
      const result = await unwrap(api.POST('/api/v1/locations/import', { body: text, headers: { 'Content-Type': 'text/csv' }, bodySerializer: (b: string) => b }));
      onDone(result);
    } catch (err) {
      setError(err);
      if (err instanceof ApiError) setRowErrors(importErrorLines(err.body.details));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="stack">
      <p>
        A header row names the columns: <strong>name, type, latitude, longitude</strong> (required) and address, parking, showers, diesel,
        fuelDiscountPerGallon, externalId (optional), in any order. A row whose externalId matches an existing location updates it. Nothing is
        written unless every row is valid. At most 5000 rows.
      </p>
      <details>
        <summary>Example</summary>
        <pre className="csv-sample">{SAMPLE}</pre>
      </details>
      <Field label="CSV file" name="file" type="file" accept=".csv,text/csv" required />
      <ErrorBanner error={error} />
      {rowErrors.length > 0 && (
        <ul className="import-errors" aria-label="Problems in the file">
          {rowErrors.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Import
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

function NearFilter({ near, radius, onApply }: { near: string; radius: string; onApply: (near: string, radius: string) => void }) {
  const [text, setText] = useState(near.replace(',', ', '));
  const [r, setR] = useState(radius || '50');
  const [error, setError] = useState<string | undefined>(undefined);
  return (
    <form
      className="row near-filter"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() === '') {
          setError(undefined);
          return onApply('', '');
        }
        const point = parseNear(text);
        if (!point) return setError('Enter latitude, longitude (e.g. 32.78, -96.80)');
        setError(undefined);
        onApply(point, r);
      }}
    >
      <Field label="Near (latitude, longitude)" value={text} onChange={(e) => setText(e.target.value)} placeholder="32.78, -96.80" error={error} />
      <SelectField label="Within" value={r} onChange={(e) => setR(e.target.value)} options={RADII.map((m) => ({ value: m, label: `${m} miles` }))} />
      <Button type="submit">Apply</Button>
    </form>
  );
}

export function LocationsPage() {
  const [q, change] = useListQuery(['type', 'near', 'radius']);
  const canEdit = useCanEdit();
  const [dialog, setDialog] = useState<'create' | 'import' | null>(null);
  const [notice, setNotice] = useState<{ text: string; link?: string } | null>(null);
  const type = oneOf(q.filters.type ?? '', LOCATION_TYPES);
  const near = q.filters.near ? (parseNear(q.filters.near) ?? undefined) : undefined;
  const radius = near && q.filters.radius ? Number(q.filters.radius) || undefined : undefined;
  const list = useApi(
    () => unwrap(api.GET('/api/v1/locations', { params: { query: { page: q.page, pageSize: PAGE_SIZE, search: q.search || undefined, type, near, radiusMiles: radius } } })),
    [q.page, q.search, type, near, radius],
  );
  const actions = canEdit && (
    <>
      <Button onClick={() => setDialog('import')}>Import CSV</Button>
      <Button variant="primary" onClick={() => setDialog('create')}>
        New location
      </Button>
    </>
  );

  return (
    <>
      <PageHeader title="Locations" actions={actions}>
        <p className="muted">Your own truck stops, fuel stations, rest areas, customer docks and yards. The route planner prefers them for rests and fuel.</p>
      </PageHeader>
      {notice && (
        <Notice tone="success">
          {notice.text} {notice.link && <Link href={notice.link}>Open its page</Link>}
        </Notice>
      )}
      <div className="toolbar fleet-toolbar">
        <ListSearch label="Search by name or address" value={q.search} onChange={(search) => change({ search })} />
        <SelectField
          label="Type"
          value={type ?? ''}
          onChange={(e) => change({ filters: { type: e.target.value } })}
          options={[{ value: '', label: 'All types' }, ...LOCATION_TYPES.map((t) => ({ value: t, label: humanize(t) }))]}
        />
        <NearFilter near={near ?? ''} radius={q.filters.radius ?? ''} onApply={(n, r) => change({ filters: { near: n, radius: r } })} />
      </div>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? (
        <Loading label="Loading locations…" />
      ) : list.data && list.data.data.length === 0 ? (
        <EmptyState query={q} noun="locations" onClear={() => change({ search: '', filters: { type: '', near: '', radius: '' } })} action={actions} />
      ) : (
        list.data && (
          <div className="fleet-table" aria-busy={list.loading}>
            <RecordTable caption="Locations" columns={columns(Boolean(near))} rows={list.data.data} />
          </div>
        )
      )}
      {list.data && list.data.total > 0 && <Pagination page={q.page} pageSize={PAGE_SIZE} total={list.data.total} onPage={(page) => change({ page })} />}
      <Dialog open={dialog === 'create'} title="New location" onClose={() => setDialog(null)}>
        <RecordForm
          fields={LOCATION_FIELDS}
          submitLabel="Create location"
          onCancel={() => setDialog(null)}
          onSubmit={async (body) => {
            const location: Location = await unwrap(api.POST('/api/v1/locations', { body: body as Body<'/api/v1/locations'> }));
            setNotice({ text: `Location ${location.name} created.`, link: `/locations/${location.id}` });
            setDialog(null);
            list.reload();
          }}
        />
      </Dialog>
      <Dialog open={dialog === 'import'} title="Import locations from CSV" onClose={() => setDialog(null)}>
        <ImportForm
          onCancel={() => setDialog(null)}
          onDone={(r) => {
            setNotice({ text: `Import done: ${r.imported} location${r.imported === 1 ? '' : 's'} created, ${r.updated} updated.` });
            setDialog(null);
            list.reload();
          }}
        />
      </Dialog>
    </>
  );
}
