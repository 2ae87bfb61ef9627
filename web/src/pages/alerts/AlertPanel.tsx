/**
 * One alert in a side panel (a modal <dialog>: focus moves in, Escape closes): its facts, the data
 * behind it, who acknowledged / snoozed / resolved it and when, the notes history and a form to add
 * a note. Read again from GET /alerts/{id} whenever the alert changes (here or live).
 */
import { label } from '../../lib/glossary';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { TextArea } from '../../components/TextArea';
import { Button, ErrorBanner, Facts, Loading, Notice, StatusBadge } from '../../components/ui';
import { actorLabel, alertTypeLabel, kindLabel, metadataEntries, type AlertDetail, type AlertRow } from '../../lib/alert-feed';
import { dateTime } from '../../lib/format';
import { useApi } from '../../lib/use-api';

export function AlertPanel({
  alertId,
  version,
  myUserId,
  canWrite,
  actions,
  onClose,
}: {
  alertId: string;
  /** Changes when the alert changed: the panel reads it again. */
  version: number;
  myUserId: string;
  canWrite: boolean;
  actions: (alert: AlertRow) => ReactNode;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const detail = useApi(() => unwrap(api.GET('/api/v1/alerts/{alertId}', { params: { path: { alertId } } })), [alertId, version]);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const a = detail.data;
  return (
    <dialog ref={ref} className="alert-drawer" aria-labelledby={headingId} onClose={onClose}>
      <div className="alert-drawer-head">
        <h2 id={headingId}>{a ? a.title : 'Alert'}</h2>
        <Button variant="secondary" onClick={onClose} aria-label="Close alert details">
          Close
        </Button>
      </div>
      {detail.error && !a ? (
        <ErrorBanner error={detail.error} />
      ) : !a ? (
        <Loading label="Loading the alert…" />
      ) : (
        <div className="stack">
          <p className="alert-drawer-badges">
            <span className="visually-hidden">Priority: </span>
            <StatusBadge value={a.priority} /> <span className="visually-hidden">Status: </span>
            <StatusBadge value={a.status} />
          </p>
          <p>{a.message}</p>
          {actions(a)}
          <Facts
            items={[
              ['Type', alertTypeLabel(a)],
              ['Category', label('category', a.category)],
              ['Driver', a.driverId ? <Link href={`/drivers/${a.driverId}`}>{a.driverName ?? 'Driver'}</Link> : '—'],
              ['Vehicle', a.vehicleId ? <Link href={`/vehicles/${a.vehicleId}`}>{a.vehicleUnit ?? 'Vehicle'}</Link> : '—'],
              ['Route', a.routePlanId ? <Link href={`/routes/${a.routePlanId}`}>View route</Link> : '—'],
              ['Raised', dateTime(a.createdAt)],
              ['Acknowledged', a.acknowledgedAt ? `${dateTime(a.acknowledgedAt)} · ${actorLabel(a.acknowledgedBy, myUserId)}` : '—'],
              ...(a.status === 'SNOOZED' ? [['Snoozed until', `${dateTime(a.snoozedUntil)} · ${actorLabel(a.snoozedBy, myUserId)}`] as [string, ReactNode]] : []),
              ['Resolved', a.resolvedAt ? `${dateTime(a.resolvedAt)} · ${actorLabel(a.resolvedBy, myUserId)}` : '—'],
              ...(a.resolution ? [['Resolution', a.resolution] as [string, ReactNode]] : []),
            ]}
          />
          <Metadata metadata={a.metadata} />
          <Notes detail={a} myUserId={myUserId} canWrite={canWrite} onAdded={(note) => detail.setData((prev) => (prev ? { ...prev, notes: [...prev.notes, note] } : prev))} />
        </div>
      )}
    </dialog>
  );
}

function Metadata({ metadata }: { metadata: Record<string, unknown> }) {
  const entries = metadataEntries(metadata);
  if (entries.length === 0) return null;
  return (
    <section aria-label="Details from monitoring">
      <h3>Details</h3>
      <dl className="alert-metadata">
        {entries.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Notes({ detail, myUserId, canWrite, onAdded }: { detail: AlertDetail; myUserId: string; canWrite: boolean; onAdded: (note: AlertDetail['notes'][number]) => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [added, setAdded] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const value = text.trim();
    if (!value) return setError(new Error('Write the note first.'));
    setBusy(true);
    setError(null);
    setAdded(false);
    try {
      onAdded(await unwrap(api.POST('/api/v1/alerts/{alertId}/notes', { params: { path: { alertId: detail.id } }, body: { text: value } })));
      setText('');
      setAdded(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="alert-notes-heading">
      <h3 id="alert-notes-heading">Notes ({detail.notes.length})</h3>
      {detail.notes.length === 0 ? (
        <p className="muted">No notes yet.</p>
      ) : (
        <ol className="alert-notes">
          {detail.notes.map((n) => (
            <li key={n.id}>
              <p>{n.text}</p>
              <small className="muted">
                {actorLabel(n.authorId, myUserId)} · <time dateTime={n.createdAt}>{dateTime(n.createdAt)}</time>
              </small>
            </li>
          ))}
        </ol>
      )}
      {canWrite && (
        <form onSubmit={submit} className="stack alert-note-form">
          <ErrorBanner error={error} />
          {added && <Notice tone="success">Note added.</Notice>}
          <TextArea label="Add a note" name="note" rows={3} maxLength={4000} value={text} onChange={(e) => setText(e.target.value)} hint="Visible to everyone who sees this alert." />
          <Button type="submit" variant="primary" busy={busy}>
            Add note
          </Button>
        </form>
      )}
    </section>
  );
}
