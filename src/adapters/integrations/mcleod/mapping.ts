/**
 * Pure normalization of McLeod orders into our TMS loads (the spec's mapping): orderNumber →
 * referenceNumber, billTo.name → customer, first / last stop address → origin / destination, first /
 * last stop earlyDate → scheduled pickup / delivery, totalWeight → weight (pounds), commodity.description
 * → commodity; only active orders (dispatched → ASSIGNED, in-transit → IN_TRANSIT) become loads.
 *
 * Each field is read in the spec's camelCase form first, then in McLeod's own snake_case form
 * (RowOrders / RowStop of McLeod's web-service docs; see adapter.ts for what is verified).
 */
import type { TmsLoadsSyncResult } from '../port.js';

export type McLeodLoad = TmsLoadsSyncResult['loads'][number];

/** A stop as either form sends it (only the fields we read). */
export interface McLeodStop {
  address?: string | { line1?: string; street?: string; address1?: string; line2?: string; city?: string; state?: string; zip?: string; zipCode?: string; postalCode?: string } | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  postalCode?: string | null;
  earlyDate?: string | null;
  stopType?: string | null;
  /** McLeod's snake_case names. */
  city_name?: string | null;
  zip_code?: string | null;
  sched_arrive_early?: string | null;
  order_sequence?: number | string | null;
  stop_type?: string | null;
}

/** An order as either form sends it (only the fields we read). */
export interface McLeodOrder {
  id?: string | number | null;
  orderNumber?: string | number | null;
  status?: string | null;
  billTo?: { name?: string | null } | null;
  /** McLeod: the order's customer child element (RowCustomer, `__name` "customer"). */
  customer?: { name?: string | null } | string | null;
  stops?: McLeodStop[] | null;
  totalWeight?: number | string | null;
  /** McLeod: `weight` with its unit of measure `weight_um`. */
  weight?: number | string | null;
  weight_um?: string | null;
  commodity?: { description?: string | null } | string | null;
  /** McLeod's status description, e.g. "In Progress" (an attribute added to search results). */
  __statusDescr?: string | null;
}

/** The API's limits on a load (loads.schemas.ts): longer text is cut, a weight out of range is dropped. */
const LIMITS = { referenceNumber: 50, externalId: 100, customer: 200, address: 300, commodity: 200, weight: 200_000 } as const;

/**
 * Recognized active statuses → our load status. The spec's words (any case; `-`, `_` or a space between
 * words) and McLeod's order status codes: C (covered: a carrier or driver is dispatched) and P (in progress).
 */
const ACTIVE_STATUS: Record<string, McLeodLoad['status']> = {
  dispatched: 'ASSIGNED',
  covered: 'ASSIGNED',
  c: 'ASSIGNED',
  'in-transit': 'IN_TRANSIT',
  intransit: 'IN_TRANSIT',
  'in-progress': 'IN_TRANSIT',
  p: 'IN_TRANSIT',
};

/** The McLeod status codes the adapter asks for (one search each), with what they become. */
export const MCLEOD_ACTIVE_CODES = ['C', 'P'] as const;

export function mapStatus(status: unknown): McLeodLoad['status'] | undefined {
  if (typeof status !== 'string') return undefined;
  return ACTIVE_STATUS[status.trim().toLowerCase().replace(/[\s_]+/g, '-')];
}

const text = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const t = value.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
};

const cut = (value: string | null, max: number): string | null => (value === null ? null : value.slice(0, max).trimEnd());

/**
 * A stop's time as ISO 8601 UTC: the spec's ISO 8601 text, or McLeod's `yyyyMMddHHmmssZ`
 * ("20240115143000-0600"). A McLeod time without its zone offset (servers set to useServerTimezone)
 * cannot be placed on the timeline: null rather than a guess. Unreadable → null.
 */
export function parseStopTime(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const v = value.trim();
  const mcleod = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:([+-])(\d{2})(\d{2}))?$/.exec(v);
  if (mcleod) {
    const [, y, mo, d, h, mi, s, sign, oh, om] = mcleod;
    if (!sign) return null;
    const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    const check = new Date(local);
    if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
    const offsetMin = (Number(oh) * 60 + Number(om)) * (sign === '-' ? -1 : 1);
    return new Date(local - offsetMin * 60_000).toISOString();
  }
  // ISO 8601 with a date part; Date.parse alone accepts too much ("1", "May 3").
  if (!/^\d{4}-\d{2}-\d{2}/.test(v)) return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** One line of address: street (and second line), city, "state zip", from whichever form the stop uses. */
export function formatAddress(stop: McLeodStop | undefined): string | null {
  if (!stop) return null;
  const a = stop.address;
  const nested = a !== null && typeof a === 'object' ? a : undefined;
  const street = typeof a === 'string' ? text(a) : text(nested?.line1 ?? nested?.street ?? nested?.address1);
  const line2 = text(stop.address2 ?? nested?.line2);
  const city = text(stop.city ?? stop.city_name ?? nested?.city);
  const state = text(stop.state ?? nested?.state);
  const zip = text(stop.zipCode ?? stop.postalCode ?? stop.zip_code ?? nested?.zipCode ?? nested?.postalCode ?? nested?.zip);
  const stateZip = [state, zip].filter(Boolean).join(' ');
  const parts = [street, line2, city, stateZip].filter((p): p is string => Boolean(p));
  return cut(parts.length ? parts.join(', ') : null, LIMITS.address);
}

const POUNDS_PER: Record<string, number> = { LB: 1, LBS: 1, KG: 2.20462262, KGS: 2.20462262 };

/** Pounds: the spec's totalWeight, else McLeod's weight in its unit (LB or KG; another unit is not guessed). */
export function weightPounds(order: McLeodOrder): number | null {
  const raw = order.totalWeight ?? order.weight;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n)) return null;
  const unit = order.totalWeight === undefined || order.totalWeight === null ? text(order.weight_um)?.toUpperCase() : undefined;
  const factor = unit === undefined ? 1 : POUNDS_PER[unit];
  if (factor === undefined) return null;
  const pounds = Math.round(n * factor * 100) / 100;
  return pounds >= 0 && pounds <= LIMITS.weight ? pounds : null;
}

/** Stops in route order: by McLeod's order_sequence when every stop has one, else as sent. */
function orderedStops(stops: McLeodStop[] | null | undefined): McLeodStop[] {
  if (!Array.isArray(stops)) return [];
  const list = stops.filter((s): s is McLeodStop => s !== null && typeof s === 'object');
  const seq = (s: McLeodStop): number => Number(s.order_sequence);
  if (list.length > 1 && list.every((s) => s.order_sequence !== undefined && s.order_sequence !== null && Number.isFinite(seq(s)))) {
    return [...list].sort((x, y) => seq(x) - seq(y));
  }
  return list;
}

/** An order → a load, or undefined when it is not active or has no order number. */
export function mapOrder(order: McLeodOrder): McLeodLoad | undefined {
  if (order === null || typeof order !== 'object') return undefined;
  const status = mapStatus(order.status) ?? (order.status === undefined || order.status === null ? mapStatus(order.__statusDescr) : undefined);
  if (!status) return undefined;
  const referenceNumber = cut(text(order.orderNumber) ?? text(order.id), LIMITS.referenceNumber);
  const externalId = cut(text(order.id) ?? text(order.orderNumber), LIMITS.externalId);
  if (!referenceNumber || !externalId) return undefined;
  const stops = orderedStops(order.stops);
  const first = stops[0];
  const last = stops.length > 1 ? stops[stops.length - 1] : undefined;
  const customerName = order.billTo?.name ?? (typeof order.customer === 'object' && order.customer !== null ? order.customer.name : undefined);
  const commodity = typeof order.commodity === 'string' ? order.commodity : order.commodity?.description;
  return {
    externalId,
    referenceNumber,
    customer: cut(text(customerName), LIMITS.customer),
    originAddress: formatAddress(first),
    destinationAddress: formatAddress(last),
    scheduledPickup: parseStopTime(first?.earlyDate ?? first?.sched_arrive_early),
    scheduledDelivery: parseStopTime(last?.earlyDate ?? last?.sched_arrive_early),
    weight: weightPounds(order),
    commodity: cut(text(commodity), LIMITS.commodity),
    status,
  };
}

/** Active orders → loads, one per external id (the first wins when a search pages over a moving list). */
export function mapOrders(orders: McLeodOrder[]): McLeodLoad[] {
  const seen = new Set<string>();
  const loads: McLeodLoad[] = [];
  for (const order of orders) {
    const load = mapOrder(order);
    if (!load || seen.has(load.externalId)) continue;
    seen.add(load.externalId);
    loads.push(load);
  }
  return loads;
}
