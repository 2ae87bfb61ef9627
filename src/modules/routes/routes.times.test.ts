/**
 * Plan times through the API (issue 10, items 2, 3 and 5): exact segment times, local times and
 * zones of every stop and segment, appointment windows without an offset read in the stop's local
 * time, and a 34-hour restart marked as one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createDriver, createTenant, type TenantFixture } from '../../../test/helpers/factories.js';

type Json = Record<string, unknown>;
interface Segment {
  sequence: number;
  type: string;
  start_time: string;
  end_time: string;
  duration_hours: number;
  local_start_time: string;
  local_end_time: string;
  time_zone?: string;
  from?: { time_zone: string };
  to?: { time_zone: string };
  rest_type?: string;
  restart?: boolean;
  reason?: string;
}
interface StopEta {
  arrivalTime: string;
  departureTime: string;
  timeZone: string;
  localArrivalTime: string;
  localDepartureTime: string;
  appointment: { earliest: string | null; latest: string | null } | null;
  withinWindow: boolean | null;
}
interface Plan {
  id: string;
  departureTime: string;
  arrivalTime: string;
  segments: Segment[];
  stops: StopEta[];
}

const HOUR = 3_600_000;
const DALLAS = { name: 'Dallas yard', latitude: 32.7767, longitude: -96.797 };
const OKC = { name: 'Oklahoma City DC', latitude: 35.4676, longitude: -97.5164 };
const NEWARK = { name: 'Newark DC', latitude: 40.7357, longitude: -74.1724 };

describe.each(DB_KINDS)('plan times through the API (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let driverId: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock: new FakeClock('2026-03-02T12:00:00.000Z') });
    acme = await createTenant(t.app, { name: 'Acme Freight' });
    driverId = (await createDriver(t.app, acme.auth)).id;
  });
  afterAll(async () => t?.close());

  const plan = (payload: Json) => t.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: acme.auth, payload });
  const planOk = async (payload: Json): Promise<Plan> => {
    const res = await plan(payload);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(201);
    const created = res.json<Plan>();
    // What is stored reads back the same.
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/routes/${created.id}`, headers: acme.auth });
    expect(read.json<Plan>().segments).toEqual(created.segments);
    return created;
  };

  it('segment times are exact: the 2-hour drive to the break ends at 15:00:00.000, every end is the next start', async () => {
    const p = await planOk({
      driverId,
      departureTime: '2026-03-03T13:00:00Z',
      stops: [DALLAS, NEWARK],
      driverState: { hoursDriven: 6, onDutyHours: 6.5, hoursSinceBreak: 6, cycleHoursUsed: 20 },
    });
    expect(p.segments[0]).toMatchObject({ type: 'drive', start_time: '2026-03-03T13:00:00.000Z', end_time: '2026-03-03T15:00:00.000Z', duration_hours: 2 });
    expect(p.segments[1]).toMatchObject({ type: 'rest', rest_type: 'break', start_time: '2026-03-03T15:00:00.000Z', end_time: '2026-03-03T15:30:00.000Z' });
    let at = p.departureTime;
    for (const s of p.segments) {
      expect(s.start_time, `segment ${s.sequence}`).toBe(at);
      expect(Math.round(s.duration_hours * HOUR), `segment ${s.sequence}`).toBe(Date.parse(s.end_time) - Date.parse(s.start_time));
      at = s.end_time;
    }
    expect(p.arrivalTime).toBe(at);
  });

  it('every stop and segment gives its local time and zone; a drive its start zone and its end zone', async () => {
    const p = await planOk({ driverId, departureTime: '2026-03-03T13:00:00Z', stops: [DALLAS, NEWARK] });
    expect(p.stops[0]).toMatchObject({ timeZone: 'America/Chicago', localArrivalTime: '2026-03-03T07:00:00-06:00', localDepartureTime: '2026-03-03T07:00:00-06:00' });
    expect(p.stops[1]!.timeZone).toBe('America/New_York');
    expect(Date.parse(p.stops[1]!.localArrivalTime)).toBe(Date.parse(p.stops[1]!.arrivalTime));
    expect(p.stops[1]!.localArrivalTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?-05:00$/);
    expect(p.segments[0]).toMatchObject({ local_start_time: '2026-03-03T07:00:00-06:00', from: { time_zone: 'America/Chicago' } });
    const drives = p.segments.filter((s) => s.type === 'drive');
    expect(drives.at(-1)!.to!.time_zone).toBe('America/New_York');
    // Somewhere a drive crosses from Central into Eastern time: its ends are in different zones.
    expect(drives.some((d) => d.from!.time_zone !== d.to!.time_zone)).toBe(true);
    for (const s of p.segments) {
      expect(Date.parse(s.local_start_time), `segment ${s.sequence}`).toBe(Date.parse(s.start_time));
      expect(Date.parse(s.local_end_time), `segment ${s.sequence}`).toBe(Date.parse(s.end_time));
      if (s.type !== 'drive') expect(s.time_zone, `segment ${s.sequence}`).toMatch(/^America\//);
    }
  });

  it('an appointment without an offset is the stop’s local time; with Z or an offset, as given', async () => {
    const local = await planOk({
      driverId,
      departureTime: '2026-03-03T06:00:00Z',
      stops: [DALLAS, { ...OKC, appointment: { earliest: '2026-03-03T14:00:00', latest: '2026-03-03T16:00:00' }, dockDurationHours: 1 }],
    });
    // Oklahoma City is on Central time (UTC−6 in March): 14:00 local is 20:00 UTC.
    expect(local.stops[1]).toMatchObject({ timeZone: 'America/Chicago', appointment: { earliest: '2026-03-03T20:00:00.000Z', latest: '2026-03-03T22:00:00.000Z' }, withinWindow: true });
    // Early: the driver waits for the window, docks an hour and leaves at 15:00 local.
    expect(Date.parse(local.stops[1]!.arrivalTime)).toBeLessThan(Date.parse('2026-03-03T20:00:00Z'));
    expect(local.stops[1]!.localDepartureTime).toBe('2026-03-03T15:00:00-06:00');
    const wait = local.segments.find((s) => s.type === 'wait')!;
    expect(wait.local_end_time).toBe('2026-03-03T14:00:00-06:00');

    const utc = await planOk({ driverId, departureTime: '2026-03-03T06:00:00Z', stops: [DALLAS, { ...OKC, appointment: { earliest: '2026-03-03T14:00:00Z' } }] });
    expect(utc.stops[1]!.appointment).toEqual({ earliest: '2026-03-03T14:00:00.000Z', latest: null });
    const offset = await planOk({ driverId, departureTime: '2026-03-03T06:00:00Z', stops: [DALLAS, { ...OKC, appointment: { earliest: '2026-03-03T14:00:00-05:00' } }] });
    expect(offset.stops[1]!.appointment).toEqual({ earliest: '2026-03-03T19:00:00.000Z', latest: null });
  });

  it('appointment times that are no date-time are 400s naming the field', async () => {
    for (const [earliest, field] of [
      ['2026-03-03 14:00', 'body.stops.1.appointment.earliest'],
      ['tomorrow', 'body.stops.1.appointment.earliest'],
      ['2026-03-03T23:59:60', 'body.stops.1.appointment.earliest'],
    ] as const) {
      const res = await plan({ driverId, departureTime: '2026-03-03T06:00:00Z', stops: [DALLAS, { ...OKC, appointment: { earliest } }] });
      expect(res.statusCode, `${earliest} → ${res.body}`).toBe(400);
      expect(res.json<{ details?: Array<{ field: string }> }>().details?.map((d) => d.field)).toContain(field);
    }
    // A local window that ends before it starts is refused like any other.
    const res = await plan({ driverId, stops: [DALLAS, { ...OKC, appointment: { earliest: '2026-03-03T16:00:00', latest: '2026-03-03T14:00:00' } }] });
    expect(res.statusCode).toBe(400);
  });

  it('a 34-hour restart is marked as one: rest_type full_rest, restart true, the reason says so', async () => {
    const p = await planOk({ driverId, departureTime: '2026-03-03T06:00:00Z', stops: [DALLAS, OKC], driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 70 } });
    const rests = p.segments.filter((s) => s.type === 'rest');
    const restart = rests.find((s) => s.restart);
    expect(restart).toMatchObject({ rest_type: 'full_rest', restart: true, duration_hours: 34 });
    expect(restart!.reason).toMatch(/^34-hour restart/);
    expect(rests.filter((s) => s !== restart).every((s) => s.restart === false)).toBe(true);
  });
});
