/** Time to acknowledge per bucket (average and 90th percentile), against each priority's target. */
import { LineChart, type Series } from '../../components/charts';
import { anyAlerts, minutesLabel, responseRows, responseSummary, targetRows, type ResponseTimeReport } from '../../lib/alert-analytics';
import { humanize } from '../../lib/format';

const RESPONSE_SERIES: Series[] = [
  { key: 'avg', label: 'Average', className: 'series-accent' },
  { key: 'p90', label: '90th percentile', className: 'series-secondary' },
];

export function ResponseTimeChart({ report: r, unit }: { report: ResponseTimeReport; unit: string }) {
  const rows = responseRows(r);
  const targets = targetRows(r);
  return (
    <LineChart
      title="Time to acknowledge"
      summary={responseSummary(r.overall)}
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
}
