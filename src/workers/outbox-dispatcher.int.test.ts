import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate.js';
import { EVENTS_CHANNEL, emitEvent, type OutboxSink, type StreamEvent } from '../db/outbox.js';
import type { Database } from '../db/types.js';
import { LocalBroadcast } from '../infra/broadcast.js';
import { newId } from '../lib/ids.js';
import { DB_KINDS, openTestDatabase } from '../../test/helpers/db.js';
import { OutboxDispatcher } from './outbox-dispatcher.js';

const T0 = Date.parse('2026-03-02T14:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

describe.each(DB_KINDS)('outbox dispatcher (%s)', (kind) => {
  let db: Database;
  let tenantId: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    await migrate(db);
    tenantId = newId('tenant');
    await db.system((tx) => tx.query(`INSERT INTO tenants (id, name, address, phone, contact_email, status) VALUES ($1, 'Acme', 'a', '1', 'x@example.test', 'ACTIVE')`, [tenantId]));
  });
  afterAll(async () => db?.close());

  async function emit(n: number, when: Date): Promise<string[]> {
    return db.tenant(tenantId, async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push(await emitEvent(tx, tenantId, 'route.planned', { n: i }, when));
      return ids;
    });
  }

  function recorder() {
    const broadcast = new LocalBroadcast();
    const published: StreamEvent[] = [];
    void broadcast.subscribe(EVENTS_CHANNEL, (p) => published.push(JSON.parse(p) as StreamEvent));
    const handled: StreamEvent[] = [];
    let failNext = false;
    const sink: OutboxSink = {
      name: 'recorder',
      async handle(_tx, events) {
        if (failNext) {
          failNext = false;
          throw new Error('sink down');
        }
        handled.push(...events);
      },
    };
    return { broadcast, published, handled, sink, failOnce: () => (failNext = true) };
  }

  it('publishes committed events in order with increasing stream positions, hands each to the sinks once, then nothing', async () => {
    const r = recorder();
    const dispatcher = new OutboxDispatcher(db, r.broadcast, [r.sink]);
    await dispatcher.runOnce(at(0)); // earlier tests' leftovers, if any
    r.published.length = 0;
    r.handled.length = 0;
    const ids = await emit(3, at(1000));
    expect(await dispatcher.runOnce(at(2000))).toBe(3);
    expect(r.published.map((e) => e.id)).toEqual(ids);
    expect(r.published.map((e) => e.payload)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    const seqs = r.published.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(3);
    expect(r.handled.map((e) => e.id)).toEqual(ids);
    expect(await dispatcher.runOnce(at(3000))).toBe(0);
    expect(await dispatcher.depth()).toBe(0);
  });

  it('120 events of two transactions claimed in one pass get increasing stream positions in the order they were written', async () => {
    const r = recorder();
    const dispatcher = new OutboxDispatcher(db, r.broadcast, [r.sink], { batch: 200, leaseMs: 30_000, retentionMs: 86_400_000 });
    await dispatcher.runOnce(at(0));
    r.published.length = 0;
    const ids = [...(await emit(60, at(5000))), ...(await emit(60, at(5000)))];
    expect(await dispatcher.runOnce(at(6000))).toBe(120);
    expect(r.published.map((e) => e.id)).toEqual(ids);
    const seqs = r.published.map((e) => e.seq);
    expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!)).toBe(true);
  });

  it('a pass that fails after publishing gives its events back at once: handed on again with the same stream positions, to the sinks once', async () => {
    const r = recorder();
    const dispatcher = new OutboxDispatcher(db, r.broadcast, [r.sink], { batch: 100, leaseMs: 30_000, retentionMs: 86_400_000 });
    const ids = await emit(2, at(10_000));
    r.failOnce();
    await expect(dispatcher.runOnce(at(11_000))).rejects.toThrow('sink down');
    const first = r.published.filter((e) => ids.includes(e.id));
    expect(first).toHaveLength(2);
    // Well within the lease, the next pass takes them again.
    expect(await dispatcher.runOnce(at(12_000))).toBe(2);
    const again = r.published.filter((e) => ids.includes(e.id)).slice(2);
    expect(again.map((e) => e.seq)).toEqual(first.map((e) => e.seq));
    expect(r.handled.filter((e) => ids.includes(e.id))).toHaveLength(2);
  });

  /** A broadcast whose publishing never ends: a dispatcher stuck (or dying) between claim and hand-on. */
  function stuckBroadcast(): LocalBroadcast {
    const b = new LocalBroadcast();
    b.publish = () => new Promise<void>(() => undefined);
    return b;
  }

  it("a dispatcher that dies mid-pass leaves its events to another after the lease, with the same stream positions", async () => {
    const r = recorder();
    const dying = new OutboxDispatcher(db, stuckBroadcast(), [r.sink], { batch: 100, leaseMs: 30_000, retentionMs: 86_400_000 });
    const survivor = new OutboxDispatcher(db, r.broadcast, [r.sink], { batch: 100, leaseMs: 30_000, retentionMs: 86_400_000 });
    const ids = await emit(2, at(50_000));
    void dying.runOnce(at(51_000));
    await expect.poll(async () => (await db.system((tx) => tx.query('SELECT 1 FROM outbox_events WHERE id = ANY($1) AND claimed_until IS NOT NULL', [ids]))).rows.length).toBe(2);
    expect(await survivor.runOnce(at(60_000))).toBe(0);
    expect(await survivor.runOnce(at(82_000))).toBe(2);
    expect(r.handled.filter((e) => ids.includes(e.id))).toHaveLength(2);
  });

  it('a dispatcher shut down mid-pass gives its events back (release): another takes them at once', async () => {
    const r = recorder();
    const stopping = new OutboxDispatcher(db, stuckBroadcast(), [r.sink], { batch: 100, leaseMs: 30_000, retentionMs: 86_400_000 });
    const survivor = new OutboxDispatcher(db, r.broadcast, [r.sink], { batch: 100, leaseMs: 30_000, retentionMs: 86_400_000 });
    const ids = await emit(2, at(90_000));
    void stopping.runOnce(at(91_000));
    await expect.poll(async () => (await db.system((tx) => tx.query('SELECT 1 FROM outbox_events WHERE id = ANY($1) AND claimed_until IS NOT NULL', [ids]))).rows.length).toBe(2);
    await stopping.release();
    expect(await survivor.runOnce(at(92_000))).toBe(2);
    expect(r.published.filter((e) => ids.includes(e.id)).map((e) => e.id)).toEqual(ids);
  });

  it('two dispatchers never hand the same event to the sinks', async () => {
    const a = recorder();
    const b = recorder();
    const da = new OutboxDispatcher(db, a.broadcast, [a.sink], { batch: 7, leaseMs: 30_000, retentionMs: 86_400_000 });
    const dB = new OutboxDispatcher(db, b.broadcast, [b.sink], { batch: 7, leaseMs: 30_000, retentionMs: 86_400_000 });
    const ids = await emit(40, at(100_000));
    let moved = 1;
    while (moved > 0) moved = (await Promise.all([da.runOnce(at(101_000)), dB.runOnce(at(101_000))])).reduce((x, y) => x + y, 0);
    const handled = [...a.handled, ...b.handled].map((e) => e.id).filter((id) => ids.includes(id));
    expect(handled.sort()).toEqual([...ids].sort());
  });

  it('prunes published events past the retention', async () => {
    const r = recorder();
    const ids = await emit(1, at(200_000));
    await new OutboxDispatcher(db, r.broadcast, [r.sink]).runOnce(at(201_000));
    // A new dispatcher prunes on its first pass.
    await new OutboxDispatcher(db, r.broadcast, [], { batch: 10, leaseMs: 1000, retentionMs: 1000 }).runOnce(at(300_000));
    const left = await db.system((tx) => tx.query('SELECT 1 FROM outbox_events WHERE id = $1', [ids[0]]));
    expect(left.rows).toHaveLength(0);
  });
});
