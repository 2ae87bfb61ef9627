import type { PGlite } from '@electric-sql/pglite';
import { migrate } from '../../src/db/migrate.js';
import type { Database, Tx } from '../../src/db/types.js';
import type { SeedDriver, SeedTenant } from './seed-file.js';

/**
 * The daily-log benchmark's data (bench/logs.ts): what the harness created through the app's API
 * (the tenant, its API key, its drivers), and the rows it generated for the log that the API cannot
 * write (records of duty status up to 194 days old: POST /drivers/{id}/duty-status takes the last 16
 * days only, and an ELD integration's sandbox serves a few days), inserted with SQL as the other
 * benches seed (bench/monitoring.ts): by the app's process into its own database
 * (bench/servers/logs-app.ts), and by the baseline into its own in-memory PGlite.
 */
export interface LogsSeed {
  apiKeys: { key: string; tenantId: string }[];
  tenants: SeedTenant[];
  drivers: SeedDriver[];
  rows: LogsRows;
}

/** Rows by table, each a plain object keyed by column name (timestamps as ISO strings). */
export interface LogsRows {
  duty_status_events: Record<string, unknown>[];
  log_edits: Record<string, unknown>[];
  log_certifications: Record<string, unknown>[];
  route_plans: Record<string, unknown>[];
  route_positions: Record<string, unknown>[];
}

/** The columns written per table, in the order of the tables (a route before its positions). */
export const LOGS_COLUMNS: { [T in keyof LogsRows]: string[] } = {
  route_plans: [
    'tenant_id', 'id', 'driver_id', 'status', 'departure_time', 'arrival_time', 'distance_method', 'request', 'summary', 'stops', 'segments',
    'created_by', 'activated_at', 'completed_at', 'created_at', 'updated_at',
  ],
  route_positions: ['tenant_id', 'id', 'route_id', 'recorded_at', 'latitude', 'longitude', 'speed_mph', 'heading_degrees', 'fuel_level_percent', 'source', 'created_at'],
  log_edits: [
    'tenant_id', 'id', 'driver_id', 'status', 'origin', 'range_from', 'range_to', 'entries', 'annotation', 'requested_by', 'requested_at',
    'decided_by', 'decided_at', 'dates',
  ],
  duty_status_events: [
    'tenant_id', 'id', 'driver_id', 'status', 'started_at', 'latitude', 'longitude', 'note', 'source', 'created_by', 'created_at',
    'record_status', 'origin', 'edit_id', 'annotation', 'status_changed_at', 'status_changed_by', 'status_changed_by_edit',
  ],
  log_certifications: ['tenant_id', 'id', 'driver_id', 'log_date', 'certified_at', 'certified_by', 'statement'],
};

const BATCH = 2_000;

/**
 * Inserts the rows, BATCH at a time per statement (`json_populate_recordset`: one parameter, the same
 * statement on PGlite and PostgreSQL). Runs as the schema owner, in the caller's transaction.
 */
export async function insertLogsRows(tx: Tx, rows: LogsRows): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of Object.keys(LOGS_COLUMNS) as (keyof LogsRows)[]) {
    const cols = LOGS_COLUMNS[table].join(', ');
    const list = rows[table];
    for (let i = 0; i < list.length; i += BATCH) {
      await tx.query(`INSERT INTO ${table} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${table}, $1::json)`, [JSON.stringify(list.slice(i, i + BATCH))]);
    }
    counts[table] = list.length;
  }
  return counts;
}

/** The tables the benchmark reads, analysed after seeding so that both servers' plans see the data. */
export const ANALYZE_LOGS_TABLES = 'ANALYZE drivers, duty_status_events, log_edits, log_certifications, route_plans, route_positions';

/**
 * The baseline's own in-memory PGlite (set-up, not measured): the app's migrations (schema, RLS policies,
 * the fleet_app role), the tenant and drivers as the app returned them, then the same rows.
 */
export async function setUpLogsPglite(db: PGlite, seed: LogsSeed): Promise<void> {
  const asOwner = <T>(fn: (tx: Tx) => Promise<T>) =>
    db.transaction((tx) =>
      fn({
        async query<R>(sql: string, params?: unknown[]) {
          const res = await tx.query<R>(sql, params);
          return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
        },
      }),
    );
  const setup: Database = {
    kind: 'pglite',
    system: asOwner,
    tenant: () => Promise.reject(new Error('not used in set-up')),
    systemStatement: () => Promise.reject(new Error('not used in set-up')),
    listen: () => Promise.reject(new Error('not used in set-up')),
    exec: async (sql) => void (await db.exec(sql)),
    ping: async () => void (await db.query('SELECT 1')),
    close: () => db.close(),
  };
  await migrate(setup);
  await asOwner(async (tx) => {
    for (const t of seed.tenants) {
      await tx.query(
        `INSERT INTO tenants (id, name, address, phone, contact_email, dot_number, mc_number, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [t.id, t.name, t.address, t.phone, t.contactEmail, t.dotNumber, t.mcNumber, t.status, t.createdAt, t.updatedAt],
      );
    }
    for (const d of seed.drivers) {
      await tx.query(
        `INSERT INTO drivers (tenant_id, id, user_id, first_name, last_name, license_number, license_state, truck_number, phone_number, email,
                              external_id, home_terminal, status, current_hours_driven, current_on_duty_time, current_cycle_used, last_restart_date,
                              deactivated_at, reactivated_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
        [d.tenantId, d.id, d.userId, d.firstName, d.lastName, d.licenseNumber, d.licenseState, d.truckNumber, d.phoneNumber, d.email, d.externalId,
          d.homeTerminal === null || d.homeTerminal === undefined ? null : JSON.stringify(d.homeTerminal), d.status, d.currentHoursDriven, d.currentOnDutyTime,
          d.currentCycleUsed, d.lastRestartDate, d.deactivatedAt, d.reactivatedAt, d.createdAt, d.updatedAt],
      );
    }
    await insertLogsRows(tx, seed.rows);
  });
  await db.exec(ANALYZE_LOGS_TABLES);
  await db.exec('CHECKPOINT');
}
