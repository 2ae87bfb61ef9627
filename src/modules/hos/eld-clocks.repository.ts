/** The driver_eld_clocks table as the HOS record and monitoring read it. */
import type { Tx } from '../../db/types.js';
import { ELD_CLOCKS_MAX_AGE_MS, type EldReportedClocks } from '../../domain/hos/eld-clocks.js';
import type { DutyStatus } from '../../domain/hos/types.js';

export interface EldClocks {
  source: string;
  reported: EldReportedClocks;
}

export function toEldClocks(r: Record<string, unknown>): EldClocks {
  return {
    source: r.source as string,
    reported: {
      currentStatus: r.current_status as DutyStatus,
      driveRemainingMs: Number(r.drive_remaining_ms),
      shiftRemainingMs: Number(r.shift_remaining_ms),
      cycleRemainingMs: Number(r.cycle_remaining_ms),
      breakRemainingMs: r.break_remaining_ms === null ? null : Number(r.break_remaining_ms),
      syncedAt: new Date(r.synced_at as string | Date).getTime(),
    },
  };
}

/** The ELD clocks of a driver, when an ELD synced them recently enough to be used. */
export async function eldClocksOf(tx: Tx, tenantId: string, driverId: string, now: number): Promise<EldClocks | null> {
  const { rows } = await tx.query<Record<string, unknown>>('SELECT * FROM driver_eld_clocks WHERE tenant_id = $1 AND driver_id = $2 AND synced_at > $3', [
    tenantId,
    driverId,
    new Date(now - ELD_CLOCKS_MAX_AGE_MS),
  ]);
  return rows[0] ? toEldClocks(rows[0]) : null;
}

