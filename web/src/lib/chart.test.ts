import { describe, expect, it } from 'vitest';
import { bands, formatTick, labelEvery, linePath, maxOf, niceStep, niceTicks, scaleLinear, stack } from './chart';

describe('chart arithmetic', () => {
  it('rounds steps up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([0.7, 1, 1.3, 2.2, 3, 7, 12, 0.03, 260].map(niceStep)).toEqual([1, 1, 2, 2.5, 5, 10, 20, 0.05, 500]);
    expect(niceStep(0)).toBe(1);
    expect(niceStep(Number.NaN)).toBe(1);
  });

  it('makes ticks from 0 to a round maximum covering the data', () => {
    expect(niceTicks(17)).toEqual({ max: 20, ticks: [0, 5, 10, 15, 20] });
    expect(niceTicks(100)).toEqual({ max: 100, ticks: [0, 20, 40, 60, 80, 100] });
    expect(niceTicks(0.42)).toEqual({ max: 0.5, ticks: [0, 0.1, 0.2, 0.3, 0.4, 0.5] });
    // Counts: whole steps only, and an axis even with nothing to show.
    expect(niceTicks(3, 5, true)).toEqual({ max: 3, ticks: [0, 1, 2, 3] });
    expect(niceTicks(0, 4, true)).toEqual({ max: 4, ticks: [0, 1, 2, 3, 4] });
    expect(niceTicks(0)).toEqual({ max: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] });
    expect(niceTicks(-5).max).toBe(1);
  });

  it('prints ticks with the decimals their step needs', () => {
    expect(formatTick(15, 5)).toBe('15');
    expect(formatTick(0.4, 0.2)).toBe('0.4');
    expect(formatTick(0.75, 0.25)).toBe('0.75');
    expect(formatTick(0.03, 0.01)).toBe('0.03');
    expect(formatTick(500, 250)).toBe('500');
    expect(formatTick(3, 0)).toBe('3');
  });

  it('maps values linearly, including an inverted range (SVG y grows downwards)', () => {
    const y = scaleLinear([0, 20], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(5)).toBe(150);
    expect(y(20)).toBe(0);
    expect(scaleLinear([3, 3], [10, 90])(3)).toBe(10);
  });

  it('lays bars out in equal slots with a gap', () => {
    const b = bands(4, 0, 400, 0.25);
    expect(b.step).toBe(100);
    expect(b.width).toBe(75);
    expect(b.x(0)).toBe(12.5);
    expect(b.center(3)).toBe(350);
    expect(bands(0, 0, 400).step).toBe(0);
  });

  it('thins x labels to fit', () => {
    expect(labelEvery(7, 12)).toBe(1);
    expect(labelEvery(24, 12)).toBe(2);
    expect(labelEvery(90, 12)).toBe(8);
    expect(labelEvery(0, 12)).toBe(1);
  });

  it('stacks values bottom up, ignoring negatives', () => {
    expect(stack([2, 0, 3, -1])).toEqual([
      { y0: 0, y1: 2 },
      { y0: 2, y1: 2 },
      { y0: 2, y1: 5 },
      { y0: 5, y1: 5 },
    ]);
  });

  it('draws lines that break where a value is missing', () => {
    expect(linePath([{ x: 0, y: 10 }, { x: 10, y: 20 }, { x: 20, y: null }, { x: 30, y: 5 }, { x: 40, y: 6.04 }])).toBe('M0,10L10,20 M30,5L40,6');
    expect(linePath([{ x: 0, y: null }])).toBe('');
    expect(linePath([{ x: 1.26, y: 2 }])).toBe('M1.3,2');
  });

  it('finds the largest finite value', () => {
    expect(maxOf([null, 3, undefined, 7.5, Number.NaN, -2])).toBe(7.5);
    expect(maxOf([])).toBe(0);
  });
});
