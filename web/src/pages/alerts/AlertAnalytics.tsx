/**
 * Alert analytics (/alerts/analytics): for a chosen range (and hourly or daily buckets) the statistics
 * record, then charts of volume by priority, time to acknowledge, resolution rate and time, and the most
 * common types — each drawn as SVG with its numbers in a table underneath.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { HorizontalBarChart, LineChart, StackedBarChart, type Series } from '../../components/charts';
import { Button, ErrorBanner, Loading, PageHeader, SelectField } from '../../components/ui';
import {
  DEFAULT_RANGE,
  RANGES,
  anyAlerts,
  minutesLabel,
  percentLabel,
  rangeChoice,
  rangeQuery,
  resolutionRows,
  responseRows,
  targetRows,
  volumeRows,
  type AlertStats,
  type Interval,
} from '../../lib/alert-analytics';
import { CATEGORIES, PRIORITIES, kindLabel } from '../../lib/alert-feed';
import { humanize } from '../../lib/format';
import { useApi, type Loaded } from '../../lib/use-api';
import './alerts.css';

const PRIORITY_SERIES: Series[] = PRIORITIES.map((p) => ({ key: p, label: humanize(p), className: `series-${p.toLowerCase()}` }));
const RESPONSE_SERIES: Series[] = [
  { key: 'avg', label: 'Average', className: 'series-accent' },
  { key: 'p90', label: '90th percentile', className: 'series-secondary' },
];

export function AlertAnalyticsPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const range = rangeChoice(params.get('range') ?? DEFAULT_RANGE);
  const [stamp, setStamp] = useState(() => Date.now());
  const intervalParam = params.get('interval') ?? undefined;
  const q = useMemo(() => rangeQuery(range.id, intervalParam, stamp), [range.id, intervalParam, stamp]);
  const set = (next: { range?: string; interval?: string }) => {
    const r = next.range ?? range.id;
    const i = next.interval ?? q.interval;
    setStamp(Date.now());
    navigate(`/alerts/analytics?range=${r}${rangeChoice(r).intervals.includes(i as Interval) ? `&interval=${i}` : ''}`, { replace: true });
  };
  const key = `${q.from}|${q.to}|${q.interval}`;
  const query = { from: q.from, to: q.to, interval: q.interval };

  const stats = useApi(() => unwrap(api.GET('/api/v1/alerts/stats', { params: { query: { from: q.from, to: q.to } } })), [key]);
  const volume = useApi(() => unwrap(api.GET('/api/v1/alerts/analytics/volume', { params: { query } })), [key]);
  const response = useApi(() => unwrap(api.GET('/api/v1/alerts/analytics/response-time', { params: { query } })), [key]);
  const resolution = useApi(() => unwrap(api.GET('/api/v1/alerts/analytics/resolution', { params: { query } })), [key]);
  const top = useApi(() => unwrap(api.GET('/api/v1/alerts/analytics/top-types', { params: { query: { from: q.from, to: q.to, limit: 10 } } })), [key]);
  const rangeText = range.label.toLowerCase();
  const unit = q.interval === 'hour' ? 'Hour' : 'Day (UTC)';

  return (
    <section className="analytics-page">
      <PageHeader
        title="Alert analytics"
        actions={
          <Link href="/alerts" className="btn btn-secondary">
            Back to the alerts feed
          </Link>
        }
      >
        <p className="muted">How many alerts are raised, how fast they are acknowledged and resolved, and which kinds are most common.</p>
      </PageHeader>

      <form className="analytics-controls card" aria-label="Analytics range" onSubmit={(e) => e.preventDefault()}>
        <SelectField label="Range" value={range.id} onChange={(e) => set({ range: e.target.value })} options={RANGES.map((r) => ({ value: r.id, label: r.label }))} />
        <SelectField
          label="Group by"
          value={q.interval}
          onChange={(e) => set({ interval: e.target.value })}
          disabled={range.intervals.length < 2}
          options={range.intervals.map((i) => ({ value: i, label: i === 'hour' ? 'Hour' : 'Day (UTC)' }))}
        />
        <Button onClick={() => setStamp(Date.now())} busy={volume.loading && !!volume.data}>
          Refresh
        </Button>
      </form>

      <h2 className="visually-hidden">Summary</h2>
      <Section loaded={stats}>{(s) => <StatsRecord stats={s} />}</Section>

      <div className="analytics-grid">
        <Section loaded={volume} title="Alert volume">
          {(v) => {
            const rows = volumeRows(v);
            const busiest = rows.reduce<(typeof rows)[number] | null>((m, r) => (r.total > (m?.total ?? 0) ? r : m), null);
            return (
              <StackedBarChart
                title="Alert volume"
                summary={`${v.total} alert${v.total === 1 ? '' : 's'} raised in the ${rangeText}${busiest ? `; the busiest ${q.interval} was ${busiest.label} with ${busiest.total}` : ''}. Bars are split by priority.`}
                empty={anyAlerts(rows) ? null : 'No alerts were raised in this range.'}
                rows={rows.map((r) => ({ label: r.label, values: PRIORITIES.map((p) => r.byPriority[p]) }))}
                series={PRIORITY_SERIES}
                xLabel={unit}
                yLabel="Alerts raised"
                table={
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{unit}</th>
                        {PRIORITIES.map((p) => (
                          <th key={p} scope="col">
                            {humanize(p)}
                          </th>
                        ))}
                        <th scope="col">Total</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((r) => (
                        <tr key={r.start}>
                          <th scope="row">{r.label}</th>
                          {PRIORITIES.map((p) => (
                            <td key={p}>{r.byPriority[p]}</td>
                          ))}
                          <td>{r.total}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                }
              />
            );
          }}
        </Section>

        <Section loaded={response} title="Time to acknowledge">
          {(r) => {
            const rows = responseRows(r);
            const targets = targetRows(r);
            return (
              <LineChart
                title="Time to acknowledge"
                summary={
                  r.overall.count
                    ? `${r.overall.count} alert${r.overall.count === 1 ? ' was' : 's were'} acknowledged: on average after ${minutesLabel(r.overall.averageMinutes)}, 90% within ${minutesLabel(r.overall.p90Minutes)}.`
                    : 'Minutes from an alert being raised to its acknowledgement.'
                }
                empty={anyAlerts(rows) ? null : 'No alert raised in this range has been acknowledged.'}
                rows={rows.map((x) => ({ label: x.label, values: [x.averageMinutes, x.p90Minutes] }))}
                series={RESPONSE_SERIES}
                xLabel={unit}
                yLabel="Minutes"
                minYMax={5}
                footer={
                  <ul className="analytics-split" aria-label="Against the response targets">
                    {targets
                      .filter((t) => t.targetMinutes !== null)
                      .map((t) => (
                        <li key={t.priority}>
                          {humanize(t.priority)} (target {t.targetMinutes} min):{' '}
                          <strong>{t.count ? `${t.withinTarget ?? 0} of ${t.count} in time` : 'none acknowledged'}</strong>
                        </li>
                      ))}
                  </ul>
                }
                table={
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{unit}</th>
                        <th scope="col">Acknowledged</th>
                        <th scope="col">Average</th>
                        <th scope="col">90th percentile</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((x) => (
                        <tr key={x.start}>
                          <th scope="row">{x.label}</th>
                          <td>{x.count}</td>
                          <td>{minutesLabel(x.averageMinutes)}</td>
                          <td>{minutesLabel(x.p90Minutes)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                }
              />
            );
          }}
        </Section>

        <Section loaded={resolution} title="Resolution rate">
          {(r) => {
            const rows = resolutionRows(r);
            const t = r.totals;
            const table = (
              <table>
                <thead>
                  <tr>
                    <th scope="col">{unit}</th>
                    <th scope="col">Raised</th>
                    <th scope="col">Resolved</th>
                    <th scope="col">Rate</th>
                    <th scope="col">Average time</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((x) => (
                    <tr key={x.start}>
                      <th scope="row">{x.label}</th>
                      <td>{x.created}</td>
                      <td>{x.resolved}</td>
                      <td>{x.ratePercent === null ? '—' : `${x.ratePercent}%`}</td>
                      <td>{minutesLabel(x.averageMinutes)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            );
            return (
              <>
                <LineChart
                  title="Resolution rate"
                  summary={t.created ? `${percentLabel(t.resolutionRate)} of the ${t.created} alerts raised are resolved; ${t.open} still open.` : 'Share of the alerts raised in each period that are resolved now.'}
                  empty={anyAlerts(rows) ? null : 'No alerts were raised in this range.'}
                  rows={rows.map((x) => ({ label: x.label, values: [x.ratePercent] }))}
                  series={[{ key: 'rate', label: 'Resolved', className: 'series-ok' }]}
                  xLabel={unit}
                  yLabel="Resolved (%)"
                  yMax={100}
                  formatY={(v) => `${v}%`}
                  footer={
                    <ul className="analytics-split">
                      <li>
                        Resolved by monitoring: <strong>{t.resolvedBySystem}</strong>
                      </li>
                      <li>
                        Resolved by people: <strong>{t.resolvedByUsers}</strong>
                      </li>
                      <li>
                        Open: <strong>{t.open}</strong>
                      </li>
                    </ul>
                  }
                  table={table}
                />
                <LineChart
                  title="Resolution time"
                  summary={t.resolved ? `Resolved alerts took ${minutesLabel(t.averageResolutionMinutes)} on average from being raised.` : 'Average time from an alert being raised to its resolution.'}
                  empty={rows.some((x) => x.averageMinutes !== null) ? null : 'No alert raised in this range has been resolved.'}
                  rows={rows.map((x) => ({ label: x.label, values: [x.averageMinutes] }))}
                  series={[{ key: 'avg', label: 'Average time to resolve', className: 'series-accent' }]}
                  xLabel={unit}
                  yLabel="Minutes"
                  minYMax={5}
                  table={table}
                />
              </>
            );
          }}
        </Section>

        <Section loaded={top} title="Most common alert types">
          {(r) => (
            <HorizontalBarChart
              title="Most common alert types"
              summary={r.data.length ? `Of ${r.total} alerts, the most common type was ${kindLabel(r.data[0]!.type)} (${r.data[0]!.count}).` : 'The alert types raised most often in this range.'}
              empty={r.data.length ? null : 'No alerts were raised in this range.'}
              items={r.data.map((d) => ({ label: kindLabel(d.type), value: d.count, valueText: `${d.count} · ${percentLabel(d.share)}` }))}
              xLabel="Alerts raised"
              table={
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Type</th>
                      <th scope="col">Category</th>
                      <th scope="col">Alerts</th>
                      <th scope="col">Share</th>
                      <th scope="col">Resolved</th>
                      <th scope="col">Average time to resolve</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.data.map((d) => (
                      <tr key={d.type}>
                        <th scope="row">{kindLabel(d.type)}</th>
                        <td>{kindLabel(d.category)}</td>
                        <td>{d.count}</td>
                        <td>{percentLabel(d.share)}</td>
                        <td>{d.resolved}</td>
                        <td>{minutesLabel(d.averageResolutionMinutes)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              }
            />
          )}
        </Section>
      </div>
    </section>
  );
}

/** A report's loading and error states around what it renders once loaded. */
function Section<T>({ loaded, title, children }: { loaded: Loaded<T>; title?: string; children: (data: T) => ReactNode }) {
  if (loaded.error && !loaded.data)
    return (
      <div className="card">
        {title && <h3 className="chart-title">{title}</h3>}
        <ErrorBanner error={loaded.error} />
        <Button onClick={loaded.reload}>Try again</Button>
      </div>
    );
  if (!loaded.data)
    return (
      <div className="card">
        {title && <h3 className="chart-title">{title}</h3>}
        <Loading />
      </div>
    );
  return <>{children(loaded.data)}</>;
}

function StatsRecord({ stats: s }: { stats: AlertStats }) {
  const items: Array<[string, string]> = [
    ['Raised', String(s.total)],
    ['Active', String(s.byStatus.ACTIVE ?? 0)],
    ['Acknowledged', String(s.byStatus.ACKNOWLEDGED ?? 0)],
    ['Snoozed', String(s.byStatus.SNOOZED ?? 0)],
    ['Resolved', String(s.byStatus.RESOLVED ?? 0)],
    ['Average time to acknowledge', minutesLabel(s.averageResponseTimeMinutes)],
    ['Average time to resolve', minutesLabel(s.averageResolutionTimeMinutes)],
  ];
  return (
    <section aria-label="Statistics for the range" className="stack">
      <dl className="analytics-stats">
        {items.map(([k, v]) => (
          <div key={k} className="stat">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <ul className="analytics-split" aria-label="By priority">
        <li className="muted">By priority</li>
        {PRIORITIES.map((p) => (
          <li key={p}>
            {humanize(p)}: <strong>{s.byPriority[p] ?? 0}</strong>
          </li>
        ))}
      </ul>
      <ul className="analytics-split" aria-label="By category">
        <li className="muted">By category</li>
        {CATEGORIES.map((c) => (
          <li key={c}>
            {kindLabel(c)}: <strong>{s.byCategory[c] ?? 0}</strong>
          </li>
        ))}
      </ul>
    </section>
  );
}
