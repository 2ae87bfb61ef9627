/** A whole-number setting from the environment, within bounds; a bad value stops the run with one line naming it. */
export function intEnv(name: string, def: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
    process.exit(2);
  }
  return n;
}
