import { describe, expect, it } from 'vitest';
import { formatAddress, mapOrder, mapOrders, mapStatus, parseStopTime, weightPounds, type McLeodOrder } from './mapping.js';

const specOrder: McLeodOrder = {
  id: 'ord-1',
  orderNumber: 'MCL-1',
  status: 'dispatched',
  billTo: { name: 'Acme Foods' },
  stops: [
    { address: '1 Commerce St', city: 'Dallas', state: 'TX', zipCode: '75202', earlyDate: '2025-03-01T14:00:00Z' },
    { address: '9 Main St', city: 'Tulsa', state: 'OK', zipCode: '74103', earlyDate: '2025-03-01T18:00:00Z' },
    { address: '2 Peachtree St', city: 'Atlanta', state: 'GA', zipCode: '30303', earlyDate: '2025-03-02T16:30:00-05:00' },
  ],
  totalWeight: 42500,
  commodity: { description: 'Frozen poultry' },
};

describe('McLeod order mapping', () => {
  it("maps the spec's order shape field by field (first / last stop, not the middle one)", () => {
    expect(mapOrder(specOrder)).toEqual({
      externalId: 'ord-1',
      referenceNumber: 'MCL-1',
      customer: 'Acme Foods',
      originAddress: '1 Commerce St, Dallas, TX 75202',
      destinationAddress: '2 Peachtree St, Atlanta, GA 30303',
      scheduledPickup: '2025-03-01T14:00:00.000Z',
      scheduledDelivery: '2025-03-02T21:30:00.000Z',
      weight: 42500,
      commodity: 'Frozen poultry',
      status: 'ASSIGNED',
    });
  });

  it("maps McLeod's snake_case RowOrders / RowStop form, stops by order_sequence", () => {
    const row = {
      __type: 'orders',
      id: '0412345',
      status: 'P',
      customer: { __type: 'customer', name: 'Globex Corp' },
      weight: '1000',
      weight_um: 'KG',
      commodity: 'Steel coils',
      stops: [
        { __type: 'stop', order_sequence: 2, address: '500 Dock Rd', city_name: 'Memphis', state: 'TN', zip_code: '38103', sched_arrive_early: '20250302080000-0600' },
        { __type: 'stop', order_sequence: 1, address: '12 Mill Ave', address2: 'Gate 4', city_name: 'Birmingham', state: 'AL', zip_code: '35203', sched_arrive_early: '20250301063000-0600' },
      ],
    } as unknown as McLeodOrder;
    expect(mapOrder(row)).toEqual({
      externalId: '0412345',
      referenceNumber: '0412345',
      customer: 'Globex Corp',
      originAddress: '12 Mill Ave, Gate 4, Birmingham, AL 35203',
      destinationAddress: '500 Dock Rd, Memphis, TN 38103',
      scheduledPickup: '2025-03-01T12:30:00.000Z',
      scheduledDelivery: '2025-03-02T14:00:00.000Z',
      weight: 2204.62,
      commodity: 'Steel coils',
      status: 'IN_TRANSIT',
    });
  });

  it.each([
    ['dispatched', 'ASSIGNED'],
    ['DISPATCHED', 'ASSIGNED'],
    ['in-transit', 'IN_TRANSIT'],
    ['IN_TRANSIT', 'IN_TRANSIT'],
    ['In Transit', 'IN_TRANSIT'],
    ['C', 'ASSIGNED'],
    ['P', 'IN_TRANSIT'],
    ['available', undefined],
    ['completed', undefined],
    ['voided', undefined],
    ['A', undefined],
    ['D', undefined],
    ['V', undefined],
    ['', undefined],
  ])('status %j → %s', (status, expected) => {
    expect(mapStatus(status)).toBe(expected);
  });

  it('only active orders become loads; one load per external id; orders without a number are skipped', () => {
    const orders: McLeodOrder[] = [
      { ...specOrder, id: 'a', orderNumber: 'A', status: 'completed' },
      { ...specOrder, id: 'b', orderNumber: 'B', status: 'voided' },
      { ...specOrder, id: 'c', orderNumber: 'C', status: 'in-transit' },
      { ...specOrder, id: 'c', orderNumber: 'C', status: 'in-transit' },
      { ...specOrder, id: null, orderNumber: '  ', status: 'dispatched' },
      { ...specOrder, id: 'd', orderNumber: 'D', status: 'available' },
    ];
    expect(mapOrders(orders).map((l) => l.referenceNumber)).toEqual(['C']);
  });

  it('missing parts become null rather than guesses', () => {
    expect(mapOrder({ orderNumber: 'X-1', status: 'dispatched' })).toEqual({
      externalId: 'X-1',
      referenceNumber: 'X-1',
      customer: null,
      originAddress: null,
      destinationAddress: null,
      scheduledPickup: null,
      scheduledDelivery: null,
      weight: null,
      commodity: null,
      status: 'ASSIGNED',
    });
    // One stop: an origin and a pickup, no destination.
    const one = mapOrder({ orderNumber: 'X-2', status: 'dispatched', stops: [{ address: '1 A St', earlyDate: '2025-01-01T00:00:00Z' }] });
    expect(one).toMatchObject({ originAddress: '1 A St', destinationAddress: null, scheduledPickup: '2025-01-01T00:00:00.000Z', scheduledDelivery: null });
  });

  it('stop times: ISO 8601 or yyyyMMddHHmmssZ; no zone or nonsense → null', () => {
    expect(parseStopTime('20160816170100-0500')).toBe('2016-08-16T22:01:00.000Z');
    expect(parseStopTime('20160816170100+0130')).toBe('2016-08-16T15:31:00.000Z');
    expect(parseStopTime('20160816170100')).toBeNull();
    expect(parseStopTime('20160231170100-0500')).toBeNull();
    expect(parseStopTime('2025-03-01T14:00:00+02:00')).toBe('2025-03-01T12:00:00.000Z');
    expect(parseStopTime('May 3')).toBeNull();
    expect(parseStopTime('t1 1330')).toBeNull();
    expect(parseStopTime(null)).toBeNull();
  });

  it('weights: pounds as sent, kilograms converted, an unknown unit or an out-of-range value dropped', () => {
    expect(weightPounds({ totalWeight: 40000 })).toBe(40000);
    expect(weightPounds({ weight: 100, weight_um: 'LB' })).toBe(100);
    expect(weightPounds({ weight: '100', weight_um: 'kg' })).toBe(220.46);
    expect(weightPounds({ weight: 10, weight_um: 'TN' })).toBeNull();
    expect(weightPounds({ totalWeight: -5 })).toBeNull();
    expect(weightPounds({ totalWeight: 250_000 })).toBeNull();
    expect(weightPounds({ totalWeight: 'heavy' })).toBeNull();
  });

  it('addresses: a nested address object, and text cut to the API limits', () => {
    expect(formatAddress({ address: { line1: '5 Elm St', city: 'Reno', state: 'NV', zip: '89501' } })).toBe('5 Elm St, Reno, NV 89501');
    const long = mapOrder({ orderNumber: 'R'.repeat(80), status: 'dispatched', billTo: { name: 'N'.repeat(300) }, commodity: { description: 'C'.repeat(300) } });
    expect(long).toMatchObject({ referenceNumber: 'R'.repeat(50), customer: 'N'.repeat(200), commodity: 'C'.repeat(200) });
  });
});
