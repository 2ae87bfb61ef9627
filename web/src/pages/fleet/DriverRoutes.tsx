/** A driver's most recent routes, as a table linking to each. */
import { Link } from 'wouter';
import { api, unwrap, type Ok } from '../../api/client';
import { ErrorBanner, Loading, StatusBadge } from '../../components/ui';
import { formatMinutes, summaryMinutes } from '../../lib/durations';
import { dateTime, miles } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { RecordTable, type Column } from './common';

type RouteRow = Ok<'/api/v1/routes'>['data'][number];

const ROUTE_COLUMNS: Array<Column<RouteRow>> = [
  { header: 'Route', cell: (r) => <Link href={`/routes/${r.id}`}>{`${r.origin?.name ?? 'Route'} → ${r.destination?.name ?? ''}`}</Link> },
  { header: 'Status', cell: (r) => <StatusBadge value={r.status} /> },
  { header: 'Departure', cell: (r) => dateTime(r.departureTime, r.origin?.timeZone ?? undefined) },
  { header: 'Arrival', cell: (r) => dateTime(r.arrivalTime, r.destination?.timeZone ?? undefined) },
  { header: 'Distance', cell: (r) => miles(r.summary.totalDistanceMiles), className: 'num' },
  { header: 'Driving', cell: (r) => formatMinutes(summaryMinutes(r).drive), className: 'num' },
  { header: 'Rests', cell: (r) => r.summary.restStops, className: 'num' },
];

export function DriverRoutes({ driverId }: { driverId: string }) {
  const routes = useApi(() => unwrap(api.GET('/api/v1/routes', { params: { query: { driverId, pageSize: 20 } } })), [driverId]);
  return (
    <section className="card" aria-labelledby="routes-title">
      <h2 id="routes-title">Routes</h2>
      <ErrorBanner error={routes.error} />
      {!routes.data ? (
        !routes.error && <Loading label="Loading routes…" />
      ) : routes.data.data.length === 0 ? (
        <p className="muted">
          No routes for this driver yet. <Link href="/routes/new">Plan a route</Link>
        </p>
      ) : (
        <>
          <div className="fleet-table">
            <RecordTable caption="Routes of this driver" columns={ROUTE_COLUMNS} rows={routes.data.data} />
          </div>
          {routes.data.total > routes.data.data.length && (
            <p className="muted">
              The {routes.data.data.length} most recent of {routes.data.total} routes.
            </p>
          )}
        </>
      )}
    </section>
  );
}
