/**
 * The pieces of a daily log that the dispatcher's driver page and the driver's own view share: the grid of
 * the day (violations marked), the certification in words, the facts and recap, the violations listed in
 * words, and the remarks. Every time on the home terminal's clocks (the log's `timeZone`) with its zone.
 */
import type { DutySpan } from '../../lib/duty';
import { DayGrid } from '../../components/LogGrid';
import { daySpans, gridDay, type DailyLog } from '../../lib/daily-log';
import { hoursMinutes } from '../../lib/durations';
import { certificationState, certificationText, remarks, violationText } from '../../lib/log-words';
import './logs.css';

/** Distances as the dashboard writes them: tenths under ten miles, whole miles from ten on. */
function milesText(n: number | null): string {
  if (n === null) return 'No positions reported';
  return `${Math.abs(n) < 10 ? Math.round(n * 10) / 10 : Math.round(n).toLocaleString('en-US')} mi`;
}

/** The day's grid: the records as they are (or `spans`, a correction's preview), violations marked. */
export function LogDayGrid({ day, spans, label, showViolations = true }: { day: DailyLog; spans?: DutySpan[]; label: string; showViolations?: boolean }) {
  const marks = showViolations
    ? day.violations.map((v) => ({ startMs: Date.parse(v.start), endMs: Date.parse(v.end), label: `violation, ${violationText(v, day.timeZone)}` }))
    : [];
  return <DayGrid day={gridDay(day, spans ?? daySpans(day))} timeZone={day.timeZone} marks={marks} label={label} />;
}

export function CertificationLine({ day }: { day: DailyLog }) {
  const state = certificationState(day.certification);
  return (
    <p className={`log-cert log-cert-${state}`} data-testid="certification">
      <span className="log-cert-mark" aria-hidden="true">
        {state === 'certified' ? '✓' : '!'}
      </span>
      {certificationText(day.certification, day.timeZone)}
    </p>
  );
}

/** Miles, the recap (on duty today, over the cycle's days, available tomorrow), in h:mm. */
export function DayFacts({ day }: { day: DailyLog }) {
  const items: Array<[string, string]> = [
    ['Miles driven', milesText(day.milesDriven)],
    ['On duty today', hoursMinutes(day.recap.onDutyToday)],
    [`On duty, last ${day.recap.cycleDays} days`, hoursMinutes(day.recap.onDutyCycleDays)],
    ['Available tomorrow', `${hoursMinutes(day.recap.availableTomorrow)} of ${hoursMinutes(day.recap.cycleHours)}`],
  ];
  return (
    <dl className="facts log-facts">
      {items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ViolationList({ day, headingLevel = 3 }: { day: DailyLog; headingLevel?: 3 | 4 }) {
  if (day.violations.length === 0) return <p className="muted">No hours-of-service violation on this day.</p>;
  const H = `h${headingLevel}` as 'h3';
  return (
    <div className="log-violations">
      <H>Violations (marked in red on the grid)</H>
      <ul data-testid="violations">
        {day.violations.map((v) => (
          <li key={`${v.type}-${v.start}`}>{violationText(v, day.timeZone)}</li>
        ))}
      </ul>
    </div>
  );
}

export function RemarkList({ day, headingLevel = 3 }: { day: DailyLog; headingLevel?: 3 | 4 }) {
  const list = remarks(day);
  const H = `h${headingLevel}` as 'h3';
  return (
    <div className="log-remarks">
      <H>Remarks</H>
      {list.length === 0 ? (
        <p className="muted">No status recorded: off duty (before the driver’s first record).</p>
      ) : (
        <ol data-testid="remarks">
          {list.map((r) => (
            <li key={r.key}>
              <strong>{r.time}</strong> — {r.status}
              {r.place && <> · {r.place}</>} <span className="muted">· {r.origin}</span>
              {r.note && <> · “{r.note}”</>}
              {r.annotation && <span className="log-annotation"> · Annotation: “{r.annotation}”</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
