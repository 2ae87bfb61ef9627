/** The line under a route's title: status, id, revision (once re-planned), driver (a team's two), vehicle, load. */
import { Link } from 'wouter';
import { StatusBadge } from '../../components/ui';
import type { RoutePlan } from '../../lib/route-map';

export function RouteMeta({
  plan,
  driverName,
  coDriverName,
  vehicleUnit,
  loadReference,
}: {
  plan: RoutePlan;
  driverName: string | null;
  coDriverName?: string | null;
  vehicleUnit?: string;
  loadReference?: string;
}) {
  return (
    <p className="route-meta">
      <StatusBadge value={plan.status} /> <span className="muted">Route</span> <code>{plan.id}</code>
      {plan.revision > 1 && (
        <>
          {' '}
          · <span data-testid="route-revision-number">Revision {plan.revision}</span>
        </>
      )}{' '}
      ·{' '}
      {plan.coDriverId ? (
        <span className="route-drivers" data-testid="route-drivers">
          Drivers: <Link href={`/drivers/${plan.driverId}`}>{driverName ?? plan.driverId}</Link> and <Link href={`/drivers/${plan.coDriverId}`}>{coDriverName ?? plan.coDriverId}</Link> (team)
        </span>
      ) : (
        <>
          Driver <Link href={`/drivers/${plan.driverId}`}>{driverName ?? plan.driverId}</Link>
        </>
      )}
      {plan.vehicleId && (
        <>
          {' '}
          · Vehicle <Link href={`/vehicles/${plan.vehicleId}`}>{vehicleUnit ?? plan.vehicleId}</Link>
        </>
      )}
      {plan.loadId && (
        <>
          {' '}
          · Load <Link href={`/loads/${plan.loadId}`}>{loadReference ?? plan.loadId}</Link>
        </>
      )}
    </p>
  );
}
