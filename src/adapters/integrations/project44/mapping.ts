/**
 * project44 truckload tracking status → VisibilityShipment: the references a load can be matched by, the
 * predicted arrival per stop still ahead, and the codes worth an operator's attention. Pure functions.
 */
import type { VisibilityShipment } from '../port.js';
import type { P44Identifier, P44ShipmentStatus, P44StopStatus } from './sandbox.js';

/** Identifier types tried first for the shipment's main reference, in order. */
const REFERENCE_TYPES = ['ORDER', 'BILL_OF_LADING'];

/**
 * Status reason codes that say tracking is not working as it should (project44's status × reason
 * table: DISPATCHED waits for a tracking method / carrier / approval; COMPLETED ended without the final
 * stop). IN_MOTION, IDLE, SCHEDULED, ACQUIRING_LOCATION and DEPARTED_FINAL_STOP are normal life.
 */
export const EXCEPTIONAL_STATUS_REASONS = new Set(['PENDING_TRACKING_METHOD', 'PENDING_CARRIER', 'PENDING_APPROVAL', 'APPROVAL_DENIED', 'TIMED_OUT', 'CANCELED']);

/** A valid time as canonical ISO (UTC), or null. project44 sends offsets like -0500. */
export function isoOrNull(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

export function mainReference(identifiers: P44Identifier[]): string | null {
  for (const type of REFERENCE_TYPES) {
    const hit = identifiers.find((i) => i.type === type && str(i.value) !== null);
    if (hit) return hit.value.trim();
  }
  return identifiers.map((i) => str(i.value)).find((v) => v !== null) ?? null;
}

/**
 * The predicted arrival at a stop not yet reached: the start of project44's estimated arrival window (the
 * earliest the truck is expected; when even that is after an appointment's end, it will be late), its end
 * when the window has no start. Stops ARRIVED or DEPARTED have none.
 */
export function predictedArrival(s: P44StopStatus): { predictedArrival: string | null; estimatedAt: string | null } {
  if (s.statusCode === 'ARRIVED' || s.statusCode === 'DEPARTED') return { predictedArrival: null, estimatedAt: null };
  const window = s.arrivalEstimate?.estimatedArrivalWindow;
  return {
    predictedArrival: isoOrNull(window?.startDateTime) ?? isoOrNull(window?.endDateTime),
    estimatedAt: isoOrNull(s.arrivalEstimate?.lastCalculatedDateTime),
  };
}

/** Active exceptions (reason, else category) and an exceptional status reason, sorted, once each. */
export function exceptionCodes(status: P44ShipmentStatus): string[] {
  const codes = new Set<string>();
  for (const e of status.exceptions ?? []) {
    if (e.status !== undefined && e.status !== 'ACTIVE') continue;
    const code = str(e.reason) ?? str(e.category);
    if (code) codes.add(code);
  }
  const reason = str(status.latestStatusUpdate?.statusReason?.code);
  if (reason && EXCEPTIONAL_STATUS_REASONS.has(reason)) codes.add(reason);
  return [...codes].sort();
}

/** Throws TypeError on a payload without project44's documented shape (the adapter makes it a VENDOR_ERROR). */
export function mapShipmentStatus(status: P44ShipmentStatus): VisibilityShipment {
  const shipment = status.shipment;
  if (typeof shipment?.id !== 'string' || !Array.isArray(shipment.shipmentIdentifiers)) throw new TypeError('shipment without id or identifiers');
  const stopStatuses = status.latestStopStatuses ?? [];
  if (!Array.isArray(stopStatuses)) throw new TypeError('latestStopStatuses is not an array');
  const appointments = new Map((shipment.shipmentStops ?? []).map((s) => [s.stopNumber, isoOrNull(s.appointmentWindow?.endDateTime)]));
  const stopNumbers = [...new Set([...appointments.keys(), ...stopStatuses.map((s) => s.stopNumber)])].filter((n) => Number.isInteger(n) && n >= 1).sort((a, b) => a - b);
  const byNumber = new Map(stopStatuses.map((s) => [s.stopNumber, s]));
  const latest = status.latestStatusUpdate;
  const coords = latest?.geoCoordinates;
  return {
    externalId: shipment.id,
    referenceNumber: mainReference(shipment.shipmentIdentifiers),
    identifiers: [...new Set(shipment.shipmentIdentifiers.map((i) => str(i.value)).filter((v): v is string => v !== null))],
    status: str(latest?.statusCode) ? { code: latest!.statusCode!, reason: str(latest?.statusReason?.code), at: isoOrNull(latest?.timestamp) } : null,
    position:
      coords && Number.isFinite(coords.latitude) && Number.isFinite(coords.longitude)
        ? { latitude: coords.latitude, longitude: coords.longitude, recordedAt: isoOrNull(latest?.timestamp) }
        : null,
    stops: stopNumbers.map((n) => {
      const s = byNumber.get(n);
      const p = s ? predictedArrival(s) : { predictedArrival: null, estimatedAt: null };
      return { stopNumber: n, predictedArrival: p.predictedArrival, estimatedAt: p.estimatedAt, appointmentLatest: appointments.get(n) ?? null };
    }),
    exceptions: exceptionCodes(status),
  };
}
