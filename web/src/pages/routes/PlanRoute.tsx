/**
 * Plan a route: driver, vehicle, load, stops (a place to look up or coordinates; appointments in the
 * stop's local time), departure, the driver's current HOS (from their log, or typed in) and planning
 * options, sent to the planner. An ambiguous or misspelt place comes back with the geocoder's
 * candidates: each is a button that fills the stop and plans again. A plan opens its page.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, ApiError, unwrap } from '../../api/client';
import { Button, ErrorBanner, Field, PageHeader, SelectField } from '../../components/ui';
import { hoursMinutes } from '../../lib/format';
import { browserZone, nextQuarterHour } from '../../lib/local-time';
import { applyCandidate, buildPlanRequest, DISTANCE_METHODS, emptyDraft, emptyStop, moveStop, planProblems, STOP_TYPES, type PlanDraft, type PlanProblem, type StopDraft } from '../../lib/plan-form';
import { useApi } from '../../lib/use-api';
import './routes.css';

const MAX_STOPS = 25;
const PICK_SIZE = 100;

const STOP_TYPE_LABELS: Record<string, string> = { '': 'Automatic (origin first, delivery last)', ORIGIN: 'Origin', PICKUP: 'Pickup', DELIVERY: 'Delivery', WAYPOINT: 'Waypoint' };
const METHOD_LABELS: Record<string, string> = {
  '': 'Server default',
  haversine: 'Straight line (great circle)',
  haversine_road: 'Straight line × road factor (about 4 % off)',
  osrm: 'Road network (OSRM, when configured)',
};

function stopTitle(i: number, count: number, s: StopDraft): string {
  const role = s.type ? STOP_TYPE_LABELS[s.type]!.toLowerCase() : i === 0 ? 'origin' : i === count - 1 ? 'delivery' : 'waypoint';
  return `Stop ${i + 1} — ${role}`;
}

function Checkbox({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (v: boolean) => void; hint?: string }) {
  const id = useId();
  return (
    <div className="check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
      <label htmlFor={id}>{label}</label>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

function StopFields({
  index,
  count,
  stop,
  errors,
  problems,
  onChange,
  onMove,
  onRemove,
  onCandidate,
  busy,
}: {
  index: number;
  count: number;
  stop: StopDraft;
  errors: Record<string, string>;
  problems: PlanProblem[];
  onChange: (s: StopDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onCandidate: (c: string) => void;
  busy: boolean;
}) {
  const f = `body.stops.${index}`;
  const set = (patch: Partial<StopDraft>) => onChange({ ...stop, ...patch });
  const title = stopTitle(index, count, stop);
  const modeName = useId();
  const addressProblem = problems.find((p) => p.field === `${f}.address`);
  const otherProblems = problems.filter((p) => p !== addressProblem);
  const candidates = problems.flatMap((p) => p.candidates);
  const ambiguous = addressProblem && /more than one place/.test(addressProblem.message);
  return (
    <fieldset className="stop" data-testid="stop">
      <legend>{title}</legend>
      <div className="stop-tools">
        <Button variant="link" onClick={() => onMove(-1)} disabled={index === 0} aria-label={`Move stop ${index + 1} up`}>
          ↑ Up
        </Button>
        <Button variant="link" onClick={() => onMove(1)} disabled={index === count - 1} aria-label={`Move stop ${index + 1} down`}>
          ↓ Down
        </Button>
        <Button variant="link" onClick={onRemove} disabled={count <= 2} aria-label={`Remove stop ${index + 1}`}>
          Remove
        </Button>
      </div>
      <div className="row">
        <Field label={`Stop ${index + 1} name`} hint="Optional; by default the place found" value={stop.name} onChange={(e) => set({ name: e.target.value })} maxLength={200} />
        <SelectField label={`Stop ${index + 1} type`} value={stop.type} onChange={(e) => set({ type: e.target.value as StopDraft['type'] })} options={['', ...STOP_TYPES].map((t) => ({ value: t, label: STOP_TYPE_LABELS[t]! }))} />
      </div>
      <div className="mode" role="radiogroup" aria-label={`Stop ${index + 1}: where`}>
        {(['address', 'coordinates'] as const).map((m) => (
          <label key={m} className="radio">
            <input type="radio" name={modeName} value={m} checked={stop.mode === m} onChange={() => set({ mode: m })} />
            {m === 'address' ? 'City, ZIP code or address' : 'Latitude and longitude'}
          </label>
        ))}
      </div>
      {stop.mode === 'address' ? (
        <Field
          label={`Stop ${index + 1} place`}
          hint="A US, Canadian or Mexican city with its state (“Dallas, TX”), a ZIP code, or a street address"
          value={stop.address}
          onChange={(e) => set({ address: e.target.value })}
          error={addressProblem?.message ?? errors[`${f}.address`]}
          maxLength={300}
          autoComplete="off"
        />
      ) : (
        <div className="row">
          <Field label={`Stop ${index + 1} latitude`} inputMode="decimal" value={stop.latitude} onChange={(e) => set({ latitude: e.target.value })} error={errors[`${f}.latitude`]} placeholder="32.7767" />
          <Field label={`Stop ${index + 1} longitude`} inputMode="decimal" value={stop.longitude} onChange={(e) => set({ longitude: e.target.value })} error={errors[`${f}.longitude`]} placeholder="-96.797" />
        </div>
      )}
      {candidates.length > 0 && (
        <div className="candidates" role="group" aria-label={`Stop ${index + 1}: ${ambiguous ? 'which place?' : 'did you mean?'}`}>
          <span>{ambiguous ? 'Which one?' : 'Did you mean'}</span>
          {candidates.map((c) => (
            <Button key={c} onClick={() => onCandidate(c)} disabled={busy} aria-label={`Use ${c} for stop ${index + 1}`}>
              {c}
            </Button>
          ))}
        </div>
      )}
      {otherProblems.map((p) => (
        <p key={p.field + p.message} className="field-error">
          {p.message}
        </p>
      ))}
      <div className="row">
        <Field
          label={`Stop ${index + 1} appointment from`}
          type="datetime-local"
          hint="The stop’s local time"
          value={stop.earliest}
          onChange={(e) => set({ earliest: e.target.value })}
          error={errors[`${f}.appointment.earliest`] ?? errors[`${f}.appointment`]}
        />
        <Field label={`Stop ${index + 1} appointment until`} type="datetime-local" hint="The stop’s local time" value={stop.latest} onChange={(e) => set({ latest: e.target.value })} error={errors[`${f}.appointment.latest`]} />
        <Field
          label={`Stop ${index + 1} hours at the dock`}
          type="number"
          min={0}
          max={48}
          step={0.25}
          hint="Loading or unloading; default 0"
          value={stop.dockHours}
          onChange={(e) => set({ dockHours: e.target.value })}
          error={errors[`${f}.dockDurationHours`]}
        />
      </div>
    </fieldset>
  );
}

function DriverHos({ driverId }: { driverId: string }) {
  const hos = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}/hos', { params: { path: { driverId } } })), [driverId]);
  if (hos.error) return <p className="muted small">The driver’s HOS record could not be read: {hos.error.message}</p>;
  if (!hos.data) return <p className="muted small">Reading the driver’s HOS record…</p>;
  const h = hos.data;
  return (
    <p className="muted small" data-testid="driver-hos">
      From the driver’s log now: {hoursMinutes(h.driveTimeRemaining)} driving left, {hoursMinutes(h.dutyTimeRemaining)} left in the on-duty window, {hoursMinutes(h.cycleTimeRemaining)} left in the cycle.
    </p>
  );
}

export function PlanRoutePage() {
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const zone = browserZone();
  const [draft, setDraft] = useState<PlanDraft>(() => ({ ...emptyDraft(zone, nextQuarterHour(Date.now(), zone)), driverId: search.get('driverId') ?? '' }));
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<PlanProblem[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const hosModeName = useId();

  const drivers = useApi(() => unwrap(api.GET('/api/v1/drivers', { params: { query: { status: 'ACTIVE', pageSize: PICK_SIZE } } })), []);
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

  const driverOptions = [{ value: '', label: drivers.data ? 'Choose a driver…' : 'Loading drivers…' }, ...(drivers.data?.data ?? []).map((x) => ({ value: x.id, label: `${x.firstName} ${x.lastName} (${x.licenseState} ${x.licenseNumber})` }))];
  const vehicleOptions = [{ value: '', label: 'No vehicle (default tank and fuel economy)' }, ...(vehicles.data?.data ?? []).map((v) => ({ value: v.id, label: `${v.unitNumber}${v.make ? ` — ${v.make}${v.model ? ` ${v.model}` : ''}` : ''} (${v.fuelTankGallons} gal, ${v.mpg} mpg)` }))];
  const loadOptions = [{ value: '', label: 'No load' }, ...(loads.data?.data ?? []).map((l) => ({ value: l.id, label: `${l.referenceNumber}${l.originAddress && l.destinationAddress ? ` — ${l.originAddress} → ${l.destinationAddress}` : ''}` }))];

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
          {Boolean(error) && <ErrorBanner error={stopsToFix.length > 0 ? new Error(`The planner could not use ${stopsToFix.length === 1 ? `stop ${stopsToFix[0]! + 1}` : `stops ${stopsToFix.map((i) => i + 1).join(', ')}`}: see below.`) : error} />}
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
            <SelectField label="Driver" value={draft.driverId} onChange={(e) => update({ driverId: e.target.value })} options={driverOptions} required aria-invalid={errors['body.driverId'] ? true : undefined} />
            <SelectField label="Vehicle" value={draft.vehicleId} onChange={(e) => update({ vehicleId: e.target.value })} options={vehicleOptions} hint="Its tank size and fuel economy are used" />
            <SelectField label="Load" value={draft.loadId} onChange={(e) => update({ loadId: e.target.value })} options={loadOptions} hint="With a load and every stop left empty, the load’s pickup and delivery are the stops" />
          </div>
          {errors['body.driverId'] && <p className="field-error">{errors['body.driverId']}</p>}
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
            <StopFields
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

        <fieldset>
          <legend>When</legend>
          <div className="row">
            <Field label="Departure" type="datetime-local" value={draft.departure} onChange={(e) => update({ departure: e.target.value })} hint={`Your time zone (${zone}); empty: now`} error={errors['body.departureTime']} />
          </div>
        </fieldset>

        <fieldset>
          <legend>Driver’s hours of service at departure</legend>
          <div className="mode" role="radiogroup" aria-label="Driver’s current HOS">
            <label className="radio">
              <input type="radio" name={hosModeName} checked={draft.hosMode === 'log'} onChange={() => update({ hosMode: 'log' })} />
              Use the driver’s HOS log (recommended)
            </label>
            <label className="radio">
              <input type="radio" name={hosModeName} checked={draft.hosMode === 'manual'} onChange={() => update({ hosMode: 'manual' })} />
              Enter the current hours
            </label>
          </div>
          {draft.hosMode === 'log' ? (
            draft.driverId ? (
              <DriverHos driverId={draft.driverId} />
            ) : (
              <p className="muted small">The planner reads the driver’s duty-status log up to the departure.</p>
            )
          ) : (
            <div className="row">
              <Field label="Hours driven (this shift)" type="number" min={0} max={24} step={0.25} value={draft.hoursDriven} onChange={(e) => update({ hoursDriven: e.target.value })} error={errors['body.driverState.hoursDriven']} />
              <Field label="Hours on duty (this shift)" type="number" min={0} max={24} step={0.25} value={draft.onDutyHours} onChange={(e) => update({ onDutyHours: e.target.value })} error={errors['body.driverState.onDutyHours']} />
              <Field label="Hours since the last break" type="number" min={0} max={24} step={0.25} value={draft.hoursSinceBreak} onChange={(e) => update({ hoursSinceBreak: e.target.value })} error={errors['body.driverState.hoursSinceBreak']} />
              <Field label="Cycle hours used (60/70)" type="number" min={0} max={120} step={0.25} value={draft.cycleHoursUsed} onChange={(e) => update({ cycleHoursUsed: e.target.value })} error={errors['body.driverState.cycleHoursUsed']} />
            </div>
          )}
          {errors['body.driverState'] && <p className="field-error">{errors['body.driverState']}</p>}
        </fieldset>

        <details className="options">
          <summary>Planning options</summary>
          <div className="row">
            <SelectField label="Distance method" value={draft.distanceMethod} onChange={(e) => update({ distanceMethod: e.target.value as PlanDraft['distanceMethod'] })} options={['', ...DISTANCE_METHODS].map((m) => ({ value: m, label: METHOD_LABELS[m]! }))} />
            <Field label="Average speed (mph)" type="number" min={15} max={80} placeholder="55" value={draft.averageSpeedMph} onChange={(e) => update({ averageSpeedMph: e.target.value })} error={errors['body.options.averageSpeedMph']} hint="Default 55" />
            <Field label="Diesel price ($/gal)" type="number" min={0.5} max={20} step={0.01} placeholder="3.85" value={draft.fuelPricePerGallon} onChange={(e) => update({ fuelPricePerGallon: e.target.value })} error={errors['body.options.fuelPricePerGallon']} hint="Where no station price is known; default 3.85" />
          </div>
          <div className="row">
            <Field label="Tank size (gal)" type="number" min={10} max={400} placeholder="vehicle’s or 150" value={draft.fuelTankGallons} onChange={(e) => update({ fuelTankGallons: e.target.value })} error={errors['body.options.fuelTankGallons']} />
            <Field label="Fuel economy (mpg)" type="number" min={2} max={15} step={0.1} placeholder="vehicle’s or 6.5" value={draft.mpg} onChange={(e) => update({ mpg: e.target.value })} error={errors['body.options.mpg']} />
            <Field label="Fuel at departure (gal)" type="number" min={0} max={400} placeholder="a full tank" value={draft.startingFuelGallons} onChange={(e) => update({ startingFuelGallons: e.target.value })} error={errors['body.options.startingFuelGallons']} />
          </div>
          <Checkbox label="Insert fuel stops" checked={draft.includeFuelStops} onChange={(v) => update({ includeFuelStops: v })} hint="Where the tank would run low" />
          <Checkbox label="Reorder the stops for the shortest trip" checked={draft.optimizeStopOrder} onChange={(v) => update({ optimizeStopOrder: v })} hint="Keeps the origin first, each pickup before its delivery; at most 10 stops" />
        </details>

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
