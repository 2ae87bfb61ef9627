import { describe, expect, it } from 'vitest';
import { candidateRow, candidatesRequestFromDraft, candidatesSummary, NEED_STOPS, planRequestFor, reasonText, startSourceLabel, verdict, verdictTone, type Candidate } from './dispatch';
import { emptyDraft, emptyStop, type PlanDraft } from './plan-form';

const draft = (overrides: Partial<PlanDraft> = {}): PlanDraft => ({
  ...emptyDraft('America/Chicago', '2026-03-03T08:00'),
  stops: [emptyStop({ address: 'Dallas, TX', type: 'ORIGIN' }), emptyStop({ address: 'Denton, TX' }), emptyStop({ address: 'Oklahoma City, OK', type: 'DELIVERY', latest: '2026-03-03T18:00' })],
  ...overrides,
});

const CHICAGO = 'America/Chicago';
const stop = (name: string, arrivalTime: string, withinWindow: boolean | null) =>
  ({ sequence: 1, name, type: 'PICKUP', latitude: 0, longitude: 0, arrivalTime, departureTime: arrivalTime, appointment: null, withinWindow, lateByHours: 0, timeZone: CHICAGO }) as Candidate['stops'][number];
const candidate = (over: Partial<Candidate> = {}): Candidate =>
  ({
    driverId: 'drv_near',
    driverName: 'Nora Near',
    feasible: true,
    locationKnown: true,
    reasons: [],
    deadheadMiles: 29.6,
    departureTime: '2026-05-04T13:00:00.000Z',
    arrivalTime: '2026-05-04T19:40:00.000Z',
    summary: null,
    start: { name: 'Fort Worth, TX', latitude: 32.75, longitude: -97.33, source: 'POSITION', at: '2026-05-04T11:00:00.000Z', routeId: 'rte_1' },
    startClocks: { source: 'LOG', hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0, driveHoursRemaining: 11, dutyHoursRemaining: 14, cycleHoursRemaining: 70 },
    stops: [stop('Dallas, TX', '2026-05-04T13:35:00.000Z', true), stop('Oklahoma City, OK', '2026-05-04T19:40:00.000Z', true)],
    planRequest: { driverId: 'drv_near', departureTime: '2026-05-04T13:00:00.000Z', stops: [] },
    ...over,
  }) as Candidate;

describe('the candidates request from the plan form', () => {
  it('ranks for the stops after the first (each driver starts where they are), from the form’s departure', () => {
    const { body, errors } = candidatesRequestFromDraft(draft());
    expect(errors).toEqual({});
    expect(body).toEqual({
      departureNotBefore: '2026-03-03T14:00:00.000Z',
      stops: [{ address: 'Denton, TX' }, { address: 'Oklahoma City, OK', type: 'DELIVERY', appointment: { latest: '2026-03-03T18:00:00' } }],
    });
  });

  it('needs no driver, ignores the HOS typed in, keeps the ranking’s planning options only', () => {
    const { body } = candidatesRequestFromDraft(draft({ driverId: '', hosMode: 'manual', hoursDriven: 'x', distanceMethod: 'haversine_road', optimizeStopOrder: true, startingFuelGallons: '40', mpg: '7' }));
    expect(body).toMatchObject({ options: { distanceMethod: 'haversine_road', mpg: 7 } });
    expect(body!.options).not.toHaveProperty('optimizeStopOrder');
    expect(body!.options).not.toHaveProperty('startingFuelGallons');
    expect(body).not.toHaveProperty('driverId');
  });

  it('ranks for the chosen load when every stop is empty', () => {
    const { body } = candidatesRequestFromDraft(draft({ loadId: 'ld_1', departure: '', stops: [emptyStop({ type: 'ORIGIN' }), emptyStop({ type: 'DELIVERY' })] }));
    expect(body).toEqual({ loadId: 'ld_1' });
  });

  it('says what is missing: two stops after the first, or the fields to fix', () => {
    const two = candidatesRequestFromDraft(draft({ stops: [emptyStop({ address: 'Dallas, TX' }), emptyStop({ address: 'Tulsa, OK' })] }));
    expect(two).toEqual({ errors: {}, message: NEED_STOPS });
    const blank = candidatesRequestFromDraft(draft({ stops: [emptyStop({ address: 'Dallas, TX' }), emptyStop(), emptyStop({ address: 'Tulsa, OK' })] }));
    expect(blank.body).toBeUndefined();
    expect(blank.errors).toEqual({ 'body.stops.1.address': expect.any(String) });
    expect(blank.message).toMatch(/fields marked/);
  });
});

describe('a candidate in the table', () => {
  it('plans with its own request, plus the form’s vehicle and load', () => {
    expect(planRequestFor(candidate())).toEqual({ driverId: 'drv_near', departureTime: '2026-05-04T13:00:00.000Z', stops: [] });
    expect(planRequestFor(candidate(), { vehicleId: 'veh_1', loadId: 'ld_2' })).toMatchObject({ vehicleId: 'veh_1', loadId: 'ld_2' });
    expect(planRequestFor(candidate({ planRequest: { driverId: 'drv_near', loadId: 'ld_1' } }), { loadId: 'ld_2' })).toMatchObject({ loadId: 'ld_1' });
    expect(planRequestFor(candidate({ planRequest: null }))).toBeNull();
  });

  it('is on time, late (a window missed), not feasible, or without a location', () => {
    expect(verdict(candidate())).toBe('On time');
    expect(verdict(candidate({ feasible: false, stops: [stop('Dallas, TX', '2026-05-04T13:35:00Z', true), stop('Oklahoma City, OK', '2026-05-05T06:00:00Z', false)] }))).toBe('Late');
    expect(verdict(candidate({ feasible: false }))).toBe('Not feasible');
    expect(verdict(candidate({ feasible: false, locationKnown: false, start: null, stops: [] }))).toBe('Location unknown');
    expect([verdictTone('On time'), verdictTone('Late'), verdictTone('Not feasible'), verdictTone('Location unknown')]).toEqual(['green', 'red', 'amber', 'grey']);
  });

  it('reads as a row: times in the stops’ zone, deadhead in miles, where the driver starts from', () => {
    expect(candidateRow(candidate())).toEqual({
      driverId: 'drv_near',
      driverName: 'Nora Near',
      feasible: true,
      verdict: 'On time',
      reason: '',
      deadhead: '30 mi',
      departure: 'Mon, May 4, 08:00 CDT',
      arrival: 'Mon, May 4, 14:40 CDT',
      startName: 'Fort Worth, TX',
      startSource: 'Last position on a route',
    });
    const nowhere = candidateRow(
      candidate({ feasible: false, locationKnown: false, start: null, deadheadMiles: null, arrivalTime: null, stops: [], reasons: ['location unknown: Nils Nowhere has no route, … (POST /api/v1/drivers/drv_x/location)'] }),
    );
    expect(nowhere).toMatchObject({
      verdict: 'Location unknown',
      deadhead: '—',
      departure: '—',
      arrival: '—',
      startName: 'Unknown',
      startSource: 'Location unknown',
      reason: 'No route, reported location or home terminal: set the driver’s home terminal on their page, or have them report where they are.',
    });
    expect(['CURRENT_ROUTE', 'POSITION', 'LOCATION_REPORT', 'DUTY_STATUS', 'LAST_ROUTE', 'HOME_TERMINAL', 'OTHER'].map(startSourceLabel)).toEqual([
      'End of the route they are on',
      'Last position on a route',
      'Last reported location',
      'Where they last changed duty status',
      'End of their last route',
      'Home terminal',
      'Known location',
    ]);
  });

  it('gives the reasons as sentences and the ranking in one line', () => {
    expect(reasonText(['arrives at the delivery 4 h after its window closes', 'Too tired.'])).toBe('Arrives at the delivery 4 h after its window closes. Too tired.');
    expect(reasonText([])).toBe('');
    expect(candidatesSummary([{ feasible: true, locationKnown: true }, { feasible: true, locationKnown: true }, { feasible: false, locationKnown: true }])).toBe('3 drivers ranked: 2 can take it on time.');
    expect(candidatesSummary([{ feasible: false, locationKnown: true }])).toBe('1 driver ranked: none can take it on time.');
    expect(candidatesSummary([{ feasible: true, locationKnown: true }, { feasible: false, locationKnown: false }])).toBe('2 drivers ranked: 1 can take it on time; 1 location unknown.');
    expect(candidatesSummary([])).toBe('No active driver to rank.');
  });
});
