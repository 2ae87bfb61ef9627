/**
 * The driver view ("/" for a DRIVER user): only their own data — the server scopes every request of a
 * DRIVER user to the driver profile linked to them. The route they drive (the active one, else the next
 * planned), the stop they head to with its ETA in that stop's local time and zone, the stops still ahead,
 * the next planned rest, on a team route who has the wheel now and next, their HOS clocks, the log grid
 * of the last 8 days, and big buttons to change duty status. Live: a route change (Socket.IO route:updated) reloads the route; the clocks refresh
 * every minute. Laid out for a phone first (driver.css).
 */
import { useCallback, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { useMe } from '../../api/session';
import { LogGrid } from '../../components/LogGrid';
import { ErrorBanner, Loading, Notice, PageHeader } from '../../components/ui';
import { startOfDay } from '../../lib/duty';
import { deviceTimeZone, pickDriverRoute } from '../../lib/driver-route';
import { useApi, useInterval } from '../../lib/use-api';
import { DriverDutySection, type DutyEvent } from './DriverDutySection';
import { DriverRouteSection, type DriverRoutes } from './DriverRouteSection';
import './driver.css';

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

async function loadRoutes(driverId: string): Promise<DriverRoutes> {
  const [active, planned] = await Promise.all([
    unwrap(api.GET('/api/v1/routes', { params: { query: { driverId, status: 'ACTIVE', pageSize: 5 } } })),
    unwrap(api.GET('/api/v1/routes', { params: { query: { driverId, status: 'PLANNED', pageSize: 20 } } })),
  ]);
  const { pick, upcoming } = pickDriverRoute(active.data, planned.data);
  const current = pick ? await unwrap(api.GET('/api/v1/routes/{planId}', { params: { path: { planId: pick.id } } })) : null;
  return { current, currentDriverName: pick?.driverName ?? null, currentCoDriverName: pick?.coDriverName ?? null, upcoming };
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

      <DriverRouteSection routes={routes} now={now} driverId={driverId} />

      <DriverDutySection
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
