/**
 * The driver's daily log on the dispatcher's driver page, one 24-hour period at a time on the home
 * terminal's clocks (GET /drivers/{id}/logs): the grid with the violations marked and each row's total,
 * the certification, the recap, the violations and remarks in words, the correction requests waiting for
 * the driver (with Cancel), the history of the day's records, the printable log, and "Suggest a
 * correction". Live: a request answered or a day certified on the driver's phone shows at once.
 */
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';
import { api, unwrap, type Ok } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { useMe, useRoleAtLeast } from '../../api/session';
import { Button, ErrorBanner, Field, Loading, Notice } from '../../components/ui';
import { addDays, type LogEdit } from '../../lib/daily-log';
import { actorText, dayTitle, periodText, problemText } from '../../lib/log-words';
import { useApi, useInterval } from '../../lib/use-api';
import { CorrectionRequest } from './CorrectionRequest';
import { DayHistory } from './DayHistory';
import { downloadLogPdf } from './download';
import { CertificationLine, DayFacts, LogDayGrid, RemarkList, ViolationList } from './LogParts';
import { SuggestCorrection } from './SuggestCorrection';

type Driver = Ok<'/api/v1/drivers/{driverId}'>;

/** The API hands out up to 184 days back (49 CFR 395.8(k): six months kept). */
const MAX_DAYS_BACK = 183;

export function DriverDailyLog({ driver }: { driver: Driver }) {
  const driverId = driver.id;
  const driverName = `${driver.firstName} ${driver.lastName}`;
  const me = useMe();
  const canEdit = useRoleAtLeast('DISPATCHER');
  const [date, setDate] = useState<string | null>(null);
  const [today, setToday] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [suggesting, setSuggesting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = useCallback(() => {
    setNow(Date.now());
    setTick((t) => t + 1);
  }, []);

  // Without a date the API answers today and the days before: today's date on the home terminal's clocks.
  const logs = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}/logs', { params: { path: { driverId }, query: date ? { from: date, to: date } : {} } })), [driverId, date, tick]);
  // `?logDate=YYYY-MM-DD` (the Compliance page's links to a day) opens that day, not today.
  const [params] = useSearchParams();
  const wanted = params.get('logDate');
  useEffect(() => {
    const first = logs.data?.data[0];
    if (!date && first) {
      setToday(first.date);
      const asked = wanted !== null && /^\d{4}-\d{2}-\d{2}$/.test(wanted) && wanted <= first.date;
      setDate(asked ? wanted : first.date);
      if (asked) document.getElementById('daily-log-title')?.scrollIntoView({ block: 'start' });
    }
  }, [date, logs.data, wanted]);
  const day = date ? logs.data?.data.find((d) => d.date === date) : undefined;
  const zone = day?.timeZone ?? logs.data?.timeZone ?? 'UTC';

  const history = useApi(
    () => (day ? unwrap(api.GET('/api/v1/drivers/{driverId}/duty-status', { params: { path: { driverId }, query: { history: true, from: day.periodStart, to: day.periodEnd, limit: 1000 } } })) : Promise.resolve(null)),
    [driverId, day?.periodStart, tick],
  );
  const edits = useApi(() => unwrap(api.GET('/api/v1/log-edits', { params: { query: { driverId, pageSize: 100 } } })), [driverId, tick]);

  // The driver answers on their phone, certifies, or a colleague asks for a correction: shown at once.
  const onLogEvent = useCallback((data: { driverId?: string }) => data.driverId === driverId && refresh(), [driverId, refresh]);
  const onDriverAnswer = useCallback(
    (data: { driverId?: string }) => {
      if (data.driverId !== driverId) return;
      // What was said about a request before (sent: waiting for the driver) is history now.
      setNotice(null);
      refresh();
    },
    [driverId, refresh],
  );
  useRealtime('log:edit_requested', onLogEvent);
  useRealtime('log:edit_accepted', onDriverAnswer);
  useRealtime('log:edit_rejected', onDriverAnswer);
  useRealtime('log:certified', onDriverAnswer);
  // Today grows: refreshed every minute while it is shown.
  useInterval(() => date !== null && date === today && !suggesting && refresh(), 60_000);

  const who = { myUserId: me.userId, driverUserId: driver.userId ?? null, driverName };
  const pending = (edits.data?.data ?? []).filter((e) => e.status === 'PENDING' && date !== null && e.dates.includes(date));
  const editStatus = (editId: string | null) => (editId ? ((edits.data?.data ?? []).find((e) => e.id === editId)?.status ?? null) : null);
  const oldest = today ? addDays(today, -MAX_DAYS_BACK) : undefined;

  function go(to: string) {
    if (!to || (today && to > today) || (oldest && to < oldest)) return;
    setSuggesting(false);
    setNotice(null);
    setActionError(null);
    setDate(to);
  }

  async function act(key: string, run: () => Promise<void>) {
    setBusy(key);
    setActionError(null);
    try {
      await run();
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(null);
    }
  }

  const cancel = (edit: LogEdit) =>
    act(`cancel-${edit.id}`, async () => {
      await unwrap(api.POST('/api/v1/log-edits/{editId}/cancel', { params: { path: { editId: edit.id } } }));
      setNotice('The correction request is withdrawn: the log stays as it was.');
      refresh();
    });

  return (
    <section className="card daily-log" aria-labelledby="daily-log-title" data-testid="daily-log">
      <div className="log-header">
        <h2 id="daily-log-title">Daily log{date ? `: ${dayTitle(date)}` : ''}</h2>
        <div className="daily-log-nav" role="group" aria-label="Choose the day">
          <Button onClick={() => date && go(addDays(date, -1))} disabled={!date || (oldest !== undefined && date <= oldest)}>
            ‹ Previous day
          </Button>
          <Field label="Day" type="date" value={date ?? ''} min={oldest} max={today ?? undefined} onChange={(e) => go(e.target.value)} />
          <Button onClick={() => date && go(addDays(date, 1))} disabled={!date || !today || date >= today}>
            Next day ›
          </Button>
          <Button
            busy={busy === 'pdf'}
            disabled={!date}
            onClick={() => date && act('pdf', () => downloadLogPdf(driverId, date, date))}
            aria-label={date ? `Download PDF of ${dayTitle(date)}` : 'Download PDF'}
          >
            Download PDF
          </Button>
        </div>
      </div>
      <ErrorBanner error={logs.error} />
      {notice && <Notice tone="success">{notice}</Notice>}
      {actionError !== null && (
        <div className="banner banner-error" role="alert">
          {problemText(actionError, zone)}
        </div>
      )}
      {!day ? (
        !logs.error && <Loading label="Loading the daily log…" />
      ) : (
        <>
          <p className="muted daily-log-period">{periodText(day)}</p>
          <CertificationLine day={day} />
          <div className="log-day" data-testid="daily-log-grid">
            <LogDayGrid day={day} label={dayTitle(day.date)} />
          </div>
          <DayFacts day={day} />
          <ViolationList day={day} />
          <RemarkList day={day} />

          <div className="daily-log-requests">
            <h3>Correction requests waiting for {driverName}</h3>
            {pending.length === 0 ? (
              <p className="muted">None for this day.</p>
            ) : (
              pending.map((edit) => (
                <CorrectionRequest key={edit.id} edit={edit} timeZone={zone} requester={actorText(edit.requestedBy, who, edit.requestedByName)} headingLevel={4}>
                  {canEdit && (
                    <Button variant="danger" busy={busy === `cancel-${edit.id}`} onClick={() => void cancel(edit)}>
                      Cancel request
                    </Button>
                  )}
                </CorrectionRequest>
              ))
            )}
          </div>

          {canEdit &&
            (suggesting ? (
              <SuggestCorrection
                day={day}
                driverId={driverId}
                driverName={driverName}
                now={now}
                onClose={() => setSuggesting(false)}
                onSent={(edit) => {
                  setSuggesting(false);
                  setNotice(
                    edit.status === 'APPLIED'
                      ? 'The correction is made.'
                      : `Correction request sent to ${driverName}: it changes nothing until they accept it. It is listed above until they answer.`,
                  );
                  refresh();
                }}
              />
            ) : (
              <p>
                <Button
                  variant="primary"
                  onClick={() => {
                    setNow(Date.now());
                    setNotice(null);
                    setSuggesting(true);
                  }}
                >
                  Suggest a correction
                </Button>
              </p>
            ))}

          <h3>History of the day’s records</h3>
          <p className="muted">Every record that began on this day, kept as it was made: the ones in the log and those a correction replaced, requested or had rejected.</p>
          <ErrorBanner error={history.error} />
          {history.data ? <DayHistory records={history.data.data} timeZone={zone} who={who} editStatus={editStatus} /> : !history.error && <Loading label="Loading the history…" />}
        </>
      )}
    </section>
  );
}
