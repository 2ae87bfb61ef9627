import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DistanceProviderError } from '../distance.port.js';
import { legsFromOsrmResponse, osrmError } from './osrm.normalize.js';

/** Hand-written in the documented response format (docs/http.md), Dallas → Oklahoma City → Amarillo. */
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

const catchError = (fn: () => unknown): DistanceProviderError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DistanceProviderError) return err;
    throw err;
  }
  throw new Error('expected a DistanceProviderError');
};

describe('legsFromOsrmResponse', () => {
  it('converts metres and seconds and cuts the overview per leg by the annotation counts', () => {
    const legs = legsFromOsrmResponse(fixture('route-two-legs.json'), 3);
    expect(legs).toHaveLength(2);
    expect(legs[0]!.distanceMiles).toBeCloseTo(331482.6 / 1609.344, 9);
    expect(legs[0]!.durationHours).toBeCloseTo(10921.7 / 3600, 9);
    expect(legs[1]!.distanceMiles).toBeCloseTo(259.95, 2);
    expect(legs[0]!.geometry).toHaveLength(4);
    expect(legs[1]!.geometry).toHaveLength(3);
    // The shared waypoint ends one leg and starts the next; coordinates are [lon, lat] on the wire.
    expect(legs[0]!.geometry[3]).toEqual({ latitude: 35.467602, longitude: -97.516411 });
    expect(legs[1]!.geometry[0]).toEqual(legs[0]!.geometry[3]);
    expect(legs[0]!.geometry[0]).toEqual({ latitude: 32.776711, longitude: -96.797012 });
  });

  it('falls back to the snapped waypoints when there are no annotations', () => {
    const withAnnotations = legsFromOsrmResponse(fixture('route-two-legs.json'), 3);
    const withoutAnnotations = legsFromOsrmResponse(fixture('route-two-legs-no-annotations.json'), 3);
    expect(withoutAnnotations.map((l) => l.geometry)).toEqual(withAnnotations.map((l) => l.geometry));
  });

  it('rejects malformed or mismatched payloads as BAD_RESPONSE', () => {
    const ok = fixture('route-two-legs.json') as { routes: Array<Record<string, unknown>> };
    expect(catchError(() => legsFromOsrmResponse(ok, 4)).code).toBe('BAD_RESPONSE'); // 3 legs expected
    expect(catchError(() => legsFromOsrmResponse(null, 3)).code).toBe('BAD_RESPONSE');
    expect(catchError(() => legsFromOsrmResponse({ code: 'Ok', routes: [] }, 3)).code).toBe('BAD_RESPONSE');
    const noGeometry = structuredClone(ok);
    delete noGeometry.routes[0]!.geometry;
    expect(catchError(() => legsFromOsrmResponse(noGeometry, 3)).message).toMatch(/overview=full/);
    const noWaypoints = fixture('route-two-legs-no-annotations.json') as Record<string, unknown>;
    delete noWaypoints.waypoints;
    expect(catchError(() => legsFromOsrmResponse(noWaypoints, 3)).code).toBe('BAD_RESPONSE');
  });

  it('maps OSRM error codes', () => {
    const noRoute = catchError(() => legsFromOsrmResponse(fixture('no-route.json'), 2));
    expect(noRoute).toMatchObject({ code: 'NO_ROUTE', isClientError: true, details: { vendorCode: 'NoRoute' } });
    expect(osrmError('NoSegment', undefined, 400)).toMatchObject({ code: 'NO_SEGMENT', isClientError: true });
    expect(osrmError('TooBig', 'too many', 400).code).toBe('INVALID_INPUT');
    expect(osrmError('SomethingNew', undefined, 400)).toMatchObject({ code: 'UNAVAILABLE', isClientError: false });
  });
});
