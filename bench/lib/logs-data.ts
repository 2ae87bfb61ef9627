/**
 * The daily-log benchmark's log (bench/logs.ts): records of duty status, corrections, certifications,
 * routes and positions for one driver over 194 days and for 1,000 drivers over one day, generated from
 * a fixed seed so that every run reads a log of the same shape.
 *
 * A working day, on the home terminal's clocks (America/Chicago): on duty (pre-trip) between 05:00 and
 * 07:00, driving, on duty at the shipper, driving, a 30-minute break off duty, driving, on duty at the
 * receiver, sometimes a last stretch of driving, then the night in the sleeper berth or off duty — 8 or
 * 9 status changes, 5.5 to 12.5 hours of driving (the longest days break the 11-hour limit, and some the
 * 14-hour window: the violations the answer carries). The driving is what the ELD recorded (origin
 * AUTOMATIC, source samsara); the rest the driver entered (origin DRIVER). Every record has the truck's
 * place (the answer names it: "near Amarillo, TX"), which moves from one city to another through the
 * day's driving. The one driver works five days and rests two (a 34-hour restart), as a week goes.
 *
 * Besides the records (ELD specification §7.22/§7.23, migration 011): each working day is a COMPLETED
 * route with a position every 10 minutes of driving (the miles driven come from them; on a few days the
 * truck keeps moving for 25 minutes after the log stops showing driving: driving not in the log); most
 * days certified by the driver the next morning; a correction by the driver now and then (the record
 * replaced made INACTIVE_CHANGED, the new one ACTIVE with the edit and its annotation; half of those
 * days certified again, half waiting for it), and a few correction requests by the office waiting for
 * the driver (INACTIVE_CHANGE_REQUESTED).
 */
import type { DutyStatus } from '../../src/domain/hos/index.js';
import { addDays } from '../../src/domain/logs/daily-log.js';
import { parseLocalIso } from '../../src/domain/planning/local-time.js';
import { newId } from '../../src/lib/ids.js';
import type { LogsRows } from '../servers/logs-seed.js';

export const ZONE = 'America/Chicago';
/** 395.30(b)(2)'s statement, as src/modules/logs/edits.service.ts stores it. */
const STATEMENT = 'I hereby certify that my data entries and my record of duty status for this 24-hour period are true and correct.';
const POSITION_EVERY_MIN = 10;
const MINUTE = 60_000;

const CITIES: { name: string; latitude: number; longitude: number }[] = [
  { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 },
  { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164 },
  { name: 'Kansas City, MO', latitude: 39.0997, longitude: -94.5786 },
  { name: 'Memphis, TN', latitude: 35.1495, longitude: -90.049 },
  { name: 'Little Rock, AR', latitude: 34.7465, longitude: -92.2896 },
  { name: 'Houston, TX', latitude: 29.7604, longitude: -95.3698 },
  { name: 'San Antonio, TX', latitude: 29.4241, longitude: -98.4936 },
  { name: 'Amarillo, TX', latitude: 35.222, longitude: -101.8313 },
  { name: 'Albuquerque, NM', latitude: 35.0844, longitude: -106.6504 },
  { name: 'Denver, CO', latitude: 39.7392, longitude: -104.9903 },
  { name: 'Wichita, KS', latitude: 37.6872, longitude: -97.3301 },
  { name: 'Omaha, NE', latitude: 41.2565, longitude: -95.9345 },
  { name: 'St. Louis, MO', latitude: 38.627, longitude: -90.1994 },
  { name: 'Nashville, TN', latitude: 36.1627, longitude: -86.7816 },
  { name: 'Shreveport, LA', latitude: 32.5252, longitude: -93.7502 },
  { name: 'Tulsa, OK', latitude: 36.154, longitude: -95.9928 },
  { name: 'El Paso, TX', latitude: 31.7619, longitude: -106.485 },
  { name: 'Jackson, MS', latitude: 32.2988, longitude: -90.1848 },
  { name: 'New Orleans, LA', latitude: 29.9511, longitude: -90.0715 },
  { name: 'Birmingham, AL', latitude: 33.5186, longitude: -86.8104 },
];

/** mulberry32: a small, fast PRNG with a fixed seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const round5 = (n: number) => Math.round(n * 1e5) / 1e5;

interface Ctx {
  tenantId: string;
  rand: () => number;
  rows: LogsRows;
}

interface Driver {
  id: string;
  /** The driver's own user (who enters, corrects and certifies the log). */
  userId: string;
  /** Where the truck is. */
  at: { latitude: number; longitude: number };
}

interface Rec {
  row: Record<string, unknown>;
  at: number;
  status: DutyStatus;
}

const between = (rand: () => number, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

function record(c: Ctx, d: Driver, status: DutyStatus, at: number, where: { latitude: number; longitude: number }, note: string | null): Rec {
  const automatic = status === 'ON_DUTY_DRIVING';
  const row = {
    tenant_id: c.tenantId,
    id: newId('dutyStatus'),
    driver_id: d.id,
    status,
    started_at: iso(at),
    latitude: round5(where.latitude),
    longitude: round5(where.longitude),
    note,
    source: automatic ? 'samsara' : 'MANUAL',
    created_by: automatic ? null : d.userId,
    created_at: iso(at + (automatic ? 2 : 0) * MINUTE),
    record_status: 'ACTIVE',
    origin: automatic ? 'AUTOMATIC' : 'DRIVER',
    edit_id: null,
    annotation: null,
    status_changed_at: null,
    status_changed_by: null,
    status_changed_by_edit: null,
  };
  c.rows.duty_status_events.push(row);
  return { row, at, status };
}

/** The local instant `minutes` after midnight of `date` on the home terminal's clocks. */
const local = (date: string, minutes: number) => parseLocalIso(`${date}T00:00:00`, ZONE) + minutes * MINUTE;

/**
 * One working day of `d` on `date`, from its city to another: its records, its route and positions.
 * Returns the records (in order); `d.at` ends at the day's destination.
 */
function workDay(c: Ctx, d: Driver, date: string, opts: { notInLog: boolean }): Rec[] {
  const { rand } = c;
  const from = d.at;
  const dest = CITIES[Math.floor(rand() * CITIES.length)]!;
  const to = { latitude: dest.latitude + (rand() - 0.5) * 0.1, longitude: dest.longitude + (rand() - 0.5) * 0.1 };
  // The day's plan: [status, minutes, note]; the last entry lasts the night.
  const plan: [DutyStatus, number, string | null][] = [
    ['ON_DUTY_NOT_DRIVING', between(rand, 15, 30), 'Pre-trip inspection'],
    ['ON_DUTY_DRIVING', between(rand, 150, 270), null],
    ['ON_DUTY_NOT_DRIVING', between(rand, 20, 60), rand() < 0.5 ? 'Loading at the shipper' : 'Fuel'],
    ['ON_DUTY_DRIVING', between(rand, 90, 180), null],
    ['OFF_DUTY', between(rand, 30, 45), '30-minute break'],
    ['ON_DUTY_DRIVING', between(rand, 90, 210), null],
    ['ON_DUTY_NOT_DRIVING', between(rand, 30, 90), 'Unloading at the receiver'],
  ];
  if (rand() < 0.3) plan.push(['ON_DUTY_DRIVING', between(rand, 30, 90), null]);
  plan.push([rand() < 0.5 ? 'SLEEPER_BERTH' : 'OFF_DUTY', 0, null]);
  const drivingTotal = plan.reduce((n, [s, m]) => n + (s === 'ON_DUTY_DRIVING' ? m : 0), 0);

  const routeId = newId('route');
  const positions: Record<string, unknown>[] = [];
  const place = (driven: number) => {
    const f = drivingTotal === 0 ? 1 : driven / drivingTotal;
    return { latitude: from.latitude + (to.latitude - from.latitude) * f, longitude: from.longitude + (to.longitude - from.longitude) * f };
  };
  const position = (t: number, where: { latitude: number; longitude: number }) =>
    positions.push({
      tenant_id: c.tenantId,
      id: newId('position'),
      route_id: routeId,
      recorded_at: iso(t),
      latitude: round5(where.latitude),
      longitude: round5(where.longitude),
      speed_mph: between(rand, 52, 66),
      heading_degrees: Math.round((Math.atan2(to.longitude - from.longitude, to.latitude - from.latitude) * 180) / Math.PI + 360) % 360,
      fuel_level_percent: between(rand, 25, 95),
      source: 'samsara',
      created_at: iso(t + MINUTE),
    });

  const recs: Rec[] = [];
  let t = local(date, between(rand, 300, 420));
  let driven = 0;
  let firstDriving = 0;
  let lastDrivingEnd = 0;
  for (const [status, minutes, note] of plan) {
    recs.push(record(c, d, status, t, place(driven), note));
    if (status === 'ON_DUTY_DRIVING') {
      firstDriving ||= t;
      for (let m = 0; m < minutes; m += POSITION_EVERY_MIN) position(t + m * MINUTE, place(driven + m));
      driven += minutes;
      lastDrivingEnd = t + minutes * MINUTE;
      position(lastDrivingEnd, place(driven)); // where it stopped
    } else if (opts.notInLog && note === 'Unloading at the receiver') {
      // The truck keeps moving for 25 minutes while the log says on duty, not driving (its positions at
      // 5, 15 and 25 minutes: never at the instant of another position of the route, whose order would be a tie).
      for (let m = 5; m < 30; m += POSITION_EVERY_MIN) position(t + m * MINUTE, { latitude: to.latitude + m * 0.004, longitude: to.longitude + m * 0.004 });
    }
    t += minutes * MINUTE;
  }
  d.at = to;
  c.rows.route_plans.push({
    tenant_id: c.tenantId,
    id: routeId,
    driver_id: d.id,
    status: 'COMPLETED',
    departure_time: iso(firstDriving),
    arrival_time: iso(lastDrivingEnd),
    distance_method: 'haversine_road',
    // A stand-in for the plan (the daily logs read a route's driver and its positions, never its plan).
    request: { driverId: d.id, stops: [{ latitude: from.latitude, longitude: from.longitude, type: 'ORIGIN' }, { name: dest.name, latitude: to.latitude, longitude: to.longitude, type: 'DELIVERY' }] },
    summary: { drivingHours: drivingTotal / 60 },
    stops: [],
    segments: [],
    created_by: null,
    activated_at: iso(firstDriving - 30 * MINUTE),
    completed_at: iso(lastDrivingEnd + 5 * MINUTE),
    created_at: iso(firstDriving - 12 * 60 * MINUTE),
    updated_at: iso(lastDrivingEnd + 5 * MINUTE),
  });
  c.rows.route_positions.push(...positions);
  return recs;
}

function certify(c: Ctx, d: Driver, date: string, at: number): void {
  c.rows.log_certifications.push({ tenant_id: c.tenantId, id: newId('certification'), driver_id: d.id, log_date: date, certified_at: iso(at), certified_by: d.userId, statement: STATEMENT });
}

/**
 * The driver corrects the day's stop at the shipper (or for fuel) to off duty, the next morning: the
 * record becomes INACTIVE_CHANGED, a new ACTIVE one takes its place with the edit and its annotation.
 */
function correct(c: Ctx, d: Driver, date: string, recs: Rec[], when: number): void {
  const i = recs.findIndex((r, k) => k > 0 && r.status === 'ON_DUTY_NOT_DRIVING');
  const old = recs[i]!;
  const next = recs[i + 1]!;
  const editId = newId('logEdit');
  const annotation = 'Waited off duty at the shipper';
  Object.assign(old.row, { record_status: 'INACTIVE_CHANGED', status_changed_at: iso(when), status_changed_by: d.userId, status_changed_by_edit: editId });
  const replacement = record(c, d, 'OFF_DUTY', old.at, { latitude: old.row.latitude as number, longitude: old.row.longitude as number }, 'Waiting at the shipper');
  Object.assign(replacement.row, { edit_id: editId, annotation, created_at: iso(when) });
  c.rows.log_edits.push({
    tenant_id: c.tenantId,
    id: editId,
    driver_id: d.id,
    status: 'APPLIED',
    origin: 'DRIVER',
    range_from: iso(old.at),
    range_to: iso(next.at),
    entries: [{ status: 'OFF_DUTY', at: iso(old.at), latitude: old.row.latitude, longitude: old.row.longitude, note: 'Waiting at the shipper' }],
    annotation,
    requested_by: d.userId,
    requested_at: iso(when),
    decided_by: d.userId,
    decided_at: iso(when),
    dates: [date],
  });
}

/** The office asks the driver to change the day's pre-trip to start 15 minutes later: waiting for the driver. */
function request(c: Ctx, d: Driver, date: string, recs: Rec[], officeUserId: string, when: number): void {
  const first = recs[0]!;
  const editId = newId('logEdit');
  const annotation = 'Yard camera shows the pre-trip later';
  const proposed = record(c, d, 'OFF_DUTY', first.at, { latitude: first.row.latitude as number, longitude: first.row.longitude as number }, null);
  Object.assign(proposed.row, { record_status: 'INACTIVE_CHANGE_REQUESTED', origin: 'OTHER_USER', created_by: officeUserId, edit_id: editId, annotation, created_at: iso(when) });
  const later = record(c, d, 'ON_DUTY_NOT_DRIVING', first.at + 15 * MINUTE, { latitude: first.row.latitude as number, longitude: first.row.longitude as number }, 'Pre-trip inspection');
  Object.assign(later.row, { record_status: 'INACTIVE_CHANGE_REQUESTED', origin: 'OTHER_USER', created_by: officeUserId, edit_id: editId, annotation, created_at: iso(when) });
  c.rows.log_edits.push({
    tenant_id: c.tenantId,
    id: editId,
    driver_id: d.id,
    status: 'PENDING',
    origin: 'OTHER_USER',
    range_from: iso(first.at),
    range_to: iso(recs[1]!.at),
    entries: [
      { status: 'OFF_DUTY', at: iso(first.at), latitude: first.row.latitude, longitude: first.row.longitude, note: null },
      { status: 'ON_DUTY_NOT_DRIVING', at: iso(first.at + 15 * MINUTE), latitude: first.row.latitude, longitude: first.row.longitude, note: 'Pre-trip inspection' },
    ],
    annotation,
    requested_by: officeUserId,
    requested_at: iso(when),
    decided_by: null,
    decided_at: null,
    dates: [date],
  });
}

export interface LogsData {
  rows: LogsRows;
  /** The one driver's range: `days` dates up to `to`. */
  long: { driverId: string; from: string; to: string };
  /** The date of the fleet's one day. */
  day: string;
}

/**
 * The log: `longDriverId` over `days` dates ending `to` (and the 10 days before, which the recap and the
 * violations read), and each of `fleetDriverIds` over the date `to` (from the evening before).
 */
export function generateLogs(opts: { tenantId: string; officeUserId: string; longDriverId: string; fleetDriverIds: string[]; days: number; to: string }): LogsData {
  const rows: LogsRows = { duty_status_events: [], log_edits: [], log_certifications: [], route_plans: [], route_positions: [] };
  const c: Ctx = { tenantId: opts.tenantId, rand: prng(27), rows };
  const from = addDays(opts.to, -(opts.days - 1));
  const until = addDays(opts.to, 1); // the log goes on after the range (the driver works on)

  // The one driver: 5 days on, 2 off.
  const long: Driver = { id: opts.longDriverId, userId: newId('user'), at: CITIES[0]! };
  const first = addDays(from, -10);
  let workDays = 0;
  for (let date = first, n = 0; date <= until; date = addDays(date, 1), n++) {
    const next = addDays(date, 1);
    if (n % 7 >= 5) {
      if (date <= opts.to && c.rand() < 0.93) certify(c, long, date, local(next, 390));
      continue; // a day off: the night's off duty (or sleeper) goes on through it
    }
    const recs = workDay(c, long, date, { notInLog: c.rand() < 0.03 });
    if (date > opts.to) continue;
    workDays++;
    const certified = c.rand() < 0.93;
    if (certified) certify(c, long, date, local(next, 390));
    if (workDays % 12 === 0) {
      correct(c, long, date, recs, local(next, 420));
      if (certified && workDays % 24 === 0) certify(c, long, date, local(next, 425)); // certified again after the correction
    } else if (daysToEnd(date, opts.to) < 12 && workDays % 5 === 0) {
      request(c, long, date, recs, opts.officeUserId, local(next, 600));
    }
  }

  // The fleet's one day: from the evening before (a record carried into the day), then the day.
  const day = opts.to;
  const eve = addDays(day, -1);
  for (const id of opts.fleetDriverIds) {
    const d: Driver = { id, userId: newId('user'), at: CITIES[Math.floor(c.rand() * CITIES.length)]! };
    record(c, d, c.rand() < 0.5 ? 'SLEEPER_BERTH' : 'OFF_DUTY', local(eve, between(c.rand, 1140, 1320)), d.at, null);
    if (c.rand() < 0.1) continue; // off that day
    const recs = workDay(c, d, day, { notInLog: c.rand() < 0.02 });
    const certified = c.rand() < 0.75;
    if (certified) certify(c, d, day, local(addDays(day, 1), 390));
    const r = c.rand();
    if (r < 0.03) correct(c, d, day, recs, local(addDays(day, 1), 420));
    else if (r < 0.07) request(c, d, day, recs, opts.officeUserId, local(addDays(day, 1), 600));
  }
  return { rows, long: { driverId: opts.longDriverId, from, to: opts.to }, day };
}

const daysToEnd = (date: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000);
