/**
 * A local McLeod sandbox: a node:http server on 127.0.0.1 that plays one customer's McLeod instance
 * (web services under `/ws`), speaking the subset the adapter uses — `GET /ws/orders/search` with
 * `orders.status`, `recordLength` / `recordOffset` — with the token and company-id headers checked.
 * Its orders have the spec's shape (orderNumber, billTo, stops[], totalWeight, commodity, status) in
 * mixed statuses; tests add, change and remove orders through `state` and inject faults.
 */
import { startSandboxServer, type SandboxFault, type SandboxRequest } from '../sandbox-kit.js';
import type { McLeodOrder } from './mapping.js';

export type { SandboxFault } from '../sandbox-kit.js';

export type SandboxOrderStatus = 'available' | 'dispatched' | 'in-transit' | 'completed' | 'voided';

/** An order in the spec's shape, as the sandbox serves it. */
export interface SandboxOrder extends McLeodOrder {
  id: string;
  orderNumber: string;
  status: SandboxOrderStatus;
  billTo: { name: string };
  stops: { stopType: 'PU' | 'SO'; address: string; city: string; state: string; zipCode: string; earlyDate: string; lateDate?: string }[];
  totalWeight: number;
  commodity: { description: string };
}

export interface McLeodSandboxState {
  apiKey: string;
  companyId: string;
  orders: SandboxOrder[];
  /** Largest page served (recordLength above it is cut). */
  maxRecordLength: number;
  requests: SandboxRequest[];
}

export interface McLeodSandboxOptions {
  apiKey?: string;
  companyId?: string;
  /** Seed times are relative to this instant (default: now). */
  now?: Date;
  maxRecordLength?: number;
  port?: number;
}

export interface McLeodSandbox {
  /** The instance's base URL as a customer would configure it (`…/ws`). */
  apiUrl: string;
  /** The server's root (without `/ws`). */
  url: string;
  state: McLeodSandboxState;
  addOrder(order: SandboxOrder): void;
  updateOrder(id: string, change: (order: SandboxOrder) => void): void;
  removeOrder(id: string): void;
  inject(fault: SandboxFault): void;
  close(): Promise<void>;
}

export const SANDBOX_API_KEY = 'mcleod_sandbox_api_key_0123456789';
export const SANDBOX_COMPANY_ID = 'TMS';
export const SANDBOX_BASE_PATH = '/ws';

/** McLeod's order status codes (orders.status) for the spec's words. */
const STATUS_CODE: Record<SandboxOrderStatus, string> = { available: 'A', dispatched: 'C', 'in-transit': 'P', completed: 'D', voided: 'V' };

const iso = (base: Date, hours: number): string => new Date(Math.round((base.getTime() + hours * 3_600_000) / 60_000) * 60_000).toISOString();

/** One order of the seed, by number (1001 … ), status and lane. */
export function sandboxOrder(n: number, status: SandboxOrderStatus, now: Date, overrides: Partial<SandboxOrder> = {}): SandboxOrder {
  return {
    id: `ord-${n}`,
    orderNumber: `MCL-${n}`,
    status,
    billTo: { name: `Customer ${n} Inc` },
    stops: [
      { stopType: 'PU', address: `${n} Commerce St`, city: 'Dallas', state: 'TX', zipCode: '75202', earlyDate: iso(now, 2 + n - 1000), lateDate: iso(now, 4 + n - 1000) },
      { stopType: 'SO', address: `${n} Peachtree St`, city: 'Atlanta', state: 'GA', zipCode: '30303', earlyDate: iso(now, 26 + n - 1000) },
    ],
    totalWeight: 30_000 + n,
    commodity: { description: `Commodity ${n}` },
    ...overrides,
  };
}

/** Five orders, one per status, plus a three-stop dispatched order and a second in-transit one. */
export function seedMcLeodOrders(now: Date): SandboxOrder[] {
  const threeStop = sandboxOrder(1006, 'dispatched', now);
  threeStop.stops.splice(1, 0, { stopType: 'SO', address: '77 Main St', city: 'Shreveport', state: 'LA', zipCode: '71101', earlyDate: iso(now, 12) });
  return [
    sandboxOrder(1001, 'available', now),
    sandboxOrder(1002, 'dispatched', now, { billTo: { name: 'Acme Foods' }, commodity: { description: 'Frozen poultry' }, totalWeight: 42_500 }),
    sandboxOrder(1003, 'in-transit', now),
    sandboxOrder(1004, 'completed', now),
    sandboxOrder(1005, 'voided', now),
    threeStop,
    sandboxOrder(1007, 'in-transit', now),
  ];
}

function search(state: McLeodSandboxState, query: URLSearchParams): { status: number; body: unknown } {
  const statusFilter = query.get('orders.status') ?? query.get('status');
  const length = query.has('recordLength') ? Number(query.get('recordLength')) : state.maxRecordLength;
  const offset = query.has('recordOffset') ? Number(query.get('recordOffset')) : 0;
  if (!Number.isInteger(length) || length < 1 || !Number.isInteger(offset) || offset < 0) {
    return { status: 400, body: { message: 'recordLength and recordOffset must be non-negative integers' } };
  }
  const matching = state.orders.filter((o) => statusFilter === null || STATUS_CODE[o.status] === statusFilter.toUpperCase() || o.status === statusFilter);
  // McLeod's default sort: orders.id descending.
  const sorted = [...matching].sort((a, b) => b.id.localeCompare(a.id));
  return { status: 200, body: sorted.slice(offset, offset + Math.min(length, state.maxRecordLength)) };
}

export async function startMcLeodSandbox(options: McLeodSandboxOptions = {}): Promise<McLeodSandbox> {
  const state: McLeodSandboxState = {
    apiKey: options.apiKey ?? SANDBOX_API_KEY,
    companyId: options.companyId ?? SANDBOX_COMPANY_ID,
    orders: seedMcLeodOrders(options.now ?? new Date()),
    maxRecordLength: options.maxRecordLength ?? 500,
    requests: [],
  };
  const authorized = (authorization: string | undefined): boolean => authorization === `Token ${state.apiKey}`;
  const server = await startSandboxServer({
    port: options.port,
    authorized: ({ headers }) => authorized(headers.authorization),
    handle: ({ method, url, headers }) => {
      if (method !== 'GET') return { status: 405, body: { message: 'Method not allowed' } };
      // Echoes the presented credential, as some servers do: the client must never let it into an error.
      if (!authorized(headers.authorization)) return { status: 401, body: { message: `Unauthorized: invalid credentials ${String(headers.authorization ?? '')}` } };
      const company = headers['x-com.mcleodsoftware.companyid'];
      if (company !== state.companyId) return { status: 404, body: { message: `Company ${String(company ?? '(none)')} not found` } };
      if (!String(headers.accept ?? '').includes('application/json')) return { status: 406, body: { message: 'This sandbox answers application/json only' } };
      if (url.pathname === `${SANDBOX_BASE_PATH}/orders/search`) return search(state, url.searchParams);
      return { status: 404, body: { message: 'Not found' } };
    },
  });
  state.requests = server.requests;
  const find = (id: string): SandboxOrder => {
    const order = state.orders.find((o) => o.id === id);
    if (!order) throw new Error(`no sandbox order ${id}`);
    return order;
  };
  return {
    apiUrl: `${server.url}${SANDBOX_BASE_PATH}`,
    url: server.url,
    state,
    addOrder: (order) => void state.orders.push(order),
    updateOrder: (id, change) => change(find(id)),
    removeOrder: (id) => void state.orders.splice(state.orders.indexOf(find(id)), 1),
    inject: server.inject,
    close: server.close,
  };
}
