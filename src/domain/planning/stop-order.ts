/**
 * Stop-order optimisation for small trips (up to 10 stops): the origin stays first; the other stops
 * are ordered to minimise trip time, with a pickup always before its delivery (by shipmentId; stops
 * without one: every pickup before every delivery) and a heavy penalty for missing appointment
 * windows. Exact branch and bound over the permutations, using a coarse HOS allowance (10 h of rest
 * per 11 h of driving) so windows are judged realistically without running the full planner.
 */
import { haversineMiles } from '../geo/geodesy.js';
import type { PlanStop } from './types.js';

const HOUR_MS = 3_600_000;
const LATE_PENALTY_PER_HOUR = 100;

export function optimizeStopOrder(stops: PlanStop[], opts: { departureTime: number; averageSpeedMph: number }): PlanStop[] {
  const n = stops.length;
  if (n <= 2) return stops;
  const dist = stops.map((a) => stops.map((b) => haversineMiles(a, b)));
  const mustPrecede = precedence(stops);

  let bestCost = Infinity;
  let bestOrder: number[] = stops.map((_, i) => i);
  const order = [0];
  const used = new Array<boolean>(n).fill(false);
  used[0] = true;

  const visit = (time: number, driven: number, cost: number) => {
    if (cost >= bestCost) return;
    if (order.length === n) {
      bestCost = cost;
      bestOrder = [...order];
      return;
    }
    const from = order[order.length - 1]!;
    for (let next = 1; next < n; next++) {
      if (used[next]) continue;
      if (mustPrecede[next]!.some((p) => !used[p])) continue;
      const s = stops[next]!;
      const driveH = dist[from]![next]! / opts.averageSpeedMph;
      // Coarse HOS: a 10-hour rest for each 11 hours of driving completed on the way.
      const rests = Math.floor((driven + driveH) / 11) - Math.floor(driven / 11);
      let t = time + (driveH + rests * 10) * HOUR_MS;
      if (s.appointment?.earliest !== undefined && t < s.appointment.earliest) t = s.appointment.earliest;
      const late = s.appointment?.latest !== undefined ? Math.max(0, (t - s.appointment.latest) / HOUR_MS) : 0;
      t += s.dockDurationHours * HOUR_MS;
      used[next] = true;
      order.push(next);
      visit(t, driven + driveH, (t - opts.departureTime) / HOUR_MS + late * LATE_PENALTY_PER_HOUR + lateSoFar(cost, time, opts.departureTime));
      order.pop();
      used[next] = false;
    }
  };
  const origin = stops[0]!;
  visit(opts.departureTime + origin.dockDurationHours * HOUR_MS, 0, origin.dockDurationHours);
  return bestOrder.map((i) => stops[i]!);
}

/** The penalty part of a partial cost (cost minus elapsed hours): carried forward unchanged. */
function lateSoFar(cost: number, time: number, departure: number): number {
  return Math.max(0, cost - (time - departure) / HOUR_MS);
}

/** For each stop, the stops that must come before it. */
function precedence(stops: PlanStop[]): number[][] {
  const before: number[][] = stops.map(() => []);
  const pickupsWithout = stops.flatMap((s, i) => (s.type === 'PICKUP' && !s.shipmentId ? [i] : []));
  stops.forEach((s, i) => {
    if (s.type !== 'DELIVERY') return;
    if (s.shipmentId) {
      stops.forEach((p, j) => {
        if (p.type === 'PICKUP' && p.shipmentId === s.shipmentId) before[i]!.push(j);
      });
    } else {
      before[i]!.push(...pickupsWithout.filter((j) => j !== 0));
    }
  });
  return before;
}
