/**
 * The contract every applier shares (kept apart from index.ts, which imports the appliers: an applier
 * importing these from index.ts would close an import cycle).
 */

/** The integration a result came from. */
export interface ApplyTarget {
  tenantId: string;
  integrationId: string;
  vendor: string;
}

/** What applying changed, by name ("loadsCreated", "positionsAdded", …); stored as the sync's counts. */
export type ApplyCounts = Record<string, number>;
