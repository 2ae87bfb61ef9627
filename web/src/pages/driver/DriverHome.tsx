/**
 * The driver view ("/" for a DRIVER user): only their own data — the server scopes every request of a
 * DRIVER user to the driver profile linked to them. The route they drive (the active one, else the next
 * planned), the stop they head to with its ETA in that stop's local time and zone, the stops still ahead,
 * the next planned rest, their HOS clocks, the log grid of the last 8 days, and big buttons to change
 * duty status. Live: a route change (Socket.IO route:updated) reloads the route; the clocks refresh
 * every minute. Laid out for a phone first (driver.css).
 */
import { useCallback, useState, type FormEvent } from 'react';
import { api, unwrap, type Ok } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { useMe } from '../../api/session';
import { HosClocks, type HosRecord } from '../../components/HosClocks';
import { LogGrid } from '../../components/LogGrid';
import { Button, Dialog, ErrorBanner, Facts, Loading, Notice, PageHeader, StatusBadge } from '../../components/ui';
import { DUTY_LABELS, DUTY_ROWS, startOfDay, type DutyStatus } from '../../lib/duty';
import { dateTime, hoursMinutes, humanize, miles, relative, timeOnly } from '../../lib/format';
import { deviceTimeZone, nextPlannedStop, routeProgress } from '../../lib/driver-route';
import { useApi, useInterval, type Loaded } from '../../lib/use-api';
import './driver.css';

type RoutePlan = Ok<'/api/v1/routes/{planId}'>;
type Stop = RoutePlan['stops'][number];
type DutyEvent = Ok<'/api/v1/drivers/{driverId}/duty-status'>['data'][number];

const DAY = 24 * 3_600_000;
const LOG_DAYS = 8;

export function DriverHomePage() {
  const me = useMe();
  if (!me.driverId) {
    return (
      <div className="driver-home">
        <PageHeader title="Your driver view" />
        <Notice tone="warning">
          Your account ({me.email}) is not linked to a driver profile yet, so there is no route or log to show. Ask your dispatcher to link your account to your driver profile
          (they invite you again with your driver profile selected).
        </Notice>
      </div>
    );
  }
  return <DriverView driverId={me.driverId} firstName={me.firstName} />;
}

/** The driver's current route (ACTIVE, else the next PLANNED one) in full, and the other planned ones. */
interface DriverRoutes {
  current: RoutePlan | null;
  upcoming: Array<Ok<'/api/v1/routes'>['data'][number]>;
}

async function loadRoutes(driverId: string): Promise<DriverRoutes> {
  const [active, planned] = await Promise.all([
    unwrap(api.GET('/api/v1/routes', { params: { query: { driverId, status: 'ACTIVE', pageSize: 5 } } })),
    unwrap(api.GET('/api/v1/routes', { params: { query: { driverId, status: 'PLANNED', pageSize: 20 } } })),
  ]);
  const plannedByDeparture = [...planned.data].sort((a, b) => Date.parse(a.departureTime) - Date.parse(b.departureTime));
  const pick = active.data[0] ?? plannedByDeparture[0];
  const current = pick ? await unwrap(api.GET('/api/v1/routes/{planId}', { params: { path: { planId: pick.id } } })) : null;
  return { current, upcoming: plannedByDeparture.filter((r) => r.id !== pick?.id) };
}

function DriverView({ driverId, firstName }: { driverId: string; firstName: string }) {
  const zone = deviceTimeZone();
  const [now, setNow] = useState(() => Date.now());
  const driver = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}', { params: { path: { driverId } } })), [driverId]);
  const routes = useApi(() => loadRoutes(driverId), [driverId]);
  const hos = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}/hos', { params: { path: { driverId } } })), [driverId]);
  // Fetched from a week before the grid's first day, so that the status the first day starts in is known.
  const log = useApi(
    () => unwrap(api.GET('/api/v1/drivers/{driverId}/duty-status', { params: { path: { driverId }, query: { from: new Date(Date.now() - 2 * LOG_DAYS * DAY).toISOString(), limit: 1000 } } })),
    [driverId],
  );

  const reloadRoutes = routes.reload;
  const reloadHos = hos.reload;
  useRealtime(
    'route:updated',
    useCallback(() => {
      reloadRoutes();
      reloadHos();
    }, [reloadRoutes, reloadHos]),
  );
  useInterval(() => {
    setNow(Date.now());
    hos.reload();
  }, 60_000);

  const name = driver.data ? `${driver.data.firstName} ${driver.data.lastName}` : firstName;
  return (
    <div className="driver-home">
      <PageHeader title={`Hello, ${firstName}`}>
        <p className="muted">
          {name}
          {driver.data?.truckNumber && <> · Truck {driver.data.truckNumber}</>}
        </p>
      </PageHeader>
      <ErrorBanner error={driver.error} />

      <RouteSection routes={routes} now={now} />

      <DutySection
        driverId={driverId}
        hos={hos.data}
        hosError={hos.error}
        onRecorded={(record, event) => {
          hos.setData(() => record);
          log.setData((prev) => ({ data: [event, ...(prev?.data ?? [])] }));
          setNow(Date.now());
        }}
      />

      <section className="card driver-card" aria-labelledby="log-title">
        <h2 id="log-title">My log, last {LOG_DAYS} days</h2>
        <ErrorBanner error={log.error} />
        {log.loading && !log.data ? (
          <Loading label="Loading your log…" />
        ) : log.data && log.data.data.length === 0 ? (
          <p className="muted">No duty status logged in the last {LOG_DAYS} days. Change your duty status above to start your log.</p>
        ) : log.data ? (
          <>
            <p className="muted driver-hint">Newest day first, in your device's time zone ({zone}). Swipe sideways to see a whole day on a small screen.</p>
            <div className="driver-log-scroll">
              <LogGrid changes={log.data.data as DutyEvent[]} fromMs={startOfDay(now - (LOG_DAYS - 1) * DAY, zone).startMs} toMs={now} timeZone={zone} newestFirst title="My log grid" />
            </div>
          </>
        ) : null}
      </section>
    </div>
  );
}

function RouteSection({ routes, now }: { routes: Loaded<DriverRoutes>; now: number }) {
  if (routes.error) return <ErrorBanner error={routes.error} />;
  if (!routes.data) return <Loading label="Loading your route…" />;
  const { current, upcoming } = routes.data;
  if (!current) {
    return (
      <section className="card driver-card" aria-labelledby="route-title">
        <h2 id="route-title">My route</h2>
        <p>No route is assigned to you right now. When your dispatcher plans one for you, it appears here.</p>
      </section>
    );
  }
  const progress = routeProgress(current.stops, now);
  const first = current.stops[0];
  const last = current.stops[current.stops.length - 1];
  const rest = nextPlannedStop(current.segments, now);
  return (
    <>
      <section className="card driver-card driver-next" aria-labelledby="next-title" data-testid="next-stop">
        <h2 id="next-title">{progress.next ? (progress.atStop ? 'You are at' : 'Next stop') : 'All stops done'}</h2>
        {progress.next ? (
          <NextStop stop={progress.next} atStop={progress.atStop} now={now} />
        ) : (
          <p>You have passed every stop of this route. Your dispatcher completes it.</p>
        )}
        {rest && (
          <p className="driver-rest">
            <strong>{rest.label}</strong> planned {'location' in rest.segment && rest.segment.location ? <>at {rest.segment.location} </> : null}
            {Date.parse(rest.segment.start_time) <= now ? 'now' : dateTime(rest.segment.start_time, 'time_zone' in rest.segment ? rest.segment.time_zone : undefined)} for {hoursMinutes(rest.segment.duration_hours)}
          </p>
        )}
      </section>

      <section className="card driver-card" aria-labelledby="route-title" data-testid="my-route" data-route-id={current.id}>
        <div className="driver-route-head">
          <h2 id="route-title">My route</h2>
          <StatusBadge value={current.status} />
        </div>
        <p className="driver-route-line">
          {first?.name} → {last?.name}
        </p>
        <p className="muted driver-route-id">
          Route <span className="driver-id">{current.id}</span>
        </p>
        <Facts
          items={[
            [current.status === 'PLANNED' ? 'Departs' : 'Departed', dateTime(current.departureTime, first?.timeZone)],
            ['Finishes', dateTime(current.arrivalTime, last?.timeZone)],
            ['Distance', miles(current.summary.totalDistanceMiles)],
            ['Stops done', `${progress.done} of ${current.stops.length}`],
          ]}
        />
        <h3>Stops ahead</h3>
        {progress.remaining.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ol className="driver-stops" aria-label="Stops ahead">
            {progress.remaining.map((s) => (
              <li key={s.sequence} className={s === progress.next ? 'driver-stop driver-stop-next' : 'driver-stop'}>
                <div className="driver-stop-name">
                  {s.name} <span className="muted">· {humanize(s.type)}</span>
                </div>
                <div>
                  {s.type === 'ORIGIN' ? 'Departs' : 'ETA'} <strong>{dateTime(s.type === 'ORIGIN' ? s.departureTime : s.arrivalTime, s.timeZone)}</strong>
                  {s.timeZone && <span className="muted"> ({s.timeZone})</span>}
                </div>
                <Appointment stop={s} />
              </li>
            ))}
          </ol>
        )}
        {current.warnings.length > 0 && (
          <details className="driver-details">
            <summary>Notes from the planner ({current.warnings.length})</summary>
            <ul>
              {current.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </details>
        )}
      </section>

      {upcoming.length > 0 && (
        <section className="card driver-card" aria-labelledby="upcoming-title">
          <h2 id="upcoming-title">Later routes</h2>
          <ul className="driver-upcoming">
            {upcoming.map((r) => (
              <li key={r.id}>
                Departs {dateTime(r.departureTime)} · {miles(r.summary.totalDistanceMiles)} · <span className="driver-id">{r.id}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function NextStop({ stop, atStop, now }: { stop: Stop; atStop: boolean; now: number }) {
  const origin = stop.type === 'ORIGIN';
  const when = atStop ? stop.departureTime : stop.arrivalTime;
  return (
    <div>
      <p className="driver-next-name">{stop.name}</p>
      <p className="muted">{humanize(stop.type)}</p>
      <p className="driver-eta">
        <span className="driver-eta-label">{atStop ? (origin ? 'Depart at' : 'Leave at') : 'ETA'}</span>{' '}
        <strong data-testid="next-stop-eta">{timeOnly(when, stop.timeZone)}</strong>{' '}
        <span className="driver-eta-zone">{dateTime(when, stop.timeZone)}</span>
      </p>
      <p className="muted">
        {stop.timeZone ? `Local time at the stop (${stop.timeZone}) · ` : ''}
        {relative(when, now)}
      </p>
      <Appointment stop={stop} />
    </div>
  );
}

function Appointment({ stop }: { stop: Stop }) {
  if (!stop.appointment || (!stop.appointment.earliest && !stop.appointment.latest)) return null;
  const { earliest, latest } = stop.appointment;
  return (
    <div className="driver-appt">
      Appointment {earliest ? dateTime(earliest, stop.timeZone) : 'any time'} – {latest ? dateTime(latest, stop.timeZone) : 'open'}
      {stop.withinWindow === false && stop.lateByHours > 0 && <span className="badge badge-red driver-late">Planned {hoursMinutes(stop.lateByHours)} late</span>}
    </div>
  );
}

function DutySection({ driverId, hos, hosError, onRecorded }: { driverId: string; hos: HosRecord | undefined; hosError: Error | undefined; onRecorded: (hos: HosRecord, event: DutyEvent) => void }) {
  const [asked, setAsked] = useState<DutyStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<{ status: DutyStatus; at: string } | null>(null);
  const current = hos?.currentDutyStatus;

  async function confirm(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!asked) return;
    const note = String(new FormData(e.currentTarget).get('note') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const res = await unwrap(api.POST('/api/v1/drivers/{driverId}/duty-status', { params: { path: { driverId } }, body: { status: asked, ...(note ? { note } : {}) } }));
      onRecorded(res.hos, res.event);
      setDone({ status: asked, at: res.event.at });
      setAsked(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card driver-card" aria-labelledby="duty-title">
      <h2 id="duty-title">My duty status</h2>
      <p className="driver-current">
        You are <strong data-testid="current-duty">{current ? humanize(current) : '…'}</strong>
        {hos?.lastStatusChange && <span className="muted"> since {dateTime(hos.lastStatusChange)}</span>}
      </p>
      {done && (
        <Notice tone="success">
          Duty status changed to {DUTY_LABELS[done.status]} at {timeOnly(done.at)}. Your clocks below are updated.
        </Notice>
      )}
      <ErrorBanner error={hosError} />
      <div className="duty-buttons" role="group" aria-label="Change duty status">
        {DUTY_ROWS.map((s) => (
          <button
            key={s}
            type="button"
            className={`duty-btn duty-btn-${s.toLowerCase()}`}
            aria-pressed={current === s}
            disabled={!hos || current === s}
            onClick={() => {
              setError(null);
              setAsked(s);
            }}
          >
            <span className="duty-btn-label">{DUTY_LABELS[s]}</span>
            {current === s && <span className="duty-btn-now">Current</span>}
          </button>
        ))}
      </div>
      <Dialog open={asked !== null} title={asked ? `Change to ${DUTY_LABELS[asked]}?` : 'Change duty status'} onClose={() => setAsked(null)}>
        {asked && (
          <form onSubmit={confirm} className="stack">
            <p>
              Your log records <strong>{DUTY_LABELS[asked]}</strong> from now ({timeOnly(new Date().toISOString())}). The log is append-only: a mistake is corrected by logging the right
              status again.
            </p>
            <div className="field">
              <label htmlFor="duty-note">Note (optional)</label>
              <input id="duty-note" name="note" maxLength={500} placeholder="e.g. pre-trip inspection, loading at dock 4" />
            </div>
            <ErrorBanner error={error} />
            <div className="driver-dialog-actions">
              <Button type="submit" variant="primary" busy={busy} className="driver-big">
                Confirm {DUTY_LABELS[asked]}
              </Button>
              <Button onClick={() => setAsked(null)} className="driver-big">
                Cancel
              </Button>
            </div>
          </form>
        )}
      </Dialog>
      <h3>My hours of service</h3>
      {hos ? (
        <>
          <HosClocks hos={hos} showStatus={false} />
          <p className="muted driver-hint">{hos.nextRequiredRest.explanation}</p>
        </>
      ) : (
        !hosError && <Loading label="Loading your clocks…" />
      )}
    </section>
  );
}
