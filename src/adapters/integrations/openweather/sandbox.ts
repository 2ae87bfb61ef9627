/**
 * A local OpenWeather One Call 3.0: `GET /data/3.0/onecall?lat=&lon=&appid=&units=&exclude=` answering
 * 48 calm hours from the current hour, with "zones" (a circle around a point) that put alerts and
 * hourly conditions on the points inside them; API-key checks and the shared fault injection.
 * Deliberate difference from OpenWeather: the 401 body echoes the key presented (OpenWeather's says
 * only "Invalid API key…"), so tests prove the key never leaks into an error.
 */
import { timeZoneAt, utcOffsetMinutes } from '../../../domain/planning/local-time.js';
import { haversineMiles } from '../../../domain/geo/index.js';
import { startSandboxServer, type SandboxFault, type SandboxRequest } from '../sandbox-kit.js';
import { ONECALL_PATH, type OwAlert, type OwHour, type OwOneCall } from './mapping.js';

export type { SandboxFault } from '../sandbox-kit.js';

export const OPENWEATHER_SANDBOX_KEY = 'owsandbox0123456789abcdef01234567';

/** Alerts and hour overrides for the points within `radiusMiles` of a centre. */
export interface OwZone {
  latitude: number;
  longitude: number;
  radiusMiles: number;
  alerts?: OwAlert[];
  /** Overrides by hour index (0 = the current hour); wind in mph, visibility in metres. */
  hours?: Record<number, Partial<Omit<OwHour, 'dt'>>>;
}

export interface OpenWeatherSandboxState {
  apiKey: string;
  zones: OwZone[];
  requests: SandboxRequest[];
}

export interface OpenWeatherSandbox {
  url: string;
  state: OpenWeatherSandboxState;
  inject(fault: SandboxFault): void;
  close(): Promise<void>;
}

export interface OpenWeatherSandboxOptions {
  apiKey?: string;
  /** The sandbox's clock (tests pass their FakeClock's). */
  now?: () => Date;
  port?: number;
}

const HOUR_S = 3600;
const MPH_TO_MS = 0.44704;

const calmHour = (dt: number): OwHour => ({
  dt,
  temp: 38.5,
  feels_like: 31.2,
  pressure: 1016,
  humidity: 70,
  dew_point: 29.8,
  uvi: 0,
  clouds: 40,
  visibility: 10000,
  wind_speed: 9.2,
  wind_deg: 200,
  wind_gust: 14.5,
  weather: [{ id: 802, main: 'Clouds', description: 'scattered clouds', icon: '03d' }],
  pop: 0,
});

function answer(state: OpenWeatherSandboxState, now: Date, lat: number, lon: number, units: string, exclude: Set<string>): OwOneCall {
  const zones = state.zones.filter((z) => haversineMiles(z, { latitude: lat, longitude: lon }) <= z.radiusMiles);
  const hour0 = Math.floor(now.getTime() / 1000 / HOUR_S) * HOUR_S;
  const hourly = Array.from({ length: 48 }, (_, i) => {
    const h = calmHour(hour0 + i * HOUR_S);
    for (const z of zones) Object.assign(h, z.hours?.[i] ?? {});
    if (units !== 'imperial') {
      h.wind_speed = h.wind_speed === undefined ? undefined : Math.round(h.wind_speed * MPH_TO_MS * 100) / 100;
      h.wind_gust = h.wind_gust === undefined ? undefined : Math.round(h.wind_gust * MPH_TO_MS * 100) / 100;
    }
    return h;
  });
  const alerts = zones.flatMap((z) => z.alerts ?? []);
  // The zone of the place asked about, as OpenWeather answers it.
  const timezone = timeZoneAt({ latitude: lat, longitude: lon });
  const body: OwOneCall = { lat, lon, timezone, timezone_offset: utcOffsetMinutes(timezone, now.getTime()) * 60 };
  if (!exclude.has('current')) body.current = { ...hourly[0]!, dt: Math.floor(now.getTime() / 1000), sunrise: hour0 - 3 * HOUR_S, sunset: hour0 + 8 * HOUR_S };
  if (!exclude.has('hourly')) body.hourly = hourly;
  // OpenWeather leaves `alerts` out when there are none.
  if (!exclude.has('alerts') && alerts.length > 0) body.alerts = alerts;
  return body;
}

const coordinate = (raw: string | null, limit: number): number | null => {
  if (raw === null || raw.trim() === '') return null;
  const v = Number(raw);
  return Number.isFinite(v) && Math.abs(v) <= limit ? v : null;
};

export async function startOpenWeatherSandbox(options: OpenWeatherSandboxOptions = {}): Promise<OpenWeatherSandbox> {
  const state: OpenWeatherSandboxState = { apiKey: options.apiKey ?? OPENWEATHER_SANDBOX_KEY, zones: [], requests: [] };
  const now = options.now ?? (() => new Date());
  const server = await startSandboxServer({
    port: options.port,
    authorized: ({ url }) => url.searchParams.get('appid') === state.apiKey,
    handle: ({ method, url }) => {
      if (method !== 'GET') return { status: 405, body: { cod: 405, message: 'Method not allowed' } };
      if (url.pathname !== ONECALL_PATH) return { status: 404, body: { cod: 404, message: 'Internal error: not found' } };
      const appid = url.searchParams.get('appid') ?? '';
      if (appid !== state.apiKey) return { status: 401, body: { cod: 401, message: `Invalid API key ${appid}. Please see https://openweathermap.org/faq#error401 for more info.` } };
      const lat = coordinate(url.searchParams.get('lat'), 90);
      const lon = coordinate(url.searchParams.get('lon'), 180);
      if (lat === null) return { status: 400, body: { cod: '400', message: 'wrong latitude' } };
      if (lon === null) return { status: 400, body: { cod: '400', message: 'wrong longitude' } };
      const exclude = new Set((url.searchParams.get('exclude') ?? '').split(',').map((s) => s.trim()).filter(Boolean));
      return { status: 200, body: answer(state, now(), lat, lon, url.searchParams.get('units') ?? 'standard', exclude) };
    },
  });
  state.requests = server.requests;
  return { url: server.url, state, inject: server.inject, close: server.close };
}
