/** The four HOS clocks a dispatcher and a driver watch: drive, on-duty window, cycle, time to the break. */
import type { Ok } from '../api/client';
import { clockSourceText, label } from '../lib/glossary';
import { hoursMinutes, relative } from '../lib/format';

export type HosRecord = Ok<'/api/v1/drivers/{driverId}/hos'>;

function Clock({ label, hours, low = 1 }: { label: string; hours: number | null; low?: number }) {
  return (
    <div className={`clock ${hours !== null && hours <= low ? 'clock-low' : ''}`} data-clock={label}>
      <div className="clock-label">{label}</div>
      <div className="clock-value">{hours === null ? 'n/a' : hoursMinutes(hours)}</div>
    </div>
  );
}

/**
 * `showStatus`: the line with the current duty status (off where the page already says it). The clocks
 * are the one truth every screen shows (the API's hosNow): their source is named, and when an ELD and the
 * log disagree the difference is said, not hidden.
 */
export function HosClocks({ hos, showStatus = true }: { hos: HosRecord; showStatus?: boolean }) {
  return (
    <section aria-label="HOS clocks">
      <div className="clocks">
        <Clock label="Drive time left" hours={hos.driveTimeRemaining} />
        <Clock label="On-duty window left" hours={hos.dutyTimeRemaining} />
        <Clock label="Cycle left" hours={hos.cycleTimeRemaining} low={5} />
        <Clock label="Break due in" hours={hos.breakRequiredWithin} low={0.5} />
      </div>
      <p className="muted">
        {showStatus && (
          <>
            Now: <strong>{label('dutyStatus', hos.currentDutyStatus)}</strong>
            {hos.lastStatusChange && <> since {relative(hos.lastStatusChange)}</>} ·{' '}
          </>
        )}
        <span data-testid="clock-source">Clocks {clockSourceText(hos.clockSource)}</span> · Rules: {label('ruleSet', hos.ruleSet)}
      </p>
      {hos.disagreement && (
        <div className="banner banner-warning" role="status" data-testid="hos-disagreement">
          {hos.disagreement.message}
        </div>
      )}

      {hos.violations.length > 0 && (
        <div className="banner banner-error" role="alert">
          {hos.violations.length} violation{hos.violations.length > 1 ? 's' : ''}: {hos.violations.map((v) => v.explanation).join(' ')}
        </div>
      )}
    </section>
  );
}
