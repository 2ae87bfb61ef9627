/**
 * An ELD sync into the tenant's data:
 * - clocks → driver_eld_clocks (the driver's HOS record then says source = vendor key, lastSyncedAt);
 * - logs → the driver's duty-status log (source = vendor key), a status already logged at the same
 *   instant (by anyone) being kept as is;
 * - locations → vehicle_telemetry, and a position of the vehicle's ACTIVE route (source = vendor key)
 *   unless that route already has one at that instant — what monitoring checks deviation and fuel on;
 * - fault codes → vehicle_telemetry.faults (the vendor's current list per vehicle);
 * - unassigned driving → unassigned_driving, each vendor segment once (logs/unassigned.service.ts).
 * Applying the same result twice changes nothing the second time (the clocks' sync time excepted:
 * remaining time runs down from it).
 */
import type { EldSyncResult } from '../../../adapters/integrations/port.js';
import type { Tx } from '../../../db/types.js';
import { newId } from '../../../lib/ids.js';
import { insertVendorSegments } from '../../logs/unassigned.service.js';
import type { ApplyCounts, ApplyTarget } from './types.js';

/** A position more than this before its route's activation is not the route's. */
const BEFORE_ACTIVATION_MS = 3_600_000;

async function applyClocks(tx: Tx, t: ApplyTarget, clocks: EldSyncResult['clocks'], now: Date): Promise<{ updated: number; unchanged: number }> {
  if (clocks.length === 0) return { updated: 0, unchanged: 0 };
  const { rows } = await tx.query<{ changed: boolean }>(
    `WITH input AS (
       SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[])
         AS x (driver_id, vendor_driver_id, current_status, drive_ms, shift_ms, cycle_ms, break_ms)
     ), before AS (
       SELECT c.driver_id, c.vendor_driver_id, c.current_status, c.drive_remaining_ms, c.shift_remaining_ms, c.cycle_remaining_ms, c.break_remaining_ms, c.integration_id
         FROM driver_eld_clocks c JOIN input i ON c.tenant_id = $1 AND c.driver_id = i.driver_id
     ), upserted AS (
       INSERT INTO driver_eld_clocks (tenant_id, driver_id, integration_id, source, vendor_driver_id, current_status, drive_remaining_ms, shift_remaining_ms, cycle_remaining_ms, break_remaining_ms, synced_at)
       SELECT $1, driver_id, $2, $3, vendor_driver_id, current_status, drive_ms, shift_ms, cycle_ms, break_ms, $11 FROM input
       ON CONFLICT (tenant_id, driver_id) DO UPDATE SET
         integration_id = excluded.integration_id, source = excluded.source, vendor_driver_id = excluded.vendor_driver_id,
         current_status = excluded.current_status, drive_remaining_ms = excluded.drive_remaining_ms, shift_remaining_ms = excluded.shift_remaining_ms,
         cycle_remaining_ms = excluded.cycle_remaining_ms, break_remaining_ms = excluded.break_remaining_ms, synced_at = excluded.synced_at
       RETURNING driver_id
     )
     SELECT (b.driver_id IS NULL OR (b.vendor_driver_id, b.current_status, b.drive_remaining_ms, b.shift_remaining_ms, b.cycle_remaining_ms, b.break_remaining_ms, b.integration_id)
              IS DISTINCT FROM (i.vendor_driver_id, i.current_status, i.drive_ms, i.shift_ms, i.cycle_ms, i.break_ms, $2::text)) AS changed
       FROM upserted u JOIN input i ON i.driver_id = u.driver_id LEFT JOIN before b ON b.driver_id = u.driver_id`,
    [
      t.tenantId,
      t.integrationId,
      t.vendor,
      clocks.map((c) => c.driverId),
      clocks.map((c) => c.vendorDriverId),
      clocks.map((c) => c.currentStatus),
      clocks.map((c) => Math.round(c.driveRemainingMs)),
      clocks.map((c) => Math.round(c.shiftRemainingMs)),
      clocks.map((c) => Math.round(c.cycleRemainingMs)),
      clocks.map((c) => (c.breakRemainingMs === null ? null : Math.round(c.breakRemainingMs))),
      now,
    ],
  );
  const updated = rows.filter((r) => r.changed).length;
  return { updated, unchanged: rows.length - updated };
}

async function applyLogs(tx: Tx, t: ApplyTarget, logs: EldSyncResult['logs'], now: Date): Promise<number> {
  if (logs.length === 0) return 0;
  const { rowCount } = await tx.query(
    // What the ELD recorded: origin AUTOMATIC (ELD specification §7.22, record origin 1). A record the
    // service already holds at that instant — active, or inactive after a correction — is not stored again.
    `INSERT INTO duty_status_events (tenant_id, id, driver_id, status, started_at, latitude, longitude, note, source, created_by, created_at, origin)
     SELECT DISTINCT ON (x.driver_id, x.started_at) $1, x.id, x.driver_id, x.status, x.started_at, x.latitude, x.longitude, NULL, $2, NULL, $3, 'AUTOMATIC'
       FROM unnest($4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::float8[], $9::float8[]) AS x (id, driver_id, status, started_at, latitude, longitude)
      WHERE NOT EXISTS (SELECT 1 FROM duty_status_events e WHERE e.tenant_id = $1 AND e.driver_id = x.driver_id AND e.started_at = x.started_at)`,
    [
      t.tenantId,
      t.vendor,
      now,
      logs.map(() => newId('dutyStatus')),
      logs.map((l) => l.driverId),
      logs.map((l) => l.status),
      logs.map((l) => new Date(l.startedAt)),
      logs.map((l) => l.latitude),
      logs.map((l) => l.longitude),
    ],
  );
  return rowCount;
}

interface Telemetry {
  vehicleId: string;
  location: EldSyncResult['locations'][number] | null;
  faults: { code: string; description: string; severity: string; active: boolean; since: string }[];
}

async function applyTelemetry(tx: Tx, t: ApplyTarget, result: EldSyncResult, now: Date): Promise<{ updated: number; unchanged: number }> {
  const byVehicle = new Map<string, Telemetry>();
  const entry = (vehicleId: string) => byVehicle.get(vehicleId) ?? byVehicle.set(vehicleId, { vehicleId, location: null, faults: [] }).get(vehicleId)!;
  for (const l of result.locations) {
    const e = entry(l.vehicleId);
    if (e.location === null || l.recordedAt > e.location.recordedAt) e.location = l;
  }
  for (const f of result.faults) entry(f.vehicleId).faults.push({ code: f.code, description: f.description, severity: f.severity, active: f.active, since: f.since });
  const list = [...byVehicle.values()];
  if (list.length === 0) return { updated: 0, unchanged: 0 };
  for (const e of list) e.faults.sort((a, b) => a.code.localeCompare(b.code) || a.since.localeCompare(b.since));
  const { rows } = await tx.query<{ vehicle_id: string }>(
    `INSERT INTO vehicle_telemetry (tenant_id, vehicle_id, integration_id, source, latitude, longitude, speed_mph, heading_degrees, fuel_level_percent, recorded_at, faults, synced_at)
     SELECT $1, x.vehicle_id, $2, $3, x.latitude, x.longitude, x.speed, x.heading, x.fuel, x.recorded_at, x.faults::jsonb, $4
       FROM unnest($5::text[], $6::float8[], $7::float8[], $8::float8[], $9::float8[], $10::float8[], $11::timestamptz[], $12::text[])
         AS x (vehicle_id, latitude, longitude, speed, heading, fuel, recorded_at, faults)
     ON CONFLICT (tenant_id, vehicle_id) DO UPDATE SET
       integration_id = excluded.integration_id, source = excluded.source, latitude = excluded.latitude, longitude = excluded.longitude,
       speed_mph = excluded.speed_mph, heading_degrees = excluded.heading_degrees, fuel_level_percent = excluded.fuel_level_percent,
       recorded_at = excluded.recorded_at, faults = excluded.faults, synced_at = excluded.synced_at
     WHERE (vehicle_telemetry.integration_id, vehicle_telemetry.latitude, vehicle_telemetry.longitude, vehicle_telemetry.speed_mph, vehicle_telemetry.heading_degrees,
            vehicle_telemetry.fuel_level_percent, vehicle_telemetry.recorded_at, vehicle_telemetry.faults)
           IS DISTINCT FROM (excluded.integration_id, excluded.latitude, excluded.longitude, excluded.speed_mph, excluded.heading_degrees,
            excluded.fuel_level_percent, excluded.recorded_at, excluded.faults)
     RETURNING vehicle_id`,
    [
      t.tenantId,
      t.integrationId,
      t.vendor,
      now,
      list.map((e) => e.vehicleId),
      list.map((e) => e.location?.latitude ?? null),
      list.map((e) => e.location?.longitude ?? null),
      list.map((e) => e.location?.speedMph ?? null),
      list.map((e) => e.location?.headingDegrees ?? null),
      list.map((e) => e.location?.fuelLevelPercent ?? null),
      list.map((e) => (e.location ? new Date(e.location.recordedAt) : null)),
      list.map((e) => JSON.stringify(e.faults)),
    ],
  );
  return { updated: rows.length, unchanged: list.length - rows.length };
}

/** Each location of a vehicle on an ACTIVE route becomes a position of that route (once). */
async function applyPositions(tx: Tx, t: ApplyTarget, locations: EldSyncResult['locations'], now: Date): Promise<number> {
  if (locations.length === 0) return 0;
  const { rowCount } = await tx.query(
    `INSERT INTO route_positions (tenant_id, id, route_id, recorded_at, latitude, longitude, speed_mph, heading_degrees, fuel_level_percent, source, created_at)
     SELECT DISTINCT ON (r.id, x.recorded_at) $1, x.id, r.id, x.recorded_at, x.latitude, x.longitude, x.speed, x.heading, x.fuel, $2, $3
       FROM unnest($4::text[], $5::text[], $6::timestamptz[], $7::float8[], $8::float8[], $9::float8[], $10::float8[], $11::float8[])
         AS x (id, vehicle_id, recorded_at, latitude, longitude, speed, heading, fuel)
       JOIN route_plans r ON r.tenant_id = $1 AND r.vehicle_id = x.vehicle_id AND r.status = 'ACTIVE'
      WHERE x.recorded_at >= r.activated_at - $12 * interval '1 millisecond'
        AND NOT EXISTS (SELECT 1 FROM route_positions p WHERE p.tenant_id = $1 AND p.route_id = r.id AND p.recorded_at = x.recorded_at)`,
    [
      t.tenantId,
      t.vendor,
      now,
      locations.map(() => newId('position')),
      locations.map((l) => l.vehicleId),
      locations.map((l) => new Date(l.recordedAt)),
      locations.map((l) => l.latitude),
      locations.map((l) => l.longitude),
      locations.map((l) => l.speedMph),
      locations.map((l) => l.headingDegrees),
      locations.map((l) => l.fuelLevelPercent),
      BEFORE_ACTIVATION_MS,
    ],
  );
  return rowCount;
}

export async function applyEld(tx: Tx, target: ApplyTarget, result: EldSyncResult, now: Date): Promise<ApplyCounts> {
  const clocks = await applyClocks(tx, target, result.clocks, now);
  const logsAdded = await applyLogs(tx, target, result.logs, now);
  const telemetry = await applyTelemetry(tx, target, result, now);
  const positionsAdded = await applyPositions(tx, target, result.locations, now);
  const unassignedAdded = await insertVendorSegments(tx, target.tenantId, target.vendor, target.integrationId, result.unassignedDriving ?? [], now);
  return {
    clocksUpdated: clocks.updated,
    clocksUnchanged: clocks.unchanged,
    logsAdded,
    logsUnchanged: result.logs.length - logsAdded,
    vehiclesUpdated: telemetry.updated,
    vehiclesUnchanged: telemetry.unchanged,
    positionsAdded,
    unassignedAdded,
  };
}
