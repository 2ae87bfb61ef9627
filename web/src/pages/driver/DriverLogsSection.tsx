/**
 * "My logs" on the driver's phone: the corrections their carrier asks for, each with the day before and
 * after, to accept or reject (with an optional reason); and each recent day on the home terminal's clocks,
 * newest first, with its grid and totals, its certification, and a Certify button (the certification
 * statement shown before confirming) on a day with records not certified or changed since. Only the driver's own user
 * may do either (49 CFR 395.30(b) and (c)); the server checks it.
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Field, Loading, Notice } from '../../components/ui';
import { ANNOTATION_MAX, ANNOTATION_MIN, type DailyLog, type LogEdit } from '../../lib/daily-log';
import { CERTIFICATION_STATEMENT, certificationState, problemText, shortDayTitle } from '../../lib/log-words';
import type { Loaded } from '../../lib/use-api';
import { CorrectionRequest } from '../logs/CorrectionRequest';
import { CertificationLine, LogDayGrid, RemarkList, ViolationList } from '../logs/LogParts';
import '../logs/logs.css';

export type DriverLogs = { logs: Ok<'/api/v1/drivers/{driverId}/logs'>; pending: LogEdit[] };

type Asked = { kind: 'certify'; day: DailyLog } | { kind: 'accept' | 'reject'; edit: LogEdit } | null;

export function DriverLogsSection({ driverId, myUserId, data, reload }: { driverId: string; myUserId: string; data: Loaded<DriverLogs>; reload: () => Promise<void> }) {
  const [asked, setAsked] = useState<Asked>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const zone = data.data?.logs.timeZone ?? 'UTC';

  function ask(a: Asked) {
    setError(null);
    setAsked(a);
  }

  async function confirm(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!asked) return;
    const reason = String(new FormData(e.currentTarget).get('reason') ?? '').trim();
    if (asked.kind === 'reject' && reason && (reason.length < ANNOTATION_MIN || reason.length > ANNOTATION_MAX)) {
      setError(new Error(`A reason is ${ANNOTATION_MIN} to ${ANNOTATION_MAX} characters (or none).`));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (asked.kind === 'certify') {
        await unwrap(api.POST('/api/v1/drivers/{driverId}/logs/{date}/certify', { params: { path: { driverId, date: asked.day.date } } }));
        setDone(`${shortDayTitle(asked.day.date)} is certified.`);
      } else {
        const path = { params: { path: { editId: asked.edit.id } }, body: asked.kind === 'reject' && reason ? { annotation: reason } : {} };
        if (asked.kind === 'accept') await unwrap(api.POST('/api/v1/log-edits/{editId}/accept', path));
        else await unwrap(api.POST('/api/v1/log-edits/{editId}/reject', path));
        const days = asked.edit.dates.map(shortDayTitle).join(' and ');
        setDone(asked.kind === 'accept' ? `Correction accepted: your log of ${days} is changed. Certify the day again below.` : `Correction rejected: your log of ${days} stays as it was.`);
      }
      await reload();
      setAsked(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const title = !asked ? 'Your log' : asked.kind === 'certify' ? `Certify ${shortDayTitle(asked.day.date)}?` : asked.kind === 'accept' ? 'Accept this correction?' : 'Reject this correction?';
  const pending = data.data?.pending ?? [];

  return (
    <section className="card driver-card my-logs" aria-labelledby="my-logs-title">
      <h2 id="my-logs-title">My logs</h2>
      <ErrorBanner error={data.error} />
      {done && <Notice tone="success">{done}</Notice>}
      {data.loading && !data.data ? (
        <Loading label="Loading your logs…" />
      ) : data.data ? (
        <>
          {pending.length > 0 && (
            <div className="my-log-requests" data-testid="my-log-requests">
              <h3>
                {pending.length === 1 ? 'A correction waits' : `${pending.length} corrections wait`} for your answer
              </h3>
              {pending.map((edit) => (
                <CorrectionRequest key={edit.id} edit={edit} timeZone={zone} requester={edit.requestedBy === myUserId ? 'You' : (edit.requestedByName ?? 'Your carrier')} headingLevel={4}>
                  <Button variant="primary" className="driver-big" onClick={() => ask({ kind: 'accept', edit })}>
                    Accept
                  </Button>
                  <Button className="driver-big" onClick={() => ask({ kind: 'reject', edit })}>
                    Reject
                  </Button>
                </CorrectionRequest>
              ))}
            </div>
          )}
          <p className="muted driver-hint">
            Newest day first, on your home terminal’s clocks ({zone}). Swipe sideways to see a whole day on a small screen.
          </p>
          <section className="log-grids" aria-label="My log grid" data-testid="log-grid">
            {data.data.logs.data.map((day) => {
              const state = certificationState(day.certification);
              return (
                <article className="my-log-day log-day" key={day.date} aria-labelledby={`my-log-${day.date}`} data-date={day.date}>
                  <h3 id={`my-log-${day.date}`}>{shortDayTitle(day.date)}</h3>
                  <CertificationLine day={day} />
                  <LogDayGrid day={day} label={shortDayTitle(day.date)} />
                  {day.violations.length > 0 && <ViolationList day={day} headingLevel={4} />}
                  <details className="driver-details">
                    <summary>Remarks of {shortDayTitle(day.date)}</summary>
                    <RemarkList day={day} headingLevel={4} />
                  </details>
                  {/* A day with records to certify (as the fleet's compliance report counts them). */}
                  {state !== 'certified' && day.events.length > 0 && (
                    <div className="my-log-actions">
                      <Button variant="primary" className="driver-big" onClick={() => ask({ kind: 'certify', day })}>
                        {state === 'recertify' ? `Certify ${shortDayTitle(day.date)} again` : `Certify ${shortDayTitle(day.date)}`}
                      </Button>
                    </div>
                  )}
                </article>
              );
            })}
          </section>
        </>
      ) : null}

      <Dialog open={asked !== null} title={title} onClose={() => setAsked(null)}>
        {asked && (
          <form onSubmit={confirm} className="stack">
            {asked.kind === 'certify' && (
              <>
                <p>By certifying you state, for {shortDayTitle(asked.day.date)}:</p>
                <p className="certify-statement" data-testid="certification-statement">
                  {CERTIFICATION_STATEMENT}
                </p>
              </>
            )}
            {asked.kind === 'accept' && <p>Your log changes as shown under “After”. A day you had certified must then be certified again.</p>}
            {asked.kind === 'reject' && (
              <>
                <p>Your log stays as it is. Your carrier sees that you rejected it, and your reason if you give one.</p>
                <Field label="Reason (optional)" name="reason" maxLength={ANNOTATION_MAX} hint={`${ANNOTATION_MIN} to ${ANNOTATION_MAX} characters`} />
              </>
            )}
            {error !== null && (
              <div className="banner banner-error" role="alert">
                {problemText(error, zone)}
              </div>
            )}
            <div className="driver-dialog-actions">
              <Button type="submit" variant={asked.kind === 'reject' ? 'danger' : 'primary'} busy={busy} className="driver-big">
                {asked.kind === 'certify' ? 'Agree and certify' : asked.kind === 'accept' ? 'Accept correction' : 'Reject correction'}
              </Button>
              <Button onClick={() => setAsked(null)} className="driver-big">
                Not now
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </section>
  );
}
