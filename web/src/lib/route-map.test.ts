import { describe, expect, it } from 'vitest';
import { isReporting, mapSummary, mergeLayers, nextStop, planLayers, restKind, restName, routePath, truckOf, type RoutePlan, type Segment, type StopEta } from './route-map';

const hos = { hours_driven: 0, on_duty_hours: 0, hours_since_break: 0, drive_hours_remaining: 11, duty_hours_remaining: 14, cycle_hours_used: 0, cycle_hours_remaining: 70 };
const base = (sequence: number, start: string, end: string, hours: number) => ({ sequence, start_time: start, end_time: end, duration_hours: hours, hos_state_after: hos });
const DAL = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, time_zone: 'America/Chicago' };
const OKC = { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164, time_zone: 'America/Chicago' };
const KC = { name: 'Kansas City, MO', latitude: 39.0997, longitude: -94.5786, time_zone: 'America/Chicago' };
const CHI = { name: 'Chicago, IL', latitude: 41.8781, longitude: -87.6298, time_zone: 'America/Chicago' };

const segments = [
  { ...base(1, '2026-03-03T14:00:00Z', '2026-03-03T17:30:00Z', 3.5), type: 'drive', from: DAL, to: OKC, distance_miles: 190 },
  { ...base(2, '2026-03-03T17:30:00Z', '2026-03-03T17:45:00Z', 0.25), type: 'fuel', location: OKC.name, latitude: OKC.latitude, longitude: OKC.longitude, time_zone: OKC.time_zone, gallons: 80.4, price_per_gallon: 3.85, cost: 309.54 },
  { ...base(3, '2026-03-03T17:45:00Z', '2026-03-03T22:00:00Z', 4.25), type: 'drive', from: OKC, to: KC, distance_miles: 300 },
  { ...base(4, '2026-03-03T22:00:00Z', '2026-03-03T22:30:00Z', 0.5), type: 'rest', location: KC.name, latitude: KC.latitude, longitude: KC.longitude, time_zone: KC.time_zone, rest_type: 'break', duty_status: 'OFF_DUTY', reason: '8 hours driven' },
  { ...base(5, '2026-03-03T22:30:00Z', '2026-03-04T01:30:00Z', 3), type: 'drive', from: KC, to: CHI, distance_miles: 200 },
  { ...base(6, '2026-03-04T01:30:00Z', '2026-03-04T11:30:00Z', 10), type: 'rest', location: CHI.name, latitude: CHI.latitude, longitude: CHI.longitude, time_zone: CHI.time_zone, rest_type: 'full_rest', duty_status: 'SLEEPER_BERTH', reason: '11 hours driven' },
] as unknown as Segment[];

const stop = (sequence: number, p: typeof DAL, type: string, arrival: string): StopEta =>
  ({ sequence, name: p.name, type, latitude: p.latitude, longitude: p.longitude, arrivalTime: arrival, departureTime: arrival, appointment: null, withinWindow: null, lateByHours: 0, timeZone: p.time_zone }) as StopEta;
const stops = [stop(0, DAL, 'ORIGIN', '2026-03-03T14:00:00Z'), stop(1, OKC, 'PICKUP', '2026-03-03T17:30:00Z'), stop(2, CHI, 'DELIVERY', '2026-03-04T01:30:00Z')];
const plan = { id: 'rte_1', stops, segments } as unknown as RoutePlan;

describe('a plan on the map', () => {
  it('chains the drive segments into one path, each point once', () => {
    expect(routePath(segments).map((p) => p.latitude)).toEqual([DAL.latitude, OKC.latitude, KC.latitude, CHI.latitude]);
    expect(routePath([])).toEqual([]);
  });

  it('tells full rests from 30-minute breaks and names them', () => {
    expect(restKind('break')).toBe('break');
    expect(restKind('full_rest')).toBe('rest');
    expect(restKind('partial_rest')).toBe('rest');
    expect(restName({ rest_type: 'full_rest', duration_hours: 10 })).toBe('10-hour rest');
    expect(restName({ rest_type: 'full_rest', duration_hours: 34, restart: true })).toBe('34-hour restart');
    expect(restName({ rest_type: 'partial_rest', duration_hours: 7 })).toBe('Sleeper-berth rest (7:00)');
    expect(restName({ rest_type: 'break', duration_hours: 0.5 })).toBe('30-minute break');
  });

  it('draws stops, rests, breaks and fuel stops with titles in the local time of each place', () => {
    const layers = planLayers(plan, { label: 'Dana Driver', colour: 2 });
    expect(layers.routes).toEqual([{ id: 'rte_1', label: 'Dana Driver', points: routePath(segments), colour: 2 }]);
    expect(layers.stops.map((s) => s.type)).toEqual(['ORIGIN', 'PICKUP', 'DELIVERY']);
    expect(layers.stops[2]).toMatchObject({ label: 'Chicago, IL (delivery)', detail: 'Dana Driver · arrives Tue, Mar 3, 19:30 CST' });
    expect(layers.rests.map((r) => r.kind)).toEqual(['break', 'rest']);
    expect(layers.rests[1]).toMatchObject({ label: '10-hour rest near Chicago, IL', detail: 'Tue, Mar 3, 19:30 CST for 10:00' });
    expect(layers.fuel).toEqual([expect.objectContaining({ label: 'Fuel stop at Oklahoma City, OK', detail: '80 gal, Tue, Mar 3, 11:30 CST' })]);
  });

  it('merges several routes and sums them up in words', () => {
    const merged = mergeLayers([planLayers(plan), planLayers({ ...plan, id: 'rte_2' }), { trucks: [{ id: 't', label: 'T', latitude: 1, longitude: 2 }] }]);
    expect(merged.routes).toHaveLength(2);
    expect(merged.stops).toHaveLength(6);
    expect(mapSummary(merged)).toBe('Map of the United States: 2 routes, 6 stops, 2 rests, 2 breaks, 2 fuel stops, 1 truck position');
    expect(mapSummary(mergeLayers([]))).toBe('Map of the United States: 0 routes, 0 stops, 0 rests, 0 breaks, 0 fuel stops, 0 truck positions');
  });
});

describe('an active route in the overview', () => {
  it('the next stop is the first after the origin not yet reached by the plan’s clock', () => {
    expect(nextStop(stops, Date.parse('2026-03-03T13:00:00Z'))?.name).toBe('Oklahoma City, OK');
    expect(nextStop(stops, Date.parse('2026-03-03T18:00:00Z'))?.name).toBe('Chicago, IL');
    expect(nextStop(stops, Date.parse('2026-03-04T02:00:00Z'))).toBeNull();
  });

  it('a truck at its last position, and whether it still reports', () => {
    const lastPosition = { id: 'pos_1', routeId: 'rte_1', latitude: 33, longitude: -97, recordedAt: '2026-03-03T15:00:00Z', speedMph: 61.4, headingDegrees: 10, fuelLevelPercent: null, source: 'APP', createdAt: '2026-03-03T15:00:00Z', timeZone: 'America/Chicago' };
    expect(truckOf({ id: 'rte_1', driverName: 'Dana Driver', vehicleUnit: 'T-7', lastPosition: null })).toBeNull();
    const truck = truckOf({ id: 'rte_1', driverName: 'Dana Driver', vehicleUnit: 'T-7', lastPosition })!;
    expect(truck).toMatchObject({ label: 'Truck T-7 — Dana Driver', latitude: 33, longitude: -97, headingDegrees: 10 });
    // On the clocks of where the truck was.
    expect(truck.detail).toBe('reported Tue, Mar 3, 09:00 CST, 61 mph');
    expect(truckOf({ id: 'rte_1', driverName: 'Dana Driver', vehicleUnit: null, lastPosition })!.label).toBe('Truck — Dana Driver');
    expect(isReporting(lastPosition, Date.parse('2026-03-03T15:20:00Z'))).toBe(true);
    expect(isReporting(lastPosition, Date.parse('2026-03-03T15:31:00Z'))).toBe(false);
    expect(isReporting(null, Date.parse('2026-03-03T15:20:00Z'))).toBe(false);
  });
});
