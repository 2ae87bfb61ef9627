/**
 * The driver's duty status: big buttons to change it (confirmed in a dialog, with an optional note),
 * then their HOS clocks and what rest is required next.
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Ok } from '../../api/client';
import { HosClocks, type HosRecord } from '../../components/HosClocks';
import { Button, Dialog, ErrorBanner, Loading, Notice } from '../../components/ui';
import { DUTY_LABELS, DUTY_ROWS, type DutyStatus } from '../../lib/duty';
import { dateTime, humanize, timeOnly } from '../../lib/format';

export type DutyEvent = Ok<'/api/v1/drivers/{driverId}/duty-status'>['data'][number];

export function DriverDutySection({ driverId, hos, hosError, onRecorded }: { driverId: string; hos: HosRecord | undefined; hosError: Error | undefined; onRecorded: (hos: HosRecord, event: DutyEvent) => void | Promise<void> }) {
  const [asked, setAsked] = useState<DutyStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<{ status: DutyStatus; at: string } | null>(null);
  const current = hos?.currentDutyStatus;

  async function confirm(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!asked) return;
    const note = String(new FormData(e.currentTarget).get('note') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const res = await unwrap(api.POST('/api/v1/drivers/{driverId}/duty-status', { params: { path: { driverId } }, body: { status: asked, ...(note ? { note } : {}) } }));
      await onRecorded(res.hos, res.event);
      setDone({ status: asked, at: res.event.at });
      setAsked(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card driver-card" aria-labelledby="duty-title">
      <h2 id="duty-title">My duty status</h2>
      <p className="driver-current">
        You are <strong data-testid="current-duty">{current ? humanize(current) : '…'}</strong>
        {hos?.lastStatusChange && <span className="muted"> since {dateTime(hos.lastStatusChange)}</span>}
      </p>
      {done && (
        <Notice tone="success">
          Duty status changed to {DUTY_LABELS[done.status]} at {timeOnly(done.at)}. Your clocks below are updated.
        </Notice>
      )}
      <ErrorBanner error={hosError} />
      <div className="duty-buttons" role="group" aria-label="Change duty status">
        {DUTY_ROWS.map((s) => (
          <button
            key={s}
            type="button"
            className={`duty-btn duty-btn-${s.toLowerCase()}`}
            aria-pressed={current === s}
            disabled={!hos || current === s}
            onClick={() => {
              setError(null);
              setAsked(s);
            }}
          >
            <span className="duty-btn-label">{DUTY_LABELS[s]}</span>
            {current === s && <span className="duty-btn-now">Current</span>}
          </button>
        ))}
      </div>
      <Dialog open={asked !== null} title={asked ? `Change to ${DUTY_LABELS[asked]}?` : 'Change duty status'} onClose={() => setAsked(null)}>
        {asked && (
          <form onSubmit={confirm} className="stack">
            <p>
              Your log records <strong>{DUTY_LABELS[asked]}</strong> from now ({timeOnly(new Date().toISOString())}). The log is append-only: a mistake is corrected by logging the right
              status again.
            </p>
            <div className="field">
              <label htmlFor="duty-note">Note (optional)</label>
              <input id="duty-note" name="note" maxLength={500} placeholder="e.g. pre-trip inspection, loading at dock 4" />
            </div>
            <ErrorBanner error={error} />
            <div className="driver-dialog-actions">
              <Button type="submit" variant="primary" busy={busy} className="driver-big">
                Confirm {DUTY_LABELS[asked]}
              </Button>
              <Button onClick={() => setAsked(null)} className="driver-big">
                Cancel
              </Button>
            </div>
          </form>
        )}
      </Dialog>
      <h3>My hours of service</h3>
      {hos ? (
        <>
          <HosClocks hos={hos} showStatus={false} />
          <p className="muted driver-hint">{hos.nextRequiredRest.explanation}</p>
        </>
      ) : (
        !hosError && <Loading label="Loading your clocks…" />
      )}
    </section>
  );
}
