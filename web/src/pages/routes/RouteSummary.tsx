/**
 * What a route adds up to. The durations are the timeline's segments added up (each measured between
 * its start and end to the nearest minute), so the summary and the timeline agree to the minute.
 */
import { label } from '../../lib/glossary';
import { Facts } from '../../components/ui';
import { formatMinutes, summaryMinutes } from '../../lib/durations';
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
  return (
    <Facts
      items={[
        ['Departure', inZone(plan.departureTime, first?.timeZone)],
        ['Arrival', inZone(plan.arrivalTime, last?.timeZone)],
        ['Distance', `${miles(s.totalDistanceMiles)} (${label('distanceMethod', s.distanceMethod)})`],
        ['Driving', formatMinutes(totals.drive)],
        ['On duty', formatMinutes(totals.onDuty)],
        ['Resting', formatMinutes(totals.rest)],
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
  );
}
