/**
 * Figures the docs quote, computed by the service itself: the page must say what a reader who sends the
 * same request gets. docs/planning.md's team example: Dallas → Los Angeles, two fresh drivers against one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { createDriver, createTenant, type TenantFixture } from '../helpers/factories.js';

const PLANNING = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/planning.md'), 'utf8');

/** "24:12": whole minutes as h:mm. */
const hm = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

describe('figures quoted in the docs', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await buildTestApp('pglite', { clock: new FakeClock('2026-03-02T14:00:00.000Z') });
    tenant = await createTenant(t.app);
  });
  afterAll(async () => t?.close());

  it('docs/planning.md: the team example is the request it shows, and the trip times it states', async () => {
    const example = /<!-- example:team-request -->\s*\n```json\n([\s\S]*?)```/.exec(PLANNING)?.[1];
    expect(example, 'docs/planning.md has the team example request').toBeDefined();
    const request = JSON.parse(example!) as Record<string, unknown>;
    const rosa = (await createDriver(t.app, tenant.auth, { firstName: 'Rosa', lastName: 'Diaz' })).id;
    const omar = (await createDriver(t.app, tenant.auth, { firstName: 'Omar', lastName: 'Haddad' })).id;
    const plan = async (body: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: tenant.auth, payload: body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ summary: { totalTripHours: number; totalDistanceMiles: number; minutes: { trip: number } } }>();
    };
    const team = await plan({ ...request, driverId: rosa, coDriverId: omar });
    const { coDriverId: _co, ...solo } = request;
    const alone = await plan({ ...solo, driverId: rosa });
    const sentence = `takes ${hm(team.summary.minutes.trip)} for two fresh drivers against ${hm(alone.summary.minutes.trip)} for one`;
    expect(PLANNING.replace(/\s+/g, ' ').includes(sentence), `docs/planning.md should say: ${sentence}`).toBe(true);
    const miles = `(${Math.round(team.summary.totalDistanceMiles).toLocaleString('en-US')} great-circle miles)`;
    expect(PLANNING.replace(/\s+/g, ' ').includes(miles), `docs/planning.md should say: ${miles}`).toBe(true);
  });
});
