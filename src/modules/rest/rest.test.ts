import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';

interface Recommendation {
  recommendation: string;
  duration_hours: number;
  confidence: number;
  feasibility: string;
  reasoning: string;
  opportunity_score: number | null;
  rest_location: { name: string; latitude: number; longitude: number; type: string };
  category: string;
  rest_type: string | null;
  limited_by: string[];
  added_time_hours: number;
  split_complement_hours: number | null;
  hos_state_after: Record<string, number>;
  decision_factors: Array<{ name: string; importance: string; weight: number; value: number | null; assessment: string }>;
}

const LOCATION = { latitude: 35.222, longitude: -101.8313, name: 'Pilot Travel Center, Amarillo TX' };
const body = (driverState: Partial<Record<'hours_driven' | 'on_duty_hours' | 'hours_since_break' | 'cycle_hours_used', number>>, rest: Record<string, unknown> = {}) => ({
  current_location: LOCATION,
  driver_state: { hours_driven: 0, on_duty_hours: 0, hours_since_break: 0, cycle_hours_used: 0, ...driverState },
  dock_duration_hours: 0,
  remaining_route_hours: 4,
  is_dedicated_rest_stop: true,
  ...rest,
});

/** The spec's response fields (Rest recommendation), then the documented extensions. */
const SPEC_FIELDS = ['recommendation', 'duration_hours', 'confidence', 'feasibility', 'reasoning', 'opportunity_score', 'rest_location'];
const FACTORS = [
  ['HOS feasibility', 'highest'],
  ['Hours remaining', 'high'],
  ['Remaining route demand', 'high'],
  ['Dock time availability', 'medium'],
  ['Cost in extra time', 'medium'],
  ['Opportunity score', 'low'],
];

describe.each(DB_KINDS)('POST /api/v1/rest/recommend (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    acme = await createTenant(t.app);
  });
  afterAll(async () => t?.close());

  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const recommend = async (payload: unknown, headers: Record<string, string> = acme.auth) =>
    inject({ method: 'POST', url: '/api/v1/rest/recommend', headers, payload: payload as Record<string, unknown> });
  const ok = async (payload: unknown): Promise<Recommendation> => {
    const res = await recommend(payload);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json<Recommendation>();
    expect(Object.keys(r)).toEqual(expect.arrayContaining(SPEC_FIELDS));
    expect(r.confidence).toBeGreaterThanOrEqual(0);
    expect(r.confidence).toBeLessThanOrEqual(1);
    expect(r.reasoning.length).toBeGreaterThan(10);
    expect(r.rest_location).toMatchObject({ name: LOCATION.name, latitude: LOCATION.latitude, longitude: LOCATION.longitude, type: expect.any(String) });
    // Decision factors in the spec's order of descending weight.
    expect(r.decision_factors.map((f) => [f.name, f.importance])).toEqual(FACTORS);
    const w = r.decision_factors.map((f) => f.weight);
    expect([...w].sort((a, b) => b - a)).toEqual(w);
    expect(w.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 6);
    return r;
  };

  it('mandatory rest: drive clock exhausted → FULL_REST 10 h, confidence 1.0, NOT_FEASIBLE, opportunity_score null', async () => {
    // 1.5 h left to drive: the window (2 h left) would allow it, the drive clock (0 h left) does not.
    const r = await ok(body({ hours_driven: 11, on_duty_hours: 12, hours_since_break: 3, cycle_hours_used: 40 }, { remaining_route_hours: 1.5 }));
    expect(r).toMatchObject({
      recommendation: 'FULL_REST',
      duration_hours: 10,
      confidence: 1,
      feasibility: 'NOT_FEASIBLE',
      opportunity_score: null,
      category: 'MANDATORY_REST',
      rest_type: 'full_rest',
      limited_by: ['DRIVE'],
      rest_location: { type: 'truck_stop' },
    });
    // Spec: clocks reset for a full rest (0, 0, 0, 11); the cycle is not.
    expect(r.hos_state_after).toMatchObject({ hours_driven: 0, on_duty_hours: 0, hours_since_break: 0, drive_hours_remaining: 11, cycle_hours_used: 40 });
    expect(r.reasoning).toMatch(/^Mandatory 10-hour full rest/);
  });

  it('mandatory rest: the duty window expires before the segment completes, or the cycle approaches 70 h (34-hour restart)', async () => {
    const window = await ok(body({ hours_driven: 6, on_duty_hours: 12.5, hours_since_break: 2, cycle_hours_used: 40 }, { remaining_route_hours: 3 }));
    expect(window).toMatchObject({ recommendation: 'FULL_REST', confidence: 1, feasibility: 'NOT_FEASIBLE', opportunity_score: null, limited_by: ['WINDOW'] });
    const cycle = await ok(body({ hours_driven: 2, on_duty_hours: 3, hours_since_break: 2, cycle_hours_used: 68.5 }, { remaining_route_hours: 3 }));
    expect(cycle).toMatchObject({ recommendation: 'FULL_REST', duration_hours: 34, confidence: 1, feasibility: 'NOT_FEASIBLE', opportunity_score: null, limited_by: ['CYCLE'] });
    expect(cycle.hos_state_after).toMatchObject({ cycle_hours_used: 0, cycle_hours_remaining: 70 });
  });

  it('a required 30-minute break: PARTIAL_REST of 0.5 h (rest_type break), compulsory so opportunity_score null', async () => {
    const r = await ok(body({ hours_driven: 8, on_duty_hours: 9, hours_since_break: 8, cycle_hours_used: 40 }, { remaining_route_hours: 2 }));
    expect(r).toMatchObject({ recommendation: 'PARTIAL_REST', duration_hours: 0.5, rest_type: 'break', confidence: 1, feasibility: 'FEASIBLE', opportunity_score: null, category: 'REQUIRED_BREAK' });
    expect(r.hos_state_after).toMatchObject({ hours_since_break: 0, hours_driven: 8 });
  });

  it('opportunistic rest: a tight route and a 3-hour dock → confidence 0.60–0.75, FEASIBLE_BUT_TIGHT, score 0–100', async () => {
    const atDock = await ok(body({ hours_driven: 7, on_duty_hours: 7, hours_since_break: 1, cycle_hours_used: 30 }, { dock_duration_hours: 3, remaining_route_hours: 3.5, is_dedicated_rest_stop: false }));
    const atStop = await ok(body({ hours_driven: 7, on_duty_hours: 7, hours_since_break: 1, cycle_hours_used: 30 }, { dock_duration_hours: 3, remaining_route_hours: 3.5 }));
    for (const r of [atDock, atStop]) {
      expect(r).toMatchObject({ recommendation: 'PARTIAL_REST', feasibility: 'FEASIBLE_BUT_TIGHT', category: 'OPPORTUNISTIC_REST', rest_type: 'partial_rest' });
      expect(r.confidence).toBeGreaterThanOrEqual(0.6);
      expect(r.confidence).toBeLessThanOrEqual(0.75);
      expect(r.opportunity_score).toEqual(expect.any(Number));
      expect(r.opportunity_score!).toBeGreaterThanOrEqual(0);
      expect(r.opportunity_score!).toBeLessThanOrEqual(100);
      expect([7, 8]).toContain(r.duration_hours);
      expect(r.split_complement_hours).toBe(10 - r.duration_hours);
    }
    expect(atDock.rest_location.type).toBe('customer_dock');
    expect(atStop.rest_location.type).toBe('truck_stop');
    expect(atStop.opportunity_score!).toBeGreaterThan(atDock.opportunity_score!);
    expect(atStop.confidence).toBeGreaterThan(atDock.confidence);
    // The dock time is weighed: the decision factor reports it.
    expect(atDock.decision_factors.find((f) => f.name === 'Dock time availability')!.value).toBe(3);

    // An opportunistic full rest when a rest is needed before the end anyway and the dock is long enough.
    const full = await ok(body({ hours_driven: 8, on_duty_hours: 8, hours_since_break: 1, cycle_hours_used: 30 }, { dock_duration_hours: 4, remaining_route_hours: 6, next_segment_hours: 1 }));
    expect(full).toMatchObject({ recommendation: 'FULL_REST', duration_hours: 10, feasibility: 'FEASIBLE_BUT_TIGHT', category: 'OPPORTUNISTIC_REST' });
    expect(full.confidence).toBeGreaterThanOrEqual(0.6);
    expect(full.confidence).toBeLessThanOrEqual(0.75);
    expect(full.opportunity_score).not.toBeNull();
  });

  it('no rest: hours suffice → NO_REST, duration 0, confidence 1.0, FEASIBLE', async () => {
    const r = await ok(body({ hours_driven: 2, on_duty_hours: 3, hours_since_break: 2, cycle_hours_used: 20 }, { remaining_route_hours: 5 }));
    expect(r).toMatchObject({ recommendation: 'NO_REST', duration_hours: 0, confidence: 1, feasibility: 'FEASIBLE', category: 'NO_REST', rest_type: null, limited_by: [], added_time_hours: 0 });
    expect(r.opportunity_score).toEqual(expect.any(Number));
    expect(r.hos_state_after).toMatchObject({ hours_driven: 2, drive_hours_remaining: 9 });
    // A short dock does not make a tight route an opportunity.
    const short = await ok(body({ hours_driven: 7, on_duty_hours: 7, hours_since_break: 1, cycle_hours_used: 30 }, { dock_duration_hours: 2.9, remaining_route_hours: 3.5 }));
    expect(short).toMatchObject({ recommendation: 'NO_REST', feasibility: 'FEASIBLE', confidence: 1 });
    // The same request gives the same answer.
    expect(await ok(body({ hours_driven: 2, on_duty_hours: 3, hours_since_break: 2, cycle_hours_used: 20 }, { remaining_route_hours: 5 }))).toEqual(r);
  });

  it('validation: 400 "Validation failed" with details naming every bad field', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{}, ['body.current_location', 'body.driver_state', 'body.dock_duration_hours', 'body.remaining_route_hours', 'body.is_dedicated_rest_stop']],
      [body({ hours_driven: -1 }), ['body.driver_state.hours_driven']],
      [body({ hours_driven: 25 }), ['body.driver_state.hours_driven']],
      [body({ cycle_hours_used: 121 }), ['body.driver_state.cycle_hours_used']],
      [body({}, { dock_duration_hours: '3' }), ['body.dock_duration_hours']],
      [body({}, { remaining_route_hours: null }), ['body.remaining_route_hours']],
      [body({}, { is_dedicated_rest_stop: 'yes' }), ['body.is_dedicated_rest_stop']],
      [body({}, { current_location: { latitude: 95, longitude: 0, name: 'x' } }), ['body.current_location.latitude']],
      [body({}, { current_location: { latitude: 35, longitude: -101 } }), ['body.current_location.name']],
      [body({}, { current_location: { ...LOCATION, name: '' } }), ['body.current_location.name']],
      [body({}, { limits: { drive: 13 } }), ['body.limits']],
      [{ ...body({}), driver_state: { hours_driven: 1, on_duty_hours: 1, hours_since_break: 1, cycle_hours_used: 1, mood: 'tired' } }, ['body.driver_state.mood']],
      // Past the schema, the optimizer's own checks: the next segment lies within the remaining route.
      [body({}, { remaining_route_hours: 2, next_segment_hours: 3 }), ['body.next_segment_hours']],
    ];
    for (const [payload, fields] of cases) {
      const res = await recommend(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const b = res.json<{ statusCode: number; error: string; message: string; details: Array<{ field: string; message: string }> }>();
      expect(b).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(b.details.map((d) => d.field), JSON.stringify(payload)).toEqual(expect.arrayContaining(fields));
      for (const d of b.details) expect(d.message.length).toBeGreaterThan(0);
    }
    const malformed = await inject({ method: 'POST', url: '/api/v1/rest/recommend', headers: { ...acme.auth, 'content-type': 'application/json' }, payload: '{"current_location":' });
    expect(malformed.statusCode).toBe(400);
  });

  it('OWNER, ADMIN, DISPATCHER and API keys may call it; DRIVER and VIEWER get 403', async () => {
    const driver = await createDriver(t.app, acme.auth);
    const payload = body({}, { remaining_route_hours: 3 });
    for (const role of ['ADMIN', 'DISPATCHER'] as const) {
      const u = await createUser(t.app, t.mailer, acme, role);
      expect((await recommend(payload, u.auth)).statusCode, role).toBe(200);
    }
    const key = await createApiKey(t.app, acme);
    expect((await recommend(payload, { 'x-api-key': key.key })).statusCode).toBe(200);
    for (const [role, extra] of [['DRIVER', { driverId: driver.id }], ['VIEWER', {}]] as const) {
      const u = await createUser(t.app, t.mailer, acme, role, extra);
      const res = await recommend(payload, u.auth);
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    expect((await recommend(payload, {})).statusCode).toBe(401);
  });
});
