/**
 * A team route seen by one of its two drivers: who they share the truck with, who has the wheel now
 * (until when) and who takes it next (from when), in the local time where that turn starts or ends.
 */
import type { Ok } from '../../api/client';
import { teammateLabel, wheelLines } from '../../lib/team';

type RoutePlan = Ok<'/api/v1/routes/{planId}'>;

export function DriverTeam({ route, me, driverName, coDriverName, now }: { route: RoutePlan; me: string; driverName: string | null; coDriverName: string | null; now: number }) {
  const mate = teammateLabel(route, me, { driverName, coDriverName });
  if (!mate) return null;
  const { current, next } = wheelLines(route.segments, me, { [mate.id]: mate.name }, now);
  return (
    <section className="card driver-card driver-team" aria-labelledby="team-title" data-testid="driver-team">
      <h2 id="team-title">Team driving</h2>
      <p>
        You share the truck with <strong data-testid="teammate-name">{mate.name}</strong>
        {mate.named ? ` (${mate.role})` : ''}: one drives while the other is in the sleeper berth.
      </p>
      {current && (
        <p className="driver-wheel" data-testid="wheel-now">
          {current}
        </p>
      )}
      {next ? (
        <p className="driver-wheel" data-testid="wheel-next">
          {next}
        </p>
      ) : (
        !current && <p className="muted">No more turns at the wheel on this route.</p>
      )}
    </section>
  );
}
