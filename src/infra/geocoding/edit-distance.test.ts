import { describe, expect, it } from 'vitest';
import { boundedEditDistance, suggestionBound } from './edit-distance.js';

/** The textbook optimal-string-alignment distance, unbounded: the reference the bounded one must agree with. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe('boundedEditDistance', () => {
  it.each([
    ['chicago', 'chicago', 0],
    ['chicgo', 'chicago', 1], // a letter left out
    ['chciago', 'chicago', 1], // two letters swapped
    ['chicaho', 'chicago', 1], // one replaced
    ['chicagoo', 'chicago', 1], // one added
    ['albuqurque', 'albuquerque', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['abc', '', 3],
  ])('%s → %s: %i', (a, b, expected) => {
    expect(boundedEditDistance(a, b, 5)).toBe(expected);
    expect(boundedEditDistance(b, a, 5)).toBe(expected);
  });

  it('answers max + 1 for anything further than the bound', () => {
    expect(boundedEditDistance('kitten', 'sitting', 2)).toBe(3);
    expect(boundedEditDistance('dallas', 'houston', 1)).toBe(2);
    expect(boundedEditDistance('a', 'abcdef', 2)).toBe(3); // by length alone
  });

  it('agrees with the unbounded reference on random short strings (capped at the bound)', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const word = () => Array.from({ length: Math.floor(random() * 9) }, () => 'abcd'[Math.floor(random() * 4)]).join('');
    for (let n = 0; n < 2000; n++) {
      const [a, b, max] = [word(), word(), Math.floor(random() * 4)];
      expect(boundedEditDistance(a, b, max), `${a} / ${b} / ${max}`).toBe(Math.min(reference(a, b), max + 1));
    }
    // Longer than the reused buffers: they grow.
    const long = 'x'.repeat(100);
    expect(boundedEditDistance(long, `${long}y`, 2)).toBe(1);
  });
});

describe('suggestionBound', () => {
  it('offers nothing for very short names, one edit for short ones, two for long ones', () => {
    expect(suggestionBound('uk')).toBe(0);
    expect(suggestionBound('waco')).toBe(1);
    expect(suggestionBound('chicgo')).toBe(1);
    expect(suggestionBound('albuqurque')).toBe(2);
    expect(suggestionBound('el paso')).toBe(1); // spaces do not count
  });
});
