/**
 * Plan a route: driver, vehicle, load, stops (a place to look up or coordinates; appointments in the
 * stop's local time), departure, the driver's current HOS (from their log, or typed in) and planning
 * options, sent to the planner. An ambiguous or misspelt place comes back with the geocoder's
 * candidates: each is a button that fills the stop and plans again. A plan opens its page. "Find a
 * driver" ranks the active drivers for the stops after the first (or the chosen load), each from where
 * they are; one of them is planned from there.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, ApiError, unwrap } from '../../api/client';
import { Button, ErrorBanner, Field, Notice, PageHeader, SelectField } from '../../components/ui';
import { bookingNotices, truckOf } from '../../lib/booking';
import { browserZone, nextQuarterHour, wallTimeToMs } from '../../lib/local-time';
import { driverChoice, loadChoice, refusedStopsMessage, vehicleChoice } from '../../lib/plan-choices';
import { candidatesRequestFromDraft } from '../../lib/dispatch';
import { applyCandidate, buildPlanRequest, coDriverCandidates, emptyDraft, emptyStop, moveStop, planProblems, withDriver, type PlanDraft, type PlanProblem, type StopDraft } from '../../lib/plan-form';
import { useApi } from '../../lib/use-api';
import { FindDriver } from '../dispatch/FindDriver';
import { PlanHosFields } from './PlanHosFields';
import { PlanOptionsFields } from './PlanOptionsFields';
import { PlanStopFields } from './PlanStopFields';
import './routes.css';

const MAX_STOPS = 25;
const PICK_SIZE = 100;

export function PlanRoutePage() {
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const zone = browserZone();
  const [draft, setDraft] = useState<PlanDraft>(() => ({ ...emptyDraft(zone, nextQuarterHour(Date.now(), zone)), driverId: search.get('driverId') ?? '' }));
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<PlanProblem[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const drivers = useApi(() => unwrap(api.GET('/api/v1/drivers', { params: { query: { status: 'ACTIVE', pageSize: PICK_SIZE } } })), []);
  // The routes of the chosen driver and co-driver, to say before planning which still run at the departure.
  const assigned = [draft.driverId, draft.coDriverId].filter(Boolean);
  const booked = useApi(
    async () => (await Promise.all(assigned.map((driverId) => unwrap(api.GET('/api/v1/routes', { params: { query: { driverId, pageSize: 100 } } }))))).flatMap((p) => p.data),
    [assigned.join(',')],
  );
  const vehicles = useApi(() => unwrap(api.GET('/api/v1/vehicles', { params: { query: { status: 'ACTIVE', pageSize: PICK_SIZE } } })), []);
  const loads = useApi(() => unwrap(api.GET('/api/v1/loads', { params: { query: { status: 'PENDING', pageSize: PICK_SIZE } } })), []);

  // After a refused attempt, focus moves to the summary of what to fix.
  useEffect(() => {
    if (problems.length > 0 || Object.keys(clientErrors).length > 0 || error) document.getElementById('plan-errors')?.focus();
  }, [problems, clientErrors, error]);

  const update = (patch: Partial<PlanDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setStops = (stops: StopDraft[]) => {
    update({ stops });
    // Problems name stops by position: once stops move, the old ones no longer line up.
    setProblems([]);
    setClientErrors({});
  };

  async function submit(d: PlanDraft) {
    setError(null);
    setProblems([]);
    const built = buildPlanRequest(d);
    setClientErrors(built.errors);
    if (!built.body) return;
    setBusy(true);
    try {
      const plan = await unwrap(api.POST('/api/v1/routes/plan', { body: built.body }));
      navigate(`/routes/${plan.id}`);
    } catch (e) {
      setError(e);
      if (e instanceof ApiError) setProblems(planProblems(e.body.details));
    } finally {
      setBusy(false);
    }
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit(draft);
  };
  const choose = (i: number, c: string) => {
    const next = applyCandidate(draft, i, c);
    setDraft(next);
    void submit(next);
  };

  const serverErrors = Object.fromEntries(problems.map((p) => [p.field, p.message]));
  const errors = { ...serverErrors, ...clientErrors };
  const general = problems.filter((p) => p.stopIndex === null);
  const stopsToFix = [...new Set(problems.flatMap((p) => (p.stopIndex === null ? [] : [p.stopIndex])))];
  const clientCount = Object.keys(clientErrors).length;

  const driverOptions = [{ value: '', label: drivers.data ? 'Choose a driver…' : 'Loading drivers…' }, ...(drivers.data?.data ?? []).map((x) => ({ value: x.id, label: driverChoice(x) }))];
  const coDriverOptions = [{ value: '', label: 'None (one driver)' }, ...coDriverCandidates(drivers.data?.data ?? [], draft.driverId).map((x) => ({ value: x.id, label: driverChoice(x) }))];
  const departureMs = draft.departure ? wallTimeToMs(draft.departure, zone) : Date.now();
  const nameOfDriver = (id: string) => {
    const x = drivers.data?.data.find((d) => d.id === id);
    return x ? `${x.firstName} ${x.lastName}` : 'The driver';
  };
  const notices = assigned.flatMap((id) => bookingNotices(booked.data ?? [], id, nameOfDriver(id), Number.isNaN(departureMs) ? Date.now() : departureMs));
  const vehicleOptions = [{ value: '', label: 'No vehicle (the driver’s own truck if they have one, else a default tank and fuel economy)' }, ...(vehicles.data?.data ?? []).map((v) => ({ value: v.id, label: vehicleChoice(v) }))];
  const loadOptions = [{ value: '', label: 'No load' }, ...(loads.data?.data ?? []).map((l) => ({ value: l.id, label: loadChoice(l) }))];
  const refused = refusedStopsMessage(stopsToFix);

  return (
    <section className="plan-route">
      <PageHeader title="Plan a route">
        <p className="muted">The planner inserts the rests, 30-minute breaks and fuel stops the trip needs under the HOS rules, and checks the plan has no violation.</p>
      </PageHeader>
      <form onSubmit={onSubmit} noValidate aria-describedby="plan-errors">
        <div id="plan-errors" tabIndex={-1} className="plan-errors">
          {clientCount > 0 && (
            <div className="banner banner-error" role="alert">
              Check the {clientCount === 1 ? 'field' : `${clientCount} fields`} marked below.
            </div>
          )}
          {Boolean(error) && <ErrorBanner error={refused ? new Error(refused) : error} />}
          {general.length > 0 && (
            <ul className="field-error">
              {general.map((p) => (
                <li key={p.field + p.message}>{p.message}</li>
              ))}
            </ul>
          )}
        </div>
        <ErrorBanner error={drivers.error ?? vehicles.error ?? loads.error} />

        <fieldset>
          <legend>Who and what</legend>
          <div className="row">
            <SelectField
              label="Driver"
              value={draft.driverId}
              onChange={(e) => {
                const id = e.target.value;
                // Their own truck, unless a vehicle is chosen already (the planner takes it the same way).
                const truck = truckOf(drivers.data?.data.find((x) => x.id === id), vehicles.data?.data ?? []);
                setDraft((d) => ({ ...withDriver(d, id), vehicleId: d.vehicleId || (truck?.id ?? '') }));
              }}
              options={driverOptions}
              required
              aria-invalid={errors['body.driverId'] ? true : undefined}
            />
            <SelectField
              label="Co-driver (team driving)"
              value={draft.coDriverId}
              onChange={(e) => update({ coDriverId: e.target.value })}
              options={coDriverOptions}
              hint="A second driver in the truck: the two take turns at the wheel"
              aria-invalid={errors['body.coDriverId'] ? true : undefined}
            />
            <SelectField label="Vehicle" value={draft.vehicleId} onChange={(e) => update({ vehicleId: e.target.value })} options={vehicleOptions} hint="Its tank size and fuel economy are used" />
            <SelectField label="Load" value={draft.loadId} onChange={(e) => update({ loadId: e.target.value })} options={loadOptions} hint="With a load and every stop left empty, the load’s pickup and delivery are the stops" />
          </div>
          {notices.map((n) => (
            <Notice key={n.routeId} tone="warning">
              {n.text} <Link href={`/routes/${n.routeId}`}>Open that route</Link>
            </Notice>
          ))}
          {errors['body.driverId'] && <p className="field-error">{errors['body.driverId']}</p>}
          {errors['body.coDriverId'] && <p className="field-error">{errors['body.coDriverId']}</p>}
          {drivers.data && drivers.data.total === 0 && (
            <p className="muted">
              No active driver yet. <Link href="/drivers">Add a driver</Link> first.
            </p>
          )}
          {drivers.data && drivers.data.total > PICK_SIZE && <p className="muted small">The first {PICK_SIZE} of {drivers.data.total} active drivers are listed; plan from a driver’s page for the others.</p>}
        </fieldset>

        <fieldset>
          <legend>Stops</legend>
          <p className="muted small">The first stop is where the trip starts. Appointment times are read in each stop’s own local time.</p>
          {draft.stops.map((s, i) => (
            <PlanStopFields
              key={s.key}
              index={i}
              count={draft.stops.length}
              stop={s}
              errors={errors}
              problems={problems.filter((p) => p.stopIndex === i)}
              onChange={(next) => update({ stops: draft.stops.map((x, j) => (j === i ? next : x)) })}
              onMove={(by) => setStops(moveStop(draft.stops, i, by))}
              onRemove={() => setStops(draft.stops.filter((_, j) => j !== i))}
              onCandidate={(c) => choose(i, c)}
              busy={busy}
            />
          ))}
          <Button onClick={() => setStops([...draft.stops, emptyStop()])} disabled={draft.stops.length >= MAX_STOPS}>
            Add a stop
          </Button>
          {errors['body.stops'] && <p className="field-error">{errors['body.stops']}</p>}
        </fieldset>

        <fieldset className="find-driver-fields">
          <legend>Find a driver</legend>
          <p className="muted small">Ranks every active driver for the stops after the first (each driver starts where they are), or for the chosen load when the stops are empty.</p>
          <FindDriver
            key={JSON.stringify([draft.loadId, draft.stops])}
            request={() => candidatesRequestFromDraft(draft)}
            planExtra={{ vehicleId: draft.vehicleId || undefined, loadId: draft.loadId || undefined }}
            onInvalid={setClientErrors}
          />
        </fieldset>

        <fieldset>
          <legend>When</legend>
          <div className="row">
            <Field label="Departure" type="datetime-local" value={draft.departure} onChange={(e) => update({ departure: e.target.value })} hint={`Your time zone (${zone}); empty: now`} error={errors['body.departureTime']} />
          </div>
        </fieldset>

        <PlanHosFields draft={draft} errors={errors} update={update} />

        <PlanOptionsFields draft={draft} errors={errors} update={update} />

        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy}>
            {busy ? 'Planning…' : 'Plan route'}
          </Button>
          <Link href="/routes">Cancel</Link>
        </div>
      </form>
    </section>
  );
}
