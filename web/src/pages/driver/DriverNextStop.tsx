/** The stop the driver heads to (or is at): its ETA or departure in the stop's local time, and its appointment. */
import type { Ok } from '../../api/client';
import { expectedTimes } from '../../lib/driver-route';
import { dateTime, hoursMinutes, humanize, relative, timeOnly } from '../../lib/format';
import { ago, label } from '../../lib/glossary';

type Stop = Ok<'/api/v1/routes/{planId}'>['stops'][number];

export function NextStop({ stop, atStop, now }: { stop: Stop; atStop: boolean; now: number }) {
  const origin = stop.type === 'ORIGIN';
  // The visibility provider's prediction where there is one: the ETA the dispatcher's alerts use.
  const expected = expectedTimes(stop, origin);
  const when = atStop ? expected.departure : expected.arrival;
  return (
    <div>
      <p className="driver-next-name">{stop.name}</p>
      <p className="muted">{humanize(stop.type)}</p>
      <p className="driver-eta">
        <span className="driver-eta-label">{atStop ? (origin ? 'Depart at' : 'Leave at') : 'ETA'}</span>{' '}
        <strong data-testid="next-stop-eta">{timeOnly(when, stop.timeZone)}</strong>{' '}
        <span className="driver-eta-zone">{dateTime(when, stop.timeZone)}</span>
      </p>
      <p className="muted">
        {stop.timeZone ? `Local time at the stop (${stop.timeZone}) · ` : ''}
        {relative(when, now)}
      </p>
      {expected.prediction && (
        <p className="muted" data-testid="next-stop-eta-source">
          {label('vendor', expected.prediction.source)}’s estimate, {ago(Date.parse(expected.prediction.estimatedAt), now)} · planned {dateTime(atStop ? stop.departureTime : stop.arrivalTime, stop.timeZone)}
        </p>
      )}
      <Appointment stop={stop} />
    </div>
  );
}

export function Appointment({ stop }: { stop: Stop }) {
  if (!stop.appointment || (!stop.appointment.earliest && !stop.appointment.latest)) return null;
  const { earliest, latest } = stop.appointment;
  return (
    <div className="driver-appt">
      Appointment {earliest ? dateTime(earliest, stop.timeZone) : 'any time'} – {latest ? dateTime(latest, stop.timeZone) : 'open'}
      {stop.withinWindow === false && stop.lateByHours > 0 && <span className="badge badge-red driver-late">Planned {hoursMinutes(stop.lateByHours)} late</span>}
    </div>
  );
}
