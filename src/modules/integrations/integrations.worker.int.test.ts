import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncContext, SyncResult } from '../../adapters/integrations/port.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { FAKE_VENDOR, FakeIntegrationAdapter } from '../../../test/helpers/integrations.js';

/** An adapter whose syncs wait until the test releases them (to act while a sync is in flight). */
class HeldAdapter extends FakeIntegrationAdapter {
  private waiting: (() => void)[] = [];
  private started: (() => void)[] = [];
  syncs = 0;

  override async sync(config: Record<string, unknown>, ctx: SyncContext): Promise<SyncResult> {
    this.syncs += 1;
    this.started.splice(0).forEach((f) => f());
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.sync(config, ctx);
  }
  /** Resolves once a sync has begun. */
  whenStarted(): Promise<void> {
    return new Promise((resolve) => this.started.push(resolve));
  }
  release(): void {
    this.waiting.splice(0).forEach((f) => f());
  }
}

const BASE = '/api/v1/integrations';

describe.each(DB_KINDS)('integrations sync worker: leases and fences (%s)', (kind) => {
  let t: TestApp;
  let auth: Record<string, string>;
  let tenantId: string;
  const adapter = new HeldAdapter();
  const clock = new FakeClock('2026-03-02T14:00:00.000Z');

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock, integrationAdapters: [adapter] });
    const acme = await createTenant(t.app, { name: 'Leased Freight' });
    tenantId = acme.tenantId;
    auth = { 'x-api-key': (await createApiKey(t.app, acme)).key };
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => t.app.inject({ method, url, headers: auth, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const worker = () => t.app.workers.get('integrations').worker;
  const activeIntegration = async () => {
    const created = await call('POST', BASE, { vendor: FAKE_VENDOR, name: 'Held', config: { apiToken: 'held-token-0001' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    expect((await call('POST', `${BASE}/${id}/test`)).json().testResult).toBe('SUCCESS');
    return id;
  };
  const eventCount = async (id: string) =>
    (await t.db.system((tx) => tx.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND payload->>'integrationId' = $2", [tenantId, id]))).rows[0]!.n;

  it('two concurrent passes never sync the same integration twice', async () => {
    const id = await activeIntegration();
    const before = adapter.syncs;
    const started = adapter.whenStarted();
    const first = worker().runOnce(clock.now());
    await started;
    const second = await worker().runOnce(clock.now());
    expect(second).toBe(0);
    adapter.release();
    expect(await first).toBe(1);
    expect(adapter.syncs - before).toBe(1);
    expect((await call('GET', `${BASE}/${id}`)).json().status).toBe('ACTIVE');
    expect(await eventCount(id)).toBe(1);
  });

  it('a disable during a sync wins: the result is dropped and no event is published', async () => {
    const id = await activeIntegration();
    const started = adapter.whenStarted();
    const pass = worker().runOnce(clock.now());
    await started;
    expect((await call('GET', `${BASE}/${id}`)).json().status).toBe('SYNCING');
    expect((await call('POST', `${BASE}/${id}/disable`)).json().status).toBe('DISABLED');
    adapter.release();
    await pass;
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'DISABLED', lastSyncAt: null });
    expect(await eventCount(id)).toBe(0);
  });

  it('a worker shutting down gives its syncs back: nothing is recorded for them, and another pass takes them at once', async () => {
    const id = await activeIntegration();
    const shutdown = new AbortController();
    const started = adapter.whenStarted();
    const w = worker();
    const pass = w.runOnce(clock.now(), shutdown.signal);
    await started;
    shutdown.abort();
    await w.release!();
    // The vendor call returns after all: the stopped pass records neither a success nor a failure.
    adapter.release();
    await pass;
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'SYNCING', lastSyncAt: null });
    expect(await eventCount(id)).toBe(0);
    // Well within the 10-minute lease, the next pass syncs it.
    const again = adapter.whenStarted();
    const next = w.runOnce(clock.now());
    await again;
    adapter.release();
    expect(await next).toBe(1);
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'ACTIVE', lastSyncAt: clock.now().toISOString() });
    expect(await eventCount(id)).toBe(1);
  });

  it("a crashed worker's sync is taken up again once its lease has run out", async () => {
    const id = await activeIntegration();
    // A worker claimed it and died: SYNCING under a lease that ends in the future.
    const lease = new Date(clock.now().getTime() + 60_000);
    await t.db.system((tx) => tx.query("UPDATE integrations SET status = 'SYNCING', locked_until = $2, sync_started_at = $3 WHERE id = $1", [id, lease, clock.now()]));
    expect(await worker().runOnce(clock.now())).toBe(0);
    clock.advance(61_000);
    const started = adapter.whenStarted();
    const pass = worker().runOnce(clock.now());
    await started;
    adapter.release();
    expect(await pass).toBe(1);
    expect((await call('GET', `${BASE}/${id}`)).json()).toMatchObject({ status: 'ACTIVE', lastSyncAt: clock.now().toISOString() });
    expect(await eventCount(id)).toBe(1);
  });
});
