import { describe, expect, it } from 'vitest';
import { haversineMiles } from '../geo/index.js';
import { timeZoneAt } from '../planning/local-time.js';
import { BOOKED_READ_LIMIT, bookingWarnings, FAR_FROM_ORIGIN_MILES, type BookedRoute } from './booking.js';

const H = 3_600_000;
const T0 = Date.parse('2026-03-02T15:00:00Z'); // 09:00 CST
const DALLAS = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797 };
const FORT_WORTH = { name: 'Fort Worth, TX', latitude: 32.7555, longitude: -97.3308 };
const OKC = { name: 'Oklahoma City, OK', latitude: 35.4676, longitude: -97.5164 };
const words = { distance: haversineMiles, zoneAt: timeZoneAt };
const trip = { departure: T0, arrival: T0 + 4 * H, origin: DALLAS };
const route = (id: string, status: BookedRoute['status'], from: number, to: number, extra: Partial<BookedRoute> = {}): BookedRoute => ({
  id,
  status,
  driverId: 'drv_a',
  coDriverId: null,
  departure: T0 + from * H,
  arrival: T0 + to * H,
  from: DALLAS,
  to: OKC,
  loadReference: null,
  ...extra,
});
const ann = { id: 'drv_a', name: 'Ann Able', lastKnown: null };

describe('double bookings in words', () => {
  it('nothing booked, nothing known: nothing to say', () => {
    expect(bookingWarnings(trip, [ann], [], words)).toEqual([]);
    // Routes of other drivers, or before and after, that end where this one starts: nothing either.
    expect(bookingWarnings(trip, [ann], [route('r1', 'ACTIVE', 0, 2, { driverId: 'drv_b' }), route('r2', 'PLANNED', -6, -1, { to: FORT_WORTH })], words)).toEqual([]);
  });

  it('one overlapping route is named with its times in their zones; an active one says activation waits', () => {
    expect(bookingWarnings(trip, [ann], [route('r1', 'ACTIVE', -1, 1, { loadReference: 'L-7' })], words)).toEqual([
      'Ann Able is already on the active route Dallas, TX → Oklahoma City, OK (load L-7), Mon, Mar 2, 08:00 CST to Mon, Mar 2, 10:00 CST, at the same time as this one: only one of the two can be driven; this route cannot be activated until that one is completed or cancelled.',
    ]);
  });

  it('several are counted in one sentence, the active one named first', () => {
    const many = [route('r1', 'PLANNED', 1, 2), route('r2', 'ACTIVE', 3, 5), route('r3', 'PLANNED', 0, 8)];
    expect(bookingWarnings(trip, [ann], many, words)).toEqual([
      'Ann Able is already on 3 other routes at the same time as this one, among them the active route Dallas, TX → Oklahoma City, OK, Mon, Mar 2, 12:00 CST to Mon, Mar 2, 14:00 CST: only one can be driven; this route cannot be activated until the active one is completed or cancelled.',
    ]);
  });

  it('far from the origin at the departure: the latest route that ends before it, else where the driver was last known', () => {
    const away = bookingWarnings(trip, [ann], [route('r1', 'PLANNED', -8, -2), route('r0', 'PLANNED', -30, -20, { to: DALLAS })], words);
    expect(away).toEqual([expect.stringMatching(/^Ann Able will be about 1\d\d mi from Dallas, TX when this route departs, Mon, Mar 2, 09:00 CST \(where their planned route Dallas, TX → Oklahoma City, OK ends, Mon, Mar 2, 07:00 CST\): the plan does not include the drive there\.$/)]);
    const seen = { ...ann, lastKnown: { point: OKC, at: T0 - H, name: 'near Oklahoma City, OK' } };
    expect(bookingWarnings(trip, [seen], [], words)).toEqual([expect.stringMatching(/\(last known near Oklahoma City, OK, Mon, Mar 2, 08:00 CST\)/)]);
    // Within the limit (Fort Worth is ~30 mi from Dallas), or a sighting after the departure: nothing.
    expect(haversineMiles(FORT_WORTH, DALLAS)).toBeLessThan(FAR_FROM_ORIGIN_MILES);
    expect(bookingWarnings(trip, [{ ...ann, lastKnown: { point: FORT_WORTH, at: T0 - H, name: 'near Fort Worth, TX' } }], [], words)).toEqual([]);
    expect(bookingWarnings(trip, [{ ...ann, lastKnown: { point: OKC, at: T0 + H, name: 'x' } }], [], words)).toEqual([]);
  });

  it('each of a team is judged on their own routes, as driver or co-driver', () => {
    const bo = { id: 'drv_b', name: 'Bo Baker', lastKnown: null };
    const warnings = bookingWarnings(trip, [ann, bo], [route('r1', 'PLANNED', 1, 2, { driverId: 'drv_x', coDriverId: 'drv_b' })], words);
    expect(warnings).toEqual([expect.stringMatching(/^Bo Baker is already on the planned route /)]);
  });

  it('beyond what the caller reads (BOOKED_READ_LIMIT + 1), said as "more than"; the named one among equals is the one with its stops', () => {
    // What the service reads for a driver with hundreds of planned routes at that time: the first named, the rest counted only.
    const many = Array.from({ length: BOOKED_READ_LIMIT + 1 }, (_, i) => route(`r${i}`, 'PLANNED', 1, 2, i === 7 ? {} : { from: null, to: null }));
    expect(bookingWarnings(trip, [ann], many, words)).toEqual([
      `Ann Able is already on more than ${BOOKED_READ_LIMIT} other routes at the same time as this one, among them the planned route Dallas, TX → Oklahoma City, OK, Mon, Mar 2, 10:00 CST to Mon, Mar 2, 11:00 CST: only one can be driven.`,
    ]);
    expect(bookingWarnings(trip, [ann], many.slice(0, BOOKED_READ_LIMIT), words)[0]).toMatch(new RegExp(`already on ${BOOKED_READ_LIMIT} other routes`));
  });
});
