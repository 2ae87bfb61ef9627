/** The alert types raised most often in the range, with their share and resolution. */
import { label } from '../../lib/glossary';
import { HorizontalBarChart } from '../../components/charts';
import { minutesLabel, percentLabel, topTypesSummary, type TopTypesReport } from '../../lib/alert-analytics';
import { kindLabel } from '../../lib/alert-feed';

export function TopTypesChart({ report: r }: { report: TopTypesReport }) {
  return (
    <HorizontalBarChart
      title="Most common alert types"
      summary={topTypesSummary(r, kindLabel)}
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
                <td>{label('category', d.category)}</td>
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
  );
}
