/**
 * What the demo's banner promises a visitor, in the demo's own first ten minutes: T-102 wanders off its
 * route, T-103 stops where no stop is planned, T-104 goes quiet, each raising its alert within the first
 * few minutes, and each alert resolving itself once the truck behaves again. The demo's fleet, settings
 * and simulator (seedFleet, driveFleet) against the app with its real rules and monitoring worker, the
 * clock stepped as the demo's timer steps it (every 5 s), a monitoring pass every 10 s (the demo's interval).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { FakeClock } from '../../test/helpers/clock.js';
import { createApiKey, createTenant } from '../../test/helpers/factories.js';
import type { ApiCaller } from './api.js';
import { driveFleet } from './drive.js';
import { seedFleet, type Truck } from './fleet.js';
import { MISBEHAVE_UNTIL } from './simulator.js';

const NOW = Date.parse('2026-03-02T14:00:00.000Z');
const SPEED = 10;
const CYCLE_MS = 10 * 60_000;
const TICK_MS = 5_000;
/** What the banner says a visitor sees within. */
const DEMO_ALERTS_WITHIN_MINUTES = 4;

const MISBEHAVIOURS = [
  { unit: 'T-102', type: 'ROUTE_DEVIATION' },
  { unit: 'T-103', type: 'UNPLANNED_STOP' },
  { unit: 'T-104', type: 'TELEMETRY_STALE' },
] as const;

describe('the demo’s misbehaving trucks, in its first cycle', () => {
  let t: TestApp;
  let trucks: Truck[];
  const clock = new FakeClock(new Date(NOW));
  /** Per unit and type: when its alert was first seen open, and when it was seen resolved. */
  const seen = new Map<string, { raisedAt?: number; resolvedAt?: number }>();

  beforeAll(async () => {
    t = await buildTestApp('pglite', { clock });
    const tenant = await createTenant(t.app, { name: 'Demo Freight Lines' });
    const headers = { 'x-api-key': (await createApiKey(t.app, tenant, 'demo simulator')).key };
    const owner: ApiCaller = {
      async call<T>(method: string, path: string, body?: unknown): Promise<T> {
        const res = await t.app.inject({ method: method as 'GET', url: path, headers, ...(body === undefined ? {} : { payload: body as object }) });
        if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode}: ${res.body}`);
        return (res.body === '' ? null : res.json()) as T;
      },
    };
    trucks = await seedFleet(owner, NOW);
    const monitoring = t.app.workers.get('monitoring').worker;
    for (let elapsed = 0; elapsed <= 8 * 60_000; elapsed += TICK_MS) {
      clock.set(new Date(NOW + elapsed));
      await driveFleet(owner, trucks, { startedAt: NOW, now: NOW + elapsed, speed: SPEED, cycleMs: CYCLE_MS });
      if (elapsed % 10_000 === 0) await monitoring.runOnce(clock.now());
      const { data } = await owner.call<{ data: { type: string; status: string; vehicleUnit: string | null }[] }>('GET', '/api/v1/alerts?pageSize=100');
      for (const alert of data.filter((a) => MISBEHAVIOURS.some((m) => m.type === a.type))) {
        const key = `${alert.vehicleUnit} ${alert.type}`;
        const s = seen.get(key) ?? {};
        s.raisedAt ??= elapsed;
        if (alert.status === 'RESOLVED') s.resolvedAt ??= elapsed;
        seen.set(key, s);
      }
    }
  }, 240_000);
  afterAll(async () => t?.close());

  it.each(MISBEHAVIOURS)(`$unit raises $type within ${DEMO_ALERTS_WITHIN_MINUTES} minutes and it resolves itself once the truck behaves`, ({ unit, type }) => {
    const s = seen.get(`${unit} ${type}`) ?? {};
    expect(s.raisedAt, `${unit} ${type} was never raised`).toBeDefined();
    expect(s.raisedAt!).toBeLessThanOrEqual(DEMO_ALERTS_WITHIN_MINUTES * 60_000);
    expect(s.resolvedAt, `${unit} ${type} never resolved`).toBeDefined();
    expect(s.resolvedAt!).toBeGreaterThanOrEqual(MISBEHAVE_UNTIL * CYCLE_MS);
  });

  it('nothing else raised those: the trucks that keep to their plans stay quiet', () => {
    expect(trucks.filter((x) => !x.spec.planned).map((x) => x.spec.unit)).toEqual(['T-101', 'T-102', 'T-103', 'T-104', 'T-105']);
    expect([...seen.keys()].sort()).toEqual(MISBEHAVIOURS.map((m) => `${m.unit} ${m.type}`).sort());
  });
});
