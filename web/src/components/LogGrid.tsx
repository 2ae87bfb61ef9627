/**
 * The HOS log grid: the 24-hour graph of duty status per day that drivers and auditors know from paper
 * logs (49 CFR 395.8) — four rows (off duty, sleeper berth, driving, on duty not driving), hours across,
 * a line stepping between rows, and each row's total at the right. One grid per day, in `timeZone`.
 */
import { useRef } from 'react';
import { useScrollsSideways } from './ui';
import { hourMarks } from '../lib/daily-log';
import { DUTY_LABELS, DUTY_ROWS, dutySpans, logDays, type DutyChange, type LogDay } from '../lib/duty';
import { formatMinutes } from '../lib/durations';

/** The graph's own units: 24 hours across, four rows down (stretched to the box; lines keep their width). */
const GRID_W = 960;
const ROW = 26;
const H = ROW * 4;

/** A stretch marked across the grid (a violation: from when the limit was passed to when the driving past it ended). */
export interface GridMark {
  startMs: number;
  endMs: number;
  /** In words, for the grid's text alternative. */
  label: string;
}


/**
 * One day: the row names and totals are page text at the page's size on either side of the graph (they
 * stay in view while a phone scrolls the graph sideways); the hours are page text over it, as the zone's
 * clocks show them (a 25-hour day has two 1 o'clocks). `marks` are drawn across the four rows and said in
 * the grid's text alternative; `label` names the day in it (its date by default). The graph carries the
 * day's text alternative (row names and totals are in it); where it scrolls sideways it is a keyboard stop.
 */
export function DayGrid({ day, timeZone = 'UTC', marks = [], label }: { day: LogDay; timeZone?: string; marks?: readonly GridMark[]; label?: string }) {
  const span = day.endMs - day.startMs;
  const x = (ms: number) => ((ms - day.startMs) / span) * GRID_W;
  const y = (status: string) => ROW * DUTY_ROWS.indexOf(status as never) + ROW / 2;
  const ticks = hourMarks(day.startMs, day.endMs, timeZone);
  const hours = ticks.length - 1;
  let d = '';
  day.spans.forEach((s, i) => {
    const prev = day.spans[i - 1];
    if (!prev || prev.endMs !== s.startMs) d += `M${x(s.startMs)},${y(s.status)}`;
    else d += `L${x(s.startMs)},${y(s.status)}`;
    d += `L${x(s.endMs)},${y(s.status)}`;
  });
  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(scroller);
  const summary = DUTY_ROWS.map((r) => `${DUTY_LABELS[r]} ${formatMinutes(day.minutes[r])}`).join(', ');
  const marked = marks.length > 0 ? `; marked: ${marks.map((m) => m.label).join('; ')}` : '';
  return (
    <div className="log-grid">
      <div className="log-grid-labels" aria-hidden="true">
        {DUTY_ROWS.map((r) => (
          <div key={r}>{DUTY_LABELS[r]}</div>
        ))}
      </div>
      <div ref={scroller} className="log-grid-scroll" role="img" aria-label={`Duty status on ${label ?? day.date}: ${summary}${marked}`} tabIndex={scrolls ? 0 : undefined}>
        <div className="log-grid-canvas">
          <div className="log-grid-hours" aria-hidden="true">
            {ticks.map((t, h) => (
              <span key={h} style={{ left: `${(h / hours) * 100}%` }}>
                {t.label}
              </span>
            ))}
          </div>
          <svg viewBox={`0 0 ${GRID_W} ${H}`} preserveAspectRatio="none" aria-hidden="true">
            {Array.from({ length: hours + 1 }, (_, h) => {
              const hx = (h / hours) * GRID_W;
              return (
                <g key={h}>
                  <line className="grid-hour" x1={hx} x2={hx} y1={0} y2={H} />
                  {h < hours &&
                    [1, 2, 3].map((q) => {
                      const qx = hx + (q / 4) * (GRID_W / hours);
                      return DUTY_ROWS.map((_, r) => <line key={`${q}-${r}`} className="grid-line" x1={qx} x2={qx} y1={ROW * r + (q === 2 ? ROW * 0.5 : ROW * 0.7)} y2={ROW * (r + 1)} />);
                    })}
                </g>
              );
            })}
            {DUTY_ROWS.map((r, i) => (
              <line key={r} className="grid-hour" x1={0} x2={GRID_W} y1={ROW * i} y2={ROW * i} />
            ))}
            <line className="grid-hour" x1={0} x2={GRID_W} y1={H} y2={H} />
            {marks.map((m, i) => {
              const a = x(Math.max(m.startMs, day.startMs));
              const b = x(Math.min(Math.max(m.endMs, m.startMs), day.endMs));
              // At least a quarter hour wide, so a limit passed at one instant still shows.
              const w = Math.max(b - a, GRID_W / hours / 4);
              return <rect key={i} className="grid-mark" x={Math.min(a, GRID_W - w)} y={0} width={w} height={H} />;
            })}
            <path className="duty-line" d={d} />
          </svg>
        </div>
      </div>
      <div className="log-grid-totals" aria-hidden="true">
        {DUTY_ROWS.map((r) => (
          <div key={r} data-row-total={r}>
            {formatMinutes(day.minutes[r])}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * Log grids for the days from `fromMs` to `toMs` of the duty-status `changes` (the last status runs
 * until `toMs`), newest day first when `newestFirst`.
 */
export function LogGrid({ changes, fromMs, toMs, timeZone, newestFirst = false, title }: { changes: DutyChange[]; fromMs: number; toMs: number; timeZone: string; newestFirst?: boolean; title?: string }) {
  const days = logDays(dutySpans(changes, toMs), fromMs, toMs, timeZone);
  const ordered = newestFirst ? [...days].reverse() : days;
  return (
    <section className="log-grids" aria-label={title ?? 'HOS log grid'} data-testid="log-grid">
      {ordered.map((day) => (
        <div className="log-day" key={day.date}>
          <h3>
            {new Date(`${day.date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' })}{' '}
            <span className="muted">({timeZone})</span>
          </h3>
          <DayGrid day={day} timeZone={timeZone} />
        </div>
      ))}
    </section>
  );
}
