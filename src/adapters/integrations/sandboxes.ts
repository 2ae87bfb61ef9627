/**
 * Every vendor sandbox in one table: how to start it, which environment variable points the service at
 * it (when the vendor's base URL is not part of the config), and a config that connects to it. The demo
 * starts them all so a newcomer sees every kind of integration work without credentials; the canary test
 * runs every vendor against its sandbox.
 */
import { MOTIVE_SANDBOX_API_KEY, startMotiveSandbox } from './motive/sandbox.js';
import type { SandboxFault } from './sandbox-kit.js';
import { HERE_SANDBOX_API_KEY, startHereSandbox } from './here/sandbox.js';
import { SANDBOX_API_KEY, SANDBOX_BASE_PATH, SANDBOX_COMPANY_ID, startMcLeodSandbox } from './mcleod/sandbox.js';
import { startNwsSandbox } from './nws/sandbox.js';
import { OPENWEATHER_SANDBOX_KEY, startOpenWeatherSandbox } from './openweather/sandbox.js';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, startProject44Sandbox } from './project44/sandbox.js';
import { SANDBOX_TOKEN, startSamsaraSandbox } from './samsara/sandbox.js';

export interface RunningSandbox {
  url: string;
  /** The sandbox's data, of the vendor's own type (e.g. SamsaraSandboxState): the demo rewrites it. */
  state: unknown;
  inject(fault: SandboxFault): void;
  close(): Promise<void>;
}

export interface VendorSandbox {
  vendor: string;
  /** The environment variable that points the service at this vendor (absent: the config carries the URL). */
  envVar?: string;
  /** `secret`: the credential the sandbox accepts (default: its documented sandbox credential). */
  start(options: { now?: Date; port?: number; secret?: string }): Promise<RunningSandbox>;
  /** A config that passes the connection test against the running sandbox (`secret` as passed to start). */
  config(sandbox: RunningSandbox, secret?: string): Record<string, unknown>;
  /** The config's credential fields (a canary test plants its value in them). */
  secretFields: string[];
}

export const VENDOR_SANDBOXES: VendorSandbox[] = [
  {
    vendor: 'samsara',
    envVar: 'SAMSARA_BASE_URL',
    start: (o) => startSamsaraSandbox({ now: o.now, port: o.port, token: o.secret, pageSize: 512 }),
    config: (_s, secret) => ({ apiToken: secret ?? SANDBOX_TOKEN }),
    secretFields: ['apiToken'],
  },
  {
    vendor: 'motive',
    envVar: 'MOTIVE_BASE_URL',
    start: (o) => startMotiveSandbox({ now: o.now, port: o.port, apiKey: o.secret, pageSize: 100 }),
    config: (_s, secret) => ({ apiKey: secret ?? MOTIVE_SANDBOX_API_KEY }),
    secretFields: ['apiKey'],
  },
  {
    // Hosted per customer: the instance URL is part of the config, no env var.
    vendor: 'mcleod',
    start: (o) => startMcLeodSandbox({ now: o.now, port: o.port, apiKey: o.secret }),
    config: (s, secret) => ({ apiUrl: `${s.url}${SANDBOX_BASE_PATH}`, apiKey: secret ?? SANDBOX_API_KEY, companyId: SANDBOX_COMPANY_ID }),
    secretFields: ['apiKey'],
  },
  {
    vendor: 'project44',
    envVar: 'PROJECT44_BASE_URL',
    start: (o) => startProject44Sandbox({ now: o.now, port: o.port, clientSecret: o.secret }),
    config: (_s, secret) => ({ clientId: SANDBOX_CLIENT_ID, clientSecret: secret ?? SANDBOX_CLIENT_SECRET, environment: 'sandbox' }),
    secretFields: ['clientSecret'],
  },
  {
    vendor: 'openweather',
    envVar: 'OPENWEATHER_BASE_URL',
    start: (o) => startOpenWeatherSandbox({ now: o.now ? () => o.now! : undefined, port: o.port, apiKey: o.secret }),
    config: (_s, secret) => ({ apiKey: secret ?? OPENWEATHER_SANDBOX_KEY }),
    secretFields: ['apiKey'],
  },
  {
    // Keyless: nothing secret to plant (the canary test skips it).
    vendor: 'nws',
    envVar: 'NWS_BASE_URL',
    start: (o) => startNwsSandbox({ now: o.now ? () => o.now! : undefined, port: o.port }),
    config: () => ({ contactEmail: 'dispatch@fleet.example' }),
    secretFields: [],
  },
  {
    // Syncs ask about points along ACTIVE routes: with none, a sync asks HERE nothing.
    vendor: 'here',
    envVar: 'HERE_BASE_URL',
    start: (o) => startHereSandbox({ now: o.now, port: o.port, apiKey: o.secret, pageSize: 50 }),
    config: (_s, secret) => ({ apiKey: secret ?? HERE_SANDBOX_API_KEY }),
    secretFields: ['apiKey'],
  },
];
