/** The four HOS clocks a dispatcher and a driver watch: drive, on-duty window, cycle, time to the break. */
import type { Ok } from '../api/client';
import { DUTY_LABELS, type DutyStatus } from '../lib/duty';
import { hoursMinutes, humanize, relative } from '../lib/format';

export type HosRecord = Ok<'/api/v1/drivers/{driverId}/hos'>;

function Clock({ label, hours, low = 1 }: { label: string; hours: number | null; low?: number }) {
  return (
    <div className={`clock ${hours !== null && hours <= low ? 'clock-low' : ''}`} data-clock={label}>
      <div className="clock-label">{label}</div>
      <div className="clock-value">{hours === null ? 'n/a' : hoursMinutes(hours)}</div>
    </div>
  );
}

/** `showStatus`: the line with the current duty status (off where the page already says it). */
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
            Now: <strong>{DUTY_LABELS[hos.currentDutyStatus as DutyStatus] ?? humanize(hos.currentDutyStatus)}</strong>
            {hos.lastStatusChange && <> since {relative(hos.lastStatusChange)}</>} ·{' '}
          </>
        )}
        Rules {hos.ruleSet.replace(/_/g, ' ')} · source {hos.source}
        {hos.lastSyncedAt && <> (synced {relative(hos.lastSyncedAt)})</>}
      </p>
      {hos.violations.length > 0 && (
        <div className="banner banner-error" role="alert">
          {hos.violations.length} violation{hos.violations.length > 1 ? 's' : ''}: {hos.violations.map((v) => v.explanation).join(' ')}
        </div>
      )}
    </section>
  );
}
