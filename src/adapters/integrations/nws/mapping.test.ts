import { describe, expect, it } from 'vitest';
import { conditionsOf, mapAlerts, mapForecast, windMph, type NwsAlertProperties, type NwsPeriod } from './mapping.js';

const NOW = new Date('2026-03-02T14:20:00.000Z');

const props = (o: Partial<NwsAlertProperties> = {}): NwsAlertProperties => ({
  id: 'urn:oid:1',
  areaDesc: 'Oklahoma',
  sent: '2026-03-02T07:50:00-06:00',
  effective: '2026-03-02T07:50:00-06:00',
  onset: '2026-03-02T12:00:00-06:00',
  expires: '2026-03-02T16:00:00-06:00',
  ends: '2026-03-03T18:00:00-06:00',
  status: 'Actual',
  messageType: 'Alert',
  category: 'Met',
  severity: 'Severe',
  certainty: 'Likely',
  urgency: 'Expected',
  event: 'Winter Storm Warning',
  senderName: 'NWS Norman OK',
  headline: 'Winter Storm Warning issued March 2 at 7:50AM CST until March 3 at 6:00PM CST by NWS Norman OK',
  description: '* WHAT...Heavy snow.',
  instruction: null,
  ...o,
});
const collection = (...p: NwsAlertProperties[]) => ({ type: 'FeatureCollection' as const, features: p.map((properties) => ({ id: properties.id, type: 'Feature' as const, geometry: null, properties })) });

describe('NWS alerts', () => {
  it('maps every field: CAP severity, onset → start, ends → end (UTC), headline, description', () => {
    expect(mapAlerts(collection(props()))).toEqual([
      {
        event: 'Winter Storm Warning',
        severity: 'SEVERE',
        start: '2026-03-02T18:00:00.000Z',
        end: '2026-03-04T00:00:00.000Z',
        description: '* WHAT...Heavy snow.',
        headline: 'Winter Storm Warning issued March 2 at 7:50AM CST until March 3 at 6:00PM CST by NWS Norman OK',
      },
    ]);
  });

  it('falls back: no onset → effective, no ends → expires, no headline → event, Unknown severity → from the event name', () => {
    expect(mapAlerts(collection(props({ onset: null, ends: null, headline: null, severity: 'Unknown', event: 'Wind Advisory' }))))
      .toEqual([expect.objectContaining({ start: '2026-03-02T13:50:00.000Z', end: '2026-03-02T22:00:00.000Z', headline: 'Wind Advisory', severity: 'MINOR' })]);
  });

  it('skips tests, exercises and cancellations', () => {
    expect(mapAlerts(collection(props({ status: 'Test' }), props({ status: 'Exercise' }), props({ messageType: 'Cancel' })))).toEqual([]);
  });

  it('an unexpected shape throws', () => {
    expect(() => mapAlerts({} as never)).toThrow(TypeError);
    expect(() => mapAlerts({ features: [{ properties: {} }] } as never)).toThrow(TypeError);
  });
});

describe('NWS hourly forecast', () => {
  it.each([
    ['10 mph', 10],
    ['10 to 20 mph', 20],
    ['', null],
    [null, null],
  ])('wind %j → %s', (text, mph) => {
    expect(windMph(text)).toBe(mph);
  });

  it.each([
    ['Freezing Rain', 'FREEZING_RAIN', false, null],
    ['Sleet Likely', 'FREEZING_RAIN', false, null],
    ['Heavy Snow', 'HEAVY_SNOW', false, null],
    ['Blizzard Conditions', 'HEAVY_SNOW', false, null],
    ['Snow Showers Likely', 'SNOW', false, null],
    ['Chance Snow Showers', null, false, null],
    ['Slight Chance Freezing Rain', null, false, null],
    ['Showers And Thunderstorms', null, true, null],
    ['Chance Showers And Thunderstorms', null, false, null],
    ['Areas Of Dense Fog', null, false, 0.25],
    ['Patchy Fog', null, false, null],
    ['Mostly Sunny', null, false, null],
  ])('%s', (text, precipitation, thunderstorm, visibilityMiles) => {
    expect(conditionsOf(text)).toEqual({ precipitation, thunderstorm, visibilityMiles });
  });

  it('periods → hazards of the next hours (the stronger of gust and sustained wind)', () => {
    const period = (i: number, o: Partial<NwsPeriod> = {}): NwsPeriod => ({
      number: i + 1,
      name: '',
      startTime: new Date(Date.parse('2026-03-02T08:00:00-06:00') + i * 3_600_000).toISOString(),
      endTime: new Date(Date.parse('2026-03-02T09:00:00-06:00') + i * 3_600_000).toISOString(),
      isDaytime: true,
      temperature: 30,
      temperatureUnit: 'F',
      windSpeed: '10 mph',
      windDirection: 'N',
      shortForecast: 'Cloudy',
      detailedForecast: '',
      ...o,
    });
    const out = mapForecast({ properties: { periods: [period(0), period(1, { shortForecast: 'Heavy Snow', windSpeed: '30 to 50 mph', windGust: '40 mph' })] } }, NOW);
    expect(out).toEqual([
      { severity: 'SEVERE', event: 'Heavy snow (forecast)', headline: 'Heavy snow forecast from 2026-03-02 15:00 UTC to 2026-03-02 16:00 UTC', startsAt: '2026-03-02T15:00:00.000Z', endsAt: '2026-03-02T16:00:00.000Z' },
      { severity: 'MODERATE', event: 'High wind (forecast)', headline: 'Wind gusts up to 50 mph forecast from 2026-03-02 15:00 UTC to 2026-03-02 16:00 UTC', startsAt: '2026-03-02T15:00:00.000Z', endsAt: '2026-03-02T16:00:00.000Z' },
    ]);
    expect(() => mapForecast({ properties: {} } as never, NOW)).toThrow(TypeError);
    expect(() => mapForecast({ properties: { periods: [{ startTime: 'soon' }] } } as never, NOW)).toThrow(TypeError);
  });
});
