import foundation from './migrations/001_foundation.js';
import planning from './migrations/002_planning.js';
import monitoring from './migrations/003_monitoring.js';
import integrations from './migrations/004_integrations.js';
import integrationData from './migrations/005_integration_data.js';
import integrationSyncOnce from './migrations/006_integration_sync_once.js';
import routePlansJson from './migrations/007_route_plans_json.js';
import routeRevisions from './migrations/008_route_revisions.js';
import teamDrivers from './migrations/009_team_drivers.js';
import driverLocations from './migrations/010_driver_locations.js';
import recordsOfDutyStatus from './migrations/011_records_of_duty_status.js';
import unassignedDriving from './migrations/012_unassigned_driving.js';
import routePlanLookups from './migrations/013_route_plan_lookups.js';
import { APP_ROLE, type Database } from './types.js';

export interface Migration {
  id: string;
  sql: string;
}

/** The one migration set, for PGlite and PostgreSQL alike. Append; never edit an applied one. */
export const MIGRATIONS: Migration[] = [
  { id: '001_foundation', sql: foundation },
  { id: '002_planning', sql: planning },
  { id: '003_monitoring', sql: monitoring },
  { id: '004_integrations', sql: integrations },
  { id: '005_integration_data', sql: integrationData },
  { id: '006_integration_sync_once', sql: integrationSyncOnce },
  { id: '007_route_plans_json', sql: routePlansJson },
  { id: '008_route_revisions', sql: routeRevisions },
  { id: '009_team_drivers', sql: teamDrivers },
  { id: '010_driver_locations', sql: driverLocations },
  { id: '011_records_of_duty_status', sql: recordsOfDutyStatus },
  { id: '012_unassigned_driving', sql: unassignedDriving },
  { id: '013_route_plan_lookups', sql: routePlanLookups },
];

/**
 * Row-level security for every table with a tenant_id column (ENABLE + FORCE, policy on
 * app.tenant_id), and the application role's grants. Idempotent; runs after every migration pass
 * so a new tenant table cannot be left without its policy.
 */
const SECURE_TENANT_TABLES = /* sql */ `
DO $$
DECLARE t record;
BEGIN
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
      CREATE ROLE ${APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS;
    END IF;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
  IF NOT pg_has_role(current_user, '${APP_ROLE}', 'MEMBER') THEN
    BEGIN
      EXECUTE format('GRANT ${APP_ROLE} TO %I', current_user);
    EXCEPTION WHEN others THEN NULL;
    END;
  END IF;
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO ${APP_ROLE}', current_schema());
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO ${APP_ROLE}', current_schema());
  -- Serial columns (the outbox's write order) take their values from sequences.
  EXECUTE format('GRANT USAGE ON ALL SEQUENCES IN SCHEMA %I TO ${APP_ROLE}', current_schema());
  EXECUTE format('REVOKE ALL ON schema_migrations FROM ${APP_ROLE}');
  FOR t IN
    SELECT c.relname FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
     WHERE n.nspname = current_schema() AND c.relkind = 'r'
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t.relname);
    IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE schemaname = current_schema() AND tablename = t.relname AND policyname = 'tenant_isolation') THEN
      EXECUTE format($p$CREATE POLICY tenant_isolation ON %I
        USING (tenant_id = current_setting('app.tenant_id', true))
        WITH CHECK (tenant_id = current_setting('app.tenant_id', true))$p$, t.relname);
    END IF;
  END LOOP;
  -- Records of duty status, their corrections and certifications, and unidentified driving records are
  -- kept (49 CFR 395.8(k), 395.32(c)): the application may not delete them.
  FOR t IN
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname IN ('duty_status_events', 'log_edits', 'log_certifications', 'unassigned_driving')
  LOOP
    EXECUTE format('REVOKE DELETE, TRUNCATE ON %I FROM ${APP_ROLE}', t.relname);
  END LOOP;
END $$;
`;

export interface MigrationStatus {
  /** Migrations of this version not applied to the database: the schema is behind. */
  pending: string[];
  /** Migrations the database has that this version does not know (a newer version migrated it). */
  unknown: string[];
}

/** Compares the database's applied migrations with this version's, without changing anything. */
export async function migrationStatus(db: Database): Promise<MigrationStatus> {
  const applied = await db.system(async (tx) => {
    const { rows } = await tx.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
    if (!rows[0]?.present) return new Set<string>();
    return new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
  });
  const known = new Set(MIGRATIONS.map((m) => m.id));
  return { pending: MIGRATIONS.filter((m) => !applied.has(m.id)).map((m) => m.id), unknown: [...applied].filter((id) => !known.has(id)).sort() };
}

/**
 * Applies this version's pending migrations and returns their ids. On PostgreSQL the whole run holds a
 * transaction-scoped advisory lock: concurrent runs (several instances starting, two migrate jobs) apply
 * each migration once; the others wait for the lock, then find nothing left to do.
 */
export async function migrate(db: Database): Promise<string[]> {
  return db.system(async (tx) => {
    // One migrator at a time across processes sharing a PostgreSQL database.
    if (db.kind === 'postgres') await tx.query("SELECT pg_advisory_xact_lock(hashtext('fleet-migrations'))");
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.id)) continue;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      applied.push(m.id);
    }
    await tx.query(SECURE_TENANT_TABLES);
    return applied;
  });
}

/** Splits a migration on top-level semicolons (ignores those inside $$ bodies and strings). */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  let inQuote = false;
  let inComment = false;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (inComment) {
      if (ch === '\n') inComment = false;
      continue;
    }
    if (!inDollar && !inQuote && ch === '-' && next === '-') {
      inComment = true;
      continue;
    }
    if (!inQuote && ch === '$' && next === '$') {
      inDollar = !inDollar;
      current += '$$';
      i++;
      continue;
    }
    if (!inDollar && ch === "'") inQuote = !inQuote;
    if (!inDollar && !inQuote && ch === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
