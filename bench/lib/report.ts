/** Number formatting and plain-text tables for the benchmark's output. */

export function fmt(n: number | undefined, digits = 0): string {
  if (n === undefined || !Number.isFinite(n)) return 'n/a';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * autocannon's latency histogram counts whole milliseconds (truncated): 0 means under 1 ms. A median of
 * an even number of rounds can end in .5, shown as such (so that 19.5 is not printed as 20 and met).
 */
export const ms = (v: number | undefined) => (v === undefined ? '—' : v < 1 ? '<1' : fmt(v, Number.isInteger(v) ? 0 : 1));

/** Columns left-aligned up to `leftColumns`, right-aligned after; a rule under the header. */
export function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((v, i) => (i < leftColumns ? v.padEnd(widths[i]!) : v.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
