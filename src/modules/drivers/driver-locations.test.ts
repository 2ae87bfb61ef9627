import { describe, expect, it } from 'vitest';
import { knownLocationOf } from './driver-locations.js';

const at = (h: number) => new Date(Date.UTC(2026, 10, 29, 12) + h * 3_600_000).toISOString();
const point = (lat: number, h: number, extra: Record<string, unknown> = {}) => ({ latitude: lat, longitude: -97, recorded_at: at(h), ...extra });
const lastRoute = (h: number, id = 'rte_last') => ({ route_id: id, recorded_at: at(h), stop: { name: 'Dallas, TX', latitude: 32.78, longitude: -96.8 } });

describe('where a driver was last known to be', () => {
  it('is nothing when nothing says so', () => {
    expect(knownLocationOf({})).toBeNull();
    expect(knownLocationOf({ known_position: null, known_report: null, known_duty: null, known_last_route: null })).toBeNull();
  });

  it('is the newest sighting: a route position, a reported location or a duty-status change with coordinates', () => {
    const row = { known_position: point(30, -3, { route_id: 'rte_1' }), known_report: point(31, -1), known_duty: point(32, -2) };
    expect(knownLocationOf(row)).toMatchObject({ source: 'LOCATION_REPORT', latitude: 31, routeId: null, name: null });
    expect(knownLocationOf({ ...row, known_duty: point(32, 0) })).toMatchObject({ source: 'DUTY_STATUS', latitude: 32 });
    expect(knownLocationOf({ ...row, known_position: JSON.stringify(point(30, 1, { route_id: 'rte_1' })) })).toMatchObject({ source: 'POSITION', routeId: 'rte_1', at: Date.parse(at(1)) });
    // A tie between sightings: the order above.
    expect(knownLocationOf({ known_report: point(31, 0), known_duty: point(32, 0) })).toMatchObject({ source: 'LOCATION_REPORT' });
  });

  it('is the end of the last completed route only when that is newer than every sighting, and never over that route’s own last position', () => {
    expect(knownLocationOf({ known_last_route: lastRoute(-1) })).toMatchObject({ source: 'LAST_ROUTE', name: 'Dallas, TX', latitude: 32.78, routeId: 'rte_last' });
    expect(knownLocationOf({ known_report: point(31, -2), known_last_route: lastRoute(-1) })).toMatchObject({ source: 'LAST_ROUTE' });
    expect(knownLocationOf({ known_report: point(31, 0), known_last_route: lastRoute(-1) })).toMatchObject({ source: 'LOCATION_REPORT' });
    // The route's own last position, moments before it was completed: where the truck really was.
    expect(knownLocationOf({ known_position: point(30, -1.01, { route_id: 'rte_last' }), known_last_route: lastRoute(-1) })).toMatchObject({ source: 'POSITION', latitude: 30 });
    // A position of an older route: the later completion wins.
    expect(knownLocationOf({ known_position: point(30, -5, { route_id: 'rte_old' }), known_last_route: lastRoute(-1) })).toMatchObject({ source: 'LAST_ROUTE' });
  });

  it('ignores what cannot be read', () => {
    expect(knownLocationOf({ known_report: { latitude: 'x', longitude: -97, recorded_at: at(0) }, known_duty: point(32, -1) })).toMatchObject({ source: 'DUTY_STATUS' });
    expect(knownLocationOf({ known_report: { latitude: 31, longitude: -97, recorded_at: 'not a time' } })).toBeNull();
  });
});
