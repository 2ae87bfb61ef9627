import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import type { Database } from './types.js';
import { newId } from '../lib/ids.js';
import { DB_KINDS, openTestDatabase } from '../../test/helpers/db.js';

/**
 * Statements prepared by name (QueryOptions.prepare, issue 28): the same answers as unnamed ones, row-level
 * security still applies to them (the tenant is a setting read when they run, not when they were planned),
 * the variants of one name are told apart by their text, and an error in one leaves the connection usable.
 */
describe.each(DB_KINDS)('statements prepared by name (%s)', (kind) => {
  let db: Database;
  const tenants: string[] = [];

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    await migrate(db);
    for (const name of ['Alpha', 'Bravo']) {
      const id = newId('tenant');
      tenants.push(id);
      await db.system((tx) => tx.query(`INSERT INTO tenants (id, name, address, phone, contact_email, status) VALUES ($1, $2, 'a', '1', 'x@example.test', 'ACTIVE')`, [id, name]));
      for (const last of ['Ames', 'Bell', 'Cole']) {
        await db.tenant(id, (tx) =>
          tx.query(`INSERT INTO drivers (tenant_id, id, first_name, last_name, license_number, license_state, status) VALUES ($1, $2, $3, $4, $5, 'TX', 'ACTIVE')`, [id, newId('driver'), name, last, `${name}-${last}`]),
        );
      }
    }
  });
  afterAll(async () => db?.close());

  const names = (tenantId: string, lastNames: string[], prepare?: string) =>
    db.tenant(tenantId, async (tx) =>
      (await tx.query<{ last_name: string; first_name: string }>(`SELECT first_name, last_name FROM drivers WHERE last_name = ANY($1::text[]) ORDER BY last_name`, [lastNames], prepare ? { prepare } : undefined)).rows,
    );

  it('answers what the unnamed statement answers, run after run, each tenant only its own rows', async () => {
    for (let run = 0; run < 8; run++) {
      for (const [i, tenantId] of tenants.entries()) {
        const prepared = await names(tenantId, ['Ames', 'Cole'], 'test_names');
        expect(prepared).toEqual(await names(tenantId, ['Ames', 'Cole']));
        expect(prepared).toEqual([
          { first_name: ['Alpha', 'Bravo'][i], last_name: 'Ames' },
          { first_name: ['Alpha', 'Bravo'][i], last_name: 'Cole' },
        ]);
      }
    }
  });

  it('tells apart two texts prepared under one name', async () => {
    const count = (where: string) =>
      db.tenant(tenants[0]!, async (tx) => (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM drivers WHERE ${where}`, ['Bell'], { prepare: 'test_count' })).rows[0]!.n);
    for (let run = 0; run < 3; run++) {
      expect(await count('last_name = $1')).toBe(1);
      expect(await count('last_name <> $1')).toBe(2);
    }
  });

  it('an error in a prepared statement rolls its transaction back and leaves the connection usable', async () => {
    const insert = (id: string, license: string) =>
      db.tenant(tenants[0]!, (tx) =>
        tx.query(`INSERT INTO drivers (tenant_id, id, first_name, last_name, license_number, license_state, status) VALUES ($1, $2, 'Dee', 'Dunn', $3, 'TX', 'ACTIVE')`, [tenants[0], id, license], { prepare: 'test_insert' }),
      );
    const id = newId('driver');
    await insert(id, 'DUNN-1');
    await expect(insert(id, 'DUNN-2')).rejects.toMatchObject({ code: '23505' });
    expect(await names(tenants[0]!, ['Dunn'], 'test_names')).toEqual([{ first_name: 'Dee', last_name: 'Dunn' }]);
    await insert(newId('driver'), 'DUNN-3');
    expect(await names(tenants[0]!, ['Dunn'])).toHaveLength(2);
  });
});
