/**
 * The two ways to resolve a segment of unassigned driving (49 CFR 395.32): ask a driver to assume it (a
 * correction of their log that they accept in their app), or annotate it with the carrier's reason.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, unwrap, type Ok } from '../../api/client';
import { Button, Dialog, Field, SelectField } from '../../components/ui';
import { formatMinutes } from '../../lib/durations';
import { useApi } from '../../lib/use-api';
import {
  ANNOTATION_EXAMPLES,
  ANNOTATION_MAX,
  ANNOTATION_MIN,
  annotationProblem,
  placeText,
  problemText,
  type UnassignedSegment,
} from '../../lib/unassigned';
import { segmentWhen } from '../../lib/unassigned-when';

type AssignAnswer = Ok<'/api/v1/unassigned-driving/{unassignedId}/assign', 'post'>;

/** The segment the dialog is about, in one line: "T-105 · Tue, Nov 10, 08:00–08:45 CST · 0:45 · from near Dallas, TX". */
function SegmentLine({ segment }: { segment: UnassignedSegment }) {
  return (
    <p className="segment-line">
      <strong>{segment.vehicleUnitNumber}</strong> · {segmentWhen(segment)} · {formatMinutes(segment.durationMinutes)} of driving · from {placeText(segment.startLocation)} to{' '}
      {placeText(segment.endLocation)}
    </p>
  );
}

function Problem({ error, segment }: { error: unknown; segment: UnassignedSegment }) {
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert">
      {problemText(error, segment.timeZone)}
    </div>
  );
}

function DialogForm({ onSubmit, children }: { onSubmit: () => Promise<void>; children: ReactNode }) {
  return (
    <form
      className="stack"
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

export function AssignDialog({ segment, onClose, onAssigned }: { segment: UnassignedSegment | null; onClose: () => void; onAssigned: (answer: AssignAnswer) => void }) {
  return (
    <Dialog open={segment !== null} title="Assign to a driver" onClose={onClose}>
      {segment && <AssignForm segment={segment} onClose={onClose} onAssigned={onAssigned} />}
    </Dialog>
  );
}

function AssignForm({ segment, onClose, onAssigned }: { segment: UnassignedSegment; onClose: () => void; onAssigned: (answer: AssignAnswer) => void }) {
  const drivers = useApi(() => unwrap(api.GET('/api/v1/drivers', { params: { query: { status: 'ACTIVE', pageSize: 100 } } })), []);
  const [driverId, setDriverId] = useState('');
  const [annotation, setAnnotation] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const options = [...(drivers.data?.data ?? [])]
    .sort((a, b) => `${a.lastName} ${a.firstName}`.localeCompare(`${b.lastName} ${b.firstName}`))
    .map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}${d.truckNumber ? ` (truck ${d.truckNumber})` : ''}` }));
  const annotationError = annotationProblem(annotation, true);
  const driverError = driverId ? null : 'Choose the driver who drove';

  async function submit() {
    setTried(true);
    if (driverError || annotationError) return;
    setBusy(true);
    setError(null);
    try {
      const body = { driverId, ...(annotation.trim() ? { annotation: annotation.trim() } : {}) };
      const answer = await unwrap(api.POST('/api/v1/unassigned-driving/{unassignedId}/assign', { params: { path: { unassignedId: segment.id } }, body }));
      onAssigned(answer);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <DialogForm onSubmit={submit}>
      <SegmentLine segment={segment} />
      <p className="muted">
        The driver is asked to take this driving on: it enters their log, and counts in their hours, only once they accept it in their app. Until then it is
        “Waiting for the driver”; if they reject it, it is unassigned again.
      </p>
      {drivers.error && (
        <div className="banner banner-error" role="alert">
          The drivers could not be loaded: {problemText(drivers.error)}
        </div>
      )}
      <SelectField
        label="Driver"
        value={driverId}
        onChange={(e) => setDriverId(e.target.value)}
        options={[{ value: '', label: drivers.loading ? 'Loading drivers…' : 'Choose a driver' }, ...options]}
        hint={tried && driverError ? driverError : 'Active drivers of the organization'}
        aria-invalid={tried && driverError ? true : undefined}
        required
      />
      <Field
        label="Annotation (optional)"
        value={annotation}
        maxLength={ANNOTATION_MAX + 20}
        onChange={(e) => setAnnotation(e.target.value)}
        hint={`What the driver and an inspector read with the record, ${ANNOTATION_MIN} to ${ANNOTATION_MAX} characters; without one: “Unidentified driving of ${segment.vehicleUnitNumber}”`}
        error={tried && annotationError ? annotationError : undefined}
      />
      <Problem error={error} segment={segment} />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Send to the driver
        </Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </DialogForm>
  );
}

export function AnnotateDialog({ segment, onClose, onAnnotated }: { segment: UnassignedSegment | null; onClose: () => void; onAnnotated: (s: UnassignedSegment) => void }) {
  return (
    <Dialog open={segment !== null} title="Annotate unassigned driving" onClose={onClose}>
      {segment && <AnnotateForm segment={segment} onClose={onClose} onAnnotated={onAnnotated} />}
    </Dialog>
  );
}

function AnnotateForm({ segment, onClose, onAnnotated }: { segment: UnassignedSegment; onClose: () => void; onAnnotated: (s: UnassignedSegment) => void }) {
  const [annotation, setAnnotation] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const problem = annotationProblem(annotation);

  async function submit() {
    setTried(true);
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      onAnnotated(await unwrap(api.POST('/api/v1/unassigned-driving/{unassignedId}/annotate', { params: { path: { unassignedId: segment.id } }, body: { annotation: annotation.trim() } })));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <DialogForm onSubmit={submit}>
      <SegmentLine segment={segment} />
      <p className="muted">When no driver drove it on duty — a move in the yard, a mechanic’s test drive — say why. The segment is kept with your reason and no longer counts as unassigned.</p>
      <Field
        label="Reason"
        value={annotation}
        maxLength={ANNOTATION_MAX + 20}
        onChange={(e) => setAnnotation(e.target.value)}
        placeholder={ANNOTATION_EXAMPLES[0]}
        hint={`${ANNOTATION_MIN} to ${ANNOTATION_MAX} characters (${annotation.trim().length} so far), for example “${ANNOTATION_EXAMPLES[0]}” or “${ANNOTATION_EXAMPLES[1]}”`}
        error={tried && problem ? problem : undefined}
        required
      />
      <Problem error={error} segment={segment} />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Save annotation
        </Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </DialogForm>
  );
}
