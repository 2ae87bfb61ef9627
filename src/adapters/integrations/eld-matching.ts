/**
 * Matching an ELD vendor's drivers and vehicles to the tenant's own records, shared by every ELD adapter:
 * each adapter reduces its vendor records to the keys below (its own field names), then these rules apply.
 *
 * Drivers: by external id first (any of the vendor's identifiers for the driver, in the adapter's order),
 * then by license number. Vehicles: by eldExternalId (= the vendor's vehicle id) first, then unit number.
 * Identifiers compare trimmed and case-insensitively (the vendor vehicle id exactly); blank ones never match.
 * Also the vendors' time normalization (`isoTime`).
 */
import type { SyncContext } from './port.js';

/** A vendor driver's matching keys. */
export interface VendorDriverKeys {
  vendorId: string;
  /** Values a tenant may have stored as the driver's externalId, most specific first. */
  externalIds: readonly (string | null | undefined)[];
  licenseNumber?: string | null;
}

/** A vendor vehicle's matching keys. */
export interface VendorVehicleKeys {
  vendorId: string;
  /** The vendor's label for the vehicle that a tenant uses as its unit number (Samsara `name`, Motive `number`). */
  unitNumber?: string | null;
}

export interface MatchResult {
  /** Vendor id → our id. */
  byVendorId: Map<string, string>;
  /** Vendor records no tenant record matched. */
  unmatched: number;
}

/** A vendor time (RFC 3339) → ISO; undefined for a malformed time (the record is skipped rather than failing the sync). */
export const isoTime = (value: string | null | undefined): string | undefined => {
  const ms = Date.parse(value ?? '');
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
};

export const normalizeIdentifier = (value: string | null | undefined): string => (value ?? '').trim().toUpperCase();

function index<T>(records: readonly T[], key: (r: T) => string | null | undefined, id: (r: T) => string): Map<string, string> {
  const map = new Map<string, string>();
  for (const r of records) {
    const k = normalizeIdentifier(key(r));
    if (k !== '' && !map.has(k)) map.set(k, id(r));
  }
  return map;
}

export function matchDriverKeys(vendorDrivers: readonly VendorDriverKeys[], ours: SyncContext['drivers']): MatchResult {
  const byExternalId = index(ours, (d) => d.externalId, (d) => d.id);
  const byLicense = index(ours, (d) => d.licenseNumber, (d) => d.id);
  const byVendorId = new Map<string, string>();
  let unmatched = 0;
  for (const driver of vendorDrivers) {
    const lookup = (map: Map<string, string>, value: string | null | undefined): string | undefined => {
      const k = normalizeIdentifier(value);
      return k === '' ? undefined : map.get(k);
    };
    const viaExternal = driver.externalIds.map((v) => lookup(byExternalId, v)).find((id) => id !== undefined);
    const id = viaExternal ?? lookup(byLicense, driver.licenseNumber);
    if (id) byVendorId.set(driver.vendorId, id);
    else unmatched++;
  }
  return { byVendorId, unmatched };
}

export function matchVehicleKeys(vendorVehicles: readonly VendorVehicleKeys[], ours: SyncContext['vehicles']): MatchResult {
  const byEldId = new Map(ours.filter((v) => v.eldExternalId).map((v) => [v.eldExternalId as string, v.id]));
  const byUnit = index(ours, (v) => v.unitNumber, (v) => v.id);
  const byVendorId = new Map<string, string>();
  let unmatched = 0;
  for (const vehicle of vendorVehicles) {
    const unit = normalizeIdentifier(vehicle.unitNumber);
    const id = byEldId.get(vehicle.vendorId) ?? (unit === '' ? undefined : byUnit.get(unit));
    if (id) byVendorId.set(vehicle.vendorId, id);
    else unmatched++;
  }
  return { byVendorId, unmatched };
}
