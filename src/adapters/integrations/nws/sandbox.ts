/**
 * A local api.weather.gov: `/alerts/active?point=lat,lon` (GeoJSON), `/alerts/active/count`,
 * `/points/{lat},{lon}` → `forecastHourly` (a URL on this sandbox), and the hourly forecast it names,
 * 48 calm hours from the current hour. "Zones" (a circle around a point) put alerts and hourly
 * conditions on the points inside them. Like NWS it refuses a request without a User-Agent (403
 * problem+json) and one whose User-Agent it has blocked; points outside its coverage get the 404
 * "Data Unavailable For Requested Point" problem. The shared kit injects faults.
 */
import { randomUUID } from 'node:crypto';
import { haversineMiles } from '../../../domain/geo/index.js';
import { startSandboxServer, type SandboxFault, type SandboxReply, type SandboxRequest } from '../sandbox-kit.js';
import type { NwsAlertProperties, NwsPeriod } from './mapping.js';

export type { SandboxFault } from '../sandbox-kit.js';

export interface NwsZone {
  latitude: number;
  longitude: number;
  radiusMiles: number;
  /** Alerts in effect inside the zone (id, status, messageType, … default to an actual alert). */
  alerts?: (Partial<NwsAlertProperties> & Pick<NwsAlertProperties, 'event' | 'severity' | 'onset' | 'ends'>)[];
  /** Overrides by hour index (0 = the current hour). */
  periods?: Record<number, Partial<Omit<NwsPeriod, 'number' | 'startTime' | 'endTime'>>>;
}

export interface NwsSandboxState {
  zones: NwsZone[];
  /** User-Agent substrings the sandbox refuses (NWS blocks abusive agents). */
  blockedUserAgents: string[];
  /** User-Agents seen, in order. */
  userAgents: string[];
  requests: SandboxRequest[];
}

export interface NwsSandbox {
  url: string;
  state: NwsSandboxState;
  inject(fault: SandboxFault): void;
  close(): Promise<void>;
}

export interface NwsSandboxOptions {
  now?: () => Date;
  port?: number;
}

const HOUR_MS = 3_600_000;
const COORD = /^(-?\d{1,3}(?:\.\d{1,4})?),(-?\d{1,3}(?:\.\d{1,4})?)$/;

const problem = (status: number, title: string, detail: string): SandboxReply => {
  const id = randomUUID();
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: { correlationId: id, title, type: `https://api.weather.gov/problems/${title.replace(/\s+/g, '')}`, status, detail, instance: `https://api.weather.gov/requests/${id}` },
  };
};

/** The sandbox covers the lower 48 states and Alaska, roughly. */
const covered = (lat: number, lon: number): boolean => (lat >= 24 && lat <= 50 && lon >= -125 && lon <= -66) || (lat >= 51 && lat <= 72 && lon >= -170 && lon <= -129);

const zonesAt = (state: NwsSandboxState, lat: number, lon: number): NwsZone[] => state.zones.filter((z) => haversineMiles(z, { latitude: lat, longitude: lon }) <= z.radiusMiles);

function alertsAt(state: NwsSandboxState, lat: number, lon: number, now: Date): unknown {
  const features = zonesAt(state, lat, lon).flatMap((z, zi) =>
    (z.alerts ?? []).map((a, ai) => {
      const id = a.id ?? `urn:oid:2.49.0.1.840.0.sandbox.${zi}.${ai}`;
      const properties: NwsAlertProperties = {
        id,
        areaDesc: 'Sandbox County',
        sent: now.toISOString(),
        effective: now.toISOString(),
        expires: new Date(now.getTime() + 6 * HOUR_MS).toISOString(),
        status: 'Actual',
        messageType: 'Alert',
        category: 'Met',
        certainty: 'Likely',
        urgency: 'Expected',
        senderName: 'NWS Sandbox',
        headline: null,
        description: '',
        instruction: null,
        ...a,
      };
      return { id: `https://api.weather.gov/alerts/${id}`, type: 'Feature', geometry: null, properties };
    }),
  );
  return { '@context': ['https://geojson.org/geojson-ld/geojson-context.jsonld'], type: 'FeatureCollection', features, title: `Current watches, warnings, and advisories for ${lat} N, ${lon} W`, updated: now.toISOString() };
}

function hourly(state: NwsSandboxState, lat: number, lon: number, now: Date): unknown {
  const zones = zonesAt(state, lat, lon);
  const hour0 = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const periods = Array.from({ length: 48 }, (_, i) => {
    const p: NwsPeriod = {
      number: i + 1,
      name: '',
      startTime: new Date(hour0 + i * HOUR_MS).toISOString().replace('.000Z', '+00:00'),
      endTime: new Date(hour0 + (i + 1) * HOUR_MS).toISOString().replace('.000Z', '+00:00'),
      isDaytime: true,
      temperature: 41,
      temperatureUnit: 'F',
      probabilityOfPrecipitation: { unitCode: 'wmoUnit:percent', value: 5 },
      windSpeed: '10 mph',
      windDirection: 'S',
      icon: 'https://api.weather.gov/icons/land/day/sct?size=small',
      shortForecast: 'Partly Sunny',
      detailedForecast: '',
    };
    for (const z of zones) Object.assign(p, z.periods?.[i] ?? {});
    return p;
  });
  return { type: 'Feature', properties: { units: 'us', forecastGenerator: 'HourlyForecastGenerator', updated: now.toISOString(), periods } };
}

export async function startNwsSandbox(options: NwsSandboxOptions = {}): Promise<NwsSandbox> {
  const state: NwsSandboxState = { zones: [], blockedUserAgents: [], userAgents: [], requests: [] };
  const now = options.now ?? (() => new Date());
  let base = '';
  const agentOk = (ua: string | undefined): boolean => typeof ua === 'string' && ua.trim() !== '' && !state.blockedUserAgents.some((b) => ua.includes(b));
  const server = await startSandboxServer({
    port: options.port,
    authorized: ({ headers }) => agentOk(headers['user-agent']),
    handle: ({ method, url, headers }) => {
      const ua = headers['user-agent'];
      if (typeof ua === 'string') state.userAgents.push(ua);
      if (method !== 'GET') return problem(405, 'Method Not Allowed', 'Only GET is supported');
      if (!agentOk(ua)) return problem(403, 'Forbidden', `Access denied for User-Agent "${ua ?? ''}"; identify your application and a contact`);
      const path = url.pathname;
      if (path === '/alerts/active/count') {
        const total = state.zones.reduce((n, z) => n + (z.alerts?.length ?? 0), 0);
        return { status: 200, body: { total, land: total, marine: 0, regions: {}, areas: {}, zones: {} } };
      }
      if (path === '/alerts/active') {
        const point = COORD.exec(url.searchParams.get('point') ?? '');
        if (!point) return problem(400, 'Bad Request', 'Parameter "point" is invalid: expected lat,lon with at most 4 decimals');
        return { status: 200, headers: { 'content-type': 'application/geo+json' }, body: alertsAt(state, Number(point[1]), Number(point[2]), now()) };
      }
      const pt = /^\/points\/([^/]+)$/.exec(path);
      if (pt) {
        const m = COORD.exec(decodeURIComponent(pt[1]!));
        if (!m) return problem(400, 'Invalid Parameter', 'Parameter "point" is invalid');
        const [lat, lon] = [Number(m[1]), Number(m[2])];
        if (!covered(lat, lon)) return problem(404, 'Data Unavailable For Requested Point', `Unable to provide data for requested point ${lat},${lon}`);
        const [gx, gy] = [Math.round((lon + 180) * 100), Math.round((lat + 90) * 100)];
        return {
          status: 200,
          headers: { 'content-type': 'application/geo+json' },
          body: {
            type: 'Feature',
            properties: { gridId: 'TST', gridX: gx, gridY: gy, forecast: `${base}/gridpoints/TST/${gx},${gy}/forecast`, forecastHourly: `${base}/gridpoints/TST/${gx},${gy}/forecast/hourly`, timeZone: 'America/Chicago' },
          },
        };
      }
      const grid = /^\/gridpoints\/TST\/(\d+),(\d+)\/forecast\/hourly$/.exec(path);
      if (grid) return { status: 200, headers: { 'content-type': 'application/geo+json' }, body: hourly(state, Number(grid[2]) / 100 - 90, Number(grid[1]) / 100 - 180, now()) };
      return problem(404, 'Not Found', 'Not Found');
    },
  });
  base = server.url;
  state.requests = server.requests;
  return { url: server.url, state, inject: server.inject, close: server.close };
}
