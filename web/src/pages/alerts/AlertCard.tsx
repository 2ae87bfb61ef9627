/** One alert in the feed: priority, title, status, message, who and what it is about, when it was raised. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { StatusBadge } from '../../components/ui';
import { alertTypeLabel, raisedLabel, type AlertRow } from '../../lib/alert-feed';
import { dateTime } from '../../lib/format';

export function AlertCard({ alert: a, fresh, now, actions }: { alert: AlertRow; fresh: boolean; now: number; actions: ReactNode }) {
  const titleId = `alert-${a.id}-title`;
  return (
    <article className={`alert-card prio-${a.priority.toLowerCase()}${fresh ? ' alert-fresh' : ''}`} aria-labelledby={titleId} data-alert-id={a.id}>
      <div className="alert-head">
        <span className="alert-priority">
          <span className="visually-hidden">Priority: </span>
          <StatusBadge value={a.priority} />
        </span>
        <h3 id={titleId}>{a.title}</h3>
        {fresh && <span className="badge alert-new-badge">New</span>}
        <span className="alert-status">
          <span className="visually-hidden">Status: </span>
          <StatusBadge value={a.status} />
        </span>
      </div>
      <p className="alert-message">{a.message}</p>
      <dl className="alert-meta">
        <div>
          <dt>Type</dt>
          <dd>{alertTypeLabel(a)}</dd>
        </div>
        <div>
          <dt>Driver</dt>
          <dd>{a.driverId ? <Link href={`/drivers/${a.driverId}`}>{a.driverName ?? 'Driver'}</Link> : '—'}</dd>
        </div>
        <div>
          <dt>Vehicle</dt>
          <dd>{a.vehicleId ? <Link href={`/vehicles/${a.vehicleId}`}>{a.vehicleUnit ?? 'Vehicle'}</Link> : '—'}</dd>
        </div>
        <div>
          <dt>Route</dt>
          <dd>{a.routePlanId ? <Link href={`/routes/${a.routePlanId}`}>View route</Link> : '—'}</dd>
        </div>
        <div>
          <dt>Raised</dt>
          <dd>
            <time dateTime={a.createdAt} title={dateTime(a.createdAt)}>
              {raisedLabel(a.createdAt, Math.max(now, Date.now()))}
            </time>
          </dd>
        </div>
        {a.status === 'SNOOZED' && a.snoozedUntil && (
          <div>
            <dt>Snoozed until</dt>
            <dd>
              <time dateTime={a.snoozedUntil}>{dateTime(a.snoozedUntil)}</time>
            </dd>
          </div>
        )}
        {a.status === 'RESOLVED' && a.resolution && (
          <div>
            <dt>Resolution</dt>
            <dd>{a.resolution}</dd>
          </div>
        )}
      </dl>
      {actions}
    </article>
  );
}
