/**
 * Unassigned driving as a dispatcher reads it (docs/logs.md, Unassigned driving): statuses, sources and
 * places in words, durations h:mm, the 24-hour flag as a sentence, the annotation's rule, and the
 * server's refusals in words (times: unassigned-when.ts). Pure; tested in unassigned.test.ts.
 */
import { ApiError, type Item, type Ok } from '../api/client';
import { formatMinutes } from './durations';
import { label } from './glossary';
import { inZone } from './local-time';

export type UnassignedSegment = Item<'/api/v1/unassigned-driving'>;
export type VehicleFlag = Ok<'/api/v1/unassigned-driving'>['vehicles'][number];
export type UnassignedStatus = UnassignedSegment['status'];

export const UNASSIGNED_STATUSES: readonly UnassignedStatus[] = ['UNASSIGNED', 'ASSIGNMENT_PENDING', 'ASSIGNED', 'ANNOTATED'];

/** ELD specification §4.6.1.6: more than this much unresolved driving in 24 hours is what an inspector looks for. */
export const FLAG_MINUTES = 30;

/** The annotation's length (ELD specification §7.4), as the API checks it. */
export const ANNOTATION_MIN = 4;
export const ANNOTATION_MAX = 60;

export const ANNOTATION_EXAMPLES = ['Yard move', 'Shop test drive', 'Moved to the wash bay'];

export function statusText(status: string): string {
  return label('unassignedStatus', status);
}

export function sourceText(source: string): string {
  return label('unassignedSource', source);
}

/** "45 min", "1 h 15 min": minutes in a sentence. */
export function minutesText(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  return m % 60 === 0 ? `${m / 60} h` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** "T-105: 45 min of driving nobody has assumed in the last 24 hours — more than the 30 minutes an inspector looks for". */
export function flagSentence(v: Pick<VehicleFlag, 'vehicleUnitNumber' | 'unresolvedMinutesLast24Hours'>): string {
  return `${v.vehicleUnitNumber}: ${minutesText(v.unresolvedMinutesLast24Hours)} of driving nobody has assumed in the last 24 hours — more than the ${FLAG_MINUTES} minutes an inspector looks for`;
}

/** "Unassigned driving 0:45": the badge beside a flagged truck. */
export function flagBadgeText(v: Pick<VehicleFlag, 'unresolvedMinutesLast24Hours'>): string {
  return `Unassigned driving ${formatMinutes(v.unresolvedMinutesLast24Hours)}`;
}

/** The flagged vehicles, the most unresolved driving first (then by unit). */
export function flaggedVehicles<T extends Pick<VehicleFlag, 'flagged' | 'unresolvedMinutesLast24Hours' | 'vehicleUnitNumber'>>(vehicles: readonly T[]): T[] {
  return vehicles
    .filter((v) => v.flagged)
    .sort((a, b) => b.unresolvedMinutesLast24Hours - a.unresolvedMinutesLast24Hours || a.vehicleUnitNumber.localeCompare(b.vehicleUnitNumber, 'en-US', { numeric: true }));
}

/** The flagged vehicles by id (the Vehicles list puts a badge on each). */
export function flagsByVehicle<T extends Pick<VehicleFlag, 'vehicleId' | 'flagged'>>(vehicles: readonly T[]): Map<string, T> {
  return new Map(vehicles.filter((v) => v.flagged).map((v) => [v.vehicleId, v]));
}

/** A place in words, or that none was reported. */
export function placeText(place: { name: string } | null | undefined): string {
  return place?.name ?? 'Not reported';
}

/** Distances under ten miles in tenths ("6.3 mi"), from ten on in whole miles ("31 mi"); a dash when not reported. */
export function milesText(miles: number | null | undefined): string {
  if (miles === null || miles === undefined || !Number.isFinite(miles)) return '—';
  return miles < 10 ? `${Math.round(miles * 10) / 10} mi` : `${Math.round(miles).toLocaleString('en-US')} mi`;
}

/** Whether a dispatcher can still act on the segment (assign or annotate): only while it is unassigned. */
export function canResolve(s: Pick<UnassignedSegment, 'status'>): boolean {
  return s.status === 'UNASSIGNED';
}

/** What is wrong with an annotation, in words; null when it will do. */
export function annotationProblem(text: string, optional = false): string | null {
  const t = text.trim();
  if (t.length === 0) return optional ? null : `Write the reason: ${ANNOTATION_MIN} to ${ANNOTATION_MAX} characters`;
  if (t.length < ANNOTATION_MIN) return `At least ${ANNOTATION_MIN} characters (${t.length} so far)`;
  if (t.length > ANNOTATION_MAX) return `At most ${ANNOTATION_MAX} characters (${t.length} now)`;
  return null;
}

/** The Unassigned driving page's address, filtered to a vehicle or a status when given. */
export function unassignedHref(filters: { vehicleId?: string; status?: string } = {}): string {
  const p = new URLSearchParams();
  if (filters.vehicleId) p.set('vehicleId', filters.vehicleId);
  if (filters.status) p.set('status', filters.status);
  const q = p.toString();
  return q ? `/unassigned-driving?${q}` : '/unassigned-driving';
}

const FIELD_WORDS: Array<[RegExp, string]> = [
  [/annotation$/, 'Reason'],
  [/driverId$/, 'Driver'],
  [/from$/, 'From'],
  [/to$/, 'To'],
];
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})/g;
/** An identifier the server may name in a message ("(udr_…)", "drv_…"): nothing a person can use. */
const ID = /\s*\(?\b[a-z]{2,5}_[A-Za-z0-9]{6,}\b\)?/g;

/**
 * What the server refused, in words: its message and each detail with the field named in words, every
 * time in `timeZone` with its abbreviation, identifiers left out.
 */
export function problemText(error: unknown, timeZone = 'UTC'): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const clean = (s: string) => s.replace(ISO_TIME, (iso) => inZone(iso, timeZone)).replace(ID, '').trim();
  const details = (error.body.details ?? []).map((d) => {
    const field = d.field ? FIELD_WORDS.find(([re]) => re.test(d.field!))?.[1] : undefined;
    const message = clean(d.message ?? '');
    return field ? `${field}: ${message}` : message;
  });
  const head = clean(error.message);
  return details.length > 0 ? `${head}. ${details.join('. ')}` : head;
}
