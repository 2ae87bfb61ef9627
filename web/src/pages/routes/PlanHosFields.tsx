/**
 * The plan-a-route form's HOS at departure: read from the driver's log (shown), or the hours typed in.
 * A team's co-driver's HOS is read from their log (shown).
 */
import { useId } from 'react';
import { api, unwrap } from '../../api/client';
import { Field } from '../../components/ui';
import { hoursMinutes } from '../../lib/format';
import type { PlanDraft } from '../../lib/plan-form';
import { useApi } from '../../lib/use-api';

function DriverHos({ driverId, who = 'driver' }: { driverId: string; who?: 'driver' | 'co-driver' }) {
  const hos = useApi(() => unwrap(api.GET('/api/v1/drivers/{driverId}/hos', { params: { path: { driverId } } })), [driverId]);
  if (hos.error) return <p className="muted small">The {who}’s HOS record could not be read: {hos.error.message}</p>;
  if (!hos.data) return <p className="muted small">Reading the {who}’s HOS record…</p>;
  const h = hos.data;
  return (
    <p className="muted small" data-testid={`${who}-hos`}>
      From the {who}’s log now: {hoursMinutes(h.driveTimeRemaining)} driving left, {hoursMinutes(h.dutyTimeRemaining)} left in the on-duty window, {hoursMinutes(h.cycleTimeRemaining)} left in the cycle.
    </p>
  );
}

export function PlanHosFields({ draft, errors, update }: { draft: PlanDraft; errors: Record<string, string>; update: (patch: Partial<PlanDraft>) => void }) {
  const hosModeName = useId();
  return (
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
      {draft.coDriverId && <DriverHos driverId={draft.coDriverId} who="co-driver" />}
      {errors['body.coDriverState'] && <p className="field-error">{errors['body.coDriverState']}</p>}
    </fieldset>
  );
}
