/** The stop the driver heads to (or is at): its ETA or departure in the stop's local time, and its appointment. */
import type { Ok } from '../../api/client';
import { dateTime, hoursMinutes, humanize, relative, timeOnly } from '../../lib/format';

type Stop = Ok<'/api/v1/routes/{planId}'>['stops'][number];

export function NextStop({ stop, atStop, now }: { stop: Stop; atStop: boolean; now: number }) {
  const origin = stop.type === 'ORIGIN';
  const when = atStop ? stop.departureTime : stop.arrivalTime;
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
