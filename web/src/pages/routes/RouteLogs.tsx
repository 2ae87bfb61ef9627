/**
 * A route's planned HOS log: one grid for a driver alone; for a team, one grid per driver, each derived
 * from the segments for that driver (their drives, the other's drives in the sleeper berth, the stops
 * the one on duty works). Day by day in the departure's time zone.
 */
import { LogGrid } from '../../components/LogGrid';
import { planDutyChanges } from '../../lib/duty';
import { formatMinutes, summaryMinutes } from '../../lib/durations';
import type { RoutePlan } from '../../lib/route-map';
import { drivingMinutesOf, nameOf, teamDutyChanges } from '../../lib/team';

export function RouteLogs({ plan, names, timeZone }: { plan: RoutePlan; names: Readonly<Record<string, string>>; timeZone: string }) {
  const fromMs = Date.parse(plan.departureTime);
  const toMs = Date.parse(plan.arrivalTime);
  if (!plan.coDriverId) {
    return (
      <div className="card">
        <h2>HOS log of the trip</h2>
        <p className="muted small">The planned duty status, day by day in the departure’s time zone ({timeZone}).</p>
        <LogGrid changes={planDutyChanges(plan.segments)} fromMs={fromMs} toMs={toMs} timeZone={timeZone} title="Planned HOS log grid" />
      </div>
    );
  }
  const team = [plan.driverId, plan.coDriverId];
  return (
    <>
      {team.map((id, i) => {
        const name = nameOf(id, names);
        const other = nameOf(team[1 - i]!, names);
        const title = `Planned log grid of ${name}`;
        return (
          <div className="card" key={id} data-testid="team-log" data-driver-id={id}>
            <h2>{title}</h2>
            <p className="muted small team-log-note">
              {name} drives {formatMinutes(drivingMinutesOf(plan.segments, id))} of the trip’s {formatMinutes(summaryMinutes(plan).drive)} and is in the sleeper berth while {other} drives. Day by day in the
              departure’s time zone ({timeZone}).
            </p>
            <LogGrid changes={teamDutyChanges(plan.segments, id)} fromMs={fromMs} toMs={toMs} timeZone={timeZone} title={title} />
          </div>
        );
      })}
    </>
  );
}
