/** Recording a driver's duty-status change (now, or from a time typed in) from the dispatcher's side. */
import { useState, type FormEvent } from 'react';
import { ApiError, api, unwrap, type Body, type Ok } from '../../api/client';
import { Button, ErrorBanner, Field, SelectField } from '../../components/ui';
import { DUTY_LABELS, DUTY_ROWS, likelyNextStatus, type DutyStatus } from '../../lib/duty';
import { errorsFromDetails, isoFromLocalInput } from '../../lib/forms';

type Hos = Ok<'/api/v1/drivers/{driverId}/hos'>;

export function DutyStatusForm({ driverId, current, onRecorded }: { driverId: string; current: string | undefined; onRecorded: (hos: Hos, status: string, at: string) => void }) {
  const [status, setStatus] = useState<DutyStatus>(() => likelyNextStatus(current));
  const [at, setAt] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [atError, setAtError] = useState<string | undefined>(undefined);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    setAtError(undefined);
    const iso = at ? isoFromLocalInput(at) : undefined;
    if (iso === null) return setAtError('must be a date and time');
    setBusy(true);
    try {
      const body: Body<'/api/v1/drivers/{driverId}/duty-status'> = { status, ...(iso ? { at: iso } : {}), ...(note.trim() ? { note: note.trim() } : {}) };
      const res = await unwrap(api.POST('/api/v1/drivers/{driverId}/duty-status', { params: { path: { driverId } }, body }));
      onRecorded(res.hos, res.event.status, res.event.at);
      // The same status twice in a row is refused: offer the likeliest next one.
      setStatus(likelyNextStatus(res.event.status));
      setAt('');
      setNote('');
    } catch (err) {
      if (err instanceof ApiError) {
        const { fieldErrors } = errorsFromDetails(err.body.details, [{ name: 'at', label: 'Time' }]);
        setAtError(fieldErrors.at);
      }
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-labelledby="duty-form-title">
      <h3 id="duty-form-title">Record a duty status change</h3>
      <ErrorBanner error={error} />
      <div className="duty-form">
        <SelectField label="New duty status" value={status} onChange={(e) => setStatus(e.target.value as DutyStatus)} options={DUTY_ROWS.map((s) => ({ value: s, label: DUTY_LABELS[s] }))} />
        <Field label="Starting at" type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} hint="Empty: now (your browser’s time)" error={atError} />
        <Field label="Note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} hint="Optional, e.g. where or why" />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Record status
          </Button>
        </div>
      </div>
    </form>
  );
}
