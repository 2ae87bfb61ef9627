/**
 * One route plan: what it adds up to, the map (path, stops, rests, breaks, fuel stops and, while
 * active, the truck), the stops with their ETAs in each stop's local time, the segment timeline with
 * the HOS clocks left after each segment, and the trip's HOS log grid (a team route: both drivers named,
 * each drive's driver, the driver changes, one log grid per driver). Activate, complete or cancel
 * from here; an active route is re-planned from here too (`?replan=1` opens the preview, as an alert's
 * "Re-plan from here" does), and a re-planned route lists its revisions. A route:updated event reloads it.
 */
import { useCallback, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { useRoleAtLeast } from '../../api/session';
import { UsMap } from '../../components/UsMap';
import { Button, Dialog, ErrorBanner, Field, Loading, Notice, PageHeader } from '../../components/ui';
import { humanize, relative } from '../../lib/format';
import { wantsReplan, type ReplanAnswer } from '../../lib/replan';
import { mergeLayers, planLayers, truckOf } from '../../lib/route-map';
import { driverNames } from '../../lib/team';
import { useApi, useInterval } from '../../lib/use-api';
import { ReplanPanel } from './ReplanPanel';
import { RouteLogs } from './RouteLogs';
import { RouteMeta } from './RouteMeta';
import { RouteRevisions } from './RouteRevisions';
import { RouteStops } from './RouteStops';
import { RouteSummary } from './RouteSummary';
import { RouteTimeline } from './RouteTimeline';
import './routes.css';

const POLL_MS = 10_000;

type Action = 'activate' | 'complete' | 'cancel';

export function RouteViewPage({ params }: { params: { planId: string } }) {
  const { planId } = params;
  const route = useApi(() => unwrap(api.GET('/api/v1/routes/{planId}', { params: { path: { planId } } })), [planId]);
  const plan = route.data;
  const related = useApi(async () => {
    if (!plan) return null;
    const person = (driverId: string) => unwrap(api.GET('/api/v1/drivers/{driverId}', { params: { path: { driverId } } })).catch(() => null);
    const [driver, coDriver, vehicle, load] = await Promise.all([
      person(plan.driverId),
      plan.coDriverId ? person(plan.coDriverId) : null,
      plan.vehicleId ? unwrap(api.GET('/api/v1/vehicles/{vehicleId}', { params: { path: { vehicleId: plan.vehicleId } } })).catch(() => null) : null,
      plan.loadId ? unwrap(api.GET('/api/v1/loads/{loadId}', { params: { path: { loadId: plan.loadId } } })).catch(() => null) : null,
    ]);
    return { driver, coDriver, vehicle, load };
  }, [plan?.driverId, plan?.coDriverId, plan?.vehicleId, plan?.loadId]);
  const active = plan?.status === 'ACTIVE';
  const position = useApi(
    () => (active ? unwrap(api.GET('/api/v1/routes/{planId}/positions', { params: { path: { planId }, query: { limit: 1 } } })).then((r) => r.data[0] ?? null) : Promise.resolve(null)),
    [planId, active],
  );
  const { reload: reloadPosition } = position;
  useInterval(() => active && reloadPosition(), POLL_MS);

  const { reload, setData } = route;
  useRealtime(
    'route:updated',
    useCallback((e: { planId?: string }) => e.planId === planId && reload(), [planId, reload]),
  );

  const [busy, setBusy] = useState<Action | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [confirm, setConfirm] = useState<'cancel' | 'complete' | null>(null);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const canWrite = useRoleAtLeast('DISPATCHER');
  const search = useSearch();
  const [, navigate] = useLocation();
  const [replanning, setReplanning] = useState(() => wantsReplan(search));
  const closeReplan = () => {
    setReplanning(false);
    if (wantsReplan(search)) navigate(`/routes/${planId}`, { replace: true });
  };
  const replanned = (answer: ReplanAnswer) => {
    setData(() => answer.route);
    setDone(`Re-planned: revision ${answer.route.revision} is now the route’s plan.`);
    closeReplan();
  };

  async function act(action: Action) {
    setBusy(action);
    setActionError(null);
    setDone(null);
    try {
      const path = { params: { path: { planId } } };
      const updated =
        action === 'cancel'
          ? await unwrap(api.POST('/api/v1/routes/{planId}/cancel', { ...path, body: reason.trim() ? { reason: reason.trim() } : {} }))
          : action === 'activate'
            ? await unwrap(api.POST('/api/v1/routes/{planId}/activate', { ...path, body: {} }))
            : await unwrap(api.POST('/api/v1/routes/{planId}/complete', { ...path, body: {} }));
      setData(() => updated);
      setDone(action === 'activate' ? 'Route activated: monitoring has started.' : action === 'complete' ? 'Route marked completed.' : 'Route cancelled.');
      setConfirm(null);
      setReason('');
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(null);
    }
  }

  const layers = useMemo(() => {
    if (!plan) return mergeLayers([]);
    const truck =
      position.data && active
        ? truckOf({ id: plan.id, driverName: related.data?.driver ? `${related.data.driver.firstName} ${related.data.driver.lastName}` : 'driver', vehicleUnit: related.data?.vehicle?.unitNumber ?? null, lastPosition: position.data })
        : null;
    return mergeLayers([planLayers(plan, { label: 'This route' }), truck ? { trucks: [truck] } : {}]);
  }, [plan, position.data, active, related.data]);

  if (route.error && !plan) {
    return (
      <section>
        <PageHeader title="Route" />
        <ErrorBanner error={route.error} />
        <p>
          <Link href="/routes">Back to the routes</Link>
        </p>
      </section>
    );
  }
  if (!plan) return <Loading label="Loading the route…" />;

  const first = plan.stops[0];
  const last = plan.stops[plan.stops.length - 1];
  const originZone = first?.timeZone ?? 'UTC';
  const names = driverNames(plan, related.data?.driver, related.data?.coDriver);
  const driverName = names[plan.driverId] ?? null;
  const title = first && last ? `${first.name} → ${last.name}` : 'Route';

  return (
    <section className="route-view">
      <PageHeader
        title={title}
        actions={
          <>
            {plan.status === 'PLANNED' && (
              <Button variant="primary" onClick={() => void act('activate')} busy={busy === 'activate'}>
                Activate route
              </Button>
            )}
            {active && canWrite && (
              <Button variant="primary" onClick={() => setReplanning(true)} disabled={replanning || busy !== null}>
                Re-plan from here
              </Button>
            )}
            {plan.status === 'ACTIVE' && (
              <Button onClick={() => setConfirm('complete')} disabled={busy !== null}>
                Mark completed
              </Button>
            )}
            {(plan.status === 'PLANNED' || plan.status === 'ACTIVE') && (
              <Button variant="danger" onClick={() => setConfirm('cancel')} disabled={busy !== null}>
                Cancel route
              </Button>
            )}
          </>
        }
      >
        <RouteMeta plan={plan} driverName={driverName} coDriverName={plan.coDriverId ? names[plan.coDriverId] : null} vehicleUnit={related.data?.vehicle?.unitNumber} loadReference={related.data?.load?.referenceNumber} />
      </PageHeader>
      <ErrorBanner error={confirm ? route.error : (actionError ?? route.error)} />
      {done && <Notice tone="success">{done}</Notice>}
      {plan.status === 'CANCELLED' && (
        <Notice tone="warning">
          Cancelled {relative(plan.cancelledAt)}
          {plan.cancelReason ? `: ${plan.cancelReason}` : '.'}
        </Notice>
      )}
      {plan.status === 'COMPLETED' && <Notice tone="info">Completed {relative(plan.completedAt)}.</Notice>}
      {replanning && canWrite && (active ? <ReplanPanel planId={planId} onApplied={replanned} onClose={closeReplan} /> : <Notice tone="warning">Only an active route can be re-planned; this one is {humanize(plan.status).toLowerCase()}.</Notice>)}
      {plan.warnings.length > 0 && (
        <div className="banner banner-warning" role="status">
          <strong>Warnings</strong>
          <ul>
            {plan.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}

      <div className="card">
        <h2>Summary</h2>
        <RouteSummary plan={plan} />
      </div>

      <RouteRevisions planId={planId} revision={plan.revision} arrivalZone={last?.timeZone} />

      <div className="card">
        <h2>Map</h2>
        <UsMap layers={layers} title={`Route ${title}`} showRouteLegend={false} fit="content" />
        {active && <p className="muted small">{position.data ? `Last position reported ${relative(position.data.recordedAt)}.` : 'No position reported yet.'}</p>}
      </div>

      <div className="card">
        <h2>Stops</h2>
        <RouteStops stops={plan.stops} />
      </div>

      <div className="card">
        <h2>Timeline</h2>
        <p className="muted small">
          Each time is the local time where the segment starts or ends. The clocks are what is left after the segment{plan.coDriverId ? ' to the driver at the wheel (after a driver change, the one taking it)' : ''}.
        </p>
        <RouteTimeline segments={plan.segments} names={names} departureTime={plan.departureTime} />
      </div>

      <RouteLogs plan={plan} names={names} timeZone={originZone} />

      <Dialog open={confirm === 'cancel'} title="Cancel this route?" onClose={() => setConfirm(null)}>
        <p>
          {plan.status === 'ACTIVE' ? 'Monitoring stops and the driver is no longer on this route.' : 'The plan is kept but can no longer be activated.'} This cannot be undone.
        </p>
        <Field label="Reason (optional)" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
        <ErrorBanner error={actionError} />
        <div className="form-actions">
          <Button variant="danger" onClick={() => void act('cancel')} busy={busy === 'cancel'}>
            Yes, cancel the route
          </Button>
          <Button onClick={() => setConfirm(null)}>Keep the route</Button>
        </div>
      </Dialog>
      <Dialog open={confirm === 'complete'} title="Mark this route completed?" onClose={() => setConfirm(null)}>
        <p>Monitoring stops{plan.loadId ? ' and the load is marked delivered' : ''}.</p>
        <ErrorBanner error={actionError} />
        <div className="form-actions">
          <Button variant="primary" onClick={() => void act('complete')} busy={busy === 'complete'}>
            Yes, mark completed
          </Button>
          <Button onClick={() => setConfirm(null)}>Not yet</Button>
        </div>
      </Dialog>
    </section>
  );
}
