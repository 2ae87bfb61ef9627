/**
 * What a re-plan would change: where and with which clocks it starts, each remaining stop's old and new
 * ETA side by side (kept or missed), the rest of the trip before and after, and the rests, breaks and
 * fuel stops it adds or removes.
 */
import { Facts, TableWrap } from '../../components/ui';
import { planStopRows, startFacts, stopChangeRows, totalsRows, outcomeTone, type ReplanAnswer } from '../../lib/replan';

export function ReplanPreview({ answer }: { answer: ReplanAnswer }) {
  const { changes, route, start } = answer;
  const last = route.stops[route.stops.length - 1];
  const stops = stopChangeRows(changes.stops, route.stops);
  const totals = totalsRows(changes.before, changes.after, last?.timeZone);
  const nextZone = route.stops[start.completedStops]?.timeZone ?? last?.timeZone;
  const planStops = planStopRows(changes.added, changes.removed, nextZone);
  return (
    <div className="replan-preview" data-testid="replan-preview">
      <h3>Where the new plan starts</h3>
      <Facts items={startFacts(start, route.stops.length, nextZone)} />

      <h3>Remaining stops</h3>
      <TableWrap label="Remaining stops, old and new ETA, scrolls sideways">
        <table className="replan-stops">
          <caption className="visually-hidden">Each remaining stop’s old and new arrival, in the stop’s local time, and whether its window is kept</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Stop</th>
              <th scope="col">Window (local)</th>
              <th scope="col">Old ETA</th>
              <th scope="col">New ETA</th>
              <th scope="col">Change</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {stops.map((s) => (
              <tr key={s.key} data-testid="replan-stop">
                <td>{s.number}</td>
                <th scope="row">
                  {s.name}
                  <div className="muted small">{s.type}</div>
                </th>
                <td>{s.window}</td>
                <td>{s.oldEta}</td>
                <td>{s.newEta}</td>
                <td>{s.change}</td>
                <td>{s.before}</td>
                <td>
                  <span className={`badge badge-${outcomeTone(s.outcome)}`}>{s.outcomeLabel}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>

      <h3>Rest of the trip</h3>
      <TableWrap>
        <table className="replan-totals">
          <caption className="visually-hidden">The rest of the trip from where the truck is, on the current plan and on the new one</caption>
          <thead>
            <tr>
              <th scope="col">From here</th>
              <th scope="col">Current plan</th>
              <th scope="col">New plan</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {totals.map((t) => (
              <tr key={t.label}>
                <th scope="row">{t.label}</th>
                <td>{t.before}</td>
                <td>{t.after}</td>
                <td>{t.change}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>

      <h3>Rests, breaks and fuel stops</h3>
      {planStops.length === 0 ? (
        <p className="muted">None added or removed.</p>
      ) : (
        <TableWrap>
          <table className="replan-plan-stops">
            <caption className="visually-hidden">Rests, breaks and fuel stops the re-plan adds or removes, in the order they happen</caption>
            <thead>
              <tr>
                <th scope="col">Change</th>
                <th scope="col">What</th>
                <th scope="col">Where</th>
                <th scope="col">Starts</th>
                <th scope="col">For</th>
              </tr>
            </thead>
            <tbody>
              {planStops.map((p) => (
                <tr key={p.key} data-testid="replan-plan-stop">
                  <td>
                    <span className={`badge badge-${p.change === 'Added' ? 'blue' : 'grey'}`}>{p.change}</span>
                  </td>
                  <th scope="row">{p.kind}</th>
                  <td>{p.location}</td>
                  <td>{p.start}</td>
                  <td>{p.duration}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {route.warnings.length > 0 && (
        <div className="banner banner-warning" role="status">
          <strong>Warnings on the new plan</strong>
          <ul>
            {route.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
