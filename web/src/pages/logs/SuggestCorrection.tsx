/**
 * "Suggest a correction" (a dispatcher, on the driver's page): the stretch of the day to replace (from, to
 * on the home terminal's clocks), the statuses to put there (add and remove rows), why (4 to 60
 * characters), and the day's grid as it would be afterwards — worked out here from the day's records the way
 * the server applies a correction. Sent as a request: it changes nothing until the driver accepts it.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { Button, Field, SelectField } from '../../components/ui';
import { ANNOTATION_MAX, ANNOTATION_MIN, checkCorrection, correctionBody, previewSpans, recordedUntil, timeValue, type DailyLog, type LogEdit } from '../../lib/daily-log';
import { DUTY_LABELS, DUTY_ROWS } from '../../lib/duty';
import { clockTime, dayTitle, problemText } from '../../lib/log-words';
import { LogDayGrid } from './LogParts';

interface Row {
  key: number;
  status: string;
  time: string;
  note: string;
}

const STATUS_OPTIONS = DUTY_ROWS.map((s) => ({ value: s, label: DUTY_LABELS[s] }));

export function SuggestCorrection({ day, driverId, driverName, now, onSent, onClose }: { day: DailyLog; driverId: string; driverName: string; now: number; onSent: (edit: LogEdit) => void; onClose: () => void }) {
  const zone = day.timeZone;
  const until = recordedUntil(day);
  const [from, setFrom] = useState('');
  // To the end of the day (its start time read at the end), or on today to now.
  const [to, setTo] = useState(() => timeValue(until >= Date.parse(day.periodEnd) ? Date.parse(day.periodStart) : Math.floor(until / 60_000) * 60_000, zone));
  const [rows, setRows] = useState<Row[]>([{ key: 0, status: 'OFF_DUTY', time: '', note: '' }]);
  const [annotation, setAnnotation] = useState('');
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const formId = useId();

  const clock = (ms: number) => clockTime(ms, zone);
  const check = useMemo(() => checkCorrection(day, { from, to, entries: rows, annotation }, now, (ms) => clockTime(ms, zone)), [day, from, to, rows, annotation, now, zone]);
  const preview = useMemo(() => (check.draft ? previewSpans(day, check.draft) : null), [check.draft, day]);
  const problem = (field: string) => (submitted || touched.has(field) ? check.problems[field] : undefined);
  const touch = (field: string) => setTouched((t) => new Set(t).add(field));
  const setRow = (key: number, change: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...change } : r)));
  // The zone's abbreviation (both, on a day daylight saving time begins or ends: "CDT, then CST").
  const abbreviation = [...new Set([day.periodStart, day.periodEnd].map((t) => clock(Date.parse(t)).split(' ')[1] ?? zone))].join(', then ');

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setSubmitted(true);
    setError(null);
    if (!check.draft || Object.keys(check.problems).length > 0) return;
    setBusy(true);
    try {
      const body = correctionBody(check.draft, rows.map((r) => r.note), annotation);
      onSent(await unwrap(api.POST('/api/v1/drivers/{driverId}/log-edits', { params: { path: { driverId } }, body })));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="log-suggest" onSubmit={submit} aria-labelledby={`${formId}-title`} noValidate data-testid="suggest-correction">
      <h3 id={`${formId}-title`}>Suggest a correction of {dayTitle(day.date)}</h3>
      <p className="muted">
        The statuses you enter replace the log from the start to the end you give; the status in force at the end goes on after it. {driverName} accepts or rejects it: until then
        the log, the clocks and the alerts stay as they are. Times on the home terminal’s clocks ({zone}).
      </p>
      <div className="log-suggest-range">
        <Field label="From" type="time" value={from} required onChange={(e) => setFrom(e.target.value)} onBlur={() => touch('from')} hint={`${abbreviation}, within ${dayTitle(day.date)}`} error={problem('from')} />
        <Field
          label="To"
          type="time"
          value={to}
          required
          onChange={(e) => setTo(e.target.value)}
          onBlur={() => touch('to')}
          hint={`${timeValue(Date.parse(day.periodStart), zone)} is the end of the day; not later than now`}
          error={problem('to')}
        />
      </div>
      <fieldset className="log-suggest-entries">
        <legend>Statuses in that time</legend>
        {rows.map((r, i) => (
          <div className="log-suggest-row" key={r.key} data-testid="correction-entry">
            <SelectField label={`Status ${i + 1}`} value={r.status} options={STATUS_OPTIONS} onChange={(e) => setRow(r.key, { status: e.target.value })} />
            {i === 0 ? (
              <div className="field">
                <span className="field-static-label">Status 1 starts</span>
                <span className="field-static">{check.draft ? clock(check.draft.from) : 'at “From”'}</span>
              </div>
            ) : (
              <Field label={`Status ${i + 1} starts`} type="time" value={r.time} required onChange={(e) => setRow(r.key, { time: e.target.value })} onBlur={() => touch(`entry-${i}`)} error={problem(`entry-${i}`)} />
            )}
            <Field label={`Note for status ${i + 1}`} value={r.note} maxLength={500} onChange={(e) => setRow(r.key, { note: e.target.value })} hint="Optional" />
            {i > 0 && (
              <Button className="log-suggest-remove" onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}>
                Remove status {i + 1}
              </Button>
            )}
            {i === 0 && problem('entry-0') && <small className="field-error">{problem('entry-0')}</small>}
          </div>
        ))}
        <Button onClick={() => setRows((rs) => [...rs, { key: Math.max(...rs.map((x) => x.key)) + 1, status: 'ON_DUTY_NOT_DRIVING', time: '', note: '' }])}>Add a status</Button>
      </fieldset>
      <Field
        label="Why (annotation)"
        value={annotation}
        maxLength={ANNOTATION_MAX}
        required
        onChange={(e) => setAnnotation(e.target.value)}
        onBlur={() => touch('annotation')}
        hint={`${ANNOTATION_MIN} to ${ANNOTATION_MAX} characters, read by the driver and an inspector (${annotation.trim().length} so far)`}
        error={problem('annotation')}
      />
      <section className="log-preview" aria-label="Preview of the day after the correction" data-testid="correction-preview">
        <h4>The day after the correction</h4>
        {preview ? (
          <LogDayGrid day={day} spans={preview} label={`${dayTitle(day.date)}, as it would be after the correction`} showViolations={false} />
        ) : (
          <p className="muted">Enter the times to see the day as the correction would make it.</p>
        )}
      </section>
      {submitted && Object.keys(check.problems).length > 0 && (
        <div className="banner banner-error" role="alert">
          Check the fields marked above.
        </div>
      )}
      {error !== null && (
        <div className="banner banner-error" role="alert" data-testid="correction-error">
          {problemText(error, zone)}
        </div>
      )}
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Send to {driverName} for approval
        </Button>
        <Button onClick={onClose}>Close without sending</Button>
      </div>
    </form>
  );
}
