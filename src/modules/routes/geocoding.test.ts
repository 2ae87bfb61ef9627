/**
 * Stop addresses through the plan API: an ambiguous name or a near miss is a 400 whose detail lists the
 * candidates; every planned stop says how it was placed (`resolution`).
 */
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createDriver, createTenant, type TenantFixture } from '../../../test/helpers/factories.js';
import { ErrorBody } from '../../lib/schemas.js';

interface Detail {
  field: string;
  message: string;
  candidates?: string[];
}
interface ErrorJson {
  statusCode: number;
  error: string;
  message: string;
  details?: Detail[];
}
interface Resolution {
  matched: string | null;
  precision: string;
  latitude: number;
  longitude: number;
}
interface PlanJson {
  id: string;
  stops: Array<{ name: string; latitude: number; longitude: number; resolution?: Resolution }>;
}

const DEPART = '2026-03-03T06:00:00.000Z';

describe.each(DB_KINDS)('plan API: stop geocoding (%s)', (kind) => {
  let t: TestApp;
  let clock: FakeClock;
  let acme: TenantFixture;
  let driverId: string;

  beforeAll(async () => {
    clock = new FakeClock('2026-03-02T12:00:00.000Z');
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Acme Freight' });
    driverId = (await createDriver(t.app, acme.auth)).id;
  });
  afterAll(async () => t?.close());

  const plan = (stops: unknown[]) =>
    t.app.inject({ method: 'POST', url: '/api/v1/routes/plan', headers: acme.auth, payload: { driverId, departureTime: DEPART, driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 }, stops } });
  const plan400 = async (stops: unknown[]): Promise<ErrorJson> => {
    const res = await plan(stops);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<ErrorJson>();
    expect(Value.Check(ErrorBody, body), res.body).toBe(true); // still the spec's error body
    return body;
  };

  it('an ambiguous city name: 400 listing the places it may mean, most populous first', async () => {
    const body = await plan400([{ address: 'Columbus' }, { address: 'Chicago, IL' }]);
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(body.message).toMatch(/^Stop 1 \("Columbus"\): more than one place has that name; add the state or province: Columbus, OH; Columbus, GA; Columbus, IN; Columbus, MS; Columbus, NE; …$/);
    expect(body.details).toHaveLength(1);
    expect(body.details![0]!.field).toBe('body.stops.0.address');
    expect(body.details![0]!.candidates!.slice(0, 3)).toEqual(['Columbus, OH', 'Columbus, GA', 'Columbus, IN']);
    expect(body.details![0]!.candidates!.length).toBe(10);
  });

  it('the same rule for every name: "Dallas" alone is as ambiguous as "Springfield"; a unique name plans', async () => {
    const body = await plan400([{ address: 'Dallas' }, { address: 'Springfield' }]);
    expect(body.message).toBe('Validation failed');
    expect(body.details!.map((d) => d.field)).toEqual(['body.stops.0.address', 'body.stops.1.address']);
    expect(body.details![0]!.candidates![0]).toBe('Dallas, TX');
    expect(body.details![1]!.candidates).toEqual(expect.arrayContaining(['Springfield, IL', 'Springfield, MO']));
    clock.advance(1_000);
    expect((await plan([{ address: 'Chicago' }, { address: 'Columbus, OH' }])).statusCode).toBe(201);
  });

  it('a near miss: 400 with "did you mean", within the state given', async () => {
    const body = await plan400([{ address: 'Dallas, TX' }, { address: 'Chicgo, IL' }]);
    expect(body.message).toBe('Stop 2 ("Chicgo, IL"): the address could not be resolved; did you mean Chicago, IL?');
    expect(body.details).toEqual([{ field: 'body.stops.1.address', message: body.message, candidates: ['Chicago, IL'] }]);
    const elsewhere = await plan400([{ address: 'Dallas, OK' }, { address: 'Chicago, IL' }]);
    expect(elsewhere.details![0]!.candidates![0]).toBe('Dallas, TX');
    // Nothing close: no candidates, the plain message.
    const none = await plan400([{ address: 'Dallas, TX' }, { address: 'Nowhereville, ZZ' }]);
    expect(none.details).toEqual([{ field: 'body.stops.1.address', message: expect.stringMatching(/could not be resolved; give a US, Canadian or Mexican city/) }]);
  });

  it('every planned stop reports how it was resolved: CITY (a street placed at the city centre), ZIP, COORDINATES', async () => {
    clock.advance(1_000);
    const stops = [
      { address: '100 Commerce St, Dallas, TX' },
      { address: 'Chicago, IL 60601' },
      { name: 'Columbus yard', latitude: 39.9612, longitude: -82.9988 },
    ];
    const res = await plan(stops);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    const p = res.json<PlanJson>();
    expect(p.stops.map((s) => s.resolution)).toEqual([
      { matched: 'Dallas, TX', precision: 'CITY', latitude: expect.closeTo(32.78, 1), longitude: expect.closeTo(-96.8, 1) },
      { matched: 'Chicago, IL 60601', precision: 'ZIP', latitude: expect.closeTo(41.89, 1), longitude: expect.closeTo(-87.62, 1) },
      { matched: null, precision: 'COORDINATES', latitude: 39.9612, longitude: -82.9988 },
    ]);
    for (const s of p.stops) expect([s.latitude, s.longitude]).toEqual([s.resolution!.latitude, s.resolution!.longitude]);
    // Stored with the plan: the same when read back.
    const again = await t.app.inject({ method: 'GET', url: `/api/v1/routes/${p.id}`, headers: acme.auth });
    expect(again.json<PlanJson>().stops.map((s) => s.resolution)).toEqual(p.stops.map((s) => s.resolution));
  });
});
