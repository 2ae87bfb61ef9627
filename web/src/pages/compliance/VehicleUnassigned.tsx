/** A vehicle's page: its unassigned driving, newest first, with the 24-hour flag and a way to resolve it. */
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { ErrorBanner, Loading } from '../../components/ui';
import { flaggedVehicles, flagSentence, unassignedHref } from '../../lib/unassigned';
import { useApi } from '../../lib/use-api';
import { UnassignedTable } from './UnassignedTable';

const SHOWN = 10;

export function VehicleUnassigned({ vehicleId }: { vehicleId: string }) {
  const list = useApi(() => unwrap(api.GET('/api/v1/unassigned-driving', { params: { query: { vehicleId, pageSize: SHOWN } } })), [vehicleId]);
  const flag = flaggedVehicles(list.data?.vehicles ?? [])[0];
  const open = list.data?.data.filter((s) => s.status === 'UNASSIGNED').length ?? 0;
  return (
    <section className="card vehicle-unassigned" aria-labelledby="unassigned-title" data-testid="vehicle-unassigned">
      <h2 id="unassigned-title">Unassigned driving</h2>
      <ErrorBanner error={list.error} />
      {!list.data ? (
        !list.error && <Loading label="Loading unassigned driving…" />
      ) : list.data.data.length === 0 ? (
        <p className="muted">No driving of this truck recorded without a driver logged in.</p>
      ) : (
        <>
          {flag && (
            <div className="banner banner-warning" role="status">
              {flagSentence(flag)}
            </div>
          )}
          <UnassignedTable caption="Unassigned driving of this truck" rows={list.data.data} showTruck={false} />
          <p className="muted">
            {list.data.total > list.data.data.length ? `The ${list.data.data.length} most recent of ${list.data.total} segments. ` : ''}
            {open > 0 ? 'Assign or annotate it on the ' : 'All of it on the '}
            <Link href={unassignedHref({ vehicleId })}>Unassigned driving page</Link>.
          </p>
        </>
      )}
    </section>
  );
}
