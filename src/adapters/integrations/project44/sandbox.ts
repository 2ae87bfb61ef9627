/**
 * A local project44 sandbox: a node:http server on 127.0.0.1 speaking the subset of project44's v4 REST
 * API the adapter uses — OAuth2 client-credentials tokens, the truckload shipments list (page by page)
 * and each shipment's tracking status — seeded with three truckload shipments, with fault injection
 * (sandbox-kit) for tests and the demo. Tokens expire (`tokenTtlSeconds`) and can be revoked to show
 * the adapter fetching a new one.
 */
import { randomBytes } from 'node:crypto';
import { startSandboxServer, type SandboxFault, type SandboxRequest } from '../sandbox-kit.js';

export type { SandboxFault } from '../sandbox-kit.js';

export const TOKEN_PATH = '/api/v4/oauth2/token';
export const SHIPMENTS_PATH = '/api/v4/tl/shipments';
export const statusPath = (shipmentId: string): string => `${SHIPMENTS_PATH}/${shipmentId}/statuses`;

export interface P44Identifier {
  type: string;
  value: string;
}
export interface P44Window {
  startDateTime?: string;
  endDateTime?: string;
}
export interface P44ShipmentStop {
  stopNumber: number;
  appointmentWindow?: P44Window;
  location?: { address?: { postalCode?: string; addressLines?: string[]; city?: string; state?: string; country?: string }; contact?: { companyName?: string } };
}
/** A truckload shipment as created with POST /api/v4/tl/shipments. */
export interface P44Shipment {
  id: string;
  carrierIdentifier: P44Identifier;
  shipmentIdentifiers: P44Identifier[];
  shipmentStops: P44ShipmentStop[];
  equipmentIdentifiers?: P44Identifier[];
}
export interface P44StopStatus {
  stopNumber: number;
  /** EN_ROUTE | ARRIVED | DEPARTED (absent for stops further ahead). */
  statusCode?: string;
  /** EARLY | ON_TIME | LATE | UNKNOWN. */
  arrivalCode?: string;
  arrivalEstimate?: { estimatedArrivalWindow?: P44Window; lastCalculatedDateTime?: string };
}
export interface P44Exception {
  namespace?: string;
  category?: string;
  reason?: string;
  status?: 'ACTIVE' | 'RESOLVED';
}
/** The tracking status of one truckload shipment. */
export interface P44ShipmentStatus {
  shipment: P44Shipment;
  latestStatusUpdate?: {
    timestamp?: string;
    /** DISPATCHED | IN_TRANSIT | AT_STOP | COMPLETED | … */
    statusCode?: string;
    statusReason?: { code?: string; description?: string };
    geoCoordinates?: { latitude: number; longitude: number };
  };
  latestStopStatuses?: P44StopStatus[];
  exceptions?: P44Exception[];
}

export interface Project44SandboxState {
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
  /** Issued tokens and their expiry (sandbox clock, ms). */
  tokens: Map<string, number>;
  /** Shipments in list order, with their current status. */
  shipments: P44ShipmentStatus[];
  pageSize: number;
  requests: SandboxRequest[];
  /** The sandbox's clock (ms): tokens expire by it. */
  now: () => number;
}

export interface Project44SandboxOptions {
  clientId?: string;
  clientSecret?: string;
  /** Seed times are relative to this instant (default: now). */
  now?: Date;
  /** The sandbox clock for token expiry (default: Date.now). */
  clock?: () => number;
  tokenTtlSeconds?: number;
  pageSize?: number;
  port?: number;
}

export interface Project44Sandbox {
  url: string;
  state: Project44SandboxState;
  inject(fault: SandboxFault): void;
  /** Invalidates every issued token (as an expiry or a rotation on project44's side would). */
  revokeTokens(): void;
  /** Token requests received so far. */
  tokenRequests(): number;
  close(): Promise<void>;
}

export const SANDBOX_CLIENT_ID = 'p44-sandbox-client-0001';
export const SANDBOX_CLIENT_SECRET = 'p44_sandbox_client_secret_0123456789abcdef';
/** project44 documents tokens as valid for 12 hours. */
export const DEFAULT_TOKEN_TTL_SECONDS = 12 * 3600;

const iso = (base: Date, offsetMinutes: number): string => new Date(base.getTime() + offsetMinutes * 60_000).toISOString();

/** A stop at a city, with an appointment window [start, end] in minutes from `now`. */
function stop(now: Date, stopNumber: number, company: string, city: string, state: string, window: [number, number]): P44ShipmentStop {
  return {
    stopNumber,
    appointmentWindow: { startDateTime: iso(now, window[0]), endDateTime: iso(now, window[1]) },
    location: { address: { addressLines: [`${100 * stopNumber} Main St`], city, state, postalCode: '75001', country: 'US' }, contact: { companyName: company } },
  };
}

/**
 * The seeded shipments: P44-SHIP-1 (order LOAD-P44-1001) running late to its delivery; P44-SHIP-2
 * (bill of lading BOL-77002 only) with three stops, the first one done; P44-SHIP-3 (order
 * ORD-UNKNOWN-9) dispatched, waiting for a tracking method, matching no load of ours.
 */
export function seedProject44Shipments(now: Date): P44ShipmentStatus[] {
  const carrier = { type: 'SCAC', value: 'SBXC' };
  const one: P44Shipment = {
    id: 'P44-SHIP-1',
    carrierIdentifier: carrier,
    shipmentIdentifiers: [
      { type: 'ORDER', value: 'LOAD-P44-1001' },
      { type: 'BILL_OF_LADING', value: 'BOL-77001' },
    ],
    shipmentStops: [stop(now, 1, 'Dallas Shipper', 'Dallas', 'TX', [-300, -240]), stop(now, 2, 'Houston Receiver', 'Houston', 'TX', [120, 240])],
    equipmentIdentifiers: [{ type: 'VEHICLE_ID', value: 'TRK-101' }],
  };
  const two: P44Shipment = {
    id: 'P44-SHIP-2',
    carrierIdentifier: carrier,
    shipmentIdentifiers: [{ type: 'BILL_OF_LADING', value: 'BOL-77002' }],
    shipmentStops: [
      stop(now, 1, 'Austin DC', 'Austin', 'TX', [-120, -60]),
      stop(now, 2, 'San Antonio Store', 'San Antonio', 'TX', [60, 120]),
      stop(now, 3, 'Laredo Store', 'Laredo', 'TX', [300, 420]),
    ],
  };
  const three: P44Shipment = {
    id: 'P44-SHIP-3',
    carrierIdentifier: carrier,
    shipmentIdentifiers: [{ type: 'ORDER', value: 'ORD-UNKNOWN-9' }],
    shipmentStops: [stop(now, 1, 'Tulsa Plant', 'Tulsa', 'OK', [600, 660]), stop(now, 2, 'Wichita DC', 'Wichita', 'KS', [900, 960])],
  };
  return [
    {
      shipment: one,
      latestStatusUpdate: { timestamp: iso(now, -3), statusCode: 'IN_TRANSIT', statusReason: { code: 'IN_MOTION' }, geoCoordinates: { latitude: 30.6, longitude: -96.3 } },
      latestStopStatuses: [
        { stopNumber: 1, statusCode: 'DEPARTED', arrivalCode: 'ON_TIME' },
        { stopNumber: 2, statusCode: 'EN_ROUTE', arrivalCode: 'LATE', arrivalEstimate: { estimatedArrivalWindow: { startDateTime: iso(now, 270), endDateTime: iso(now, 300) }, lastCalculatedDateTime: iso(now, -2) } },
      ],
      exceptions: [
        { namespace: 'P44_DETECTED', category: 'RUNNING_LATE', status: 'ACTIVE' },
        { namespace: 'CARRIER_REPORTED', category: 'DWELL', reason: 'DETENTION', status: 'RESOLVED' },
      ],
    },
    {
      shipment: two,
      latestStatusUpdate: { timestamp: iso(now, -5), statusCode: 'IN_TRANSIT', statusReason: { code: 'IDLE' }, geoCoordinates: { latitude: 29.9, longitude: -97.9 } },
      latestStopStatuses: [
        { stopNumber: 1, statusCode: 'DEPARTED', arrivalCode: 'EARLY' },
        { stopNumber: 2, statusCode: 'EN_ROUTE', arrivalCode: 'ON_TIME', arrivalEstimate: { estimatedArrivalWindow: { startDateTime: iso(now, 70), endDateTime: iso(now, 90) }, lastCalculatedDateTime: iso(now, -4) } },
        { stopNumber: 3, arrivalCode: 'ON_TIME', arrivalEstimate: { estimatedArrivalWindow: { startDateTime: iso(now, 330), endDateTime: iso(now, 360) }, lastCalculatedDateTime: iso(now, -4) } },
      ],
      exceptions: [{ namespace: 'CARRIER_REPORTED', category: 'WEATHER', reason: 'HIGH_WINDS', status: 'ACTIVE' }],
    },
    {
      shipment: three,
      latestStatusUpdate: { timestamp: iso(now, -30), statusCode: 'DISPATCHED', statusReason: { code: 'PENDING_TRACKING_METHOD' } },
      latestStopStatuses: [],
      exceptions: [],
    },
  ];
}

function tokenEndpoint(state: Project44SandboxState, method: string, body: string): { status: number; body: unknown } {
  if (method !== 'POST') return { status: 405, body: { message: 'Method not allowed' } };
  const form = new URLSearchParams(body);
  if (form.get('grant_type') !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type', message: 'grant_type must be client_credentials' } };
  const id = form.get('client_id') ?? '';
  const secret = form.get('client_secret') ?? '';
  // Echoes what it was given, as careless vendors do: the adapter must never let it into an error.
  if (id !== state.clientId || secret !== state.clientSecret) return { status: 401, body: { error: 'invalid_client', message: `Invalid client credentials: ${id}/${secret}` } };
  const token = `p44sbx_${randomBytes(18).toString('base64url')}`;
  state.tokens.set(token, state.now() + state.tokenTtlSeconds * 1000);
  return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: state.tokenTtlSeconds } };
}

function bearer(state: Project44SandboxState, header: string | string[] | undefined): boolean {
  const match = typeof header === 'string' ? /^Bearer (.+)$/.exec(header) : null;
  const expiry = match ? state.tokens.get(match[1]!) : undefined;
  return expiry !== undefined && expiry > state.now();
}

function api(state: Project44SandboxState, url: URL): { status: number; body: unknown } {
  if (url.pathname === SHIPMENTS_PATH) {
    const page = Number(url.searchParams.get('page') ?? '0');
    const size = Math.min(state.pageSize, Math.max(1, Number(url.searchParams.get('size') ?? state.pageSize) || state.pageSize));
    if (!Number.isInteger(page) || page < 0) return { status: 400, body: { message: 'page: a whole number from 0' } };
    const slice = state.shipments.slice(page * size, page * size + size).map((s) => s.shipment);
    return { status: 200, body: { shipments: slice, page, size, totalElements: state.shipments.length, hasNextPage: (page + 1) * size < state.shipments.length } };
  }
  const m = /^\/api\/v4\/tl\/shipments\/([^/]+)\/statuses$/.exec(url.pathname);
  if (m) {
    const found = state.shipments.find((s) => s.shipment.id === decodeURIComponent(m[1]!));
    return found ? { status: 200, body: found } : { status: 404, body: { message: 'Shipment not found' } };
  }
  return { status: 404, body: { message: 'Not found' } };
}

export async function startProject44Sandbox(options: Project44SandboxOptions = {}): Promise<Project44Sandbox> {
  const state: Project44SandboxState = {
    clientId: options.clientId ?? SANDBOX_CLIENT_ID,
    clientSecret: options.clientSecret ?? SANDBOX_CLIENT_SECRET,
    tokenTtlSeconds: options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    tokens: new Map(),
    shipments: seedProject44Shipments(options.now ?? new Date()),
    pageSize: options.pageSize ?? 2,
    requests: [],
    now: options.clock ?? Date.now,
  };
  const server = await startSandboxServer({
    port: options.port,
    authorized: ({ url, headers }) => url.pathname === TOKEN_PATH || bearer(state, headers.authorization),
    handle: ({ method, url, headers, body }) => {
      if (url.pathname === TOKEN_PATH) return tokenEndpoint(state, method, body);
      if (method !== 'GET') return { status: 405, body: { message: 'Method not allowed' } };
      if (!bearer(state, headers.authorization)) return { status: 401, body: { message: `Invalid or missing credentials: ${String(headers.authorization ?? '')}` } };
      return api(state, url);
    },
  });
  state.requests = server.requests;
  return {
    url: server.url,
    state,
    inject: server.inject,
    revokeTokens: () => state.tokens.clear(),
    tokenRequests: () => server.requests.filter((r) => r.path === TOKEN_PATH).length,
    close: server.close,
  };
}
