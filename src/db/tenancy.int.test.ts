import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import type { Database } from './types.js';
import { newId } from '../lib/ids.js';
import { DB_KINDS, openTestDatabase } from '../../test/helpers/db.js';

async function seedTenant(db: Database, name: string): Promise<string> {
  const id = newId('tenant');
  await db.system((tx) =>
    tx.query(`INSERT INTO tenants (id, name, address, phone, contact_email, status) VALUES ($1, $2, 'a', '1', 'x@example.test', 'ACTIVE')`, [id, name]),
  );
  return id;
}

async function seedDriver(db: Database, tenantId: string, license: string): Promise<string> {
  const id = newId('driver');
  await db.tenant(tenantId, (tx) =>
    tx.query(
      `INSERT INTO drivers (tenant_id, id, first_name, last_name, license_number, license_state, status) VALUES ($1, $2, 'A', 'B', $3, 'TX', 'ACTIVE')`,
      [tenantId, id, license],
    ),
  );
  return id;
}

describe.each(DB_KINDS)('tenant isolation by row-level security (%s)', (kind) => {
  let db: Database;
  let a: string;
  let b: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    await migrate(db);
    a = await seedTenant(db, 'Alpha');
    b = await seedTenant(db, 'Bravo');
    await seedDriver(db, a, 'A-1');
    await seedDriver(db, a, 'A-2');
    await seedDriver(db, b, 'B-1');
  });
  afterAll(async () => db?.close());

  it('a query without a tenant filter sees only the current tenant rows', async () => {
    const seenByA = await db.tenant(a, (tx) => tx.query<{ tenant_id: string; license_number: string }>('SELECT tenant_id, license_number FROM drivers'));
    expect(seenByA.rows.map((r) => r.license_number).sort()).toEqual(['A-1', 'A-2']);
    const seenByB = await db.tenant(b, (tx) => tx.query<{ license_number: string }>('SELECT license_number FROM drivers'));
    expect(seenByB.rows.map((r) => r.license_number)).toEqual(['B-1']);
    // The tenants table is narrowed to the tenant's own row too.
    const tenants = await db.tenant(a, (tx) => tx.query<{ id: string }>('SELECT id FROM tenants'));
    expect(tenants.rows.map((r) => r.id)).toEqual([a]);
  });

  it('systemStatement runs one statement as the owner (every tenant), committed on its own; a failing one changes nothing', async () => {
    const c = await seedTenant(db, 'Charlie');
    await seedDriver(db, c, 'C-1');
    const all = await db.systemStatement<{ license_number: string }>('SELECT license_number FROM drivers WHERE tenant_id IN ($1, $2) ORDER BY license_number', [a, c]);
    expect(all.rows.map((r) => r.license_number)).toEqual(['A-1', 'A-2', 'C-1']);
    const renamed = await db.systemStatement(`UPDATE drivers SET first_name = 'Solo' WHERE tenant_id = $1`, [c]);
    expect(renamed.rowCount).toBe(1);
    const seen = await db.tenant(c, (tx) => tx.query<{ first_name: string }>('SELECT first_name FROM drivers'));
    expect(seen.rows).toEqual([{ first_name: 'Solo' }]);
    // Two rows, the second breaking the unique licence: the statement is atomic, so neither is kept.
    await expect(
      db.systemStatement(
        `INSERT INTO drivers (tenant_id, id, first_name, last_name, license_number, license_state, status)
         SELECT $1, x.id, 'C', 'D', x.lic, 'TX', 'ACTIVE' FROM unnest($2::text[], $3::text[]) AS x (id, lic)`,
        [c, [newId('driver'), newId('driver')], ['C-2', 'C-1']],
      ),
    ).rejects.toThrow();
    const count = await db.systemStatement<{ n: number }>(`SELECT count(*)::int AS n FROM drivers WHERE tenant_id = $1`, [c]);
    expect(count.rows[0]!.n).toBe(1);
  });

  it('an insert for another tenant is refused', async () => {
    await expect(
      db.tenant(a, (tx) =>
        tx.query(
          `INSERT INTO drivers (tenant_id, id, first_name, last_name, license_number, license_state, status) VALUES ($1, $2, 'X', 'Y', 'EVIL', 'TX', 'ACTIVE')`,
          [b, newId('driver')],
        ),
      ),
    ).rejects.toThrow(/row-level security/);
    const count = await db.system((tx) => tx.query<{ n: number }>("SELECT count(*)::int AS n FROM drivers WHERE license_number = 'EVIL'"));
    expect(count.rows[0]!.n).toBe(0);
  });

  it("updates and deletes cannot reach another tenant's rows", async () => {
    const updated = await db.tenant(a, (tx) => tx.query("UPDATE drivers SET first_name = 'Hacked' WHERE license_number = 'B-1'"));
    expect(updated.rowCount).toBe(0);
    const moved = db.tenant(a, (tx) => tx.query(`UPDATE drivers SET tenant_id = $1 WHERE license_number = 'A-1'`, [b]));
    await expect(moved).rejects.toThrow(/row-level security/);
    const deleted = await db.tenant(a, (tx) => tx.query("DELETE FROM drivers WHERE license_number = 'B-1'"));
    expect(deleted.rowCount).toBe(0);
    const b1 = await db.tenant(b, (tx) => tx.query<{ first_name: string }>("SELECT first_name FROM drivers WHERE license_number = 'B-1'"));
    expect(b1.rows).toEqual([{ first_name: 'A' }]);
  });

  it('requests run as a role without BYPASSRLS, with app.tenant_id set only inside the transaction', async () => {
    const who = await db.tenant(a, (tx) =>
      tx.query<{ role: string; bypass: boolean; superuser: boolean; tenant: string }>(
        `SELECT current_user AS role, r.rolbypassrls AS bypass, r.rolsuper AS superuser, current_setting('app.tenant_id', true) AS tenant
           FROM pg_roles r WHERE r.rolname = current_user`,
      ),
    );
    expect(who.rows[0]).toEqual({ role: 'fleet_app', bypass: false, superuser: false, tenant: a });
    const after = await db.system((tx) => tx.query<{ tenant: string | null }>("SELECT nullif(current_setting('app.tenant_id', true), '') AS tenant"));
    expect(after.rows[0]!.tenant).toBeNull();
  });

  it('every table with tenant_id has row-level security enabled and forced, with a policy', async () => {
    const { rows } = await db.system((tx) =>
      tx.query<{ table: string; enabled: boolean; forced: boolean; policies: number }>(
        `SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
                (SELECT count(*)::int FROM pg_policies p WHERE p.schemaname = n.nspname AND p.tablename = c.relname) AS policies
           FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
          ORDER BY 1`,
      ),
    );
    expect(rows.length).toBeGreaterThanOrEqual(7);
    for (const r of rows) expect(r, r.table).toMatchObject({ enabled: true, forced: true });
    for (const r of rows) expect(r.policies, r.table).toBeGreaterThan(0);
  });

  it.skipIf(kind !== 'postgres')('PostgreSQL statements time out after 15 s (set per connection, inside tenant transactions too)', async () => {
    const shown = await db.tenant(a, (tx) => tx.query<{ statement_timeout: string }>('SHOW statement_timeout'));
    expect(shown.rows[0]!.statement_timeout).toBe('15s');
  });

  it('migrations are idempotent', async () => {
    expect(await migrate(db)).toEqual([]);
  });
});

describe.each(DB_KINDS)('notifications (%s)', (kind) => {
  it('LISTEN hears a NOTIFY only once its transaction commits, and never a rolled-back one', async () => {
    const db = await openTestDatabase(kind);
    try {
      const heard: string[] = [];
      let wake: () => void = () => undefined;
      const stop = await db.listen('fleet_probe', () => {
        heard.push('notified');
        wake();
      });
      const next = () => new Promise<void>((resolve) => (wake = resolve));
      await expect(db.system(async (tx) => {
        await tx.query('NOTIFY fleet_probe');
        throw new Error('roll back');
      })).rejects.toThrow('roll back');
      const committed = next();
      await db.system(async (tx) => {
        await tx.query('NOTIFY fleet_probe');
        await tx.query('NOTIFY fleet_probe'); // folded into one
        expect(heard).toEqual([]); // not before the commit
      });
      await committed;
      expect(heard).toEqual(['notified']);
      await stop();
    } finally {
      await db.close();
    }
  });
});
