import { describe, expect, it } from 'vitest';
import { bookingNotices, truckOf, type BookedRouteItem } from './booking';

const route = (over: Partial<BookedRouteItem>): BookedRouteItem => ({
  id: 'rte_1',
  status: 'ACTIVE',
  driverId: 'drv_m',
  coDriverId: null,
  departureTime: '2026-03-02T14:00:00Z',
  arrivalTime: '2026-03-02T20:20:00Z',
  origin: { name: 'Dallas, TX', timeZone: 'America/Chicago' },
  destination: { name: 'Oklahoma City, OK', timeZone: 'America/Chicago' },
  ...over,
});
const DEPARTURE = Date.parse('2026-03-02T16:00:00Z');

describe('before planning: the driver’s routes still running at the departure', () => {
  it('an active one, in words, with its times in its stops’ zones', () => {
    expect(bookingNotices([route({})], 'drv_m', 'Maria Lopez', DEPARTURE)).toEqual([
      {
        routeId: 'rte_1',
        text: 'Maria Lopez is on the active route Dallas, TX → Oklahoma City, OK, Mon, Mar 2, 08:00 CST to Mon, Mar 2, 14:20 CST: a route for the same time cannot be activated until that one is completed or cancelled.',
      },
    ]);
  });

  it('a planned one as co-driver too; none that ended before, or that were completed, cancelled, or someone else’s', () => {
    const routes = [
      route({ id: 'rte_co', status: 'PLANNED', driverId: 'drv_x', coDriverId: 'drv_m', departureTime: '2026-03-02T17:00:00Z', arrivalTime: '2026-03-02T23:00:00Z' }),
      route({ id: 'rte_done', arrivalTime: '2026-03-02T15:00:00Z' }),
      route({ id: 'rte_cancelled', status: 'CANCELLED' }),
      route({ id: 'rte_other', driverId: 'drv_x' }),
    ];
    expect(bookingNotices(routes, 'drv_m', 'Maria Lopez', DEPARTURE).map((n) => [n.routeId, n.text.split(':')[0]])).toEqual([['rte_co', 'Maria Lopez is on the planned route Dallas, TX → Oklahoma City, OK, Mon, Mar 2, 11']]);
  });

  it('the driver’s truck is the vehicle of their truck number', () => {
    const vehicles = [{ id: 'veh_1', unitNumber: 'T-101' }, { id: 'veh_2', unitNumber: 'T-102' }];
    expect(truckOf({ truckNumber: ' t-102' }, vehicles)?.id).toBe('veh_2');
    expect(truckOf({ truckNumber: null }, vehicles)).toBeUndefined();
    expect(truckOf({ truckNumber: 'T-999' }, vehicles)).toBeUndefined();
    expect(truckOf(undefined, vehicles)).toBeUndefined();
  });
});
