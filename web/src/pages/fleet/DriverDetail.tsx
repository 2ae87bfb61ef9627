/**
 * One driver: their record (edit, deactivate / reactivate), HOS clocks, the log grid of the last 8 days
 * in a chosen zone, a form to record a duty-status change, the daily log one day at a time (certification,
 * remarks, corrections), and their routes.
 */
import { useMemo, useState } from 'react';
import { useParams } from 'wouter';
import { api, unwrap, type Body, type Ok } from '../../api/client';
import { HosClocks } from '../../components/HosClocks';
import { LogGrid } from '../../components/LogGrid';
import { Button, Dialog, ErrorBanner, Facts, Loading, Notice, PageHeader, SelectField, StatusBadge } from '../../components/ui';
import { DUTY_LABELS, type DutyStatus } from '../../lib/duty';
import { dateTime } from '../../lib/format';
import { homeTerminalText, knownLocationText, withHomeTerminal } from '../../lib/home-terminal';
import { logWindow } from '../../lib/log-window';
import { useApi, useInterval } from '../../lib/use-api';
import { BackLink, ConfirmDialog, isNotFound, NotFoundState, useCanEdit } from './common';
import { DriverRoutes } from './DriverRoutes';
import { DutyStatusForm } from './DutyStatusForm';
import { DRIVER_FIELDS } from './fields';
import { RecordForm } from './RecordForm';
import { useLogZone } from './useLogZone';
import { DriverDailyLog } from '../logs/DriverDailyLog';

type Driver = Ok<'/api/v1/drivers/{driverId}'>;

const MINUTE = 60_000;

export function DriverDetailPage() {
  const { driverId = '' } = useParams<{ driverId: string }>();
  const canEdit = useCanEdit();
  const driver = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}', { params: { path: { driverId } } })), [driverId]);
  const hos = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}/hos', { params: { path: { driverId } } })), [driverId]);
  const [tick, setTick] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const log = useApi(
    () => unwrap(api.GET('/api/v1/drivers/{driverId}/duty-status', { params: { path: { driverId }, query: { from: new Date(logWindow(Date.now(), 'UTC').fetchFromMs).toISOString(), limit: 1000 } } })),
    [driverId, tick],
  );
  const [zone, setZone, zoneOptions] = useLogZone();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'deactivate' | 'reactivate' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // Clocks run down and the last status grows: refresh every minute.
  useInterval(() => {
    setNow(Date.now());
    hos.reload();
    setTick((t) => t + 1);
  }, MINUTE);

  const span = useMemo(() => logWindow(now, zone), [now, zone]);
  const changes = useMemo(() => (log.data?.data ?? []).map((e) => ({ status: e.status, at: e.at })), [log.data]);

  if (driver.error && isNotFound(driver.error)) return <NotFoundState what="Driver" back="/drivers" backLabel="drivers" />;
  if (!driver.data) return driver.error ? <ErrorBanner error={driver.error} /> : <Loading label="Loading driver…" />;
  const d: Driver = driver.data;
  const name = `${d.firstName} ${d.lastName}`;

  /** The record as it is now (the action endpoints answer only part of it). */
  async function refresh() {
    const fresh = await unwrap(api.GET('/api/v1/drivers/{driverId}', { params: { path: { driverId: d.id } } }));
    driver.setData(() => fresh);
  }

  const actions = canEdit && (
    <>
      <Button onClick={() => setEditing(true)}>Edit</Button>
      {d.status !== 'ACTIVE' && (
        <Button variant="primary" onClick={() => setConfirm('reactivate')}>
          {d.status === 'INACTIVE' ? 'Reactivate' : 'Activate'}
        </Button>
      )}
      {d.status !== 'INACTIVE' && (
        <Button variant="danger" onClick={() => setConfirm('deactivate')}>
          Deactivate
        </Button>
      )}
    </>
  );

  return (
    <>
      <BackLink href="/drivers" label="Drivers" />
      <PageHeader title={name} actions={actions}>
        <p className="subtitle">
          <StatusBadge value={d.status} />
          <span className="muted">
            License {d.licenseNumber} ({d.licenseState}){d.truckNumber && <> · truck {d.truckNumber}</>}
          </span>
        </p>
      </PageHeader>
      {notice && <Notice tone="success">{notice}</Notice>}
      {d.status === 'INACTIVE' && <Notice tone="warning">This driver is inactive: they cannot be assigned to routes or record duty status until reactivated.</Notice>}

      <div className="detail-sections">
        <section className="card" aria-labelledby="details-title">
          <h2 id="details-title">Details</h2>
          <Facts
            items={[
              ['License', `${d.licenseNumber} (${d.licenseState})`],
              ['Truck number', d.truckNumber],
              ['Phone', d.phoneNumber],
              ['Email', d.email],
              ['External ID', d.externalId],
              ['Home terminal', homeTerminalText(d.homeTerminal)],
              ['Last known location', knownLocationText(d.lastKnownLocation)],
              ['Sign-in account', d.userId ? 'Yes (driver view)' : 'None'],
              ['Last restart', dateTime(d.lastRestartDate)],
              ['Created', dateTime(d.createdAt)],
              ['Updated', dateTime(d.updatedAt)],
              ...(d.deactivatedAt ? ([['Deactivated', dateTime(d.deactivatedAt)]] as Array<[string, string]>) : []),
              ...(d.reactivatedAt ? ([['Reactivated', dateTime(d.reactivatedAt)]] as Array<[string, string]>) : []),
            ]}
          />
        </section>

        <section className="card" aria-labelledby="hos-title">
          <h2 id="hos-title">Hours of service</h2>
          <ErrorBanner error={hos.error} />
          {hos.data ? <HosClocks hos={hos.data} /> : !hos.error && <Loading label="Loading HOS clocks…" />}
          {hos.data && <p className="muted">Next required rest: {hos.data.nextRequiredRest.explanation}</p>}
          {canEdit && d.status === 'ACTIVE' && hos.data && (
            <DutyStatusForm
              driverId={d.id}
              current={hos.data?.currentDutyStatus}
              onRecorded={(h, status, at) => {
                hos.setData(() => h);
                setNow(Date.now());
                setTick((t) => t + 1);
                setNotice(`Recorded ${DUTY_LABELS[status as DutyStatus] ?? status} from ${dateTime(at, zone)}.`);
              }}
            />
          )}
        </section>

        <section className="card" aria-labelledby="log-title">
          <div className="log-header">
            <h2 id="log-title">Logs, last 8 days</h2>
            <SelectField label="Time zone" value={zone} onChange={(e) => setZone(e.target.value)} options={zoneOptions} hint="Logs are kept in the home terminal’s time" />
          </div>
          <ErrorBanner error={log.error} />
          {log.data ? (
            <>
              {log.data.data.length === 0 && <p className="muted">Nothing logged in the last 16 days: the clocks assume a rested driver.</p>}
              <LogGrid changes={changes} fromMs={span.fromMs} toMs={span.toMs} timeZone={zone} newestFirst title={`Log grid of ${name}`} />
            </>
          ) : (
            !log.error && <Loading label="Loading the log…" />
          )}
        </section>

        <DriverDailyLog driver={d} />

        <DriverRoutes driverId={d.id} />
      </div>

      <Dialog open={editing} title={`Edit ${name}`} onClose={() => setEditing(false)}>
        <RecordForm
          fields={DRIVER_FIELDS}
          record={d}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            await unwrap(api.PUT('/api/v1/drivers/{driverId}', { params: { path: { driverId: d.id } }, body: withHomeTerminal(body, d.homeTerminal) as Body<'/api/v1/drivers/{driverId}', 'put'> }));
            await refresh();
            setEditing(false);
            setNotice('Changes saved.');
            hos.reload();
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={confirm === 'deactivate'}
        title={`Deactivate ${name}?`}
        confirmLabel="Deactivate driver"
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          await unwrap(api.POST('/api/v1/drivers/{driverId}/deactivate', { params: { path: { driverId: d.id } }, body: {} }));
          await refresh();
          setNotice(`${name} is deactivated.`);
        }}
      >
        <p>They can no longer be assigned to routes or record duty status. Their log and past routes are kept, and you can reactivate them at any time.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'reactivate'}
        title={`${d.status === 'INACTIVE' ? 'Reactivate' : 'Activate'} ${name}?`}
        confirmLabel={`${d.status === 'INACTIVE' ? 'Reactivate' : 'Activate'} driver`}
        destructive={false}
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          await unwrap(api.POST('/api/v1/drivers/{driverId}/reactivate', { params: { path: { driverId: d.id } }, body: {} }));
          await refresh();
          setNotice(`${name} is active again.`);
        }}
      >
        <p>They can be assigned to routes and record duty status again.</p>
      </ConfirmDialog>
    </>
  );
}
