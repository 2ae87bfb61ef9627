/** A route's stops with their appointments, arrival and departure in each stop's local time. */
import { TableWrap } from '../../components/ui';
import { ago, label } from '../../lib/glossary';
import { hoursMinutes } from '../../lib/format';
import { inZone } from '../../lib/local-time';
import type { RoutePlan } from '../../lib/route-map';
import { placedBy, stopTypeName } from '../../lib/route-timeline';

export function RouteStops({ stops }: { stops: RoutePlan['stops'] }) {
  return (
    <TableWrap>
      <table>
        <caption className="visually-hidden">Stops with their arrival and departure in each stop’s local time</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Stop</th>
            <th scope="col">Type</th>
            <th scope="col">Appointment (local)</th>
            <th scope="col">Arrival (local)</th>
            <th scope="col">Departure (local)</th>
            <th scope="col">Time zone</th>
            <th scope="col">Window</th>
          </tr>
        </thead>
        <tbody>
          {stops.map((s, i) => (
            <tr key={s.sequence} data-testid="route-stop">
              <td>{i + 1}</td>
              <th scope="row">
                {s.name}
                {s.resolution?.matched && s.resolution.matched !== s.name && <div className="muted small">Placed at {s.resolution.matched}</div>}
                {s.resolution && <div className="muted small">{placedBy(s.resolution.precision)}</div>}
              </th>
              <td>{stopTypeName(s.type)}</td>
              <td>
                {s.appointment ? (
                  <>
                    {s.appointment.earliest ? inZone(s.appointment.earliest, s.timeZone) : 'any time'} – {s.appointment.latest ? inZone(s.appointment.latest, s.timeZone) : 'open'}
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td>
                {inZone(s.arrivalTime, s.timeZone)}
                {i > 0 && s.prediction && (
                  <div className="small" data-testid="stop-prediction">
                    {label('vendor', s.prediction.source)} expects {inZone(s.prediction.arrivalTime, s.timeZone)}
                    <span className="muted"> (estimated {ago(Date.parse(s.prediction.estimatedAt))})</span>
                  </div>
                )}
              </td>
              <td>{inZone(s.departureTime, s.timeZone)}</td>
              <td>{s.timeZone ?? '—'}</td>
              <td>{s.withinWindow === null ? '—' : s.withinWindow ? 'On time' : `Late by ${hoursMinutes(s.lateByHours)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
