import { beforeAll, describe, expect, it } from 'vitest';
import { placeKey } from './normalize.js';
import { loadGazetteer, MAX_CANDIDATES, offlineGeocoder } from './index.js';

const geocoder = offlineGeocoder();

beforeAll(() => {
  loadGazetteer();
});

describe('lookup: a city name without a state', () => {
  it('is ambiguous when more than one place bears it: the places, most populous first', () => {
    const answer = geocoder.lookup('Columbus');
    expect(answer.kind).toBe('ambiguous');
    if (answer.kind !== 'ambiguous') return;
    expect(answer.candidates.slice(0, 3)).toEqual(['Columbus, OH', 'Columbus, GA', 'Columbus, IN']);
    expect(answer.candidates).toHaveLength(MAX_CANDIDATES);
    // The order is the gazetteer's populations, non-increasing.
    const places = loadGazetteer().placesNamed(placeKey('Columbus'));
    expect(places.length).toBeGreaterThan(MAX_CANDIDATES);
    expect(answer.candidates).toEqual(places.slice(0, MAX_CANDIDATES).map((p) => p.name));
    places.slice(1).forEach((p, i) => expect(p.population).toBeLessThanOrEqual(places[i]!.population));
  });

  it('applies the same rule to every name: one place resolves, two or more never do', () => {
    expect(geocoder.lookup('Springfield')).toMatchObject({ kind: 'ambiguous', candidates: expect.arrayContaining(['Springfield, IL', 'Springfield, MO', 'Springfield, MA']) });
    // Dallas, TX is 80× the next Dallas: a population rule would take it, this rule asks.
    expect(geocoder.lookup('Dallas')).toMatchObject({ kind: 'ambiguous', candidates: expect.arrayContaining(['Dallas, TX', 'Dallas, GA', 'Dallas, OR']) });
    expect((geocoder.lookup('Dallas') as { candidates: string[] }).candidates[0]).toBe('Dallas, TX');
    expect(geocoder.lookup('Vancouver')).toEqual({ kind: 'ambiguous', candidates: ['Vancouver, BC', 'Vancouver, WA'] });
    expect(geocoder.lookup('Chicago')).toMatchObject({ kind: 'found', result: { name: 'Chicago, IL', precision: 'city', matched: 'Chicago, IL' } });
  });

  it('narrows to the country named', () => {
    expect(geocoder.lookup('Vancouver, Canada')).toMatchObject({ kind: 'found', result: { name: 'Vancouver, BC' } });
    expect(geocoder.lookup('Toronto, Canada')).toMatchObject({ kind: 'found', result: { name: 'Toronto, ON' } });
  });

  it('resolves with the state, exactly', () => {
    expect(geocoder.lookup('Columbus, GA')).toMatchObject({ kind: 'found', result: { name: 'Columbus, GA', precision: 'city', matched: 'Columbus, GA' } });
    expect(geocoder.lookup('Springfield, IL')).toMatchObject({ kind: 'found', result: { name: 'Springfield, IL' } });
  });
});

describe('lookup: near misses', () => {
  it('offers the closest names within the state given', () => {
    expect(geocoder.lookup('Chicgo, IL')).toEqual({ kind: 'not_found', suggestions: ['Chicago, IL'] });
    expect(geocoder.lookup('Albuqurque, NM')).toEqual({ kind: 'not_found', suggestions: ['Albuquerque, NM'] });
    expect(geocoder.lookup('Pittsbrugh, PA')).toEqual({ kind: 'not_found', suggestions: ['Pittsburgh, PA'] }); // swapped letters
    const springfield = geocoder.lookup('Springfeld, OH');
    expect(springfield).toMatchObject({ kind: 'not_found', suggestions: expect.arrayContaining(['Springfield, OH']) });
    if (springfield.kind === 'not_found') for (const name of springfield.suggestions) expect(name).toMatch(/, OH$/);
  });

  it('looks everywhere without a state, closest first then most populous', () => {
    const answer = geocoder.lookup('Chicgo');
    expect(answer).toMatchObject({ kind: 'not_found' });
    if (answer.kind === 'not_found') expect(answer.suggestions[0]).toBe('Chicago, IL');
  });

  it('names the places of that exact name elsewhere when the state has none', () => {
    const answer = geocoder.lookup('Dallas, OK');
    expect(answer).toMatchObject({ kind: 'not_found', suggestions: expect.arrayContaining(['Dallas, TX', 'Dallas, GA']) });
    if (answer.kind === 'not_found') expect(answer.suggestions[0]).toBe('Dallas, TX');
  });

  it('offers nothing for garbage, unknown ZIPs or names too short to guess', () => {
    for (const text of ['asdfghjkl', '99999', 'London, UK', '', '<script>alert(1)</script>']) {
      expect(geocoder.lookup(text), text).toEqual({ kind: 'not_found', suggestions: [] });
    }
  });
});

describe('lookup: precision and what was matched', () => {
  it('a ZIP is matched at ZIP precision', () => {
    expect(geocoder.lookup('75201')).toMatchObject({ kind: 'found', result: { precision: 'zip', matched: 'Dallas, TX 75201', postalCode: '75201' } });
    expect(geocoder.lookup('100 Commerce St, Dallas, TX 75201')).toMatchObject({ kind: 'found', result: { precision: 'zip', matched: 'Dallas, TX 75201' } });
  });

  it('a street address without a ZIP is placed at the city centre, and says so', () => {
    const street = geocoder.lookup('100 Commerce St, Dallas, TX');
    const city = geocoder.lookup('Dallas, TX');
    expect(street).toMatchObject({ kind: 'found', result: { precision: 'city', matched: 'Dallas, TX' } });
    expect(street).toEqual(city);
  });

  it('never takes the last word of a street for a town when no state is given', () => {
    expect(geocoder.lookup('12345 Main Street').kind).not.toBe('found'); // "Street, MD" exists
  });
});
