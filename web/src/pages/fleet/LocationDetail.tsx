/** One of the organization's places: its record (edit) and deletion. */
import { useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { api, unwrap, type Body, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Facts, Loading, Notice, PageHeader } from '../../components/ui';
import { amenitiesText, coordinates } from '../../lib/fleet';
import { dateTime, humanize, money } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { BackLink, ConfirmDialog, isNotFound, NotFoundState, useCanEdit } from './common';
import { LOCATION_FIELDS } from './fields';
import { RecordForm } from './RecordForm';

type Place = Ok<'/api/v1/locations/{locationId}'>;

export function LocationDetailPage() {
  const { locationId = '' } = useParams<{ locationId: string }>();
  const [, navigate] = useLocation();
  const canEdit = useCanEdit();
  const place = useApi(() => unwrap(api.GET('/api/v1/locations/{locationId}', { params: { path: { locationId } } })), [locationId]);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  if (place.error && isNotFound(place.error)) return <NotFoundState what="Location" back="/locations" backLabel="locations" />;
  if (!place.data) return place.error ? <ErrorBanner error={place.error} /> : <Loading label="Loading location…" />;
  const p: Place = place.data;

  const actions = canEdit && (
    <>
      <Button onClick={() => setEditing(true)}>Edit</Button>
      <Button variant="danger" onClick={() => setDeleting(true)}>
        Delete
      </Button>
    </>
  );

  return (
    <>
      <BackLink href="/locations" label="Locations" />
      <PageHeader title={p.name} actions={actions}>
        <p className="subtitle muted">
          {humanize(p.type)} · {p.address ?? coordinates(p.latitude, p.longitude)}
        </p>
      </PageHeader>
      {notice && <Notice tone="success">{notice}</Notice>}
      <section className="card" aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <Facts
          items={[
            ['Type', humanize(p.type)],
            ['Address', p.address],
            ['Coordinates', coordinates(p.latitude, p.longitude)],
            ['Amenities', amenitiesText(p.amenities)],
            ['Fuel discount', p.fuelDiscountPerGallon ? `${money(p.fuelDiscountPerGallon)} per gallon` : null],
            ['External ID', p.externalId],
            ['Created', dateTime(p.createdAt)],
            ['Updated', dateTime(p.updatedAt)],
          ]}
        />
      </section>
      <Dialog open={editing} title={`Edit ${p.name}`} onClose={() => setEditing(false)}>
        <RecordForm
          fields={LOCATION_FIELDS}
          record={p}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            const updated = await unwrap(api.PUT('/api/v1/locations/{locationId}', { params: { path: { locationId: p.id } }, body: body as Body<'/api/v1/locations/{locationId}', 'put'> }));
            place.setData(() => updated);
            setEditing(false);
            setNotice('Changes saved.');
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${p.name}?`}
        confirmLabel="Delete location"
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await unwrap(api.DELETE('/api/v1/locations/{locationId}', { params: { path: { locationId: p.id } } }));
          navigate('/locations', { replace: true });
        }}
      >
        <p>The location is removed for good: the planner will no longer suggest it for rests and fuel. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
