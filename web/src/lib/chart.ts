/**
 * The arithmetic of the SVG charts (no chart library): round axis ticks, linear scales, bar bands,
 * stacks, line paths with gaps, and which x labels fit. Pure (tested in chart.test.ts).
 */

/** The round step (1, 2, 2.5 or 5 × 10ⁿ) closest above `rough`. */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * Ticks from 0 to a round maximum at or above `maxValue`, about `target` intervals. With `integer`
 * (counts) the step is a whole number. An empty or zero range still gets an axis (0 to 1, or 0 to `target`).
 */
export function niceTicks(maxValue: number, target = 5, integer = false): { max: number; ticks: number[] } {
  const top = Number.isFinite(maxValue) && maxValue > 0 ? maxValue : integer ? target : 1;
  let step = niceStep(top / Math.max(1, target));
  if (integer) step = Math.max(1, Math.ceil(step));
  const max = Math.ceil(top / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; i * step <= max + step / 1e6; i++) ticks.push(Number((i * step).toPrecision(12)));
  return { max, ticks };
}

/** A tick value with as many decimals as the step needs (step 0.25 → "0.75", step 5 → "15"). */
export function formatTick(value: number, step: number): string {
  if (!(step > 0) || !Number.isFinite(step)) return value.toFixed(0);
  const power = Math.floor(Math.log10(step) + 1e-9);
  const extra = Math.abs(step / 10 ** power - 2.5) < 1e-9 ? 1 : 0;
  return value.toFixed(Math.min(4, Math.max(0, extra - power)));
}

/** A linear map from [d0, d1] to [r0, r1] (a zero-width domain maps to r0). */
export function scaleLinear([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): (v: number) => number {
  const span = d1 - d0;
  return (v) => (span === 0 ? r0 : r0 + ((v - d0) / span) * (r1 - r0));
}

/** `n` bars across [start, end]: each slot `step` wide, the bar `width` (the rest is the gap). */
export function bands(n: number, start: number, end: number, gapRatio = 0.25): { step: number; width: number; x: (i: number) => number; center: (i: number) => number } {
  const step = n > 0 ? (end - start) / n : 0;
  const width = Math.max(1, step * (1 - gapRatio));
  return { step, width, x: (i) => start + i * step + (step - width) / 2, center: (i) => start + i * step + step / 2 };
}

/** Show every k-th x label so that at most `maxLabels` appear (k ≥ 1). */
export function labelEvery(n: number, maxLabels: number): number {
  if (n <= 0 || maxLabels <= 0) return 1;
  return Math.max(1, Math.ceil(n / maxLabels));
}

/** Stacked segments of one bar, bottom up: each value from y0 to y1 (in value units). */
export function stack(values: readonly number[]): Array<{ y0: number; y1: number }> {
  let sum = 0;
  return values.map((v) => {
    const y0 = sum;
    sum += Math.max(0, v);
    return { y0, y1: sum };
  });
}

/** An SVG path through the points; a null y breaks the line (a new M after the gap). */
export function linePath(points: ReadonlyArray<{ x: number; y: number | null }>): string {
  let d = '';
  let pen = false;
  for (const p of points) {
    if (p.y === null || !Number.isFinite(p.y)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : d ? ' M' : 'M'}${round(p.x)},${round(p.y)}`;
    pen = true;
  }
  return d;
}

const round = (v: number) => Math.round(v * 10) / 10;

/** The largest finite number among the values (0 when none). */
export function maxOf(values: ReadonlyArray<number | null | undefined>): number {
  let m = 0;
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v) && v > m) m = v;
  return m;
}
