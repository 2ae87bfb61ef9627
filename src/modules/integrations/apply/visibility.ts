/**
 * A visibility provider's shipments applied to the tenant's active routes: each shipment is matched to
 * an ACTIVE route through its load (the load's reference number, case-insensitive, or its external id
 * equal to one of the shipment's references), and the route gets ONE `route_signals` row of kind ETA
 * from this integration:
 *
 *   { "predictions": [{ "stopIndex": n, "predictedArrival": ISO, "at": ISO }], "exceptions": [codes] }
 *
 * stopIndex is the index into the route's stops (the provider's 1-based stopNumber − 1; stops the route
 * does not have are dropped); `at` is when the provider computed the estimate. A row is written only when
 * its data changed (observed_at = the sync's time), so a repeated sync touches nothing; the rows of
 * routes no shipment matches any more are removed. Monitoring turns these rows into ETA predictions.
 */
import type { VisibilityShipment, VisibilitySyncResult } from '../../../adapters/integrations/port.js';
import type { Tx } from '../../../db/types.js';
import type { ApplyCounts, ApplyTarget } from './types.js';

export interface EtaSignalData {
  predictions: { stopIndex: number; predictedArrival: string; at: string }[];
  exceptions: string[];
}

interface ActiveRoute {
  id: string;
  stopCount: number;
}

const canonicalIso = (value: string | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
};

/** JSON with object keys sorted: jsonb does not keep key order, so compare through this. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The ETA row's data for a shipment on a route with `stopCount` stops. */
export function etaData(shipment: VisibilityShipment, stopCount: number, now: Date): EtaSignalData {
  const predictions = shipment.stops.flatMap((s) => {
    const stopIndex = s.stopNumber - 1;
    const predictedArrival = canonicalIso(s.predictedArrival);
    if (!Number.isInteger(stopIndex) || stopIndex < 0 || stopIndex >= stopCount || predictedArrival === null) return [];
    const at = canonicalIso(s.estimatedAt) ?? canonicalIso(shipment.status?.at) ?? now.toISOString();
    return [{ stopIndex, predictedArrival, at }];
  });
  predictions.sort((a, b) => a.stopIndex - b.stopIndex);
  return { predictions, exceptions: [...new Set(shipment.exceptions)].sort() };
}

async function activeRoutes(tx: Tx, tenantId: string): Promise<{ byReference: Map<string, ActiveRoute>; byExternalId: Map<string, ActiveRoute> }> {
  const { rows } = await tx.query<{ id: string; stop_count: number | string; reference_number: string; external_id: string | null }>(
    `SELECT r.id, json_array_length(r.stops) AS stop_count, l.reference_number, l.external_id
       FROM route_plans r JOIN loads l ON l.tenant_id = r.tenant_id AND l.id = r.load_id
      WHERE r.tenant_id = $1 AND r.status = 'ACTIVE'
      ORDER BY r.activated_at DESC NULLS LAST, r.id`,
    [tenantId],
  );
  const byReference = new Map<string, ActiveRoute>();
  const byExternalId = new Map<string, ActiveRoute>();
  for (const r of rows) {
    const route = { id: r.id, stopCount: Number(r.stop_count) };
    const ref = r.reference_number.toUpperCase();
    if (!byReference.has(ref)) byReference.set(ref, route);
    if (r.external_id !== null && !byExternalId.has(r.external_id)) byExternalId.set(r.external_id, route);
  }
  return { byReference, byExternalId };
}

export async function applyVisibility(tx: Tx, target: ApplyTarget, result: VisibilitySyncResult, now: Date): Promise<ApplyCounts> {
  const { tenantId, integrationId, vendor } = target;
  const routes = await activeRoutes(tx, tenantId);
  const existing = await tx.query<{ route_id: string; data: unknown }>(
    `SELECT route_id, data FROM route_signals WHERE tenant_id = $1 AND integration_id = $2 AND kind = 'ETA'`,
    [tenantId, integrationId],
  );
  const stored = new Map(existing.rows.map((r) => [r.route_id, canonicalJson(typeof r.data === 'string' ? JSON.parse(r.data) : r.data)]));

  const counts = { shipmentsMatched: 0, shipmentsUnmatched: 0, etaUpdated: 0, etaUnchanged: 0, etaRemoved: 0 };
  const matched = new Set<string>();
  for (const shipment of result.shipments) {
    const references = [shipment.referenceNumber, ...(shipment.identifiers ?? [])].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    let route: ActiveRoute | undefined;
    for (const ref of references) {
      route = routes.byReference.get(ref.trim().toUpperCase()) ?? routes.byExternalId.get(ref.trim());
      if (route) break;
    }
    // No active route for it, or the route already has its shipment (the first one listed wins).
    if (!route || matched.has(route.id)) {
      counts.shipmentsUnmatched += 1;
      continue;
    }
    matched.add(route.id);
    counts.shipmentsMatched += 1;
    const data = etaData(shipment, route.stopCount, now);
    const json = canonicalJson(data);
    if (stored.get(route.id) === json) {
      counts.etaUnchanged += 1;
      continue;
    }
    await tx.query(
      `INSERT INTO route_signals (tenant_id, route_id, integration_id, kind, source, data, observed_at)
       VALUES ($1, $2, $3, 'ETA', $4, $5::jsonb, $6)
       ON CONFLICT (tenant_id, route_id, integration_id, kind)
       DO UPDATE SET source = EXCLUDED.source, data = EXCLUDED.data, observed_at = EXCLUDED.observed_at`,
      [tenantId, route.id, integrationId, vendor, JSON.stringify(data), now],
    );
    counts.etaUpdated += 1;
  }
  for (const routeId of stored.keys()) {
    if (matched.has(routeId)) continue;
    await tx.query(`DELETE FROM route_signals WHERE tenant_id = $1 AND route_id = $2 AND integration_id = $3 AND kind = 'ETA'`, [tenantId, routeId, integrationId]);
    counts.etaRemoved += 1;
  }
  return counts;
}
