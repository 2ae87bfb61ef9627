import { describe, expect, it } from 'vitest';
import { mapStation, mapStations, perGallon, stationName, type HereFuelStation } from './mapping.js';

/** The shape of HERE's documented example answer (Berlin, all fuel types, EUR per litre), trimmed. */
const BERLIN: HereFuelStation = {
  id: '276u33dc-6b5d5a3b2c7e4b0f9e1d',
  brand: 'TOTAL',
  name: 'TOTAL Tankstelle',
  position: { latitude: 52.53087, longitude: 13.44176 },
  distance: 412,
  address: { city: 'Berlin', country: 'DEU', region: 'Berlin', street: 'Margarete-Sommer-Straße', streetNumber: '2', postalCode: '10407' },
  fuelPrice: [
    { price: 1.469, fuelType: '27', unit: 'l', currency: 'EUR', lastUpdateTimestamp: '2015-03-12T10:17:45.000Z' },
    { price: 1.389, fuelType: '1', unit: 'l', currency: 'EUR', lastUpdateTimestamp: '2015-03-12T10:17:45.000Z' },
  ],
  open24x7: true,
};

const US: HereFuelStation = {
  id: '840abc-1',
  name: 'Redbud Travel Center #101',
  brand: 'Redbud Travel Center',
  position: { latitude: 34.1743, longitude: -97.1436 },
  address: { city: 'Ardmore', region: 'OK', country: 'USA' },
  fuelPrice: [
    { price: 3.179, fuelType: '2', unit: 'gal', currency: 'USD', lastUpdateTimestamp: '2026-01-15T16:00:00Z' },
    { price: 3.389, fuelType: '1', unit: 'gal', currency: 'USD', lastUpdateTimestamp: '2026-01-15T16:30:00Z' },
  ],
};

describe('HERE station mapping', () => {
  it('maps a US station: diesel (fuel type 1) per gallon, USD, the price time, "Name, City, ST"', () => {
    expect(mapStation(US)).toEqual({
      externalId: '840abc-1',
      name: 'Redbud Travel Center #101, Ardmore, OK',
      latitude: 34.1743,
      longitude: -97.1436,
      dieselPrice: 3.389,
      currency: 'USD',
      updatedAt: '2026-01-15T16:30:00.000Z',
    });
  });

  it('skips what gives no USD diesel price, saying why', () => {
    expect(mapStation(BERLIN)).toBe('NOT_USD');
    expect(mapStation({ ...US, fuelPrice: [{ fuelType: '1', unit: 'gal', currency: 'USD' }] })).toBe('NO_DIESEL_PRICE'); // an estimate: no price
    expect(mapStation({ ...US, fuelPrice: [US.fuelPrice![0]!] })).toBe('NO_DIESEL_PRICE');
    expect(mapStation({ ...US, fuelPrice: [{ ...US.fuelPrice![1]!, unit: 'barrel' }] })).toBe('UNKNOWN_UNIT');
    expect(mapStation({ ...US, position: { latitude: Number.NaN, longitude: 1 } })).toBe('NO_POSITION');
    expect(mapStation({ ...US, fuelPrice: [{ ...US.fuelPrice![1]!, lastUpdateTimestamp: 'yesterday' }] })).toBe('NO_DIESEL_PRICE');
  });

  it('converts a price per litre to a price per US gallon, and accepts a numeric fuel type', () => {
    expect(perGallon(1, 'l')).toBe(3.785);
    expect(perGallon(3.389, 'gal')).toBe(3.389);
    expect(perGallon(3.389, undefined)).toBe(3.389);
    expect(perGallon(1, 'kg')).toBeUndefined();
    const perLitre = mapStation({ ...US, fuelPrice: [{ price: 0.9, fuelType: 1, unit: 'L', currency: 'usd', lastUpdateTimestamp: '2026-01-15T16:30:00Z' }] });
    expect(perLitre).toMatchObject({ dieselPrice: 3.407, currency: 'USD' });
  });

  it('falls back to the brand, then a generic name, and uses the station time when the price has none', () => {
    expect(stationName({ ...US, name: undefined })).toBe('Redbud Travel Center, Ardmore, OK');
    expect(stationName({ id: 'x', position: US.position })).toBe('Fuel station');
    expect(stationName({ ...US, name: 'Stop in Ardmore, OK' })).toBe('Stop in Ardmore, OK');
    const stamped = mapStation({ ...US, lastUpdateTimestamp: '2026-01-14T00:00:00Z', fuelPrice: [{ price: 3.5, fuelType: '1', unit: 'gal', currency: 'USD' }] });
    expect(stamped).toMatchObject({ updatedAt: '2026-01-14T00:00:00.000Z' });
  });

  it('keeps each station once and counts what it skipped; a station without an id is a shape error', () => {
    const result = mapStations([US, { ...US, fuelPrice: [{ ...US.fuelPrice![1]!, price: 9 }] }, BERLIN, { ...BERLIN, id: 'b2' }]);
    expect(result.stations).toHaveLength(1);
    expect(result.stations[0]!.dieselPrice).toBe(3.389);
    expect(result.skipped).toEqual({ NOT_USD: 2 });
    expect(() => mapStations([{ position: US.position } as HereFuelStation])).toThrow(TypeError);
  });
});
