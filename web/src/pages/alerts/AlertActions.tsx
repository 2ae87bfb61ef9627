/**
 * What can be done with an alert, in its row or in its panel: acknowledge, snooze, resolve (for a
 * dispatcher or above, while it is not resolved), re-plan its route from where the truck is (the alerts
 * a re-plan answers: off route, late or at risk for an appointment, close to an HOS limit, severe weather
 * ahead; the route page opens with the preview) and, in a row, open its details and notes.
 */
import { Link } from 'wouter';
import { Button } from '../../components/ui';
import type { AlertRow } from '../../lib/alert-feed';
import { offersReplan, replanHref } from '../../lib/replan';

export interface AlertActionHandlers {
  canWrite: boolean;
  /** `${alertId}:ack` while that alert is being acknowledged. */
  busy: string | null;
  onAcknowledge: (a: AlertRow) => void;
  onSnooze: (a: AlertRow) => void;
  onResolve: (a: AlertRow) => void;
  onDetails: (a: AlertRow) => void;
}

export function AlertActions({ alert: a, where, canWrite, busy, onAcknowledge, onSnooze, onResolve, onDetails }: { alert: AlertRow; where: 'row' | 'panel' } & AlertActionHandlers) {
  const details = where === 'row' && (
    <Button variant="link" onClick={() => onDetails(a)}>
      Details &amp; notes
    </Button>
  );
  if (!canWrite || a.status === 'RESOLVED') return where === 'row' ? <div className="alert-actions">{details}</div> : null;
  return (
    <div className="alert-actions" role="group" aria-label={`Actions for ${a.title}`}>
      {(a.status === 'ACTIVE' || a.status === 'SNOOZED') && (
        <Button variant="primary" busy={busy === `${a.id}:ack`} onClick={() => onAcknowledge(a)}>
          Acknowledge
        </Button>
      )}
      <Button onClick={() => onSnooze(a)}>Snooze…</Button>
      <Button onClick={() => onResolve(a)}>Resolve…</Button>
      {offersReplan(a) && (
        <Link href={replanHref(a.routePlanId!)} className="btn btn-secondary alert-replan">
          Re-plan from here
        </Link>
      )}
      {details}
    </div>
  );
}
