/**
 * Alert analytics (/alerts/analytics): for a chosen range (and hourly or daily buckets) the statistics
 * record, then charts of volume by priority, time to acknowledge, resolution rate and time, and the most
 * common types — each drawn as SVG with its numbers in a table underneath.
 */
import { useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { Button, PageHeader, SelectField } from '../../components/ui';
import { DEFAULT_RANGE, RANGES, analyticsHref, rangeChoice, rangeQuery } from '../../lib/alert-analytics';
import { useApi } from '../../lib/use-api';
import { AlertStatsRecord } from './AlertStatsRecord';
import { AnalyticsSection } from './AnalyticsSection';
import { ResolutionCharts } from './ResolutionCharts';
import { ResponseTimeChart } from './ResponseTimeChart';
import { TopTypesChart } from './TopTypesChart';
import { VolumeChart } from './VolumeChart';
import './alerts.css';

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
    navigate(analyticsHref(r, i), { replace: true });
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
      <AnalyticsSection loaded={stats}>{(s) => <AlertStatsRecord stats={s} />}</AnalyticsSection>

      <div className="analytics-grid">
        <AnalyticsSection loaded={volume} title="Alert volume">
          {(v) => <VolumeChart report={v} interval={q.interval} unit={unit} rangeText={rangeText} />}
        </AnalyticsSection>
        <AnalyticsSection loaded={response} title="Time to acknowledge">
          {(r) => <ResponseTimeChart report={r} unit={unit} />}
        </AnalyticsSection>
        <AnalyticsSection loaded={resolution} title="Resolution rate">
          {(r) => <ResolutionCharts report={r} unit={unit} />}
        </AnalyticsSection>
        <AnalyticsSection loaded={top} title="Most common alert types">
          {(r) => <TopTypesChart report={r} />}
        </AnalyticsSection>
      </div>
    </section>
  );
}
