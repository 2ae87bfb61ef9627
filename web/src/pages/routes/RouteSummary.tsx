/**
 * What a route adds up to. The durations are the timeline's segments added up (each measured between
 * its start and end to the nearest minute), so the summary and the timeline agree to the minute. A
 * re-planned route says what its plan covers: the part up to the last completed stop and the re-planned
 * rest; the stretch driven in between (from the truck's positions, not planned) is its own line, so on
 * duty, resting and that stretch add up to the trip time.
 */
import { label } from '../../lib/glossary';
import { Facts } from '../../components/ui';
import { formatMinutes, planGaps, summaryMinutes } from '../../lib/durations';
import { miles, money } from '../../lib/format';
import { inZone } from '../../lib/local-time';
import type { RoutePlan } from '../../lib/route-map';

export function RouteSummary({ plan }: { plan: RoutePlan }) {
  const s = plan.summary;
  const first = plan.stops[0];
  const last = plan.stops[plan.stops.length - 1];
  const totals = summaryMinutes(plan);
  const fuelBought = s.fuelPurchasedCost !== undefined ? `${money(s.fuelPurchasedCost)} (${Math.round(s.fuelPurchasedGallons ?? 0)} gal)` : '—';
  const fuelBurned = `${money(s.estimatedFuelCost)}${s.fuelBurnedGallons !== undefined ? ` (${Math.round(s.fuelBurnedGallons)} gal)` : ''}`;
  const gaps = planGaps(plan.segments, plan.departureTime);
  const gapMinutes = gaps.reduce((n, g) => n + g.minutes, 0);
  const replanned: Array<[string, string]> = plan.revision > 1 ? [['Re-planned', `${plan.revisedAt ? inZone(plan.revisedAt, first?.timeZone) : '—'} (revision ${plan.revision})`]] : [];
  const between: Array<[string, string]> = gapMinutes > 0 ? [['Driven before the re-plan (not planned)', formatMinutes(gapMinutes)]] : [];
  return (
    <>
      {plan.revision > 1 && (
        <p className="muted small" data-testid="replanned-note">
          Re-planned from the truck’s position: the plan holds the trip up to the last completed stop and from the re-plan on
          {gapMinutes > 0 ? '; the stretch driven in between is counted on its own line, so the times add up to the trip time.' : '.'}
        </p>
      )}
    <Facts
      items={[
        ...replanned,
        ['Departure', inZone(plan.departureTime, first?.timeZone)],
        ['Arrival', inZone(plan.arrivalTime, last?.timeZone)],
        ['Distance', `${miles(s.totalDistanceMiles)} (${label('distanceMethod', s.distanceMethod)})${gapMinutes > 0 ? ', planned parts' : ''}`],
        ['Driving', formatMinutes(totals.drive)],
        ['On duty', formatMinutes(totals.onDuty)],
        ['Resting', formatMinutes(totals.rest)],
        ...between,
        ['Trip time', formatMinutes(totals.trip)],
        ['Rests', s.restStops],
        ['30-minute breaks', s.breaks],
        ['Fuel stops', s.fuelStops],
        ['Fuel burned (cost)', fuelBurned],
        ['Fuel bought at stops', fuelBought],
        ['HOS violations', s.hosViolations],
        ['Appointments missed', s.appointmentsMissed],
      ]}
    />
    </>
  );
}
