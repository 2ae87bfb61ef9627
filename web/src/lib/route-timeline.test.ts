import { describe, expect, it } from 'vitest';
import type { Segment } from './route-map';
import { endZone, placedBy, segmentKind, segmentPlace, splitReason, startZone, stopTypeName } from './route-timeline';

const DAL = { name: 'Dallas, TX', latitude: 32.7767, longitude: -96.797, time_zone: 'America/Chicago' };
const ELP = { name: 'El Paso, TX', latitude: 31.7619, longitude: -106.485, time_zone: 'America/Denver' };
const at = (type: string, extra: Record<string, unknown>) => ({ sequence: 1, type, start_time: '2026-03-03T14:00:00Z', end_time: '2026-03-03T15:00:00Z', duration_hours: 1, ...extra }) as unknown as Segment;
const drive = at('drive', { from: DAL, to: ELP, distance_miles: 635 });
const place = { location: ELP.name, latitude: ELP.latitude, longitude: ELP.longitude, time_zone: ELP.time_zone };

describe('the words of a route timeline', () => {
  it('names each kind of segment', () => {
    expect(segmentKind(drive)).toBe('Drive');
    expect(segmentKind(at('rest', { ...place, rest_type: 'break' }))).toBe('30-minute break');
    expect(segmentKind(at('rest', { ...place, rest_type: 'full_rest', restart: true }))).toBe('34-hour restart');
    expect(segmentKind(at('dock', { ...place, stop_type: 'PICKUP' }))).toBe('Pickup at the dock');
    expect(segmentKind(at('fuel', place))).toBe('Fuel');
    expect(segmentKind(at('wait', place))).toBe('Wait');
    expect(segmentKind(at('wait', { ...place, reason: 'Driver change: drv_b takes the wheel, drv_a goes to the sleeper berth (the 11-hour driving limit is reached)' }))).toBe('Driver change');
    expect(segmentKind(at('wait', { ...place, reason: 'Waiting for the appointment window' }))).toBe('Wait');
  });

  it('places a drive between its ends and anything else where it happens, in the zones there', () => {
    expect(segmentPlace(drive)).toBe('Dallas, TX → El Paso, TX');
    expect(segmentPlace(at('fuel', place))).toBe('El Paso, TX');
    expect([startZone(drive), endZone(drive)]).toEqual(['America/Chicago', 'America/Denver']);
    expect([startZone(at('wait', place)), endZone(at('wait', place))]).toEqual(['America/Denver', 'America/Denver']);
  });

  it('cuts a reason after its first sentence', () => {
    expect(splitReason('10-hour rest: 11 hours driven. Rest at El Paso, where parking is easy.')).toEqual({ headline: '10-hour rest: 11 hours driven.', more: 'Rest at El Paso, where parking is easy.' });
    expect(splitReason('30-minute break: 8 hours driven')).toEqual({ headline: '30-minute break: 8 hours driven', more: null });
    expect(splitReason('Waiting 1.5 h.')).toEqual({ headline: 'Waiting 1.5 h.', more: null });
  });

  it('says how a stop was placed and names its type', () => {
    expect(placedBy('COORDINATES')).toBe('By coordinates');
    expect(placedBy('ZIP')).toBe('ZIP code centre');
    expect(placedBy('CITY')).toBe('City centre');
    expect(placedBy('ADDRESS')).toBe('Street address');
    expect(stopTypeName('DELIVERY')).toBe('Delivery');
  });
});
