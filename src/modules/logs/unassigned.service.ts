/**
 * Unassigned driving (issue 27): driving a vehicle recorded while no driver was logged in — the ELD
 * specification's unidentified driver records (49 CFR Part 395 Subpart B, Appendix A, §4.6.1.6) — synced
 * from the ELD integrations or reported by other telematics.
 *
 * 49 CFR 395.32(b): the driver reviews such records and assumes those that are theirs; 395.32(c): the
 * carrier annotates those no driver assumes ("yard move", "shop test drive") and keeps them. Here a carrier
 * user assigns a segment to a driver: an edit request of the driver's log, origin UNIDENTIFIED_ASSUMED (ELD
 * specification §7.22, record origin 4), that the driver accepts (ASSIGNED) or rejects (UNASSIGNED again);
 * or annotates it with the reason (ANNOTATED).
 *
 * The flag (ELD specification §4.6.1.6): domain/logs/unassigned.ts.
 */
import type { EldSyncResult } from '../../adapters/integrations/port.js';
import type { Deps } from '../../deps.js';
import type { Tx } from '../../db/types.js';
import { DomainError, invalid, invalidState, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { iso } from '../../lib/rows.js';
import type { TenantContext } from '../../plugins/context.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { findVehicle } from '../vehicles/vehicles.repository.js';
import { editsService, type EditAnswer } from './edits.service.js';
import { logSettingsOf, MAX_LOG_DAYS } from './logs.service.js';
import { unassignedFlags as flagsOf } from '../../domain/logs/unassigned.js';
import { timeZoneAt } from '../../domain/planning/local-time.js';

export type UnassignedStatus = 'UNASSIGNED' | 'ASSIGNMENT_PENDING' | 'ASSIGNED' | 'ANNOTATED';
export const UNASSIGNED_STATUSES: readonly UnassignedStatus[] = ['UNASSIGNED', 'ASSIGNMENT_PENDING', 'ASSIGNED', 'ANNOTATED'];

const DAY_MS = 24 * 3_600_000;
/** A single segment longer than this is not a segment of driving (a vendor or client error). */
export const MAX_SEGMENT_HOURS = 24;

export interface SegmentInput {
  start: string;
  end: string;
  startLocation?: { latitude: number; longitude: number };
  endLocation?: { latitude: number; longitude: number };
  miles?: number;
  /** The reporting system's own id for the segment: a resend answers the stored one. */
  externalId?: string;
}

/** One synced from an ELD integration (apply/eld.ts), as the adapters report it. */
export type VendorSegment = NonNullable<EldSyncResult['unassignedDriving']>[number];

interface Row {
  id: string;
  vehicle_id: string;
  unit_number: string;
  started_at: unknown;
  ended_at: unknown;
  start_latitude: number | null;
  start_longitude: number | null;
  end_latitude: number | null;
  end_longitude: number | null;
  miles: number | null;
  source: string;
  vendor_segment_id: string | null;
  status: UnassignedStatus;
  annotation: string | null;
  driver_id: string | null;
  driver_name: string | null;
  edit_id: string | null;
  created_by: string | null;
  created_at: unknown;
  status_changed_at: unknown;
  status_changed_by: string | null;
}

const SELECT = `SELECT u.*, v.unit_number, d.first_name || ' ' || d.last_name AS driver_name
  FROM unassigned_driving u
  JOIN vehicles v ON v.tenant_id = u.tenant_id AND v.id = u.vehicle_id
  LEFT JOIN drivers d ON d.tenant_id = u.tenant_id AND d.id = u.driver_id`;

/**
 * Stores segments synced from an ELD integration, each once (the vendor's id); a segment of a vehicle that
 * overlaps one already stored (reported by another system) is skipped. Returns how many were added.
 */
export async function insertVendorSegments(tx: Tx, tenantId: string, source: string, integrationId: string, segments: readonly VendorSegment[], now: Date): Promise<number> {
  let added = 0;
  for (const s of segments) {
    const start = Date.parse(s.startedAt);
    const end = Date.parse(s.endedAt);
    if (!(end > start) || end - start > MAX_SEGMENT_HOURS * 3_600_000 || end > now.getTime()) continue;
    const { rowCount } = await tx.query(
      `INSERT INTO unassigned_driving (tenant_id, id, vehicle_id, started_at, ended_at, start_latitude, start_longitude, end_latitude, end_longitude, miles, source, vendor_segment_id, integration_id, created_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14
        WHERE NOT EXISTS (SELECT 1 FROM unassigned_driving o WHERE o.tenant_id = $1 AND o.vehicle_id = $3 AND o.started_at < $5 AND $4 < o.ended_at)
       ON CONFLICT (tenant_id, source, vendor_segment_id) WHERE vendor_segment_id IS NOT NULL DO NOTHING`,
      [tenantId, newId('unassignedDriving'), s.vehicleId, new Date(start), new Date(end), s.startLatitude, s.startLongitude, s.endLatitude, s.endLongitude, s.miles, source, s.vendorSegmentId, integrationId, now],
    );
    added += rowCount;
  }
  return added;
}

/** Per vehicle with unresolved unassigned driving in the last 24 hours: its minutes, and whether that flags it. */
export async function unassignedFlags(tx: Tx, tenantId: string, now: number, vehicleId?: string) {
  const { rows } = await tx.query<{ vehicle_id: string; unit_number: string; started_at: unknown; ended_at: unknown }>(
    `SELECT u.vehicle_id, v.unit_number, u.started_at, u.ended_at FROM unassigned_driving u JOIN vehicles v ON v.tenant_id = u.tenant_id AND v.id = u.vehicle_id
      WHERE u.tenant_id = $1 AND u.status IN ('UNASSIGNED','ASSIGNMENT_PENDING') AND u.ended_at > $2 AND ($3::text IS NULL OR u.vehicle_id = $3)
      ORDER BY v.unit_number, u.vehicle_id`,
    [tenantId, new Date(now - DAY_MS), vehicleId ?? null],
  );
  const units = new Map(rows.map((r) => [r.vehicle_id, r.unit_number]));
  const flags = flagsOf(rows.map((r) => ({ vehicleId: r.vehicle_id, start: Date.parse(iso(r.started_at)), end: Date.parse(iso(r.ended_at)) })), now);
  return flags.map((f) => ({ vehicleId: f.vehicleId, vehicleUnitNumber: units.get(f.vehicleId)!, unresolvedMinutesLast24Hours: f.unresolvedMinutesLast24Hours, flagged: f.flagged }));
}

export function unassignedService(deps: Deps, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>) {
  const { db, clock } = deps;
  const edits = editsService(deps, ports);

  const place = (lat: number | null, lon: number | null) => (lat === null || lon === null ? null : { latitude: lat, longitude: lon, name: ports.nameNear({ latitude: lat, longitude: lon }) });

  /** `zone`: the organization's, for a segment with no known place. */
  function toSegment(r: Row, zone: string) {
    const start = Date.parse(iso(r.started_at));
    const end = Date.parse(iso(r.ended_at));
    return {
      id: r.id,
      vehicleId: r.vehicle_id,
      vehicleUnitNumber: r.unit_number,
      start: iso(r.started_at),
      end: iso(r.ended_at),
      durationMinutes: Math.round((end - start) / 60_000),
      startLocation: place(r.start_latitude, r.start_longitude),
      endLocation: place(r.end_latitude, r.end_longitude),
      miles: r.miles === null ? null : Math.round(Number(r.miles) * 10) / 10,
      // The zone of the place it began (else ended; else the organization's): the times a person reads are that place's.
      timeZone:
        r.start_latitude !== null && r.start_longitude !== null
          ? timeZoneAt({ latitude: r.start_latitude, longitude: r.start_longitude })
          : r.end_latitude !== null && r.end_longitude !== null
            ? timeZoneAt({ latitude: r.end_latitude, longitude: r.end_longitude })
            : zone,
      source: r.source,
      externalId: r.vendor_segment_id,
      status: r.status,
      annotation: r.annotation,
      driverId: r.driver_id,
      driverName: r.driver_name,
      editId: r.edit_id,
      createdAt: iso(r.created_at),
      createdBy: r.created_by,
      statusChangedAt: r.status_changed_at === null ? null : iso(r.status_changed_at),
      statusChangedBy: r.status_changed_by,
    };
  }
  type Segment = ReturnType<typeof toSegment>;

  const zoneOf = async (tx: Tx, tenantId: string) => (await logSettingsOf(tx, tenantId, null, ports)).zone;
  const answer = async (tx: Tx, tenantId: string, id: string) => toSegment(await segmentFor(tx, tenantId, id), await zoneOf(tx, tenantId));

  async function segmentFor(tx: Tx, tenantId: string, id: string, forUpdate = false): Promise<Row> {
    const { rows } = await tx.query<Row>(`${SELECT} WHERE u.tenant_id = $1 AND u.id = $2 ${forUpdate ? 'FOR UPDATE OF u' : ''}`, [tenantId, id]);
    if (!rows[0]) throw notFound('Unassigned driving');
    return rows[0];
  }

  return {
    /** Other telematics report a segment (POST /vehicles/{id}/unassigned-driving); a resend with the same externalId answers the stored one. */
    async report(ctx: TenantContext, vehicleId: string, input: SegmentInput): Promise<{ created: boolean; segment: Segment }> {
      const now = clock.now();
      const start = Date.parse(input.start);
      const end = Date.parse(input.end);
      const problems: Array<{ field: string; message: string }> = [];
      if (!(end > start)) problems.push({ field: 'body.end', message: 'must be after start' });
      if (end > now.getTime()) problems.push({ field: 'body.end', message: 'must not be in the future' });
      if (end - start > MAX_SEGMENT_HOURS * 3_600_000) problems.push({ field: 'body.end', message: `a segment lasts at most ${MAX_SEGMENT_HOURS} hours` });
      if (start < now.getTime() - MAX_LOG_DAYS * DAY_MS) problems.push({ field: 'body.start', message: `more than ${MAX_LOG_DAYS} days ago` });
      if (problems.length > 0) throw invalid('Validation failed', problems);
      return db.tenant(ctx.tenantId, async (tx) => {
        const vehicle = await findVehicle(tx, ctx.tenantId, vehicleId, true);
        if (!vehicle) throw notFound('Vehicle');
        if (input.externalId !== undefined) {
          const { rows } = await tx.query<{ id: string; vehicle_id: string }>(`SELECT id, vehicle_id FROM unassigned_driving WHERE tenant_id = $1 AND source = 'API' AND vendor_segment_id = $2`, [ctx.tenantId, input.externalId]);
          if (rows[0]) {
            if (rows[0].vehicle_id !== vehicle.id) throw new DomainError('CONFLICT', `externalId ${input.externalId} is a segment of another vehicle`);
            return { created: false, segment: await answer(tx, ctx.tenantId, rows[0].id) };
          }
        }
        const overlap = await tx.query<{ started_at: unknown; ended_at: unknown }>(
          `SELECT started_at, ended_at FROM unassigned_driving WHERE tenant_id = $1 AND vehicle_id = $2 AND started_at < $4 AND $3 < ended_at LIMIT 1`,
          [ctx.tenantId, vehicle.id, new Date(start), new Date(end)],
        );
        const other = overlap.rows[0];
        if (other) throw new DomainError('CONFLICT', `${vehicle.unitNumber} already has unassigned driving from ${iso(other.started_at)} to ${iso(other.ended_at)}, which this overlaps`);
        const id = newId('unassignedDriving');
        await tx.query(
          `INSERT INTO unassigned_driving (tenant_id, id, vehicle_id, started_at, ended_at, start_latitude, start_longitude, end_latitude, end_longitude, miles, source, vendor_segment_id, created_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'API', $11, $12, $13)`,
          [
            ctx.tenantId, id, vehicle.id, new Date(start), new Date(end), input.startLocation?.latitude ?? null, input.startLocation?.longitude ?? null,
            input.endLocation?.latitude ?? null, input.endLocation?.longitude ?? null, input.miles ?? null, input.externalId ?? null, ctx.userId, now,
          ],
        );
        return { created: true, segment: await answer(tx, ctx.tenantId, id) };
      });
    },

    async get(ctx: TenantContext, id: string): Promise<Segment> {
      return db.tenant(ctx.tenantId, async (tx) => answer(tx, ctx.tenantId, id));
    },

    async list(ctx: TenantContext, q: { vehicleId?: string; status?: UnassignedStatus; page: number; pageSize: number }) {
      const now = clock.now().getTime();
      return db.tenant(ctx.tenantId, async (tx) => {
        const where = `u.tenant_id = $1 AND ($2::text IS NULL OR u.vehicle_id = $2) AND ($3::text IS NULL OR u.status = $3)`;
        const params = [ctx.tenantId, q.vehicleId ?? null, q.status ?? null];
        const total = Number((await tx.query<{ n: string }>(`SELECT count(*) AS n FROM unassigned_driving u WHERE ${where}`, params)).rows[0]!.n);
        const { rows } = await tx.query<Row>(`${SELECT} WHERE ${where} ORDER BY u.started_at DESC, u.id DESC LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`, params);
        const zone = await zoneOf(tx, ctx.tenantId);
        return { data: rows.map((r) => toSegment(r, zone)), total, page: q.page, pageSize: q.pageSize, vehicles: await unassignedFlags(tx, ctx.tenantId, now, q.vehicleId) };
      });
    },

    /**
     * Assigns the segment to a driver: a correction of the driver's log over the segment, driving from its start
     * (origin UNIDENTIFIED_ASSUMED). Requested by a carrier user, it waits for the driver (ASSIGNMENT_PENDING);
     * made by the driver's own user, it is applied at once (ASSIGNED).
     */
    async assign(ctx: TenantContext, id: string, input: { driverId: string; annotation?: string }): Promise<{ segment: Segment; edit: EditAnswer }> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const row = await segmentFor(tx, ctx.tenantId, id, true);
        if (row.status !== 'UNASSIGNED') throw invalidState(`This unassigned driving is ${words(row.status)}; only unassigned driving can be assigned`);
        const start = iso(row.started_at);
        const annotation = input.annotation?.trim() || `Unidentified driving of ${row.unit_number}`.slice(0, 60).padEnd(4, '.');
        const edit = await edits.createIn(
          tx,
          ctx,
          input.driverId,
          {
            from: start,
            to: iso(row.ended_at),
            entries: [{ status: 'ON_DUTY_DRIVING', at: start, latitude: row.start_latitude ?? undefined, longitude: row.start_longitude ?? undefined, note: `Driving of ${row.unit_number} recorded with no driver logged in` }],
            annotation,
          },
          { unassignedId: row.id },
        );
        const status: UnassignedStatus = edit.status === 'APPLIED' ? 'ASSIGNED' : 'ASSIGNMENT_PENDING';
        await tx.query(
          `UPDATE unassigned_driving SET status = $3, driver_id = $4, edit_id = $5, status_changed_at = $6, status_changed_by = $7 WHERE tenant_id = $1 AND id = $2`,
          [ctx.tenantId, row.id, status, edit.driverId, edit.id, now, ctx.userId],
        );
        return { segment: await answer(tx, ctx.tenantId, row.id), edit };
      });
    },

    /** 395.32(c): the carrier explains driving no driver assumes (a yard move, a shop's test drive). */
    async annotate(ctx: TenantContext, id: string, annotation: string): Promise<Segment> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const row = await segmentFor(tx, ctx.tenantId, id, true);
        if (row.status !== 'UNASSIGNED') throw invalidState(`This unassigned driving is ${words(row.status)}; only unassigned driving can be annotated`);
        await tx.query(`UPDATE unassigned_driving SET status = 'ANNOTATED', annotation = $3, status_changed_at = $4, status_changed_by = $5 WHERE tenant_id = $1 AND id = $2`, [
          ctx.tenantId,
          row.id,
          annotation.trim(),
          now,
          ctx.userId,
        ]);
        return answer(tx, ctx.tenantId, row.id);
      });
    },
  };
}

function words(status: UnassignedStatus): string {
  return { UNASSIGNED: 'unassigned', ASSIGNMENT_PENDING: 'waiting for the driver to accept it', ASSIGNED: 'assigned', ANNOTATED: 'annotated' }[status];
}
