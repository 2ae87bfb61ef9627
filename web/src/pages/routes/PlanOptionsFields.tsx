/** The plan-a-route form's planning options: distance method, speed, fuel price, tank and economy, fuel stops, reordering. */
import { useId } from 'react';
import { Field, SelectField } from '../../components/ui';
import { DISTANCE_METHODS, type PlanDraft } from '../../lib/plan-form';

const METHOD_LABELS: Record<string, string> = {
  '': 'Server default',
  haversine: 'Straight line (great circle)',
  haversine_road: 'Straight line × road factor (about 4 % off)',
  osrm: 'Road network (OSRM, when configured)',
};

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

export function PlanOptionsFields({ draft, errors, update }: { draft: PlanDraft; errors: Record<string, string>; update: (patch: Partial<PlanDraft>) => void }) {
  return (
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
  );
}
