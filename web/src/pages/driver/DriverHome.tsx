/**
 * The driver view ("/" for a DRIVER user): only their own data — the server scopes every request of a
 * DRIVER user to the driver profile linked to them. The route they drive (the active one, else the next
 * planned), the stop they head to with its ETA in that stop's local time and zone, the stops still ahead,
 * the next planned rest, on a team route who has the wheel now and next, their HOS clocks, big buttons to
 * change duty status, and their daily logs (the last 8 days on the home terminal's clocks, to certify; the
 * corrections their carrier asks for, to accept or reject). Live: a route change (Socket.IO route:updated)
 * reloads the route, a correction requested (log:edit_requested) the logs; the clocks refresh every minute.
 * Laid out for a phone first (driver.css).
 */
import { useCallback, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { useMe } from '../../api/session';
import { ErrorBanner, Notice, PageHeader } from '../../components/ui';
import { pickDriverRoute } from '../../lib/driver-route';
import { useApi, useInterval } from '../../lib/use-api';
import { DriverDutySection } from './DriverDutySection';
import { DriverLogsSection, type DriverLogs } from './DriverLogsSection';
import { DriverRouteSection, type DriverRoutes } from './DriverRouteSection';
import './driver.css';

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
  return <DriverView driverId={me.driverId} firstName={me.firstName} userId={me.userId} />;
}

/** The last 8 days of the driver's log (the API's default: today and the 7 before) and the corrections waiting for their answer. */
async function loadLogs(driverId: string): Promise<DriverLogs> {
  const [logs, pending] = await Promise.all([
    unwrap(api.GET('/api/v1/drivers/{driverId}/logs', { params: { path: { driverId } } })),
    unwrap(api.GET('/api/v1/log-edits', { params: { query: { driverId, status: 'PENDING', pageSize: 100 } } })),
  ]);
  return { logs, pending: pending.data };
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

function DriverView({ driverId, firstName, userId }: { driverId: string; firstName: string; userId: string }) {
  const [now, setNow] = useState(() => Date.now());
  const driver = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}', { params: { path: { driverId } } })), [driverId]);
  const routes = useApi(() => loadRoutes(driverId), [driverId]);
  const hos = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}/hos', { params: { path: { driverId } } })), [driverId]);
  const logs = useApi(() => loadLogs(driverId), [driverId]);
  const setLogs = logs.setData;
  /** The logs read again, in place (the page shows the new figures when this resolves). */
  const reloadLogs = useCallback(async () => {
    const fresh = await loadLogs(driverId);
    setLogs(() => fresh);
  }, [driverId, setLogs]);

  const reloadRoutes = routes.reload;
  const reloadHos = hos.reload;
  useRealtime(
    'route:updated',
    useCallback(() => {
      reloadRoutes();
      reloadHos();
    }, [reloadRoutes, reloadHos]),
  );
  // A correction asked for by the carrier: the logs again, with it to answer.
  const onLogEvent = useCallback((data: { driverId?: string }) => void (data.driverId === driverId && reloadLogs().catch(() => undefined)), [driverId, reloadLogs]);
  useRealtime('log:edit_requested', onLogEvent);
  useInterval(() => {
    setNow(Date.now());
    hos.reload();
    // Today's log grows with the clocks.
    void reloadLogs().catch(() => undefined);
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
        onRecorded={async (record) => {
          hos.setData(() => record);
          setNow(Date.now());
          // The new status in the log before the change is announced.
          await reloadLogs().catch(() => undefined);
        }}
      />

      <DriverLogsSection driverId={driverId} myUserId={userId} data={logs} reload={reloadLogs} />
    </div>
  );
}
