/** The share of each bucket's alerts resolved, and how long resolving took; one table serves both. */
import { LineChart } from '../../components/charts';
import { anyAlerts, minutesLabel, resolutionRateSummary, resolutionRows, resolutionTimeSummary, type ResolutionReport } from '../../lib/alert-analytics';

export function ResolutionCharts({ report: r, unit }: { report: ResolutionReport; unit: string }) {
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
        summary={resolutionRateSummary(t)}
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
        summary={resolutionTimeSummary(t)}
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
}
