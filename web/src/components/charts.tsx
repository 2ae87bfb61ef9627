import { TableWrap } from './ui';
/**
 * Small SVG charts (no chart library): stacked bars, lines and horizontal bars. Each is a <figure> with
 * its title, a one-sentence summary that also describes the image to screen readers, axis labels, a
 * legend in words, an empty state, and the numbers as a table under a <details> (the text alternative).
 * The arithmetic is in lib/chart.ts. Styles: charts.css.
 */
import { useId, type ReactNode } from 'react';
import { bands, formatTick, labelEvery, linePath, maxOf, niceTicks, scaleLinear, stack } from '../lib/chart';
import './charts.css';

const W = 560;
const H = 250;
const M = { top: 12, right: 14, bottom: 52, left: 58 };
const PLOT = { x0: M.left, x1: W - M.right, y0: H - M.bottom, y1: M.top };

export interface Series {
  key: string;
  label: string;
  /** A CSS class giving the series its colour (fill for bars, stroke for lines). */
  className: string;
}

interface FrameProps {
  title: string;
  /** One sentence on what the chart shows (visible, and the image's description). */
  summary: string;
  /** When set, the chart is replaced by this message (nothing to draw). */
  empty?: string | null;
  legend?: Series[];
  table: ReactNode;
  children?: ReactNode;
  /** The drawing's height in viewBox units (width is 560). */
  height?: number;
  /** Shown under the chart (key figures in words). */
  footer?: ReactNode;
}

function ChartFrame({ title, summary, empty, legend, table, children, height = H, footer }: FrameProps) {
  const id = useId();
  return (
    <figure className="chart card" aria-labelledby={`${id}-t`}>
      <h3 id={`${id}-t`} className="chart-title">
        {title}
      </h3>
      <p id={`${id}-d`} className="chart-summary">
        {summary}
      </p>
      {empty ? (
        <p className="chart-empty">{empty}</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${W} ${height}`} className="chart-svg" role="img" aria-labelledby={`${id}-t ${id}-d`}>
            {children}
          </svg>
          {legend && legend.length > 1 && (
            <ul className="chart-legend" aria-label={`${title}: legend`}>
              {legend.map((s) => (
                <li key={s.key}>
                  <svg width="14" height="14" aria-hidden="true" className={s.className}>
                    <rect width="14" height="14" rx="2" />
                  </svg>
                  {s.label}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {footer}
      <details className="chart-data">
        <summary>Data table: {title}</summary>
        <TableWrap>{table}</TableWrap>
      </details>
    </figure>
  );
}

/** Horizontal gridlines with the y ticks, the x labels that fit, and both axis titles. */
function Axes({ ticks, y, labels, xLabel, yLabel, formatY, center }: { ticks: number[]; y: (v: number) => number; labels: string[]; xLabel: string; yLabel: string; formatY: (v: number) => string; center: (i: number) => number }) {
  const every = labelEvery(labels.length, 8);
  return (
    <g className="chart-axes">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PLOT.x0} x2={PLOT.x1} y1={y(t)} y2={y(t)} className={t === 0 ? 'chart-baseline' : 'chart-grid'} />
          <text x={PLOT.x0 - 8} y={y(t)} dy="0.32em" textAnchor="end" className="chart-tick">
            {formatY(t)}
          </text>
        </g>
      ))}
      {labels.map((l, i) =>
        i % every === 0 ? (
          <text key={i} x={center(i)} y={PLOT.y0 + 18} textAnchor="middle" className="chart-tick">
            {l}
          </text>
        ) : null,
      )}
      <text x={(PLOT.x0 + PLOT.x1) / 2} y={H - 8} textAnchor="middle" className="chart-axis-label">
        {xLabel}
      </text>
      <text transform={`translate(16 ${(PLOT.y0 + PLOT.y1) / 2}) rotate(-90)`} textAnchor="middle" className="chart-axis-label">
        {yLabel}
      </text>
    </g>
  );
}

export interface BarRow {
  label: string;
  /** One value per series, bottom up. */
  values: number[];
}

/** Stacked bars, one per row (bucket). Counts: whole-number ticks. */
export function StackedBarChart({ title, summary, empty, rows, series, xLabel, yLabel, table, footer }: Omit<FrameProps, 'legend' | 'children'> & { rows: BarRow[]; series: Series[]; xLabel: string; yLabel: string }) {
  const totals = rows.map((r) => r.values.reduce((a, b) => a + Math.max(0, b), 0));
  const { max, ticks } = niceTicks(maxOf(totals), 5, true);
  const y = scaleLinear([0, max], [PLOT.y0, PLOT.y1]);
  const b = bands(rows.length, PLOT.x0, PLOT.x1);
  return (
    <ChartFrame title={title} summary={summary} empty={empty} legend={series} table={table} footer={footer}>
      <Axes ticks={ticks} y={y} labels={rows.map((r) => r.label)} xLabel={xLabel} yLabel={yLabel} formatY={String} center={b.center} />
      {rows.map((r, i) => (
        <g key={i}>
          {stack(r.values).map((s, k) =>
            s.y1 > s.y0 ? (
              <rect key={k} x={b.x(i)} width={b.width} y={y(s.y1)} height={Math.max(0.5, y(s.y0) - y(s.y1))} className={series[k]?.className}>
                <title>{`${r.label}: ${r.values[k]} ${series[k]?.label.toLowerCase() ?? ''}`}</title>
              </rect>
            ) : null,
          )}
        </g>
      ))}
    </ChartFrame>
  );
}

export interface LineRow {
  label: string;
  /** One value per series; null leaves a gap. */
  values: Array<number | null>;
}

/** Lines over the rows (buckets), with a dot on every value (a lone value still shows). */
export function LineChart({
  title,
  summary,
  empty,
  rows,
  series,
  xLabel,
  yLabel,
  table,
  yMax,
  minYMax = 0,
  formatY,
  footer,
}: Omit<FrameProps, 'legend' | 'children'> & {
  rows: LineRow[];
  series: Series[];
  xLabel: string;
  yLabel: string;
  /** A fixed top of the y axis (100 for percentages). */
  yMax?: number;
  /** The y axis reaches at least this high (tiny values do not blow up to fill the chart). */
  minYMax?: number;
  formatY?: (v: number) => string;
}) {
  const { max, ticks } = niceTicks(yMax ?? Math.max(minYMax, maxOf(rows.flatMap((r) => r.values))));
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1;
  const format = formatY ?? ((v: number) => formatTick(v, step));
  const y = scaleLinear([0, max], [PLOT.y0, PLOT.y1]);
  const b = bands(rows.length, PLOT.x0, PLOT.x1);
  return (
    <ChartFrame title={title} summary={summary} empty={empty} legend={series} table={table} footer={footer}>
      <Axes ticks={ticks} y={y} labels={rows.map((r) => r.label)} xLabel={xLabel} yLabel={yLabel} formatY={format} center={b.center} />
      {series.map((s, k) => (
        <g key={s.key} className={`chart-line ${s.className}`}>
          <path d={linePath(rows.map((r, i) => ({ x: b.center(i), y: r.values[k] == null ? null : y(r.values[k]!) })))} />
          {rows.map((r, i) =>
            r.values[k] == null ? null : (
              <circle key={i} cx={b.center(i)} cy={y(r.values[k]!)} r={3}>
                <title>{`${r.label}: ${s.label} ${format(r.values[k]!)}`}</title>
              </circle>
            ),
          )}
        </g>
      ))}
    </ChartFrame>
  );
}

export interface HBarItem {
  label: string;
  value: number;
  /** The text at the bar's end ("12 · 40%"). */
  valueText: string;
}

/** Horizontal bars, largest first as given, each labelled with its name and value. */
export function HorizontalBarChart({ title, summary, empty, items, xLabel, table, footer, className = 'series-accent' }: Omit<FrameProps, 'legend' | 'children'> & { items: HBarItem[]; xLabel: string; className?: string }) {
  const rowH = 28;
  const left = 190;
  const right = W - 96;
  const height = Math.max(1, items.length) * rowH + 40;
  const { max } = niceTicks(maxOf(items.map((i) => i.value)), 5, true);
  const x = scaleLinear([0, max], [left, right]);
  return (
    <ChartFrame title={title} summary={summary} empty={empty} table={table} height={height} footer={footer}>
      {items.map((it, i) => {
        const yTop = 8 + i * rowH;
        return (
          <g key={it.label}>
            <text x={left - 10} y={yTop + rowH / 2} dy="0.32em" textAnchor="end" className="chart-tick">
              {it.label}
            </text>
            <rect x={left} y={yTop + 4} height={rowH - 8} width={Math.max(2, x(it.value) - left)} className={className}>
              <title>{`${it.label}: ${it.valueText}`}</title>
            </rect>
            <text x={x(it.value) + 6} y={yTop + rowH / 2} dy="0.32em" className="chart-tick">
              {it.valueText}
            </text>
          </g>
        );
      })}
      <line x1={left} x2={left} y1={4} y2={items.length * rowH + 12} className="chart-baseline" />
      <text x={(left + right) / 2} y={height - 6} textAnchor="middle" className="chart-axis-label">
        {xLabel}
      </text>
    </ChartFrame>
  );
}
