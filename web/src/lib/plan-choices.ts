/**
 * The words of the plan-a-route form: each stop's title, the driver, vehicle and load choices, and what
 * the planner refused to use. Pure; tested in plan-choices.test.ts.
 */

export const STOP_TYPE_LABELS: Record<string, string> = { '': 'Automatic (origin first, delivery last)', ORIGIN: 'Origin', PICKUP: 'Pickup', DELIVERY: 'Delivery', WAYPOINT: 'Waypoint' };

/** "Stop 2 — delivery": its chosen type, or the one it gets by position (origin first, delivery last). */
export function stopTitle(i: number, count: number, s: { type: string }): string {
  const role = s.type ? STOP_TYPE_LABELS[s.type]!.toLowerCase() : i === 0 ? 'origin' : i === count - 1 ? 'delivery' : 'waypoint';
  return `Stop ${i + 1} — ${role}`;
}

export function driverChoice(d: { firstName: string; lastName: string; licenseState: string; licenseNumber: string }): string {
  return `${d.firstName} ${d.lastName} (${d.licenseState} ${d.licenseNumber})`;
}

export function vehicleChoice(v: { unitNumber: string; make?: string | null; model?: string | null; fuelTankGallons: number; mpg: number }): string {
  return `${v.unitNumber}${v.make ? ` — ${v.make}${v.model ? ` ${v.model}` : ''}` : ''} (${v.fuelTankGallons} gal, ${v.mpg} mpg)`;
}

export function loadChoice(l: { referenceNumber: string; originAddress?: string | null; destinationAddress?: string | null }): string {
  return `${l.referenceNumber}${l.originAddress && l.destinationAddress ? ` — ${l.originAddress} → ${l.destinationAddress}` : ''}`;
}

/** The stops (by index) the planner could not use, in words; null when it refused none. */
export function refusedStopsMessage(stopIndexes: readonly number[]): string | null {
  if (stopIndexes.length === 0) return null;
  return `The planner could not use ${stopIndexes.length === 1 ? `stop ${stopIndexes[0]! + 1}` : `stops ${stopIndexes.map((i) => i + 1).join(', ')}`}: see below.`;
}
