import type { WeatherSyncResult } from '../../../adapters/integrations/port.js';
import type { Tx } from '../../../db/types.js';
import type { ApplyCounts, ApplyTarget } from './index.js';

/** Not applied yet: the records are counted only (replaced when this kind's applier lands). */
export async function applyWeather(_tx: Tx, _target: ApplyTarget, result: WeatherSyncResult, _now: Date): Promise<ApplyCounts> {
  return { received: Object.values(result).filter(Array.isArray).reduce((n, a) => n + (a as unknown[]).length, 0) };
}
