/** Config checks every vendor adapter shares. */

/**
 * The optional `syncIntervalMinutes` of a vendor's config: absent, or an integer in [min, max]. Returns the
 * problem to report (naming the field, never a value), or null. `why` explains a vendor's lower bound.
 */
export function syncIntervalProblem(config: Record<string, unknown>, min: number, max = 1440, why?: string): string | null {
  const interval = config.syncIntervalMinutes;
  if (interval === undefined) return null;
  if (typeof interval === 'number' && Number.isInteger(interval) && interval >= min && interval <= max) return null;
  return `syncIntervalMinutes: an integer from ${min} to ${max}${why ? ` (${why})` : ''}`;
}
