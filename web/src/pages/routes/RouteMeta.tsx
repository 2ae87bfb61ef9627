/** The line under a route's title: status, revision (once re-planned), driver (a team's two), vehicle, load — by name, never by id. */
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
      <StatusBadge value={plan.status} />
      {plan.revision > 1 && (
        <>
          {' '}
          · <span data-testid="route-revision-number">Revision {plan.revision}</span>
        </>
      )}{' '}
      ·{' '}
      {plan.coDriverId ? (
        <span className="route-drivers" data-testid="route-drivers">
          Drivers: <Link href={`/drivers/${plan.driverId}`}>{driverName ?? '…'}</Link> and <Link href={`/drivers/${plan.coDriverId}`}>{coDriverName ?? '…'}</Link> (team)
        </span>
      ) : (
        <>
          Driver <Link href={`/drivers/${plan.driverId}`}>{driverName ?? '…'}</Link>
        </>
      )}
      {plan.vehicleId && (
        <>
          {' '}
          · Vehicle <Link href={`/vehicles/${plan.vehicleId}`}>{vehicleUnit ?? '…'}</Link>
        </>
      )}
      {plan.loadId && (
        <>
          {' '}
          · Load <Link href={`/loads/${plan.loadId}`}>{loadReference ?? '…'}</Link>
        </>
      )}
    </p>
  );
}
