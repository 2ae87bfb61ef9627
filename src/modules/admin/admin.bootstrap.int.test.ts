import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../deps.js';
import { migrate } from '../../db/migrate.js';
import type { Database } from '../../db/types.js';
import { verifyPassword } from '../../lib/passwords.js';
import { DB_KINDS, openTestDatabase } from '../../../test/helpers/db.js';
import { bootstrapPlatformAdmin } from './admin.service.js';

describe.each(DB_KINDS)('the platform administrator at start-up (%s)', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    await migrate(db);
  });
  afterAll(async () => db?.close());

  const deps = (email: string, password: string) =>
    ({ db, config: { env: 'production', platformAdmin: { email, password } }, log: { info: () => undefined, warn: () => undefined } }) as unknown as Deps;
  const admins = async () => (await db.system((tx) => tx.query<{ email: string; password_hash: string }>('SELECT email, password_hash FROM platform_admins'))).rows;

  it('replicas starting together make one administrator, none of them failing; a later start with a new password updates it', async () => {
    await Promise.all([1, 2, 3, 4].map(() => bootstrapPlatformAdmin(deps('ops@fleet.example', 'first-password-123'))));
    const [one, ...more] = await admins();
    expect(more).toEqual([]);
    expect(one!.email).toBe('ops@fleet.example');
    expect(await verifyPassword(one!.password_hash, 'first-password-123')).toBe(true);

    await bootstrapPlatformAdmin(deps('OPS@fleet.example', 'second-password-456'));
    const after = await admins();
    expect(after.map((a) => a.email)).toEqual(['ops@fleet.example']);
    expect(await verifyPassword(after[0]!.password_hash, 'second-password-456')).toBe(true);
  });
});
