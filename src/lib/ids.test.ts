import { describe, expect, it } from 'vitest';
import { isTenantId, newId, randomBase62 } from './ids.js';

describe('identifiers', () => {
  it('are the prefix and 22 base62 characters, never repeated, across many refills of the random pool', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('route'));
    for (const id of ids.slice(0, 500)) expect(id).toMatch(/^rte_[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(isTenantId(newId('tenant'))).toBe(true);
  });

  it('draws every base62 character about equally often (rejection sampling keeps it even)', () => {
    const counts = new Map<string, number>();
    const text = randomBase62(62 * 2_000);
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2,000 expected per character; six standard deviations (~6 × 44) either side.
    for (const n of counts.values()) expect(Math.abs(n - 2_000)).toBeLessThan(270);
  });
});
