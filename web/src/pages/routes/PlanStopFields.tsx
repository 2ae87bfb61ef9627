/**
 * One stop of the plan-a-route form: its name and type, the place (to look up, or coordinates), the
 * geocoder's candidates to choose from when the place was ambiguous or misspelt, the appointment in the
 * stop's local time and the hours at the dock; moved up or down, or removed.
 */
import { useId } from 'react';
import { Button, Field, SelectField } from '../../components/ui';
import { STOP_TYPE_LABELS, stopTitle } from '../../lib/plan-choices';
import { STOP_TYPES, type PlanProblem, type StopDraft } from '../../lib/plan-form';

export function PlanStopFields({
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
