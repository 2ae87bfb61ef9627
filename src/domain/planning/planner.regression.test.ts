/**
 * Regression guard for the planner's output: a fixed set of trips is planned and each plan is compared,
 * byte for byte as JSON, with the expectation recorded in `__snapshots__/` (written by the planner as
 * it was before the performance work; update with `npx vitest run -u` only when a change of output is
 * intended and explained). Named trips are stored in full; a few hundred seeded random trips (all rule
 * sets and options, histories, appointments, docks, fuel, sites) are stored as a digest of their JSON.
 * A trip the planner refuses is recorded with its error, so a change in what is refused shows too.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { plannerInput } from '../../../bench/planner.js';
import { HOUR_MS, ruleSet, type DutyPeriod, type RuleSet, type RuleSetId, type RuleSetOptions } from '../hos/index.js';
import { planRoute } from './planner.js';
import { buildInput, CITIES, stop } from './test-support.js';
import type { PlanInput, PlanStop, RestSite, StopType } from './types.js';

const DEPARTURE = Date.parse('2026-03-02T12:00:00Z');

/** The plan as JSON, or the error the planner threw. */
function outcome(input: PlanInput): string {
  try {
    return JSON.stringify(planRoute(input), null, 1);
  } catch (e) {
    const err = e as Error & { code?: string };
    return JSON.stringify({ error: err.name, code: err.code ?? null, message: err.message });
  }
}

const along = (input: PlanInput, leg: number, fraction: number) => {
  const g = input.legs[leg]!.geometry;
  return g[Math.round(fraction * (g.length - 1))]!;
};

function namedTrips(): Record<string, PlanInput> {
  const trips: Record<string, PlanInput> = {};
  trips['bench'] = plannerInput();
  trips['dallas-chicago-newark'] = buildInput([
    stop('Dallas, TX', { type: 'ORIGIN' }),
    stop('Chicago, IL', { type: 'PICKUP', dockDurationHours: 2 }),
    stop('Newark, NJ', { type: 'DELIVERY', dockDurationHours: 1 }),
  ]);
  trips['snapshot-10h-driven'] = buildInput([stop('Dallas, TX'), stop('Chicago, IL')], {
    history: { snapshot: { hoursDriven: 10, onDutyHours: 10.5, hoursSinceBreak: 2, cycleHoursUsed: 40 } },
  });
  trips['snapshot-cycle-used-up'] = buildInput([stop('Dallas, TX'), stop('Houston, TX')], {
    history: { snapshot: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 70 } },
  });
  trips['snapshot-cycle-nearly-used-long-trip'] = buildInput([stop('Seattle, WA'), stop('Denver, CO'), stop('Atlanta, GA')], {
    history: { snapshot: { hoursDriven: 4, onDutyHours: 6, hoursSinceBreak: 4, cycleHoursUsed: 61 } },
  });
  trips['appointment-wait'] = buildInput([
    stop('Dallas, TX'),
    stop('Houston, TX', { type: 'DELIVERY', dockDurationHours: 2, appointment: { earliest: DEPARTURE + 12 * HOUR_MS, latest: DEPARTURE + 14 * HOUR_MS } }),
  ]);
  const early = Date.parse('2026-03-02T06:00:00Z');
  trips['split-after-early-wait'] = buildInput(
    [stop('Dallas, TX'), stop('Houston, TX', { type: 'PICKUP', appointment: { earliest: early + 7.5 * HOUR_MS } }), stop('Memphis, TN', { type: 'DELIVERY' })],
    { departureTime: early },
  );
  trips['missed-window'] = buildInput([stop('Seattle, WA'), stop('Miami, FL', { type: 'DELIVERY', appointment: { earliest: DEPARTURE, latest: DEPARTURE + 24 * HOUR_MS } })]);

  const siteTrip = buildInput([stop('Dallas, TX'), stop('Chicago, IL', { dockDurationHours: 1.5 }), stop('Boston, MA')], {
    fuel: { enabled: true, tankGallons: 180, mpg: 6.2, startingGallons: 90, defaultPricePerGallon: 3.95, prices: [] },
  });
  const sites: RestSite[] = [
    { name: 'Pilot #1', type: 'TRUCK_STOP', ...along(siteTrip, 0, 0.55), diesel: true, fuelDiscountPerGallon: 0.2 },
    { name: 'Rest Area I-44', type: 'REST_AREA', ...along(siteTrip, 0, 0.35) },
    { name: 'Customer Yard', type: 'CUSTOMER', ...along(siteTrip, 0, 0.8) },
    { name: 'Love’s #7', type: 'FUEL_STATION', ...along(siteTrip, 1, 0.3), fuelDiscountPerGallon: 0.1 },
    { name: 'Own Yard', type: 'YARD', ...along(siteTrip, 1, 0.6) },
    { name: 'Dry Stop', type: 'TRUCK_STOP', ...along(siteTrip, 1, 0.75), diesel: false },
  ];
  const prices = [
    { name: 'Cheap Diesel', pricePerGallon: 3.4, ...along(siteTrip, 0, 0.5) },
    { name: 'Pricey Fuel', pricePerGallon: 4.6, ...along(siteTrip, 1, 0.2) },
    { name: 'Average Stop', pricePerGallon: 3.9, ...along(siteTrip, 1, 0.31) },
  ];
  trips['sites-and-prices'] = { ...siteTrip, restSites: sites, fuel: { ...siteTrip.fuel, prices } };
  trips['fuel-disabled'] = buildInput([stop('Los Angeles, CA'), stop('Phoenix, AZ'), stop('El Paso, TX'), stop('Houston, TX')], {
    fuel: { enabled: false, tankGallons: 150, mpg: 6.5, startingGallons: 150, defaultPricePerGallon: 3.85, prices: [] },
  });
  trips['fuel-start-below-reserve'] = buildInput([stop('Dallas, TX'), stop('Memphis, TN')], {
    fuel: { enabled: true, tankGallons: 150, mpg: 6.5, startingGallons: 10, defaultPricePerGallon: 3.85, prices: [] },
  });
  const history: DutyPeriod[] = [];
  let t = DEPARTURE - 60 * HOUR_MS;
  for (const [status, hours] of [
    ['OFF_DUTY', 12],
    ['ON_DUTY_NOT_DRIVING', 1],
    ['ON_DUTY_DRIVING', 6],
    ['OFF_DUTY', 0.5],
    ['ON_DUTY_DRIVING', 4.5],
    ['SLEEPER_BERTH', 8],
    ['ON_DUTY_DRIVING', 3],
    ['OFF_DUTY', 25],
  ] as const) {
    history.push({ status, start: t, end: t + hours * HOUR_MS });
    t += hours * HOUR_MS;
  }
  trips['duty-log-history'] = buildInput([stop('Minneapolis, MN'), stop('Kansas City, MO', { dockDurationHours: 3 }), stop('Houston, TX')], { history: { timeline: history } });
  const long = [stop('Seattle, WA'), stop('Salt Lake City, UT', { dockDurationHours: 1 }), stop('Denver, CO'), stop('Memphis, TN', { dockDurationHours: 2 }), stop('Charlotte, NC')];
  const ruleCases: Array<[string, RuleSetId, RuleSetOptions]> = [
    ['us-60-7', 'US_PROPERTY_60_7', {}],
    ['texas', 'TEXAS_INTRASTATE', {}],
    ['california', 'CALIFORNIA_INTRASTATE', {}],
    ['canada-1', 'CANADA_CYCLE_1', {}],
    ['canada-2', 'CANADA_CYCLE_2', {}],
    ['us-short-haul-16', 'US_PROPERTY_70_8', { shortHaul16Hour: true }],
    ['us-adverse', 'US_PROPERTY_70_8', { adverseDrivingConditions: true }],
    ['us-150-air-mile', 'US_PROPERTY_70_8', { shortHaul150AirMile: true }],
    ['us-home-terminal-est', 'US_PROPERTY_70_8', { homeTerminalUtcOffsetMinutes: -300 }],
    ['canada-1-offset', 'CANADA_CYCLE_1', { homeTerminalUtcOffsetMinutes: -420 }],
  ];
  for (const [name, id, options] of ruleCases) {
    trips[`rules-${name}`] = buildInput(long, { rules: ruleSet(id, options) });
    trips[`rules-${name}-snapshot`] = buildInput([stop('El Paso, TX'), stop('Houston, TX'), stop('Atlanta, GA')], {
      rules: ruleSet(id, options),
      history: { snapshot: { hoursDriven: 5, onDutyHours: 7, hoursSinceBreak: 2, cycleHoursUsed: 45 } },
    });
  }
  return trips;
}

/** mulberry32: a small seeded generator, so the random trips do not depend on any library's version. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RULE_CHOICES: Array<[RuleSetId, RuleSetOptions]> = [
  ['US_PROPERTY_70_8', {}],
  ['US_PROPERTY_70_8', {}],
  ['US_PROPERTY_70_8', {}],
  ['US_PROPERTY_60_7', {}],
  ['US_PROPERTY_70_8', { shortHaul16Hour: true }],
  ['US_PROPERTY_70_8', { adverseDrivingConditions: true, homeTerminalUtcOffsetMinutes: -360 }],
  ['TEXAS_INTRASTATE', {}],
  ['CALIFORNIA_INTRASTATE', {}],
  ['CANADA_CYCLE_1', {}],
  ['CANADA_CYCLE_2', {}],
];

function randomTrip(r: () => number): PlanInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const quarter = (max: number) => Math.floor(r() * (max * 4 + 1)) / 4;
  const cities = Object.keys(CITIES);
  const n = 2 + Math.floor(r() * 4);
  const stops: PlanStop[] = [];
  for (let i = 0; i < n; i++) {
    const c = CITIES[pick(cities)]!;
    const appt = r() < 0.3 ? { startsIn: quarter(96), width: r() < 0.6 ? quarter(12) : undefined } : undefined;
    stops.push({
      name: `Stop ${i + 1}`,
      latitude: c.latitude + (r() - 0.5) * 0.6,
      longitude: c.longitude + (r() - 0.5) * 0.6,
      type: i === 0 ? 'ORIGIN' : pick<StopType>(['PICKUP', 'DELIVERY', 'WAYPOINT']),
      dockDurationHours: r() < 0.4 ? 0 : quarter(6),
      ...(appt
        ? { appointment: { earliest: DEPARTURE + appt.startsIn * HOUR_MS, ...(appt.width !== undefined ? { latest: DEPARTURE + (appt.startsIn + appt.width) * HOUR_MS } : {}) } }
        : {}),
    });
  }
  const [id, options] = pick(RULE_CHOICES);
  const rules: RuleSet = ruleSet(id, options);
  let snapshot;
  if (r() < 0.5) {
    const driven = quarter(11);
    const hoursSinceBreak = Math.round(Math.min(8, driven) * r() * 4) / 4;
    const onDutyHours = Math.min(13, driven + quarter(2) + (hoursSinceBreak < driven ? 0.5 : 0));
    snapshot = { hoursDriven: driven, onDutyHours, hoursSinceBreak, cycleHoursUsed: Math.min(55, onDutyHours + quarter(50)) };
  }
  const tank = 100 + Math.floor(r() * 200);
  const siteTypes: RestSite['type'][] = ['TRUCK_STOP', 'REST_AREA', 'FUEL_STATION', 'CUSTOMER', 'YARD'];
  const sites: RestSite[] = [];
  const siteCount = Math.floor(r() * 7);
  for (let i = 0; i < siteCount; i++) {
    const c = CITIES[pick(cities)]!;
    sites.push({ name: `Site ${i}`, type: pick(siteTypes), latitude: c.latitude + (r() - 0.5) * 2, longitude: c.longitude + (r() - 0.5) * 2, ...(r() < 0.3 ? { fuelDiscountPerGallon: 0.15 } : {}) });
  }
  const prices = [];
  const priceCount = r() < 0.5 ? 0 : Math.floor(r() * 4);
  for (let i = 0; i < priceCount; i++) {
    const c = CITIES[pick(cities)]!;
    prices.push({ name: `Pump ${i}`, pricePerGallon: 3 + Math.round(r() * 200) / 100, latitude: c.latitude + (r() - 0.5), longitude: c.longitude + (r() - 0.5) });
  }
  return buildInput(stops, {
    departureTime: DEPARTURE + Math.floor(r() * 48) * 15 * 60_000,
    rules,
    averageSpeedMph: 45 + Math.floor(r() * 21),
    history: snapshot ? { snapshot } : { timeline: [] },
    fuel: { enabled: r() < 0.8, tankGallons: tank, mpg: 5 + r() * 3, startingGallons: tank * (0.2 + 0.8 * r()), defaultPricePerGallon: 3.85, prices },
    restSites: sites,
  });
}

const RANDOM_TRIPS = 400;

describe('planner output regression guard', () => {
  for (const [name, input] of Object.entries(namedTrips())) {
    it(`plans ${name} exactly as recorded`, async () => {
      await expect(outcome(input) + '\n').toMatchFileSnapshot(`./__snapshots__/plans/${name}.json`);
    });
  }

  it(`plans ${RANDOM_TRIPS} seeded random trips exactly as recorded (digests)`, async () => {
    const r = rng(20260302);
    const lines: string[] = [];
    for (let i = 0; i < RANDOM_TRIPS; i++) {
      const text = outcome(randomTrip(r));
      const parsed = JSON.parse(text) as { arrivalTime?: string; segments?: unknown[]; error?: string; code?: string };
      const head = parsed.error ? `${parsed.code}` : `${parsed.arrivalTime} ${parsed.segments?.length} segments`;
      lines.push(`${String(i).padStart(3, '0')} ${createHash('sha256').update(text).digest('hex').slice(0, 16)} ${head}`);
    }
    await expect(lines.join('\n') + '\n').toMatchFileSnapshot('./__snapshots__/plans/random-trips.txt');
  });
});
