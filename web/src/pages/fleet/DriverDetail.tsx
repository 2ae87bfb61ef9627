/**
 * One driver: their record (edit, deactivate / reactivate), HOS clocks, the log grid of the last 8 days
 * in a chosen zone, a form to record a duty-status change, and their routes.
 */
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'wouter';
import { ApiError, api, unwrap, type Body, type Ok } from '../../api/client';
import { HosClocks } from '../../components/HosClocks';
import { LogGrid } from '../../components/LogGrid';
import { Button, Dialog, ErrorBanner, Facts, Field, Loading, Notice, PageHeader, SelectField, StatusBadge } from '../../components/ui';
import { DUTY_LABELS, DUTY_ROWS, type DutyStatus } from '../../lib/duty';
import { errorsFromDetails, isoFromLocalInput } from '../../lib/forms';
import { dateTime, hoursMinutes, miles } from '../../lib/format';
import { isTimeZone, logWindow, timeZoneOptions } from '../../lib/log-window';
import { useApi, useInterval } from '../../lib/use-api';
import { BackLink, ConfirmDialog, isNotFound, NotFoundState, RecordTable, useCanEdit, type Column } from './common';
import { DRIVER_FIELDS } from './fields';
import { RecordForm } from './RecordForm';

type Driver = Ok<'/api/v1/drivers/{driverId}'>;
type Hos = Ok<'/api/v1/drivers/{driverId}/hos'>;
type RouteRow = Ok<'/api/v1/routes'>['data'][number];

const ZONE_KEY = 'fleet.logTimeZone';
const MINUTE = 60_000;

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone the logs are shown in: the last one chosen here, else the browser's. */
function useLogZone(): [string, (z: string) => void, Array<{ value: string; label: string }>] {
  const options = useMemo(() => timeZoneOptions(browserZone()), []);
  const [zone, setZone] = useState(() => {
    const saved = localStorage.getItem(ZONE_KEY);
    return saved && isTimeZone(saved) && options.some((o) => o.value === saved) ? saved : browserZone();
  });
  const choose = useCallback((z: string) => {
    setZone(z);
    localStorage.setItem(ZONE_KEY, z);
  }, []);
  return [zone, choose, options];
}

function DutyStatusForm({ driverId, current, onRecorded }: { driverId: string; current: string | undefined; onRecorded: (hos: Hos, status: string, at: string) => void }) {
  const [status, setStatus] = useState<DutyStatus>(() => (current === 'OFF_DUTY' ? 'ON_DUTY_NOT_DRIVING' : 'OFF_DUTY'));
  const [at, setAt] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [atError, setAtError] = useState<string | undefined>(undefined);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    setAtError(undefined);
    const iso = at ? isoFromLocalInput(at) : undefined;
    if (iso === null) return setAtError('must be a date and time');
    setBusy(true);
    try {
      const body: Body<'/api/v1/drivers/{driverId}/duty-status'> = { status, ...(iso ? { at: iso } : {}), ...(note.trim() ? { note: note.trim() } : {}) };
      const res = await unwrap(api.POST('/api/v1/drivers/{driverId}/duty-status', { params: { path: { driverId } }, body }));
      onRecorded(res.hos, res.event.status, res.event.at);
      // The same status twice in a row is refused: offer the likeliest next one.
      setStatus(res.event.status === 'OFF_DUTY' ? 'ON_DUTY_NOT_DRIVING' : 'OFF_DUTY');
      setAt('');
      setNote('');
    } catch (err) {
      if (err instanceof ApiError) {
        const { fieldErrors } = errorsFromDetails(err.body.details, [{ name: 'at', label: 'Time' }]);
        setAtError(fieldErrors.at);
      }
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-labelledby="duty-form-title">
      <h3 id="duty-form-title">Record a duty status change</h3>
      <ErrorBanner error={error} />
      <div className="duty-form">
        <SelectField label="New duty status" value={status} onChange={(e) => setStatus(e.target.value as DutyStatus)} options={DUTY_ROWS.map((s) => ({ value: s, label: DUTY_LABELS[s] }))} />
        <Field label="Starting at" type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} hint="Empty: now (your browser’s time)" error={atError} />
        <Field label="Note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} hint="Optional, e.g. where or why" />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Record status
          </Button>
        </div>
      </div>
    </form>
  );
}

const ROUTE_COLUMNS: Array<Column<RouteRow>> = [
  { header: 'Route', cell: (r) => <Link href={`/routes/${r.id}`}>{r.id}</Link> },
  { header: 'Status', cell: (r) => <StatusBadge value={r.status} /> },
  { header: 'Departure', cell: (r) => dateTime(r.departureTime) },
  { header: 'Arrival', cell: (r) => dateTime(r.arrivalTime) },
  { header: 'Distance', cell: (r) => miles(r.summary.totalDistanceMiles), className: 'num' },
  { header: 'Driving', cell: (r) => hoursMinutes(r.summary.totalDriveHours), className: 'num' },
  { header: 'Rests', cell: (r) => r.summary.restStops, className: 'num' },
];

function DriverRoutes({ driverId }: { driverId: string }) {
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

        <DriverRoutes driverId={d.id} />
      </div>

      <Dialog open={editing} title={`Edit ${name}`} onClose={() => setEditing(false)}>
        <RecordForm
          fields={DRIVER_FIELDS}
          record={d}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            await unwrap(api.PUT('/api/v1/drivers/{driverId}', { params: { path: { driverId: d.id } }, body: body as Body<'/api/v1/drivers/{driverId}', 'put'> }));
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
