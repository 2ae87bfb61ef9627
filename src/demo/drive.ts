/**
 * One step of the demo fleet: every active truck moves along its plan (plan time runs `speed` times
 * faster than the clock), changes duty status as the plan does, and reports where it is — through the
 * public API (positions, duty statuses), or, for a truck with an ELD in the Samsara sandbox, to Samsara
 * (the service picks it up on its next sync). Misbehaving trucks wander, stop or go quiet for a while.
 */
import type { ApiCaller } from './api.js';
import type { SamsaraFeed } from './eld-feed.js';
import { planTimeOf, turnAround, type Truck } from './fleet.js';
import { misbehaviourAt, offsetBeside, positionOnPlan } from './simulator.js';

export interface DriveOptions {
  /** When the simulation started (real ms): misbehaviour cycles count from it. */
  startedAt: number;
  now: number;
  speed: number;
  /** Each misbehaving truck does so once per cycle of real time. */
  cycleMs: number;
  /** The trucks reporting through their ELD (absent: all report through the API). */
  eld?: SamsaraFeed;
}

/** Moves every truck one step; a truck whose step fails does not hold up the others (the failures are thrown together after). */
export async function driveFleet(owner: ApiCaller, trucks: Truck[], o: DriveOptions): Promise<void> {
  const failures: string[] = [];
  for (const truck of trucks) {
    if (truck.spec.planned) continue;
    try {
      await driveTruck(owner, truck, o);
    } catch (err) {
      failures.push(`${truck.spec.unit}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (failures.length > 0) throw new Error(failures.join('; '));
}

async function driveTruck(owner: ApiCaller, truck: Truck, o: DriveOptions): Promise<void> {
  const planTime = planTimeOf(truck, o.now, o.speed);
  const where = positionOnPlan(truck.segments, planTime);
  if (where.arrived) {
    await turnAround(owner, truck, o.now);
    return;
  }
  const drive = truck.segments.find((s) => s.type === 'drive' && Date.parse(s.end_time) > planTime);
  const onDrive = drive && drive.type === 'drive' ? drive : undefined;
  if (o.eld?.drives(truck)) {
    o.eld.report(truck, { point: where.point, status: where.status, speedMph: where.speedMph, drive: onDrive }, o.now, planTime);
    truck.lastStatus = where.status;
    return;
  }
  if (where.status !== truck.lastStatus) {
    try {
      await owner.call('POST', `/api/v1/drivers/${truck.driverId}/duty-status`, { status: where.status });
    } catch (err) {
      // The driver may have logged this status already, in the driver view: nothing to add then.
      if (!/is already/.test(err instanceof Error ? err.message : String(err))) throw err;
    }
    truck.lastStatus = where.status;
  }
  const odd = misbehaviourAt(truck.spec.behaviour, o.now - o.startedAt, o.cycleMs);
  if (odd.silent) return;
  truck.haltedAt = odd.halted ? (truck.haltedAt ?? where.point) : null;
  const point = truck.haltedAt ?? (onDrive ? offsetBeside(where.point, onDrive.from, onDrive.to, odd.offsetMiles) : where.point);
  await owner.call('POST', `/api/v1/routes/${truck.routeId}/positions`, {
    latitude: point.latitude,
    longitude: point.longitude,
    speedMph: truck.haltedAt ? 0 : Math.round(where.speedMph),
    fuelLevelPercent: 60,
  });
}
