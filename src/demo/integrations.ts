/**
 * Every kind of integration in the demo, without credentials: every vendor sandbox
 * (adapters/integrations/sandboxes.ts) runs in-process, the service's built-in adapters are pointed at
 * them, their data is rewritten for the demo fleet, and each vendor is connected through the public API
 * with a one-minute sync interval. The steps take an API caller and the started sandboxes, so a test can
 * drive them against an in-process app:
 *
 *   const sandboxes = await startDemoSandboxes();        // before the service reads its environment
 *   pointServiceAtSandboxes(sandboxes);                   // SAMSARA_BASE_URL … unless already set
 *   … start the service, seed the fleet …
 *   const { eld } = await prepareVendorData(sandboxes, trucks, owner, Date.now());
 *   const connected = await connectIntegrations(owner, sandboxes);
 *   … the simulator reports the ELD trucks to `eld` …
 *   await sandboxes.close();
 */
import type { NwsSandboxState } from '../adapters/integrations/nws/sandbox.js';
import type { OpenWeatherSandboxState } from '../adapters/integrations/openweather/sandbox.js';
import type { Project44SandboxState } from '../adapters/integrations/project44/sandbox.js';
import type { SamsaraSandboxState } from '../adapters/integrations/samsara/sandbox.js';
import { VENDOR_SANDBOXES, type RunningSandbox, type VendorSandbox } from '../adapters/integrations/sandboxes.js';
import type { ApiCaller } from './api.js';
import { SamsaraFeed } from './eld-feed.js';
import type { Truck } from './fleet.js';
import { lateShipmentOnProject44, placeWeather, stationsAlongRoutes, weatherOnNws, weatherOnOpenWeather, type DemoFuelStation } from './vendor-data.js';

/** The demo trucks with an ELD in the Samsara sandbox (they report there instead of to the API). */
export const ELD_UNITS = ['T-101', 'T-105'];

/** How often the demo's integrations sync (minutes): the least the API allows, for a lively demo. */
export const DEMO_SYNC_MINUTES = 1;

export interface DemoSandbox {
  vendor: string;
  spec: VendorSandbox;
  sandbox: RunningSandbox;
}

export interface DemoSandboxes {
  all: DemoSandbox[];
  /** Each vendor's environment variable → its sandbox's URL. */
  env: Record<string, string>;
  /** A vendor's sandbox data (of that vendor's state type), if its sandbox runs. */
  state<T>(vendor: string): T | undefined;
  close(): Promise<void>;
}

/** Starts every vendor's sandbox on a free port on 127.0.0.1. */
export async function startDemoSandboxes(specs: readonly VendorSandbox[] = VENDOR_SANDBOXES, now?: Date): Promise<DemoSandboxes> {
  const all: DemoSandbox[] = [];
  try {
    for (const spec of specs) all.push({ vendor: spec.vendor, spec, sandbox: await spec.start({ port: 0, now }) });
  } catch (err) {
    await Promise.all(all.map((s) => s.sandbox.close()));
    throw err;
  }
  const env = Object.fromEntries(all.flatMap((s) => (s.spec.envVar ? [[s.spec.envVar, s.sandbox.url]] : [])));
  return {
    all,
    env,
    state: <T>(vendor: string) => all.find((s) => s.vendor === vendor)?.sandbox.state as T | undefined,
    close: async () => {
      await Promise.all(all.map((s) => s.sandbox.close()));
    },
  };
}

/**
 * Points the service's adapters at the sandboxes: sets each vendor's environment variable unless the
 * user has set it already. Answers the vendors left pointing elsewhere (the demo's data is not there).
 */
export function pointServiceAtSandboxes(sandboxes: DemoSandboxes, env: NodeJS.ProcessEnv = process.env): string[] {
  const elsewhere: string[] = [];
  for (const s of sandboxes.all) {
    const name = s.spec.envVar;
    if (!name) continue;
    if (env[name] !== undefined && env[name] !== '' && env[name] !== s.sandbox.url) elsewhere.push(s.vendor);
    else env[name] = s.sandbox.url;
  }
  return elsewhere;
}

/**
 * Rewrites the sandboxes' data for the demo fleet (`owner`: the tenant's API caller; `now`: real ms).
 * Call after the fleet is seeded and before connecting. Answers the Samsara feed the simulator reports
 * the ELD trucks to (absent without a Samsara sandbox).
 */
export async function prepareVendorData(sandboxes: DemoSandboxes, trucks: Truck[], owner: ApiCaller, now: number): Promise<{ eld?: SamsaraFeed }> {
  const weather = placeWeather(trucks);
  const openWeather = sandboxes.state<OpenWeatherSandboxState>('openweather');
  if (openWeather) weatherOnOpenWeather(openWeather, weather, now);
  const nws = sandboxes.state<NwsSandboxState>('nws');
  if (nws) weatherOnNws(nws, weather, now);
  const p44 = sandboxes.state<Project44SandboxState>('project44');
  if (p44) lateShipmentOnProject44(p44, trucks, now);
  // The fuel vendor (HERE) serves stations along the demo routes instead of its own corridor.
  const fuel = sandboxes.state<{ stations: DemoFuelStation[] }>('here');
  if (fuel) fuel.stations = stationsAlongRoutes(trucks.filter((t) => !t.spec.planned), now);
  const samsara = sandboxes.state<SamsaraSandboxState>('samsara');
  if (!samsara) return {};
  const eldTrucks = trucks.filter((t) => ELD_UNITS.includes(t.spec.unit) && !t.spec.planned);
  const eld = await SamsaraFeed.start(samsara, eldTrucks, owner, now);
  if (eldTrucks[0]) eld.reportFault(eldTrucks[0], now);
  if (eldTrucks[1]) eld.reportUnassignedDriving(eldTrucks[1], now);
  return { eld };
}

export interface ConnectedIntegration {
  vendor: string;
  id: string;
  /** The connection test passed (the integration is ACTIVE and syncs at once). */
  ok: boolean;
  message: string;
}

/** Creates and tests an integration per sandbox through the API; a failing vendor does not stop the others. */
export async function connectIntegrations(owner: ApiCaller, sandboxes: DemoSandboxes): Promise<ConnectedIntegration[]> {
  const connected: ConnectedIntegration[] = [];
  for (const s of sandboxes.all) {
    const created = await owner.call<{ id: string }>('POST', '/api/v1/integrations', {
      vendor: s.vendor,
      name: `${s.vendor} (sandbox)`,
      config: s.spec.config(s.sandbox),
      syncIntervalMinutes: DEMO_SYNC_MINUTES,
    });
    const tested = await owner.call<{ testResult: string; message?: string }>('POST', `/api/v1/integrations/${created.id}/test`);
    connected.push({ vendor: s.vendor, id: created.id, ok: tested.testResult === 'SUCCESS', message: tested.message ?? tested.testResult });
  }
  return connected;
}

/** One line per vendor on what the demo shows through it. */
const SHOWS: Record<string, string> = {
  samsara: 'ELD: T-101 and T-105 report positions, duty statuses and HOS clocks through Samsara (HOS source "samsara"); T-101 a coolant fault (VEHICLE_FAULT); T-105 45 minutes of driving with nobody logged in (Unassigned driving, flagged)',
  motive: 'ELD: its own sandbox fleet, none of it ours: syncs succeed, its drivers and vehicles count as unmatched',
  mcleod: 'TMS: its orders become loads (GET /api/v1/loads: source "mcleod")',
  project44: 'visibility: predicts DEMO-1003 (T-103, Atlanta → Nashville) after its delivery window: LATE_TO_APPOINTMENT before the appointment',
  openweather: 'weather: a Winter Storm Warning ahead of T-104 (SEVERE_WEATHER_IN_PATH), a Wind Advisory on T-105\'s road (WEATHER_ADVISORY)',
  nws: 'weather: the same alerts from the National Weather Service',
  here: 'fuel: diesel prices at truck stops along the demo routes (stored per station on each sync)',
};

export function integrationBanner(connected: readonly ConnectedIntegration[], base: string, apiKey: string, elsewhere: readonly string[] = []): string[] {
  const width = Math.max(...connected.map((c) => c.vendor.length));
  return [
    `  integrations (vendor sandboxes in-process, syncing every ${DEMO_SYNC_MINUTES} min):`,
    ...connected.map((c) => {
      const what = c.ok ? (SHOWS[c.vendor] ?? 'connected to its sandbox') : `connection test failed: ${c.message}`;
      const note = elsewhere.includes(c.vendor) ? ' [its base URL was set by you: not the demo sandbox]' : '';
      return `    ${c.vendor.padEnd(width)}  ${what}${note}`;
    }),
    `  integrations and their last sync:  curl -s "${base}/api/v1/integrations" -H "x-api-key: ${apiKey}"`,
  ];
}
