/**
 * A local stand-in for an OSRM server (node:http on 127.0.0.1, an ephemeral port) speaking the subset
 * the client uses: GET /route/v1/{profile}/{coordinates}?overview=…&geometries=geojson&annotations=….
 * Roads are great circles × a road factor (1.2), driven at 55 mph; geometry is densified every 25 miles.
 * Like a real router it answers NoSegment for a point off the continent and NoRoute between networks a
 * truck cannot drive between (the mainland, Hawaii, Puerto Rico). Used by tests and by `npm run demo`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { greatCirclePath, haversineMiles, isValidLatLng, type LatLng, landMassOf } from '../../../domain/geo/index.js';

export interface OsrmSandboxOptions {
  roadFactor?: number;
  speedMph?: number;
  densifyEveryMiles?: number;
  /** Extra NoRoute cases (e.g. a closed border in a scenario). */
  noRoute?: (points: readonly LatLng[]) => boolean;
  /** Answer after this long (to exercise client timeouts and slow services). */
  delayMs?: number;
}

export interface OsrmSandbox {
  /** Base URL to use as OSRM_URL. */
  readonly url: string;
  /** Request paths received, oldest first. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

const METRES_PER_MILE = 1609.344;

type Reply = { status: number; body: unknown };

const error = (code: string, message: string): Reply => ({ status: 400, body: { code, message } });

export async function startOsrmSandbox(options: OsrmSandboxOptions = {}): Promise<OsrmSandbox> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    const reply = answer(req, options);
    const send = (): void => {
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(reply.body));
    };
    if (options.delayMs) setTimeout(send, options.delayMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(req: IncomingMessage, options: OsrmSandboxOptions): Reply {
  if (req.method !== 'GET') return error('InvalidUrl', 'Only GET is supported');
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const match = /^\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+?)(?:\.json)?$/.exec(url.pathname);
  if (match === null) return error('InvalidUrl', `URL string malformed close to position 1: "${url.pathname}"`);
  const [, service, version, , coordinateText] = match;
  if (service !== 'route') return error('InvalidService', `Service ${service} not found!`);
  if (version !== 'v1') return error('InvalidVersion', `Service ${version} not found!`);

  const points = parseCoordinates(decodeURIComponent(coordinateText!));
  if (points === null) return error('InvalidQuery', 'Query string malformed close to position 0');
  if (points.length < 2) return error('InvalidOptions', 'Number of coordinates needs to be at least two.');
  const geometries = url.searchParams.get('geometries') ?? 'polyline';
  if (geometries !== 'geojson') return error('InvalidOptions', 'The sandbox only returns geometries=geojson');
  const overview = url.searchParams.get('overview') ?? 'simplified';
  const annotations = (url.searchParams.get('annotations') ?? 'false').split(',');
  const wantAnnotation = (name: string): boolean => annotations.includes('true') || annotations.includes(name);

  const landMasses = points.map(landMassOf);
  const offRoad = landMasses.indexOf(null);
  if (offRoad >= 0) return error('NoSegment', `Could not find a matching segment for coordinate ${offRoad}`);
  if (new Set(landMasses).size > 1 || options.noRoute?.(points)) return error('NoRoute', 'Impossible route between points');

  const roadFactor = options.roadFactor ?? 1.2;
  const speedMph = options.speedMph ?? 55;
  const densify = options.densifyEveryMiles ?? 25;
  const metres = (miles: number): number => round(miles * roadFactor * METRES_PER_MILE, 1);
  const seconds = (miles: number): number => round(((miles * roadFactor) / speedMph) * 3600, 1);

  const overviewPath: LatLng[] = [];
  const legs = points.slice(1).map((to, i) => {
    const from = points[i]!;
    const path = greatCirclePath(from, to, densify);
    overviewPath.push(...(i === 0 ? path : path.slice(1)));
    const segmentMiles = path.slice(1).map((p, k) => haversineMiles(path[k]!, p));
    const miles = haversineMiles(from, to);
    const annotation: Record<string, number[]> = {};
    if (wantAnnotation('distance')) annotation.distance = segmentMiles.map(metres);
    if (wantAnnotation('duration')) annotation.duration = segmentMiles.map(seconds);
    return {
      distance: metres(miles),
      duration: seconds(miles),
      weight: seconds(miles),
      summary: '',
      steps: [],
      ...(Object.keys(annotation).length > 0 ? { annotation } : {}),
    };
  });
  const distance = round(legs.reduce((sum, leg) => sum + leg.distance, 0), 1);
  const duration = round(legs.reduce((sum, leg) => sum + leg.duration, 0), 1);
  return {
    status: 200,
    body: {
      code: 'Ok',
      routes: [
        {
          distance,
          duration,
          weight: duration,
          weight_name: 'routability',
          ...(overview === 'false' ? {} : { geometry: { type: 'LineString', coordinates: overviewPath.map(position) } }),
          legs,
        },
      ],
      waypoints: points.map((p) => ({ hint: '', distance: 0, name: '', location: position(p) })),
    },
  };
}

function parseCoordinates(text: string): LatLng[] | null {
  const points: LatLng[] = [];
  for (const pair of text.split(';')) {
    const parts = pair.split(',');
    if (parts.length !== 2 || parts.some((x) => x.trim() === '')) return null;
    const point = { longitude: Number(parts[0]), latitude: Number(parts[1]) };
    if (!isValidLatLng(point)) return null;
    points.push(point);
  }
  return points;
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;
const position = (p: LatLng): [number, number] => [round(p.longitude, 6), round(p.latitude, 6)];
