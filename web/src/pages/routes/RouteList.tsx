/** Every route plan of the tenant, newest first, filtered by status (kept in the address), paginated. */
import { useCallback } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { ErrorBanner, Loading, PageHeader, Pagination, SelectField, StatusBadge, TableWrap } from '../../components/ui';
import { formatMinutes, summaryMinutes } from '../../lib/durations';
import { miles } from '../../lib/format';
import { inZone } from '../../lib/local-time';
import { useApi } from '../../lib/use-api';
import './routes.css';

const STATUSES = ['PLANNED', 'ACTIVE', 'COMPLETED', 'CANCELLED'] as const;
type Status = (typeof STATUSES)[number];
const PAGE_SIZE = 20;

export function RouteListPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const statusParam = params.get('status') ?? '';
  const status = (STATUSES as readonly string[]).includes(statusParam) ? (statusParam as Status) : undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const go = (next: { status?: string; page?: number }) => {
    const q = new URLSearchParams();
    const s = next.status ?? status ?? '';
    if (s) q.set('status', s);
    if ((next.page ?? 1) > 1) q.set('page', String(next.page));
    navigate(`/routes${q.size ? `?${q}` : ''}`);
  };

  const list = useApi(() => unwrap(api.GET('/api/v1/routes', { params: { query: { status, page, pageSize: PAGE_SIZE } } })), [status, page]);
  const { reload } = list;
  useRealtime('route:updated', useCallback(() => reload(), [reload]));
  const rows = list.data?.data ?? [];

  return (
    <section>
      <PageHeader
        title="Routes"
        actions={
          <Link href="/routes/new" className="btn btn-primary">
            Plan a route
          </Link>
        }
      />
      <div className="toolbar">
        <SelectField
          label="Status"
          value={status ?? ''}
          onChange={(e) => go({ status: e.target.value, page: 1 })}
          options={[{ value: '', label: 'All statuses' }, ...STATUSES.map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase() }))]}
        />
      </div>
      <ErrorBanner error={list.error} />
      {!list.data && !list.error ? (
        <Loading />
      ) : rows.length === 0 ? (
        <div className="card empty">
          <p>{status ? `No ${status.toLowerCase()} routes.` : 'No routes yet.'}</p>
          <p>
            <Link href="/routes/new">Plan a route</Link>: choose a driver and the stops, and the planner inserts the rests, breaks and fuel stops the trip needs.
          </p>
        </div>
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">Routes{status ? `, ${status.toLowerCase()}` : ''}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Driver</th>
                  <th scope="col">Vehicle</th>
                  <th scope="col">Status</th>
                  <th scope="col">Departure</th>
                  <th scope="col">Arrival</th>
                  <th scope="col">Distance</th>
                  <th scope="col">Driving</th>
                  <th scope="col">Rests · breaks · fuel</th>
                  <th scope="col">From → to</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Link href={`/routes/${r.id}`}>{r.driverName}</Link>
                      {r.coDriverName && <span className="muted small"> and {r.coDriverName} (team)</span>}
                    </td>
                    <td>{r.vehicleUnit ?? '—'}</td>
                    <td>
                      <StatusBadge value={r.status} />
                    </td>
                    <td>{inZone(r.departureTime, r.origin?.timeZone ?? undefined)}</td>
                    <td>{inZone(r.arrivalTime, r.destination?.timeZone ?? undefined)}</td>
                    <td>{miles(r.summary.totalDistanceMiles)}</td>
                    <td>{formatMinutes(summaryMinutes(r).drive)}</td>
                    <td>
                      {r.summary.restStops} · {r.summary.breaks} · {r.summary.fuelStops}
                    </td>
                    <td>
                      <Link href={`/routes/${r.id}`}>
                        {r.origin.name} → {r.destination.name}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <p className="muted small">Times in your time zone; each route’s page shows them in the local time of every stop.</p>
          <Pagination page={page} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onPage={(p) => go({ page: p })} />
        </>
      )}
    </section>
  );
}
