import { describe, expect, it } from 'vitest';
import type { Database, Tx } from '../../db/types.js';
import { PrincipalDirectory } from './principals.js';

const TTL = 60_000;
const T0 = Date.parse('2026-03-02T14:00:00Z');

/**
 * A database that answers the directory's two lookups from a table in memory, counts them, and can
 * hold a lookup open (to interleave a change with a read in flight).
 */
function fakeDb() {
  const state = { role: 'DISPATCHER', tenantStatus: 'ACTIVE', revoked: false, lookups: 0 };
  let hold: Promise<void> | undefined;
  const row = () => ({
    tenant_id: 'tnt_1', id: 'usr_1', role: state.role, status: 'ACTIVE', tenant_status: state.tenantStatus, tenant_name: 'Acme',
    key_id: 'key_1', environment: 'staging', revoked_at: state.revoked ? new Date(T0) : null,
  });
  const tx: Tx = {
    async query<R>() {
      state.lookups++;
      const snapshot = row(); // read now, answered after the hold: a read in flight
      if (hold) await hold;
      return { rows: [snapshot as R], rowCount: 1 };
    },
  };
  const db = { kind: 'postgres', system: (fn: (t: Tx) => Promise<unknown>) => fn(tx) } as unknown as Database;
  return {
    db,
    state,
    /** The next lookups read at once but answer only when the returned function is called. */
    holdAnswers(): () => void {
      let release!: () => void;
      hold = new Promise<void>((r) => (release = r));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

describe('PrincipalDirectory', () => {
  it('looks a credential up once, then answers from memory until the TTL; unknown credentials are never cached', async () => {
    const f = fakeDb();
    const dir = new PrincipalDirectory(f.db, { ttlMs: TTL });
    await dir.apiKey('h1', T0);
    await dir.apiKey('h1', T0 + TTL - 1);
    await dir.user('usr_1', T0);
    await dir.user('usr_1', T0 + 1);
    expect(f.state.lookups).toBe(2);
    await dir.apiKey('h1', T0 + TTL);
    expect(f.state.lookups).toBe(3);
    // A clock that stepped back does not make an entry immortal.
    await dir.apiKey('h1', T0 - 1);
    expect(f.state.lookups).toBe(4);
  });

  it('forgets exactly what a change touches: a key, a user (and their keys), a tenant', async () => {
    const f = fakeDb();
    const dir = new PrincipalDirectory(f.db, { ttlMs: TTL });
    const warm = async () => {
      await dir.apiKey('h1', T0);
      await dir.user('usr_1', T0);
    };
    await warm();
    const n = f.state.lookups;
    await dir.changed({ tenantId: 'tnt_other' });
    await dir.changed({ tenantId: 'tnt_1', apiKeyId: 'key_other' });
    await dir.changed({ tenantId: 'tnt_1', userId: 'usr_other' });
    await warm();
    expect(f.state.lookups).toBe(n); // nothing of ours was touched

    await dir.changed({ tenantId: 'tnt_1', apiKeyId: 'key_1' });
    await warm();
    expect(f.state.lookups).toBe(n + 1); // only the key was read again

    await dir.changed({ tenantId: 'tnt_1', userId: 'usr_1' });
    await warm();
    expect(f.state.lookups).toBe(n + 3); // the user and the key they created

    await dir.changed({ tenantId: 'tnt_1' });
    await warm();
    expect(f.state.lookups).toBe(n + 5);
  });

  it('a lookup that read the database before a change does not cache what it read', async () => {
    const f = fakeDb();
    const dir = new PrincipalDirectory(f.db, { ttlMs: TTL });
    const release = f.holdAnswers();
    const inFlight = dir.apiKey('h1', T0); // reads "not revoked"…
    f.state.revoked = true;
    await dir.changed({ tenantId: 'tnt_1', apiKeyId: 'key_1' }); // …the revocation commits meanwhile
    release();
    expect((await inFlight)?.revoked).toBe(false); // that request raced the change
    expect((await dir.apiKey('h1', T0 + 1))?.revoked).toBe(true); // the next one does not
  });

  it('a moved epoch (a change in another process) empties the cache; the same epoch again does not', async () => {
    const f = fakeDb();
    const dir = new PrincipalDirectory(f.db, { ttlMs: TTL });
    expect(dir.observe(undefined)).toBe(false); // no shared epoch: nothing to compare
    await dir.apiKey('h1', T0);
    // The first sighting also forgets: what was cached before it may predate a change.
    expect(dir.observe('e1')).toBe(true);
    f.state.revoked = true;
    expect((await dir.apiKey('h1', T0))?.revoked).toBe(true);
    const n = f.state.lookups;
    expect(dir.observe('e1')).toBe(false);
    await dir.apiKey('h1', T0);
    expect(f.state.lookups).toBe(n);

    f.state.tenantStatus = 'SUSPENDED';
    expect(dir.observe('e2')).toBe(true);
    expect((await dir.user('usr_1', T0))?.tenantStatus).toBe('SUSPENDED');
  });

  it('announces each change through the epoch after forgetting locally; a failed announcement is reported, not thrown', async () => {
    const f = fakeDb();
    const calls: string[] = [];
    const errors: unknown[] = [];
    let fail = false;
    const dir = new PrincipalDirectory(f.db, {
      ttlMs: TTL,
      epoch: {
        async advance() {
          calls.push('advance');
          if (fail) throw new Error('redis down');
        },
      },
      onEpochError: (err) => errors.push(err),
    });
    await dir.changed({ tenantId: 'tnt_1' });
    fail = true;
    await dir.changed({ tenantId: 'tnt_1', userId: 'usr_1' });
    expect(calls).toEqual(['advance', 'advance']);
    expect(errors).toHaveLength(1);
  });

  it('stays within its entry limit', async () => {
    const f = fakeDb();
    const dir = new PrincipalDirectory(f.db, { ttlMs: TTL, maxEntries: 3 });
    for (let i = 0; i < 10; i++) await dir.apiKey(`h${i}`, T0);
    const n = f.state.lookups;
    await dir.apiKey('h9', T0);
    expect(f.state.lookups).toBe(n); // the newest is kept
    await dir.apiKey('h0', T0);
    expect(f.state.lookups).toBe(n + 1); // the oldest went
  });
});
