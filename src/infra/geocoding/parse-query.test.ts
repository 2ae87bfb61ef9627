import { describe, expect, it } from 'vitest';
import { placeKey } from './normalize.js';
import { parseQuery } from './parse-query.js';

const codes = (text: string): string[] => parseQuery(text)?.regions.map((r) => `${r.country}:${r.code}`) ?? [];

describe('parseQuery', () => {
  it('finds a ZIP or ZIP+4 only at the end', () => {
    expect(parseQuery('75201')).toEqual({ zip: '75201', cities: [], regions: [], country: 'US' });
    expect(parseQuery('Dallas, TX 75201-1234')?.zip).toBe('75201');
    expect(parseQuery('Dallas, TX 752011234')?.zip).toBe('75201');
    expect(parseQuery('Dallas, TX, 75201')?.zip).toBe('75201');
    expect(parseQuery('12345 Main St, Dallas, TX')?.zip).toBeNull(); // a house number is not a ZIP
  });

  it('reads the state from the last part, longest name first', () => {
    expect(codes('Dallas, TX')).toEqual(['US:TX']);
    expect(codes('Santa Fe, New Mexico')).toEqual(['US:NM']);
    expect(codes('Charleston, W. Va.')).toEqual(['US:WV']);
    expect(codes('Monterrey, N.L.')).toEqual(['CA:NL', 'MX:NL']);
    expect(codes('Saltillo, CO')).toEqual(['US:CO', 'MX:COAH']);
    expect(parseQuery('dallas texas')?.cities).toEqual(['dallas']);
  });

  it('reads the city from the part before the state, or before the state in the same part', () => {
    expect(parseQuery('St. Louis, MO')?.cities).toEqual(['saint louis']);
    expect(parseQuery('100 Commerce St, Dallas, TX')?.cities).toEqual(['dallas']);
    // No comma before the city: also try the last words, never starting with a house number.
    expect(parseQuery('100 Commerce St Dallas TX')?.cities).toEqual([
      placeKey('100 Commerce St Dallas'),
      'commerce saint dallas',
      'saint dallas',
      'dallas',
    ]);
  });

  it('takes a country from the end, but "X, CA" is California', () => {
    expect(parseQuery('Toronto, ON, Canada')).toMatchObject({ country: 'CA', cities: ['toronto'] });
    expect(parseQuery('Toronto, ON, CA')).toMatchObject({ country: 'CA' });
    expect(codes('Fresno, CA')).toEqual(['US:CA']);
    expect(parseQuery('Toronto, Canada')).toMatchObject({ country: 'CA', regions: [], cities: ['toronto'] });
    expect(parseQuery('Dallas, TX 75201 USA')).toMatchObject({ zip: '75201', country: 'US' });
    expect(parseQuery('Toronto, ON M5V 3L9')).toMatchObject({ country: 'CA', zip: null });
  });

  it('rejects empty and oversized input', () => {
    expect(parseQuery('')).toBeNull();
    expect(parseQuery(' , , ')).toBeNull();
    expect(parseQuery('x'.repeat(301))).toBeNull();
  });
});

describe('placeKey', () => {
  it('puts spellings of one name on one key', () => {
    expect(placeKey('St. Louis')).toBe(placeKey('SAINT LOUIS'));
    expect(placeKey('Ft. Worth')).toBe(placeKey('Fort Worth'));
    expect(placeKey('Montréal')).toBe('montreal');
    expect(placeKey("Coeur d'Alene")).toBe(placeKey('Coeur d’Alene'));
    expect(placeKey('Winston-Salem')).toBe('winston salem');
  });
});
