/**
 * One route plan: what it adds up to, the map (path, stops, rests, breaks, fuel stops and, while
 * active, the truck), the stops with their ETAs in each stop's local time, the segment timeline with
 * the HOS clocks left after each segment, and the trip's HOS log grid. Activate, complete or cancel
 * from here; a route:updated event reloads it.
 */
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { LogGrid } from '../../components/LogGrid';
import { UsMap } from '../../components/UsMap';
import { Button, Dialog, ErrorBanner, Facts, Field, Loading, Notice, PageHeader, StatusBadge, TableWrap } from '../../components/ui';
import { planDutyChanges } from '../../lib/duty';
import { hoursMinutes, miles, money, relative } from '../../lib/format';
import { inZone } from '../../lib/local-time';
import { mergeLayers, planLayers, restName, truckOf, type RoutePlan, type Segment } from '../../lib/route-map';
import { useApi, useInterval } from '../../lib/use-api';
import './routes.css';

const POLL_MS = 10_000;

function segmentKind(s: Segment): string {
  switch (s.type) {
    case 'drive':
      return 'Drive';
    case 'rest':
      return restName(s);
    case 'dock':
      return `${s.stop_type.charAt(0)}${s.stop_type.slice(1).toLowerCase()} at the dock`;
    case 'fuel':
      return 'Fuel';
    case 'wait':
      return 'Wait';
  }
}

function segmentPlace(s: Segment): string {
  if (s.type === 'drive') return `${s.from.name} → ${s.to.name}`;
  return s.location;
}

/** A planner's reason: its first sentence, the explanation behind a disclosure. */
function Reason({ text }: { text: string }) {
  const cut = text.search(/\.\s/);
  if (cut < 0) return <>{text}</>;
  return (
    <details>
      <summary>{text.slice(0, cut + 1)}</summary>
      <p>{text.slice(cut + 1).trim()}</p>
    </details>
  );
}

function segmentNote(s: Segment): ReactNode {
  switch (s.type) {
    case 'drive':
      return miles(s.distance_miles);
    case 'rest':
      return <Reason text={s.reason} />;
    case 'fuel':
      return `${Math.round(s.gallons)} gal at ${money(s.price_per_gallon)} = ${money(s.cost)}`;
    case 'wait':
      return <Reason text={s.reason} />;
    case 'dock':
      return s.appointment?.earliest || s.appointment?.latest ? 'Appointment' : '';
  }
}

const startZone = (s: Segment) => (s.type === 'drive' ? s.from.time_zone : s.time_zone);
const endZone = (s: Segment) => (s.type === 'drive' ? s.to.time_zone : s.time_zone);

function Timeline({ segments }: { segments: RoutePlan['segments'] }) {
  return (
    <TableWrap>
      <table className="timeline">
        <caption className="visually-hidden">Segments of the trip, in order, with the HOS clocks left after each</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Segment</th>
            <th scope="col">Where</th>
            <th scope="col">Start (local)</th>
            <th scope="col">End (local)</th>
            <th scope="col">Duration</th>
            <th scope="col">Details</th>
            <th scope="col" title="Driving time left after the segment">
              Drive left
            </th>
            <th scope="col" title="Time left in the 14-hour on-duty window after the segment">
              Window left
            </th>
            <th scope="col" title="Time left in the 60/70-hour cycle after the segment">
              Cycle left
            </th>
            <th scope="col" title="Driving time before a 30-minute break is due">
              Break due in
            </th>
          </tr>
        </thead>
        <tbody>
          {segments.map((s) => {
            const h = s.hos_state_after;
            return (
              <tr key={s.sequence} className={`seg seg-${s.type}${s.type === 'rest' ? ` seg-${s.rest_type}` : ''}`} data-testid={`segment-${s.type}`}>
                <td>{s.sequence}</td>
                <th scope="row" className="seg-kind">
                  {segmentKind(s)}
                </th>
                <td>{segmentPlace(s)}</td>
                <td>{inZone(s.start_time, startZone(s))}</td>
                <td>{inZone(s.end_time, endZone(s))}</td>
                <td>{hoursMinutes(s.duration_hours)}</td>
                <td>{segmentNote(s)}</td>
                <td>{hoursMinutes(h.drive_hours_remaining)}</td>
                <td>{hoursMinutes(h.duty_hours_remaining)}</td>
                <td>{hoursMinutes(h.cycle_hours_remaining)}</td>
                <td>{hoursMinutes(Math.max(0, 8 - h.hours_since_break))}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

function Stops({ stops }: { stops: RoutePlan['stops'] }) {
  return (
    <TableWrap>
      <table>
        <caption className="visually-hidden">Stops with their arrival and departure in each stop’s local time</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Stop</th>
            <th scope="col">Type</th>
            <th scope="col">Appointment (local)</th>
            <th scope="col">Arrival (local)</th>
            <th scope="col">Departure (local)</th>
            <th scope="col">Time zone</th>
            <th scope="col">Window</th>
          </tr>
        </thead>
        <tbody>
          {stops.map((s, i) => (
            <tr key={s.sequence} data-testid="route-stop">
              <td>{i + 1}</td>
              <th scope="row">
                {s.name}
                {s.resolution?.matched && s.resolution.matched !== s.name && <div className="muted small">Placed at {s.resolution.matched}</div>}
                {s.resolution && <div className="muted small">{s.resolution.precision === 'COORDINATES' ? 'By coordinates' : s.resolution.precision === 'ZIP' ? 'ZIP code centre' : s.resolution.precision === 'CITY' ? 'City centre' : 'Street address'}</div>}
              </th>
              <td>{s.type.charAt(0) + s.type.slice(1).toLowerCase()}</td>
              <td>
                {s.appointment ? (
                  <>
                    {s.appointment.earliest ? inZone(s.appointment.earliest, s.timeZone) : 'any time'} – {s.appointment.latest ? inZone(s.appointment.latest, s.timeZone) : 'open'}
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td>{inZone(s.arrivalTime, s.timeZone)}</td>
              <td>{inZone(s.departureTime, s.timeZone)}</td>
              <td>{s.timeZone ?? '—'}</td>
              <td>{s.withinWindow === null ? '—' : s.withinWindow ? 'On time' : `Late by ${hoursMinutes(s.lateByHours)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

type Action = 'activate' | 'complete' | 'cancel';

export function RouteViewPage({ params }: { params: { planId: string } }) {
  const { planId } = params;
  const route = useApi(() => unwrap(api.GET('/api/v1/routes/{planId}', { params: { path: { planId } } })), [planId]);
  const plan = route.data;
  const related = useApi(async () => {
    if (!plan) return null;
    const [driver, vehicle, load] = await Promise.all([
      unwrap(api.GET('/api/v1/drivers/{driverId}', { params: { path: { driverId: plan.driverId } } })).catch(() => null),
      plan.vehicleId ? unwrap(api.GET('/api/v1/vehicles/{vehicleId}', { params: { path: { vehicleId: plan.vehicleId } } })).catch(() => null) : null,
      plan.loadId ? unwrap(api.GET('/api/v1/loads/{loadId}', { params: { path: { loadId: plan.loadId } } })).catch(() => null) : null,
    ]);
    return { driver, vehicle, load };
  }, [plan?.driverId, plan?.vehicleId, plan?.loadId]);
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

  const s = plan.summary;
  const first = plan.stops[0];
  const last = plan.stops[plan.stops.length - 1];
  const originZone = first?.timeZone ?? 'UTC';
  const driverName = related.data?.driver ? `${related.data.driver.firstName} ${related.data.driver.lastName}` : null;
  const title = first && last ? `${first.name} → ${last.name}` : `Route ${plan.id}`;
  const fuelBought = s.fuelPurchasedCost !== undefined ? `${money(s.fuelPurchasedCost)} (${Math.round(s.fuelPurchasedGallons ?? 0)} gal)` : '—';
  const fuelBurned = `${money(s.estimatedFuelCost)}${s.fuelBurnedGallons !== undefined ? ` (${Math.round(s.fuelBurnedGallons)} gal)` : ''}`;

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
        <p className="route-meta">
          <StatusBadge value={plan.status} /> <span className="muted">Route</span> <code>{plan.id}</code> · Driver{' '}
          <Link href={`/drivers/${plan.driverId}`}>{driverName ?? plan.driverId}</Link>
          {plan.vehicleId && (
            <>
              {' '}
              · Vehicle <Link href={`/vehicles/${plan.vehicleId}`}>{related.data?.vehicle?.unitNumber ?? plan.vehicleId}</Link>
            </>
          )}
          {plan.loadId && (
            <>
              {' '}
              · Load <Link href={`/loads/${plan.loadId}`}>{related.data?.load?.referenceNumber ?? plan.loadId}</Link>
            </>
          )}
        </p>
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
        <Facts
          items={[
            ['Departure', inZone(plan.departureTime, first?.timeZone)],
            ['Arrival', inZone(plan.arrivalTime, last?.timeZone)],
            ['Distance', `${miles(s.totalDistanceMiles)} (${s.distanceMethod.replace('_', ' ')})`],
            ['Driving', hoursMinutes(s.totalDriveHours)],
            ['On duty', hoursMinutes(s.totalOnDutyHours)],
            ['Resting', hoursMinutes(s.totalRestHours)],
            ['Trip time', hoursMinutes(s.totalTripHours)],
            ['Rests', s.restStops],
            ['30-minute breaks', s.breaks],
            ['Fuel stops', s.fuelStops],
            ['Fuel burned (cost)', fuelBurned],
            ['Fuel bought at stops', fuelBought],
            ['HOS violations', s.hosViolations],
            ['Appointments missed', s.appointmentsMissed],
          ]}
        />
      </div>

      <div className="card">
        <h2>Map</h2>
        <UsMap layers={layers} title={`Route ${title}`} showRouteLegend={false} />
        {active && <p className="muted small">{position.data ? `Last position reported ${relative(position.data.recordedAt)}.` : 'No position reported yet.'}</p>}
      </div>

      <div className="card">
        <h2>Stops</h2>
        <Stops stops={plan.stops} />
      </div>

      <div className="card">
        <h2>Timeline</h2>
        <p className="muted small">Each time is the local time where the segment starts or ends. The clocks are what is left after the segment.</p>
        <Timeline segments={plan.segments} />
      </div>

      <div className="card">
        <h2>HOS log of the trip</h2>
        <p className="muted small">The planned duty status, day by day in the departure’s time zone ({originZone}).</p>
        <LogGrid changes={planDutyChanges(plan.segments)} fromMs={Date.parse(plan.departureTime)} toMs={Date.parse(plan.arrivalTime)} timeZone={originZone} title="Planned HOS log grid" />
      </div>

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
