/** Alerts raised per bucket, stacked by priority, with the numbers in a table. */
import { StackedBarChart, type Series } from '../../components/charts';
import { anyAlerts, volumeRows, volumeSummary, type Interval, type VolumeReport } from '../../lib/alert-analytics';
import { PRIORITIES } from '../../lib/alert-feed';
import { humanize } from '../../lib/format';

const PRIORITY_SERIES: Series[] = PRIORITIES.map((p) => ({ key: p, label: humanize(p), className: `series-${p.toLowerCase()}` }));

export function VolumeChart({ report: v, interval, unit, rangeText }: { report: VolumeReport; interval: Interval; unit: string; rangeText: string }) {
  const rows = volumeRows(v);
  return (
    <StackedBarChart
      title="Alert volume"
      summary={volumeSummary(rows, v.total, rangeText, interval)}
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
}
