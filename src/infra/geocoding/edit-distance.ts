/**
 * Damerau-Levenshtein distance (optimal string alignment: insertions, deletions, substitutions and
 * swaps of two neighbours, each costing 1), bounded: the answer is exact up to `max` and `max + 1` means
 * "further than max". The bound keeps a scan of every place name cheap: most names are rejected by
 * their length alone, and a row whose best cell passes the bound ends the comparison.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  // Three rows of the table, reused across calls (names are short; longer ones grow the buffers).
  if (rows[0]!.length <= n) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let [prevPrev, prev, row] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, prevPrev[j - 2]! + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [prevPrev, prev, row] = [prev, row, prevPrev];
  }
  return Math.min(prev[n]!, max + 1);
}

let rows: Int32Array[] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** How far a typed name may be from a real one to be offered: none under 4 letters, 1 up to 7, else 2. */
export function suggestionBound(key: string): number {
  const letters = key.replace(/ /g, '').length;
  return letters < 4 ? 0 : letters <= 7 ? 1 : 2;
}
