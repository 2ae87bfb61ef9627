import { describe, expect, it } from 'vitest';
import { applyCandidate, buildPlanRequest, coDriverCandidates, emptyDraft, emptyStop, moveStop, planProblems, withDriver, type PlanDraft } from './plan-form';

const draft = (overrides: Partial<PlanDraft> = {}): PlanDraft => ({
  ...emptyDraft('America/Chicago', '2026-03-03T08:00'),
  driverId: 'drv_1',
  stops: [emptyStop({ address: 'Dallas, TX', type: 'ORIGIN' }), emptyStop({ address: 'Chicago, IL', type: 'DELIVERY' })],
  ...overrides,
});

describe('the plan request from the form', () => {
  it('sends the driver, the departure in the dispatcher’s zone, the stops and nothing left empty', () => {
    const { body, errors } = buildPlanRequest(draft());
    expect(errors).toEqual({});
    expect(body).toEqual({
      driverId: 'drv_1',
      departureTime: '2026-03-03T14:00:00.000Z',
      stops: [
        { address: 'Dallas, TX', type: 'ORIGIN' },
        { address: 'Chicago, IL', type: 'DELIVERY' },
      ],
    });
  });

  it('sends coordinates, appointments as the stop’s local wall time, dock hours, vehicle and load', () => {
    const { body } = buildPlanRequest(
      draft({
        vehicleId: 'veh_1',
        loadId: 'ld_1',
        stops: [
          emptyStop({ name: 'Yard', mode: 'coordinates', latitude: '32.7767', longitude: '-96.797' }),
          emptyStop({ address: 'Chicago, IL', type: 'DELIVERY', earliest: '2026-03-04T08:00', latest: '2026-03-04T12:00', dockHours: '1.5' }),
        ],
      }),
    );
    expect(body).toMatchObject({ vehicleId: 'veh_1', loadId: 'ld_1' });
    expect(body!.stops).toEqual([
      { name: 'Yard', latitude: 32.7767, longitude: -96.797 },
      { address: 'Chicago, IL', type: 'DELIVERY', appointment: { earliest: '2026-03-04T08:00:00', latest: '2026-03-04T12:00:00' }, dockDurationHours: 1.5 },
    ]);
  });

  it('leaves the stops out when a load is chosen and none is filled in (the load’s addresses are used)', () => {
    const { body } = buildPlanRequest(draft({ loadId: 'ld_1', stops: [emptyStop({ type: 'ORIGIN' }), emptyStop({ type: 'DELIVERY' })] }));
    expect(body).toMatchObject({ loadId: 'ld_1' });
    expect(body!.stops).toBeUndefined();
  });

  it('uses the driver’s HOS log unless the current HOS is typed in; options only when changed', () => {
    expect(buildPlanRequest(draft()).body!.driverState).toBeUndefined();
    const manual = buildPlanRequest(
      draft({ hosMode: 'manual', hoursDriven: '6', onDutyHours: '7.5', hoursSinceBreak: '', cycleHoursUsed: '30', distanceMethod: 'haversine_road', includeFuelStops: false, mpg: '7', averageSpeedMph: ' ' }),
    ).body!;
    expect(manual.driverState).toEqual({ hoursDriven: 6, onDutyHours: 7.5, hoursSinceBreak: 0, cycleHoursUsed: 30 });
    expect(manual.options).toEqual({ distanceMethod: 'haversine_road', includeFuelStops: false, mpg: 7 });
    expect(buildPlanRequest(draft()).body!.options).toBeUndefined();
    expect(buildPlanRequest(draft({ departure: '' })).body!.departureTime).toBeUndefined();
  });

  it('sends the co-driver of a team, never the driver twice', () => {
    expect(buildPlanRequest(draft()).body).not.toHaveProperty('coDriverId');
    expect(buildPlanRequest(draft({ coDriverId: 'drv_2' })).body).toMatchObject({ driverId: 'drv_1', coDriverId: 'drv_2' });
    const twice = buildPlanRequest(draft({ coDriverId: 'drv_1' }));
    expect(twice.body).toBeUndefined();
    expect(twice.errors).toEqual({ 'body.coDriverId': 'The co-driver must be another driver than the driver' });
    // The co-driver's HOS comes from their log, whatever is typed in for the driver.
    expect(buildPlanRequest(draft({ coDriverId: 'drv_2', hosMode: 'manual' })).body).not.toHaveProperty('coDriverState');
  });

  it('offers every other driver as the co-driver, and drops the co-driver who becomes the driver', () => {
    const drivers = [{ id: 'drv_1' }, { id: 'drv_2' }, { id: 'drv_3' }];
    expect(coDriverCandidates(drivers, 'drv_2')).toEqual([{ id: 'drv_1' }, { id: 'drv_3' }]);
    expect(coDriverCandidates(drivers, '')).toEqual(drivers);
    expect(withDriver(draft({ coDriverId: 'drv_2' }), 'drv_2')).toMatchObject({ driverId: 'drv_2', coDriverId: '' });
    expect(withDriver(draft({ coDriverId: 'drv_2' }), 'drv_3')).toMatchObject({ driverId: 'drv_3', coDriverId: 'drv_2' });
    expect(withDriver(draft({ coDriverId: '' }), '')).toMatchObject({ driverId: '', coDriverId: '' });
  });

  it('catches obvious mistakes by field, and sends nothing then', () => {
    const built = buildPlanRequest(
      draft({
        driverId: '',
        hosMode: 'manual',
        cycleHoursUsed: '121',
        mpg: 'lots',
        stops: [emptyStop({ address: '' }), emptyStop({ mode: 'coordinates', latitude: '95', longitude: '-87' }), emptyStop({ address: 'Chicago, IL', earliest: '2026-03-04T12:00', latest: '2026-03-04T08:00', dockHours: '-1' })],
      }),
    );
    expect(built.body).toBeUndefined();
    expect(Object.keys(built.errors).sort()).toEqual(
      ['body.driverId', 'body.driverState.cycleHoursUsed', 'body.options.mpg', 'body.stops.0.address', 'body.stops.1.latitude', 'body.stops.2.appointment', 'body.stops.2.dockDurationHours'].sort(),
    );
  });
});

describe('the planner’s answer mapped back onto the form', () => {
  it('ties each detail to its stop and keeps the geocoder’s candidates', () => {
    const problems = planProblems([
      { field: 'body.stops.1.address', message: 'Stop 2 ("Chicgo, IL"): did you mean Chicago, IL?', candidates: ['Chicago, IL'] },
      { field: 'body.stops.3', message: 'Stop 4: give either coordinates or an address' },
      { field: 'body.driverState', message: 'too many hours' },
      { field: 'body.stops', message: 'A route needs at least two stops' },
      'junk',
      { field: 'x' },
    ]);
    expect(problems).toEqual([
      { field: 'body.stops.1.address', message: 'Stop 2 ("Chicgo, IL"): did you mean Chicago, IL?', candidates: ['Chicago, IL'], stopIndex: 1 },
      { field: 'body.stops.3', message: 'Stop 4: give either coordinates or an address', candidates: [], stopIndex: 3 },
      { field: 'body.driverState', message: 'too many hours', candidates: [], stopIndex: null },
      { field: 'body.stops', message: 'A route needs at least two stops', candidates: [], stopIndex: null },
    ]);
    expect(planProblems(undefined)).toEqual([]);
  });

  it('a chosen candidate replaces the stop’s place (a name that only repeated the address goes too)', () => {
    const d = draft({ stops: [emptyStop({ address: 'Dallas, TX' }), emptyStop({ name: 'Chicgo, IL', address: 'Chicgo, IL' }), emptyStop({ name: 'DC', mode: 'coordinates', latitude: '1', longitude: '2' })] });
    const fixed = applyCandidate(d, 1, 'Chicago, IL');
    expect(fixed.stops[1]).toMatchObject({ name: '', address: 'Chicago, IL', mode: 'address' });
    expect(applyCandidate(d, 2, 'Columbus, OH').stops[2]).toMatchObject({ name: 'DC', address: 'Columbus, OH', mode: 'address' });
    expect(fixed.stops[0]).toBe(d.stops[0]);
  });

  it('moves stops up and down, not past the ends', () => {
    expect(moveStop(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveStop(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveStop(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveStop(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});
