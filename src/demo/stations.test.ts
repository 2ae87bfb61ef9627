/**
 * Every fuel station the service's own data serves (the demo's stations along its routes, and the HERE
 * sandbox's corridor) is named for the state its coordinates fall in, by the Census Bureau's state
 * boundaries (issue 26: "Redbud Travel Center #240, Near Phoenix, AZ" stood in Ontario, California).
 */
import { describe, expect, it } from 'vitest';
import { stateAt, statesNear } from '../../test/helpers/us-states.js';
import { seedHereStations } from '../adapters/integrations/here/sandbox.js';
import { stationName } from '../adapters/integrations/here/mapping.js';
import { haversineMiles } from '../domain/geo/index.js';
import type { Segment } from '../domain/planning/types.js';
import { FLEET, type Truck } from './fleet.js';
import { stationsAlongRoutes } from './vendor-data.js';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');

/**
 * Whether a station's state is the one its coordinates fall in; a point the 1:10,000,000 boundaries put
 * just offshore (the demo's straight lines cross Lake Michigan's and Puget Sound's shores) may name a
 * state of the shore within 5 miles.
 */
const rightState = (region: string | undefined, p: { latitude: number; longitude: number }) => {
  const state = stateAt(p);
  return state !== null ? region === state : region !== undefined && statesNear(p, 5).has(region);
};

/** Each demo truck's trip as the demo plans it: a drive from its origin to its destination. */
const trucks = FLEET.map((spec) => {
  const segments = [{ type: 'drive', from: spec.from, to: spec.to, distance_miles: haversineMiles(spec.from, spec.to) }] as unknown as Segment[];
  return { spec, segments } as unknown as Truck;
});

describe('the fuel station tables', () => {
  it('the boundary check itself: known cities fall in their states', () => {
    expect(stateAt({ latitude: 34.0633, longitude: -117.6509 })).toBe('CA'); // Ontario, CA
    expect(stateAt({ latitude: 33.4484, longitude: -112.074 })).toBe('AZ'); // Phoenix
    expect(stateAt({ latitude: 33.2148, longitude: -97.1331 })).toBe('TX'); // Denton
    expect(stateAt({ latitude: 45.5152, longitude: -122.6784 })).toBe('OR'); // Portland, across the river from Vancouver, WA
    expect(stateAt({ latitude: 45.6387, longitude: -122.6615 })).toBe('WA');
    expect(stateAt({ latitude: 30, longitude: -60 })).toBeNull(); // the Atlantic
  });

  it("every demo station's state is the state its coordinates fall in, and its name says where it is", () => {
    const stations = stationsAlongRoutes(trucks, NOW);
    expect(stations.length).toBeGreaterThan(50);
    const wrong = stations.filter((s) => !rightState(s.address.region, s.position)).map((s) => `${s.name} (${s.address.city}, ${s.address.region}) at ${s.position.latitude}, ${s.position.longitude}: ${stateAt(s.position)}`);
    expect(wrong).toEqual([]);
    for (const s of stations) {
      expect(s.address.city).not.toMatch(/^near /i);
      expect(stationName(s)).toBe(`${s.name}, ${s.address.city}, ${s.address.region}`);
    }
    // The station of the issue: on I-10 east of Los Angeles, in California.
    const ontario = stations.find((s) => haversineMiles(s.position, { latitude: 34.07, longitude: -117.59 }) < 15);
    expect(ontario?.address.region).toBe('CA');
  });

  it("every HERE sandbox station's state is the state its coordinates fall in", () => {
    const stations = seedHereStations(new Date(NOW));
    const wrong = stations.filter((s) => !rightState(s.address?.region, s.position!)).map((s) => `${s.name} (${s.address?.city}, ${s.address?.region}) at ${s.position!.latitude}, ${s.position!.longitude}: ${stateAt(s.position!)}`);
    expect(wrong).toEqual([]);
  });
});
