/** One vehicle: its record (edit), its status (in service, in maintenance, or deactivated), and its unassigned driving. */
import { useState } from 'react';
import { useParams } from 'wouter';
import { api, unwrap, type Body, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Facts, Loading, Notice, PageHeader, StatusBadge } from '../../components/ui';
import { vehicleDescription, vehicleStatusActions, type VehicleStatus } from '../../lib/fleet';
import { dateTime, humanize } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { VehicleUnassigned } from '../compliance/VehicleUnassigned';
import { BackLink, ConfirmDialog, isNotFound, NotFoundState, useCanEdit } from './common';
import { VEHICLE_FIELDS } from './fields';
import { RecordForm } from './RecordForm';

type Vehicle = Ok<'/api/v1/vehicles/{vehicleId}'>;

const NOTICES: Record<VehicleStatus, string> = {
  ACTIVE: 'is back in service.',
  IN_MAINTENANCE: 'is in maintenance: it cannot be assigned to routes until it returns to service.',
  INACTIVE: 'is deactivated.',
};

export function VehicleDetailPage() {
  const { vehicleId = '' } = useParams<{ vehicleId: string }>();
  const canEdit = useCanEdit();
  const vehicle = useApi(() => unwrap(api.GET('/api/v1/vehicles/{vehicleId}', { params: { path: { vehicleId } } })), [vehicleId]);
  const [editing, setEditing] = useState(false);
  const [confirmDeactivate, setConfirmDeactivate] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<VehicleStatus | null>(null);

  if (vehicle.error && isNotFound(vehicle.error)) return <NotFoundState what="Vehicle" back="/vehicles" backLabel="vehicles" />;
  if (!vehicle.data) return vehicle.error ? <ErrorBanner error={vehicle.error} /> : <Loading label="Loading vehicle…" />;
  const v: Vehicle = vehicle.data;

  async function setStatus(status: VehicleStatus) {
    setBusy(status);
    setError(null);
    try {
      const updated =
        status === 'INACTIVE'
          ? await unwrap(api.DELETE('/api/v1/vehicles/{vehicleId}', { params: { path: { vehicleId: v.id } } }))
          : await unwrap(api.PUT('/api/v1/vehicles/{vehicleId}', { params: { path: { vehicleId: v.id } }, body: { status } }));
      vehicle.setData(() => updated);
      setNotice(`Vehicle ${v.unitNumber} ${NOTICES[status]}`);
    } catch (err) {
      setError(err);
      throw err;
    } finally {
      setBusy(null);
    }
  }

  const actions = canEdit && (
    <>
      <Button onClick={() => setEditing(true)}>Edit</Button>
      {vehicleStatusActions(v.status).map((a) => (
        <Button
          key={a.status}
          variant={a.destructive ? 'danger' : 'secondary'}
          busy={busy === a.status}
          onClick={() => (a.destructive ? setConfirmDeactivate(true) : void setStatus(a.status).catch(() => undefined))}
        >
          {a.label}
        </Button>
      ))}
    </>
  );

  return (
    <>
      <BackLink href="/vehicles" label="Vehicles" />
      <PageHeader title={`Unit ${v.unitNumber}`} actions={actions}>
        <p className="subtitle">
          <StatusBadge value={v.status} />
          <span className="muted">{vehicleDescription(v) ?? 'Make and model not given'}</span>
        </p>
      </PageHeader>
      {notice && <Notice tone="success">{notice}</Notice>}
      <ErrorBanner error={error} />
      <section className="card" aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <Facts
          items={[
            ['Unit number', v.unitNumber],
            ['Status', humanize(v.status)],
            ['VIN', v.vin],
            ['Make', v.make],
            ['Model', v.model],
            ['Model year', v.year],
            ['License plate', v.licensePlate],
            ['Fuel tank', `${v.fuelTankGallons} gal`],
            ['Miles per gallon', v.mpg],
            ['Range on a full tank', `${Math.round(v.fuelTankGallons * v.mpg).toLocaleString('en-US')} mi`],
            ['ELD vehicle ID', v.eldExternalId],
            ['Created', dateTime(v.createdAt)],
            ['Updated', dateTime(v.updatedAt)],
          ]}
        />
      </section>
      <VehicleUnassigned vehicleId={v.id} />
      <Dialog open={editing} title={`Edit unit ${v.unitNumber}`} onClose={() => setEditing(false)}>
        <RecordForm
          fields={VEHICLE_FIELDS}
          record={v}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            const updated = await unwrap(api.PUT('/api/v1/vehicles/{vehicleId}', { params: { path: { vehicleId: v.id } }, body: body as Body<'/api/v1/vehicles/{vehicleId}', 'put'> }));
            vehicle.setData(() => updated);
            setEditing(false);
            setNotice('Changes saved.');
          }}
        />
      </Dialog>
      <ConfirmDialog open={confirmDeactivate} title={`Deactivate unit ${v.unitNumber}?`} confirmLabel="Deactivate vehicle" onClose={() => setConfirmDeactivate(false)} onConfirm={() => setStatus('INACTIVE')}>
        <p>It can no longer be assigned to routes. Its record and past routes are kept; you can return it to service later.</p>
      </ConfirmDialog>
    </>
  );
}
