/**
 * The fleet overview a dispatcher keeps open: every ACTIVE route on the US map (path, stops, rests,
 * breaks, fuel stops) with each truck at its last reported position, and beside it the list of active
 * routes with the next stop and its ETA. Live: a route:updated event reloads at once, and the list (which
 * carries each route's last position) is polled every 10 seconds.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../api/client';
import { useRealtime } from '../api/realtime';
import { routeColour, UsMap } from '../components/UsMap';
import { ErrorBanner, Loading, PageHeader, StatusBadge } from '../components/ui';
import { miles, relative } from '../lib/format';
import { inZone } from '../lib/local-time';
import { isReporting, mergeLayers, nextStop, planLayers, truckOf, type RouteListItem, type RoutePlan } from '../lib/route-map';
import { useApi, useInterval } from '../lib/use-api';
import './routes/routes.css';

const POLL_MS = 10_000;
/** The overview shows up to this many active routes (the API's largest page). */
const MAX_ROUTES = 100;

/** The full plans (segments) of the listed routes, fetched once each and again when told they changed. */
function usePlans(ids: readonly string[]) {
  const [plans, setPlans] = useState<Record<string, RoutePlan>>({});
  const [failed, setFailed] = useState<string | null>(null);
  const inFlight = useRef(new Set<string>());
  const fetchPlan = useCallback((id: string) => {
    if (inFlight.current.has(id)) return;
    inFlight.current.add(id);
    unwrap(api.GET('/api/v1/routes/{planId}', { params: { path: { planId: id } } }))
      .then((p) => {
        setPlans((prev) => ({ ...prev, [id]: p }));
        setFailed(null);
      })
      .catch((e: unknown) => setFailed(e instanceof Error ? e.message : String(e)))
      .finally(() => inFlight.current.delete(id));
  }, []);
  const key = ids.join(',');
  useEffect(() => {
    for (const id of ids) if (!plans[id]) fetchPlan(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, fetchPlan]);
  return { plans, refetch: fetchPlan, failed };
}

function Stat({ label, value, children }: { label: string; value: number | string; children?: ReactNode }) {
  return (
    <div className="stat card">
      <div className="stat-value">{value}</div>
      <div className="stat-label">{label}</div>
      {children}
    </div>
  );
}

function ActiveRouteItem({ route, plan, colour, now }: { route: RouteListItem; plan: RoutePlan | undefined; colour: number; now: number }) {
  const next = plan ? nextStop(plan.stops, now) : null;
  const last = plan?.stops[plan.stops.length - 1];
  return (
    <li className="active-route">
      <div className="active-route-head">
        <span className="route-swatch" style={{ background: routeColour(colour) }} aria-hidden="true" />
        <Link href={`/routes/${route.id}`} className="active-route-name">
          {route.driverName}
        </Link>
        <StatusBadge value={route.status} />
      </div>
      <dl className="active-route-facts">
        <div>
          <dt>Vehicle</dt>
          <dd>{route.vehicleUnit ?? 'None assigned'}</dd>
        </div>
        <div>
          <dt>Next stop</dt>
          <dd>{!plan ? '…' : next ? `${next.name} (${next.type.toLowerCase()})` : last ? `${last.name} (final stop; planned arrival passed)` : '—'}</dd>
        </div>
        <div>
          <dt>ETA</dt>
          <dd>{!plan ? '…' : inZone((next ?? last)?.arrivalTime, (next ?? last)?.timeZone)}</dd>
        </div>
        <div>
          <dt>Arrival at the end</dt>
          <dd>{inZone(route.arrivalTime, last?.timeZone)}</dd>
        </div>
        <div>
          <dt>Last position</dt>
          <dd>{route.lastPosition ? `${relative(route.lastPosition.recordedAt, now)}${route.lastPosition.speedMph !== null ? ` · ${Math.round(route.lastPosition.speedMph)} mph` : ''}` : 'No report yet'}</dd>
        </div>
        <div>
          <dt>Distance</dt>
          <dd>{miles(route.summary.totalDistanceMiles)}</dd>
        </div>
      </dl>
    </li>
  );
}

export function OverviewPage() {
  const active = useApi(() => unwrap(api.GET('/api/v1/routes', { params: { query: { status: 'ACTIVE', pageSize: MAX_ROUTES } } })), []);
  const planned = useApi(() => unwrap(api.GET('/api/v1/routes', { params: { query: { status: 'PLANNED', pageSize: 1 } } })), []);
  const routes = useMemo(() => active.data?.data ?? [], [active.data]);
  const { plans, refetch, failed } = usePlans(routes.map((r) => r.id));
  const [now, setNow] = useState(() => Date.now());

  const { reload: reloadActive } = active;
  const { reload: reloadPlanned } = planned;
  useInterval(() => {
    setNow(Date.now());
    reloadActive();
  }, POLL_MS);
  const onRouteUpdated = useCallback(
    (e: { planId?: string }) => {
      reloadActive();
      reloadPlanned();
      if (e.planId) refetch(e.planId);
    },
    [reloadActive, reloadPlanned, refetch],
  );
  useRealtime('route:updated', onRouteUpdated);

  const layers = useMemo(
    () =>
      mergeLayers(
        routes.flatMap((r, i) => {
          const plan = plans[r.id];
          const truck = truckOf(r);
          return [plan ? planLayers(plan, { label: r.driverName, colour: i }) : {}, truck ? { trucks: [truck] } : {}];
        }),
      ),
    [routes, plans],
  );
  const reporting = routes.filter((r) => isReporting(r.lastPosition, now)).length;
  const total = active.data?.total ?? 0;

  return (
    <section className="overview">
      <PageHeader
        title="Fleet overview"
        actions={
          <Link href="/routes/new" className="btn btn-primary">
            Plan a route
          </Link>
        }
      >
        <p className="muted">Active routes and trucks, updated live.</p>
      </PageHeader>
      <ErrorBanner error={active.error ?? failed} />
      <div className="stats" aria-label="Fleet counts" role="group">
        <Stat label="Active routes" value={active.data ? total : '…'} />
        <Stat label="Trucks reporting (last 30 min)" value={active.data ? `${reporting} of ${routes.length}` : '…'} />
        <Stat label="Planned, not started" value={planned.data ? planned.data.total : '…'}>
          {planned.data && planned.data.total > 0 && <Link href="/routes?status=PLANNED">See planned routes</Link>}
        </Stat>
      </div>
      <div className="overview-grid">
        <div className="card overview-map">
          <UsMap layers={layers} title="Active routes" showRouteLegend={false} />
        </div>
        <div className="card overview-list">
          <h2>Active routes</h2>
          {!active.data && !active.error ? (
            <Loading />
          ) : routes.length === 0 ? (
            <div className="empty">
              <p>No route is active right now.</p>
              <p>
                <Link href="/routes/new">Plan a route</Link> and activate it to follow it here, or see <Link href="/routes">all routes</Link>.
              </p>
            </div>
          ) : (
            <>
              <ul className="active-routes" aria-label="Active routes">
                {routes.map((r, i) => (
                  <ActiveRouteItem key={r.id} route={r} plan={plans[r.id]} colour={i} now={now} />
                ))}
              </ul>
              {total > routes.length && (
                <p className="muted">
                  Showing {routes.length} of {total}. <Link href="/routes?status=ACTIVE">All active routes</Link>
                </p>
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
