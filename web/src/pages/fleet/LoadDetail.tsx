/**
 * One load: its record (edit), its lifecycle (PENDING → ASSIGNED → IN_TRANSIT → DELIVERED, or cancelled)
 * and, while it is open, "Find a driver": the active drivers ranked for it, one of them planned from there.
 */
import { label } from '../../lib/glossary';
import { useState, type FormEvent } from 'react';
import { useParams } from 'wouter';
import { api, unwrap, type Body, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Facts, Field, Loading, Notice, PageHeader, SelectField, StatusBadge } from '../../components/ui';
import { nextLoadStatuses, type LoadStatus } from '../../lib/fleet';
import { dateTime, humanize } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { FindDriver } from '../dispatch/FindDriver';
import { BackLink, ConfirmDialog, isNotFound, NotFoundState, useCanEdit } from './common';
import { LOAD_FIELDS } from './fields';
import { RecordForm } from './RecordForm';

type Load = Ok<'/api/v1/loads/{loadId}'>;

function StatusForm({ load, onChanged }: { load: Load; onChanged: (l: Load) => void }) {
  const next = nextLoadStatuses(load.status);
  const [status, setStatus] = useState<LoadStatus | ''>(next[0] ?? '');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);

  async function change() {
    if (!status) return;
    setBusy(true);
    setError(null);
    try {
      const updated = await unwrap(api.POST('/api/v1/loads/{loadId}/status', { params: { path: { loadId: load.id } }, body: { status, ...(note.trim() ? { note: note.trim() } : {}) } }));
      setNote('');
      onChanged(updated);
      setStatus(nextLoadStatuses(updated.status)[0] ?? '');
    } catch (err) {
      setError(err);
      throw err;
    } finally {
      setBusy(false);
    }
  }

  if (next.length === 0) return <p className="muted">This load is {humanize(load.status).toLowerCase()}: its status no longer changes.</p>;
  return (
    <form
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        if (status === 'CANCELLED') setConfirmCancel(true);
        else void change().catch(() => undefined);
      }}
    >
      <ErrorBanner error={error} />
      <div className="status-actions">
        <SelectField label="New status" value={status} onChange={(e) => setStatus(e.target.value as LoadStatus)} options={next.map((s) => ({ value: s, label: humanize(s) }))} />
        <Field label="Note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} hint="Optional; sent to your systems with the status change" />
        <Button type="submit" variant={status === 'CANCELLED' ? 'danger' : 'primary'} busy={busy}>
          Change status
        </Button>
      </div>
      <ConfirmDialog open={confirmCancel} title={`Cancel load ${load.referenceNumber}?`} confirmLabel="Cancel load" onClose={() => setConfirmCancel(false)} onConfirm={change}>
        <p>A cancelled load cannot be reopened.</p>
      </ConfirmDialog>
    </form>
  );
}

export function LoadDetailPage() {
  const { loadId = '' } = useParams<{ loadId: string }>();
  const canEdit = useCanEdit();
  const load = useApi(() => unwrap(api.GET('/api/v1/loads/{loadId}', { params: { path: { loadId } } })), [loadId]);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  if (load.error && isNotFound(load.error)) return <NotFoundState what="Load" back="/loads" backLabel="loads" />;
  if (!load.data) return load.error ? <ErrorBanner error={load.error} /> : <Loading label="Loading load…" />;
  const l: Load = load.data;
  const open = l.status !== 'DELIVERED' && l.status !== 'CANCELLED';

  return (
    <>
      <BackLink href="/loads" label="Loads" />
      <PageHeader title={`Load ${l.referenceNumber}`} actions={canEdit && open && <Button onClick={() => setEditing(true)}>Edit</Button>}>
        <p className="subtitle">
          <StatusBadge value={l.status} />
          <span className="muted">{l.customer ?? 'No customer given'}</span>
        </p>
      </PageHeader>
      {notice && <Notice tone="success">{notice}</Notice>}
      <div className="detail-sections">
        <section className="card" aria-labelledby="details-title">
          <h2 id="details-title">Details</h2>
          <Facts
            items={[
              ['Reference', l.referenceNumber],
              ['Customer', l.customer],
              ['Origin', l.originAddress],
              ['Destination', l.destinationAddress],
              ['Scheduled pickup', dateTime(l.scheduledPickup, l.originTimeZone ?? undefined)],
              ['Scheduled delivery', dateTime(l.scheduledDelivery, l.destinationTimeZone ?? undefined)],
              ['Weight', l.weight === null ? null : `${l.weight.toLocaleString('en-US')} lb`],
              ['Commodity', l.commodity],
              ['Source', label('vendor', l.source)],
              ['External ID', l.externalId],
              ['Created', dateTime(l.createdAt)],
              ['Updated', dateTime(l.updatedAt)],
            ]}
          />
        </section>
        <section className="card" aria-labelledby="status-title">
          <h2 id="status-title">Status</h2>
          {canEdit ? (
            <StatusForm
              load={l}
              onChanged={(updated) => {
                load.setData(() => updated);
                setNotice(`Load ${updated.referenceNumber} is now ${humanize(updated.status).toLowerCase()}.`);
              }}
            />
          ) : (
            <p>
              <StatusBadge value={l.status} />
            </p>
          )}
        </section>
        {open && (
          <section className="card" aria-labelledby="find-driver-title">
            <h2 id="find-driver-title">Find a driver</h2>
            <p className="muted small">Every active driver’s trip for this load, planned from where they are with the hours they have left: picked up not before the scheduled pickup, delivered by the scheduled delivery.</p>
            <FindDriver request={() => ({ body: { loadId: l.id }, errors: {} })} />
          </section>
        )}
      </div>
      <Dialog open={editing} title={`Edit load ${l.referenceNumber}`} onClose={() => setEditing(false)}>
        <RecordForm
          fields={LOAD_FIELDS}
          record={l}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            const updated = await unwrap(api.PUT('/api/v1/loads/{loadId}', { params: { path: { loadId: l.id } }, body: body as Body<'/api/v1/loads/{loadId}', 'put'> }));
            load.setData(() => updated);
            setEditing(false);
            setNotice('Changes saved.');
          }}
        />
      </Dialog>
    </>
  );
}
