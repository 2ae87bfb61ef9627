import { describe, expect, it } from 'vitest';
import { placeZone } from './place-zone';

describe('placeZone', () => {
  it('finds the zone of a place from its coordinates', () => {
    expect(placeZone({ latitude: 32.78, longitude: -96.8 })).toBe('America/Chicago'); // Dallas
    expect(placeZone({ latitude: 35.2, longitude: -101.83 })).toBe('America/Chicago'); // Amarillo
    expect(placeZone({ latitude: 33.45, longitude: -112.07 })).toBe('America/Phoenix');
    expect(placeZone({ latitude: 39.74, longitude: -104.99 })).toBe('America/Denver');
  });

  it('answers the fallback without a place or with coordinates that are none', () => {
    expect(placeZone(null)).toBe('UTC');
    expect(placeZone(undefined, 'America/Denver')).toBe('America/Denver');
    expect(placeZone({ latitude: 95, longitude: 0 })).toBe('UTC');
    expect(placeZone({ latitude: Number.NaN, longitude: 0 }, 'America/Chicago')).toBe('America/Chicago');
  });
});
