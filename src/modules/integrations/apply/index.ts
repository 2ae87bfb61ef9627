/**
 * Applying a sync's result to the tenant's data (issue 9): each kind of result has its own applier, run
 * in the transaction that records the sync's success, so a sync's data and its status land together.
 * Every applier is idempotent: applying the same result twice changes nothing the second time, and its
 * counts say so (`created` / `updated` / `unchanged` of each record kind).
 */
import type { SyncResult } from '../../../adapters/integrations/port.js';
import type { Tx } from '../../../db/types.js';
import type { ApplyCounts, ApplyTarget } from './types.js';
import { applyEld } from './eld.js';
import { applyFuel } from './fuel.js';
import { applyLoads } from './loads.js';
import { applyVisibility } from './visibility.js';
import { applyWeather } from './weather.js';

export type { ApplyCounts, ApplyTarget } from './types.js';

export async function applySyncResult(tx: Tx, target: ApplyTarget, result: SyncResult, now: Date): Promise<ApplyCounts> {
  switch (result.kind) {
    case 'ELD':
      return applyEld(tx, target, result, now);
    case 'TMS_LOADS':
      return applyLoads(tx, target, result, now);
    case 'VISIBILITY':
      return applyVisibility(tx, target, result, now);
    case 'FUEL':
      return applyFuel(tx, target, result, now);
    case 'WEATHER':
      return applyWeather(tx, target, result, now);
  }
}
