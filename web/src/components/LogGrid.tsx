/**
 * The HOS log grid: the 24-hour graph of duty status per day that drivers and auditors know from paper
 * logs (49 CFR 395.8) — four rows (off duty, sleeper berth, driving, on duty not driving), hours across,
 * a line stepping between rows, and each row's total at the right. One grid per day, in `timeZone`.
 */
import { DUTY_LABELS, DUTY_ROWS, dutySpans, logDays, type DutyChange, type LogDay } from '../lib/duty';
import { formatMinutes } from '../lib/durations';

const W = 960;
const LABEL = 110;
const TOTAL = 60;
const ROW = 26;
const TOP = 18;
const GRID_W = W - LABEL - TOTAL;
const H = TOP + ROW * 4 + 6;

function DayGrid({ day }: { day: LogDay }) {
  const span = day.endMs - day.startMs;
  const x = (ms: number) => LABEL + ((ms - day.startMs) / span) * GRID_W;
  const y = (status: string) => TOP + ROW * DUTY_ROWS.indexOf(status as never) + ROW / 2;
  const hours = Math.round(span / 3_600_000);
  let d = '';
  day.spans.forEach((s, i) => {
    const prev = day.spans[i - 1];
    if (!prev || prev.endMs !== s.startMs) d += `M${x(s.startMs)},${y(s.status)}`;
    else d += `L${x(s.startMs)},${y(s.status)}`;
    d += `L${x(s.endMs)},${y(s.status)}`;
  });
  const summary = DUTY_ROWS.map((r) => `${DUTY_LABELS[r]} ${formatMinutes(day.minutes[r])}`).join(', ');
  return (
    <svg className="log-grid" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Duty status on ${day.date}: ${summary}`}>
      {Array.from({ length: hours + 1 }, (_, h) => {
        const hx = LABEL + (h / hours) * GRID_W;
        const label = h === 0 || h === hours ? 'M' : h === 12 ? 'N' : String(h % 12);
        return (
          <g key={h}>
            <line className="grid-hour" x1={hx} x2={hx} y1={TOP} y2={TOP + ROW * 4} />
            <text x={hx} y={TOP - 5} textAnchor="middle">
              {label}
            </text>
            {h < hours &&
              [1, 2, 3].map((q) => {
                const qx = hx + (q / 4) * (GRID_W / hours);
                return DUTY_ROWS.map((_, r) => <line key={`${q}-${r}`} className="grid-line" x1={qx} x2={qx} y1={TOP + ROW * r + (q === 2 ? ROW * 0.5 : ROW * 0.7)} y2={TOP + ROW * (r + 1)} />);
              })}
          </g>
        );
      })}
      {DUTY_ROWS.map((r, i) => (
        <g key={r}>
          <line className="grid-hour" x1={LABEL} x2={LABEL + GRID_W} y1={TOP + ROW * i} y2={TOP + ROW * i} />
          <text x={4} y={TOP + ROW * i + ROW / 2 + 4}>
            {DUTY_LABELS[r]}
          </text>
          <text x={W - 4} y={TOP + ROW * i + ROW / 2 + 4} textAnchor="end" data-row-total={r}>
            {formatMinutes(day.minutes[r])}
          </text>
        </g>
      ))}
      <line className="grid-hour" x1={LABEL} x2={LABEL + GRID_W} y1={TOP + ROW * 4} y2={TOP + ROW * 4} />
      <path className="duty-line" d={d} />
    </svg>
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
          <DayGrid day={day} />
        </div>
      ))}
    </section>
  );
}
