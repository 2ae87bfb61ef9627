/**
 * The driver's route: the stop they head to (or are at) with its ETA in the stop's zone, the next
 * planned rest, on a team route who they drive with and whose turn at the wheel it is, the route's
 * facts, the stops ahead with their appointments, the planner's notes, and the routes planned after it.
 */
import type { Ok } from '../../api/client';
import { ErrorBanner, Facts, Loading, StatusBadge } from '../../components/ui';
import { expectedTimes, nextPlannedStop, routeProgress } from '../../lib/driver-route';
import { label } from '../../lib/glossary';
import { dateTime, hoursMinutes, humanize, miles } from '../../lib/format';
import type { Loaded } from '../../lib/use-api';
import { Appointment, NextStop } from './DriverNextStop';
import { DriverTeam } from './DriverTeam';

type RoutePlan = Ok<'/api/v1/routes/{planId}'>;

/** The driver's current route (ACTIVE, else the next PLANNED one) in full, and the other planned ones. */
export interface DriverRoutes {
  current: RoutePlan | null;
  /** The current route's driver's name (from the route list; a team's co-driver cannot read it otherwise). */
  currentDriverName: string | null;
  currentCoDriverName: string | null;
  upcoming: Array<Ok<'/api/v1/routes'>['data'][number]>;
}

export function DriverRouteSection({ routes, now, driverId }: { routes: Loaded<DriverRoutes>; now: number; driverId: string }) {
  if (routes.error) return <ErrorBanner error={routes.error} />;
  if (!routes.data) return <Loading label="Loading your route…" />;
  const { current, upcoming } = routes.data;
  if (!current) {
    return (
      <section className="card driver-card" aria-labelledby="route-title">
        <h2 id="route-title">My route</h2>
        <p>No route is assigned to you right now. When your dispatcher plans one for you, it appears here.</p>
      </section>
    );
  }
  const progress = routeProgress(current.stops, now);
  const first = current.stops[0];
  const last = current.stops[current.stops.length - 1];
  const rest = nextPlannedStop(current.segments, now);
  return (
    <>
      <section className="card driver-card driver-next" aria-labelledby="next-title" data-testid="next-stop">
        <h2 id="next-title">{progress.next ? (progress.atStop ? 'You are at' : 'Next stop') : 'All stops done'}</h2>
        {progress.next ? (
          <NextStop stop={progress.next} atStop={progress.atStop} now={now} />
        ) : (
          <p>You have passed every stop of this route. Your dispatcher completes it.</p>
        )}
        {rest && (
          <p className="driver-rest">
            <strong>{rest.label}</strong> planned {'location' in rest.segment && rest.segment.location ? <>at {rest.segment.location} </> : null}
            {Date.parse(rest.segment.start_time) <= now ? 'now' : dateTime(rest.segment.start_time, 'time_zone' in rest.segment ? rest.segment.time_zone : undefined)} for {hoursMinutes(rest.segment.duration_hours)}
          </p>
        )}
      </section>

      <DriverTeam route={current} me={driverId} driverName={routes.data.currentDriverName} coDriverName={routes.data.currentCoDriverName} now={now} />

      <section className="card driver-card" aria-labelledby="route-title" data-testid="my-route" data-route-id={current.id}>
        <div className="driver-route-head">
          <h2 id="route-title">My route</h2>
          <StatusBadge value={current.status} />
        </div>
        <p className="driver-route-line">
          {first?.name} → {last?.name}
        </p>
        <Facts
          items={[
            [current.status === 'PLANNED' ? 'Departs' : 'Departed', dateTime(current.departureTime, first?.timeZone)],
            ['Finishes', dateTime(current.arrivalTime, last?.timeZone)],
            ['Distance', miles(current.summary.totalDistanceMiles)],
            ['Stops done', `${progress.done} of ${current.stops.length}`],
          ]}
        />
        <h3>Stops ahead</h3>
        {progress.remaining.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ol className="driver-stops" aria-label="Stops ahead">
            {progress.remaining.map((s) => (
              <li key={s.sequence} className={s === progress.next ? 'driver-stop driver-stop-next' : 'driver-stop'}>
                <div className="driver-stop-name">
                  {s.name} <span className="muted">· {humanize(s.type)}</span>
                </div>
                <div>
                  {s.type === 'ORIGIN' ? 'Departs' : 'ETA'} <strong>{dateTime(s.type === 'ORIGIN' ? s.departureTime : expectedTimes(s).arrival, s.timeZone)}</strong>
                  {s.timeZone && <span className="muted"> ({s.timeZone})</span>}
                  {s.type !== 'ORIGIN' && s.prediction && <span className="muted"> · {label('vendor', s.prediction.source)}’s estimate</span>}
                </div>
                <Appointment stop={s} />
              </li>
            ))}
          </ol>
        )}
        {current.warnings.length > 0 && (
          <details className="driver-details">
            <summary>Notes from the planner ({current.warnings.length})</summary>
            <ul>
              {current.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </details>
        )}
      </section>

      {upcoming.length > 0 && (
        <section className="card driver-card" aria-labelledby="upcoming-title">
          <h2 id="upcoming-title">Later routes</h2>
          <ul className="driver-upcoming">
            {upcoming.map((r) => (
              <li key={r.id}>
                {r.origin && r.destination ? `${r.origin.name} → ${r.destination.name} · ` : ''}Departs {dateTime(r.departureTime, r.origin?.timeZone ?? undefined)} · {miles(r.summary.totalDistanceMiles)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
