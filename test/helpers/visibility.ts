import { apiCall, type IntegrationHarness } from './integrations.js';
import { createDriver } from './factories.js';

/**
 * A load with this reference number, a new driver, and a route for them over `stops` carrying the
 * load, planned and activated through the API (what a visibility provider's shipment is matched to).
 */
export async function activeRouteForLoad(h: IntegrationHarness, referenceNumber: string, stops: unknown[], departureTime: string): Promise<{ routeId: string; loadId: string; driverId: string }> {
  const load = await apiCall(h, 'POST', '/api/v1/loads', { referenceNumber });
  const driver = await createDriver(h.t.app, h.auth);
  const plan = await apiCall(h, 'POST', '/api/v1/routes/plan', {
    driverId: driver.id,
    loadId: load.id,
    departureTime,
    stops,
    driverState: { hoursDriven: 0, onDutyHours: 0, hoursSinceBreak: 0, cycleHoursUsed: 0 },
  });
  await apiCall(h, 'POST', `/api/v1/routes/${plan.id as string}/activate`);
  return { routeId: plan.id as string, loadId: load.id as string, driverId: driver.id };
}

/** Dallas → Houston with a delivery appointment window [earliest, latest] (ISO). */
export function dallasHoustonStops(earliest: string, latest: string): unknown[] {
  return [
    { name: 'Dallas Shipper', latitude: 32.7767, longitude: -96.797, type: 'ORIGIN' },
    { name: 'Houston Receiver', latitude: 29.7604, longitude: -95.3698, type: 'DELIVERY', dockDurationHours: 1, appointment: { earliest, latest } },
  ];
}
