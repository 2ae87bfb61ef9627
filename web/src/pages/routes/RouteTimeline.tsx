/**
 * A route's segments in order: where and when each happens (in the local time there), how long it
 * lasts (the parts add up to the summary's totals), what it is about, and the HOS clocks left after it.
 * A team route's drives name who drives them, and its driver changes name who takes the wheel.
 */
import { Fragment, type ReactNode } from 'react';
import { TableWrap } from '../../components/ui';
import { formatMinutes, hoursMinutes, minutesBetween } from '../../lib/durations';
import { miles, money } from '../../lib/format';
import { inZone } from '../../lib/local-time';
import type { RoutePlan, Segment } from '../../lib/route-map';
import { endZone, segmentKind, segmentPlace, splitReason, startZone } from '../../lib/route-timeline';
import { driverChangeNote, isDriverChange, nameOf, withDriverNames } from '../../lib/team';

/** A planner's reason: its first sentence (or `split`'s headline), the explanation behind a disclosure. */
function Reason({ text, split = splitReason(text) }: { text: string; split?: { headline: string; more: string | null } }) {
  const { headline, more } = split;
  if (more === null) return <>{text}</>;
  return (
    <details>
      <summary>{headline}</summary>
      <p>{more}</p>
    </details>
  );
}

function segmentNote(s: Segment, names: Readonly<Record<string, string>>): ReactNode {
  switch (s.type) {
    case 'drive':
      return miles(s.distance_miles);
    case 'rest':
      return <Reason text={s.reason} />;
    case 'fuel':
      return `${Math.round(s.gallons)} gal at ${money(s.price_per_gallon)} = ${money(s.cost)}`;
    case 'wait': {
      const text = withDriverNames(s.reason, names);
      return <Reason text={text} split={driverChangeNote(s.reason, names) ?? undefined} />;
    }
    case 'dock':
      return s.appointment?.earliest || s.appointment?.latest ? 'Appointment' : '';
  }
}

const endPlace = (s: Segment) => (s.type === 'drive' ? s.to.name : s.location);
const startPlace = (s: Segment) => (s.type === 'drive' ? s.from.name : s.location);

/** `names`: the drivers' names by id (a team's drives and driver changes name them). */
export function RouteTimeline({ segments, names = {}, departureTime }: { segments: RoutePlan['segments']; names?: Readonly<Record<string, string>>; departureTime?: string }) {
  return (
    <TableWrap>
      <table className="timeline">
        <caption className="visually-hidden">Segments of the trip, in order, with the HOS clocks left after each</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Segment</th>
            <th scope="col">Where</th>
            <th scope="col">Start (local)</th>
            <th scope="col">End (local)</th>
            <th scope="col">Duration</th>
            <th scope="col">Details</th>
            <th scope="col" title="Driving time left after the segment">
              Drive left
            </th>
            <th scope="col" title="Time left in the 14-hour on-duty window after the segment">
              Window left
            </th>
            <th scope="col" title="Time left in the 60/70-hour cycle after the segment">
              Cycle left
            </th>
            <th scope="col" title="Driving time before a 30-minute break is due">
              Break due in
            </th>
          </tr>
        </thead>
        <tbody>
          {segments.map((s, i) => {
            // The first segment after a re-plan that kept no driven segment starts after the departure.
            const gapFrom = i > 0 ? segments[i - 1]!.end_time : departureTime;
            const gap = gapFrom ? minutesBetween(gapFrom, s.start_time) : 0;
            const h = s.hos_state_after;
            const driver = s.type === 'drive' ? s.driver_id : undefined;
            const row = (
              <tr key={s.sequence} className={`seg seg-${s.type}${s.type === 'rest' ? ` seg-${s.rest_type}` : ''}${isDriverChange(s) ? ' seg-change' : ''}`} data-testid={`segment-${s.type}`}>
                <td>{s.sequence}</td>
                <th scope="row" className="seg-kind">
                  {segmentKind(s)}
                  {driver && (
                    <span className="seg-driver" data-testid="segment-driver">
                      <span className="visually-hidden">, at the wheel: </span>
                      {nameOf(driver, names)}
                    </span>
                  )}
                </th>
                <td>{segmentPlace(s)}</td>
                <td>{inZone(s.start_time, startZone(s))}</td>
                <td>{inZone(s.end_time, endZone(s))}</td>
                <td>{formatMinutes(minutesBetween(s.start_time, s.end_time))}</td>
                <td>{segmentNote(s, names)}</td>
                <td>{hoursMinutes(h.drive_hours_remaining)}</td>
                <td>{hoursMinutes(h.duty_hours_remaining)}</td>
                <td>{hoursMinutes(h.cycle_hours_remaining)}</td>
                <td>{hoursMinutes(Math.max(0, 8 - h.hours_since_break))}</td>
              </tr>
            );
            if (gap <= 0) return row;
            // A re-planned route: the stretch between the last completed stop and the re-plan was driven, not planned.
            const prev = segments[i - 1];
            return (
              <Fragment key={s.sequence}>
                <tr className="seg seg-gap" data-testid="segment-gap">
                  <td />
                  <th scope="row" className="seg-kind">
                    Driven, not planned
                  </th>
                  <td>{prev ? `${endPlace(prev)} → ${startPlace(s)}` : `To ${startPlace(s)}`}</td>
                  <td>{inZone(gapFrom, prev ? endZone(prev) : startZone(s))}</td>
                  <td>{inZone(s.start_time, startZone(s))}</td>
                  <td>{formatMinutes(gap)}</td>
                  <td colSpan={5}>The route was re-planned from the truck’s position here; its positions show this stretch.</td>
                </tr>
                {row}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
