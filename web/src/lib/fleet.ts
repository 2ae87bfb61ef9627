/**
 * Fleet record rules the pages share: the load lifecycle, vehicle status changes, the regions that issue
 * commercial licenses, and short descriptions for lists. Pure (tested in fleet.test.ts).
 */

export const LOAD_STATUSES = ['PENDING', 'ASSIGNED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED'] as const;
export type LoadStatus = (typeof LOAD_STATUSES)[number];

const LOAD_NEXT: Record<LoadStatus, LoadStatus[]> = {
  PENDING: ['ASSIGNED', 'CANCELLED'],
  ASSIGNED: ['IN_TRANSIT', 'CANCELLED'],
  IN_TRANSIT: ['DELIVERED', 'CANCELLED'],
  DELIVERED: [],
  CANCELLED: [],
};

/** The statuses a load may move to (PENDING → ASSIGNED → IN_TRANSIT → DELIVERED; any open load → CANCELLED). */
export function nextLoadStatuses(status: string): LoadStatus[] {
  return LOAD_NEXT[status as LoadStatus] ?? [];
}

export const VEHICLE_STATUSES = ['ACTIVE', 'IN_MAINTENANCE', 'INACTIVE'] as const;
export type VehicleStatus = (typeof VEHICLE_STATUSES)[number];

/** The vehicle status actions offered for a status: every other status, with its button text. */
export function vehicleStatusActions(status: string): Array<{ status: VehicleStatus; label: string; destructive: boolean }> {
  const labels: Record<VehicleStatus, string> = { ACTIVE: 'Return to service', IN_MAINTENANCE: 'Send to maintenance', INACTIVE: 'Deactivate' };
  return VEHICLE_STATUSES.filter((s) => s !== status).map((s) => ({ status: s, label: labels[s], destructive: s === 'INACTIVE' }));
}

export const DRIVER_STATUSES = ['ACTIVE', 'PENDING', 'INACTIVE'] as const;
export const LOCATION_TYPES = ['TRUCK_STOP', 'FUEL_STATION', 'REST_AREA', 'CUSTOMER', 'YARD'] as const;

/** US states, DC and territories, and Canadian provinces and territories: who issues commercial licenses. */
export const LICENSE_REGIONS = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'PR', 'GU', 'VI', 'AS', 'MP',
  'AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT',
] as const;

/** "2019 Freightliner Cascadia" from whatever parts are known, or null. */
export function vehicleDescription(v: { year: number | null; make: string | null; model: string | null }): string | null {
  const parts = [v.year, v.make, v.model].filter((p) => p !== null && p !== '');
  return parts.length > 0 ? parts.join(' ') : null;
}

/** "Parking, showers" from the amenities a place has, or "None". */
export function amenitiesText(a: { parking: boolean; showers: boolean; diesel: boolean }): string {
  const list = [a.parking && 'parking', a.showers && 'showers', a.diesel && 'diesel'].filter((x): x is string => Boolean(x));
  if (list.length === 0) return 'None';
  const s = list.join(', ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "32.7767, -96.7970" (4 decimals, about 10 m). */
export function coordinates(lat: number, lng: number): string {
  return `${lat.toFixed(4)}, ${lng.toFixed(4)}`;
}

/** A "latitude,longitude" text as the API's `near` value, or null when it is not a point. */
export function parseNear(text: string): string | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return `${lat},${lng}`;
}

/** A CSV import's row errors as readable lines ("Row 3, latitude: must be a number"). */
export function importErrorLines(details: unknown): string[] {
  if (!Array.isArray(details)) return [];
  return (details as Array<{ row?: unknown; field?: unknown; message?: unknown }>).map((d) => {
    const where = [typeof d.row === 'number' ? `Row ${d.row}` : null, typeof d.field === 'string' && d.field ? d.field : null].filter(Boolean).join(', ');
    const message = typeof d.message === 'string' ? d.message : 'is invalid';
    return where ? `${where}: ${message}` : message;
  });
}
