/**
 * Mechanical rules: VEHICLE_FAULT, VEHICLE_BREAKDOWN, LOW_FUEL. Silent when the tenant turned mechanical
 * alerts off; the fault rules also when no diagnostics source is configured (`faults` null).
 */
import type { RuleContext } from './context.js';
import { band, condition, idSet, num, type AlertRule } from './rule.js';
import { iso, minutesText, plural, round1, wholeMinutes } from './text.js';
import type { FaultCode, PositionReport } from './types.js';

export const LOW_FUEL_PERCENT = 15;
export const VERY_LOW_FUEL_PERCENT = 7;
/** An open LOW_FUEL alert clears only this far above the threshold, so a sloshing gauge does not flap it. */
export const LOW_FUEL_CLEAR_MARGIN_PERCENT = 5;

/** Active faults of a severity, one per code (the latest report of it), oldest first. */
function activeFaults(ctx: RuleContext, severity: FaultCode['severity']): FaultCode[] {
  if (!ctx.alerts.enableMechanicalAlerts || ctx.snapshot.faults === null) return [];
  const byCode = new Map<string, FaultCode>();
  for (const f of ctx.snapshot.faults) {
    if (!f.active || f.severity !== severity) continue;
    const seen = byCode.get(f.code);
    if (seen === undefined || f.at > seen.at) byCode.set(f.code, f);
  }
  return [...byCode.values()].sort((a, b) => a.at - b.at || a.code.localeCompare(b.code));
}

const faultFacts = (f: FaultCode) => ({ code: f.code, description: f.description, severity: f.severity, at: iso(f.at) });
const faultText = (f: FaultCode) => `${f.code} ${f.description}`;

/** "unit 1042" or "Jane Doe's vehicle": what a mechanical alert is about. */
const vehicleOf = (ctx: RuleContext): string => (ctx.snapshot.vehicle ? `unit ${ctx.snapshot.vehicle.unit}` : `${ctx.snapshot.driver.name}'s vehicle`);

function whyCleared(ctx: RuleContext, what: string, needsFaults: boolean): string {
  if (!ctx.alerts.enableMechanicalAlerts) return 'Mechanical alerts are disabled in the tenant settings';
  if (needsFaults && ctx.snapshot.faults === null) return 'No diagnostics source is configured';
  return what;
}

export const vehicleFault: AlertRule = {
  type: 'VEHICLE_FAULT',
  evaluate(ctx) {
    const faults = activeFaults(ctx, 'WARNING');
    const latest = faults[faults.length - 1];
    if (latest === undefined) return null;
    const title = faults.length === 1 ? `Vehicle fault: ${faultText(latest)}` : `${plural(faults.length, 'vehicle fault')}, latest: ${faultText(latest)}`;
    return condition(
      'VEHICLE_FAULT',
      'HIGH',
      title,
      `${vehicleOf(ctx)} (driver ${ctx.snapshot.driver.name}) reports ${faults.map(faultText).join('; ')} (since ${ctx.timeAt(faults[0]!.at)}). Check with the driver whether it needs service.`,
      { faults: faults.map(faultFacts), faultCount: faults.length },
    );
  },
  // Which codes are active, not when they were last re-reported.
  fingerprint: (m) => idSet(m, 'faults', 'code'),
  cleared: (ctx) => whyCleared(ctx, 'No active warning fault codes', true),
};

/** Any active CRITICAL fault: the vehicle cannot continue safely, whether or not it has stopped yet. */
export const vehicleBreakdown: AlertRule = {
  type: 'VEHICLE_BREAKDOWN',
  evaluate(ctx) {
    const faults = activeFaults(ctx, 'CRITICAL');
    const latest = faults[faults.length - 1];
    if (latest === undefined) return null;
    const span = ctx.stationary;
    const where = ctx.latest ? ` Last position ${ctx.where(ctx.latest)}, ${ctx.timeAt(ctx.latest.at, ctx.latest)}` : ' Position unknown';
    const standing = span ? `, stationary for ${minutesText(span.minutes)}.` : ctx.latest ? ', still moving.' : '.';
    return condition(
      'VEHICLE_BREAKDOWN',
      'CRITICAL',
      `Possible breakdown: ${vehicleOf(ctx)} reports ${faultText(latest)}`,
      `${vehicleOf(ctx)} (driver ${ctx.snapshot.driver.name}) reports critical fault ${faults.map(faultText).join('; ')}.${where}${standing} Contact the driver and arrange roadside assistance.`,
      {
        faults: faults.map(faultFacts),
        faultCount: faults.length,
        stationary: span !== null,
        stationaryMinutes: span ? wholeMinutes(span.until - span.since) : 0,
        latitude: ctx.latest?.latitude ?? null,
        longitude: ctx.latest?.longitude ?? null,
      },
    );
  },
  // A vehicle with a critical fault coming to a stop is news; how long it has stood is not.
  fingerprint: (m) => `${idSet(m, 'faults', 'code')}:${String(m['stationary'])}`,
  cleared: (ctx) => whyCleared(ctx, 'No active critical fault codes', true),
};

/** The most recent position that carries a fuel level. */
function latestFuelReading(ctx: RuleContext): (PositionReport & { fuelLevelPercent: number }) | null {
  for (let i = ctx.positions.length - 1; i >= 0; i--) {
    const p = ctx.positions[i]!;
    if (p.fuelLevelPercent !== null && Number.isFinite(p.fuelLevelPercent)) return p as PositionReport & { fuelLevelPercent: number };
  }
  return null;
}

export const lowFuel: AlertRule = {
  type: 'LOW_FUEL',
  evaluate(ctx) {
    if (!ctx.alerts.enableMechanicalAlerts) return null;
    const reading = latestFuelReading(ctx);
    if (reading === null) return null;
    const percent = reading.fuelLevelPercent;
    const limit = ctx.openOf('LOW_FUEL') ? LOW_FUEL_PERCENT + LOW_FUEL_CLEAR_MARGIN_PERCENT : LOW_FUEL_PERCENT;
    if (percent >= limit) return null;
    const veryLow = percent < VERY_LOW_FUEL_PERCENT;
    return condition(
      'LOW_FUEL',
      veryLow ? 'HIGH' : 'MEDIUM',
      `${veryLow ? 'Very low' : 'Low'} fuel: ${Math.round(percent)} % left`,
      `${vehicleOf(ctx)} (driver ${ctx.snapshot.driver.name}) reports ${Math.round(percent)} % fuel at ${ctx.timeAt(reading.at)} (alert below ${LOW_FUEL_PERCENT} %, urgent below ${VERY_LOW_FUEL_PERCENT} %). Direct the driver to the nearest fuel stop.`,
      {
        fuelLevelPercent: round1(percent),
        thresholdPercent: LOW_FUEL_PERCENT,
        urgentThresholdPercent: VERY_LOW_FUEL_PERCENT,
        readingAt: iso(reading.at),
        latitude: reading.latitude,
        longitude: reading.longitude,
      },
    );
  },
  // In 5 % steps.
  fingerprint: (m) => band(num(m, 'fuelLevelPercent'), 5),
  cleared(ctx) {
    const reading = latestFuelReading(ctx);
    const level = reading === null ? 'No fuel level reported any more' : `Fuel level back to ${Math.round(reading.fuelLevelPercent)} %`;
    return whyCleared(ctx, level, false);
  },
};

export const MECHANICAL_RULES: AlertRule[] = [vehicleFault, lowFuel, vehicleBreakdown];
