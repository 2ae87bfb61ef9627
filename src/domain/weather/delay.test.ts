import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CRUISE_SPEED_MPH, pointShareMiles, routeWeatherDelayHours, SPEED_REDUCTION, weatherDelayHours, type WeatherStretch } from './delay.js';
import { SEVERITIES, SEVERITY_RANK, type WeatherSeverity } from './types.js';

const severityArb = fc.constantFrom<WeatherSeverity | null>(null, ...SEVERITIES);
const stretchArb = fc.record({ miles: fc.double({ min: 0, max: 2000, noNaN: true }), severity: severityArb });

describe('weatherDelayHours', () => {
  it('worked example: 55 miles of SEVERE at 55 mph cruise lose 40 % of speed → 1 h becomes 1 h 40 min', () => {
    expect(weatherDelayHours([{ miles: 55, severity: 'SEVERE' }])).toBeCloseTo(2 / 3, 10);
    expect(weatherDelayHours([{ miles: 110, severity: 'EXTREME' }])).toBeCloseTo(3, 10);
    expect(weatherDelayHours([{ miles: 100, severity: null }])).toBe(0);
    expect(weatherDelayHours([])).toBe(0);
  });

  it('the speed reductions grow strictly with severity and stay below 100 %', () => {
    const r = SEVERITIES.map((s) => SPEED_REDUCTION[s]);
    for (let i = 1; i < r.length; i++) expect(r[i]!).toBeGreaterThan(r[i - 1]!);
    expect(Math.max(...r)).toBeLessThan(1);
  });

  it('property: never negative nor NaN, whatever the stretches', () => {
    fc.assert(
      fc.property(fc.array(stretchArb), (stretches) => {
        const d = weatherDelayHours(stretches);
        expect(Number.isFinite(d)).toBe(true);
        expect(d).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('property: raising the severity of any stretch never lowers the delay', () => {
    fc.assert(
      fc.property(fc.array(stretchArb, { minLength: 1 }), fc.nat(), severityArb, (stretches, at, raised) => {
        const i = at % stretches.length;
        const before = stretches[i]!.severity;
        fc.pre(raised !== null && (before === null || SEVERITY_RANK[raised] >= SEVERITY_RANK[before]));
        const worse: WeatherStretch[] = stretches.map((s, j) => (j === i ? { ...s, severity: raised } : s));
        expect(weatherDelayHours(worse)).toBeGreaterThanOrEqual(weatherDelayHours(stretches));
      }),
    );
  });

  it('property: more miles of the same weather never lower the delay; a hazard on positive miles delays (above float underflow)', () => {
    fc.assert(
      fc.property(stretchArb, fc.double({ min: 0, max: 500, noNaN: true }), (s, extra) => {
        expect(weatherDelayHours([{ ...s, miles: s.miles + extra }])).toBeGreaterThanOrEqual(weatherDelayHours([s]));
        if (s.severity !== null && s.miles > 1e-9) expect(weatherDelayHours([s])).toBeGreaterThan(0);
      }),
    );
  });
});

describe('routeWeatherDelayHours', () => {
  // Three points 69.1 miles apart along a meridian (1° of latitude each).
  const line = [0, 1, 2].map((i) => ({ latitude: 35 + i, longitude: -97 }));

  it('each point stands for half the way to its neighbours; shares add up to the path', () => {
    const shares = pointShareMiles(line);
    expect(shares[0]).toBeCloseTo(34.55, 1);
    expect(shares[1]).toBeCloseTo(69.1, 1);
    expect(shares[2]!).toBeCloseTo(shares[0]!, 6);
  });

  it('a SEVERE hazard at the middle point delays by its share; one point alone: unknown (null)', () => {
    const d = routeWeatherDelayHours(line.map((p, i) => ({ ...p, severity: i === 1 ? ('SEVERE' as const) : null })));
    expect(d).toBeCloseTo((pointShareMiles(line)[1]! / CRUISE_SPEED_MPH) * (1 / 0.6 - 1), 10);
    expect(routeWeatherDelayHours([{ ...line[0]!, severity: 'EXTREME' }])).toBeNull();
    expect(routeWeatherDelayHours(line.map((p) => ({ ...p, severity: null })))).toBe(0);
  });
});
