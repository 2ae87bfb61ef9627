import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineMiles, type LatLng, pathLengthMiles } from '../../../domain/geo/index.js';
import { createDistanceProvider, type DistanceProvider, DistanceProviderError } from '../index.js';
import { createOsrmClient } from './osrm.client.js';
import { type OsrmSandbox, startOsrmSandbox } from './osrm.sandbox.js';

const at = (latitude: number, longitude: number): LatLng => ({ latitude, longitude });
const DALLAS = at(32.7767, -96.797);
const OKLAHOMA_CITY = at(35.4676, -97.5164);
const AMARILLO = at(35.222, -101.8313);
const HONOLULU = at(21.3069, -157.8583);
const LONDON = at(51.5074, -0.1278);

async function failure(promise: Promise<unknown>): Promise<DistanceProviderError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DistanceProviderError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

/** A server that accepts connections and never answers. */
async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('OSRM client against the sandbox', () => {
  let sandbox: OsrmSandbox;
  let osrm: DistanceProvider;

  beforeAll(async () => {
    sandbox = await startOsrmSandbox();
    osrm = createOsrmClient({ baseUrl: `${sandbox.url}/` });
  });
  afterAll(() => sandbox.close());

  it('returns one leg per pair of stops with road distance, duration and geometry', async () => {
    const legs = await osrm.legs([DALLAS, OKLAHOMA_CITY, AMARILLO]);
    expect(osrm.method).toBe('osrm');
    expect(legs).toHaveLength(2);
    const straight = haversineMiles(DALLAS, OKLAHOMA_CITY);
    expect(legs[0]!.distanceMiles).toBeCloseTo(straight * 1.2, 3); // the sandbox's road factor
    expect(legs[0]!.durationHours).toBeCloseTo((straight * 1.2) / 55, 3);
    // Geometry: from stop to stop, densified, cut per leg at the shared waypoint.
    expect(haversineMiles(legs[0]!.geometry[0]!, DALLAS)).toBeLessThan(0.01);
    expect(haversineMiles(legs[0]!.geometry.at(-1)!, OKLAHOMA_CITY)).toBeLessThan(0.01);
    expect(legs[1]!.geometry[0]).toEqual(legs[0]!.geometry.at(-1));
    expect(haversineMiles(legs[1]!.geometry.at(-1)!, AMARILLO)).toBeLessThan(0.01);
    expect(pathLengthMiles(legs[1]!.geometry)).toBeCloseTo(haversineMiles(OKLAHOMA_CITY, AMARILLO), 1);
    expect(legs[1]!.geometry.length).toBeGreaterThan(5);
  });

  it('speaks the documented request format', async () => {
    await osrm.legs([DALLAS, AMARILLO]);
    const path = sandbox.requests.at(-1)!;
    expect(path).toMatch(/^\/route\/v1\/driving\/-96\.797000,32\.776700;-101\.831300,35\.222000\?/);
    const query = new URL(path, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({ overview: 'full', geometries: 'geojson', steps: 'false', annotations: 'distance' });
  });

  it('needs no request for fewer than two points, and validates points', async () => {
    const before = sandbox.requests.length;
    expect(await osrm.legs([DALLAS])).toEqual([]);
    expect(sandbox.requests.length).toBe(before);
    expect((await failure(osrm.legs([DALLAS, at(95, 0)]))).code).toBe('INVALID_INPUT');
  });

  it('reports NoRoute and NoSegment as typed client errors', async () => {
    const noRoute = await failure(osrm.legs([DALLAS, HONOLULU]));
    expect(noRoute).toMatchObject({ code: 'NO_ROUTE', isClientError: true, details: { httpStatus: 400, vendorCode: 'NoRoute' } });
    const noSegment = await failure(osrm.legs([DALLAS, LONDON]));
    expect(noSegment).toMatchObject({ code: 'NO_SEGMENT', details: { vendorCode: 'NoSegment' } });
  });

  it('honours a custom NoRoute rule', async () => {
    const closedBorder = await startOsrmSandbox({ noRoute: (points) => points.some((p) => p.latitude < 26) });
    try {
      const client = createOsrmClient({ baseUrl: closedBorder.url });
      expect((await failure(client.legs([DALLAS, at(25.6866, -100.3161)]))).code).toBe('NO_ROUTE');
      expect(await client.legs([DALLAS, AMARILLO])).toHaveLength(1);
    } finally {
      await closedBorder.close();
    }
  });
});

describe('OSRM client failures', () => {
  it('times out on a server that never answers, without hanging', async () => {
    const silent = await startSilentServer();
    try {
      const client = createOsrmClient({ baseUrl: silent.url, timeoutMs: 150 });
      const started = performance.now();
      const err = await failure(client.legs([DALLAS, AMARILLO]));
      expect(err).toMatchObject({ code: 'TIMEOUT', isClientError: false });
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await silent.close();
    }
  });

  it('times out on a slow answer too', async () => {
    const slow = await startOsrmSandbox({ delayMs: 1_000 });
    try {
      const err = await failure(createOsrmClient({ baseUrl: slow.url, timeoutMs: 100 }).legs([DALLAS, AMARILLO]));
      expect(err.code).toBe('TIMEOUT');
    } finally {
      await slow.close();
    }
  });

  it('reports a refused connection as UNAVAILABLE', async () => {
    const gone = await startSilentServer();
    await gone.close();
    const err = await failure(createOsrmClient({ baseUrl: gone.url, timeoutMs: 2_000 }).legs([DALLAS, AMARILLO]));
    expect(err.code).toBe('UNAVAILABLE');
  });

  it('reports a non-JSON error page as UNAVAILABLE', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad gateway</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const err = await failure(createOsrmClient({ baseUrl: url }).legs([DALLAS, AMARILLO]));
      expect(err).toMatchObject({ code: 'UNAVAILABLE', details: { httpStatus: 502 } });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('createDistanceProvider', () => {
  it('builds the configured method', () => {
    expect(createDistanceProvider({ method: 'haversine' }).method).toBe('haversine');
    expect(createDistanceProvider({ method: 'osrm', osrmUrl: 'http://127.0.0.1:5000' }).method).toBe('osrm');
    expect(() => createDistanceProvider({ method: 'osrm' })).toThrow(/OSRM_URL/);
  });
});
