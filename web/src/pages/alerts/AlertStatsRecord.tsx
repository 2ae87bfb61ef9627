/** The statistics record of an analytics range: counts by status, average times, by priority and category. */
import { label } from '../../lib/glossary';
import { minutesLabel, type AlertStats } from '../../lib/alert-analytics';
import { CATEGORIES, PRIORITIES } from '../../lib/alert-feed';

/** "1 violation, 1 limit reached, 2 approaching". */
export function hosSplit(h: AlertStats['hos']): string {
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  return `${n(h.violations, 'violation')}, ${n(h.limitsReached, 'limit reached', 'limits reached')}, ${h.approaching} approaching`;
}

export function AlertStatsRecord({ stats: s }: { stats: AlertStats }) {
  const items: Array<[string, string]> = [
    ['Raised', String(s.total)],
    ['Active', String(s.byStatus.ACTIVE ?? 0)],
    ['Acknowledged', String(s.byStatus.ACKNOWLEDGED ?? 0)],
    ['Snoozed', String(s.byStatus.SNOOZED ?? 0)],
    ['Resolved', String(s.byStatus.RESOLVED ?? 0)],
    ['Average time to acknowledge', minutesLabel(s.averageResponseTimeMinutes)],
    ['Average time to resolve', minutesLabel(s.averageResolutionTimeMinutes)],
  ];
  return (
    <section aria-label="Statistics for the range" className="stack">
      <dl className="analytics-stats">
        {items.map(([k, v]) => (
          <div key={k} className="stat">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <ul className="analytics-split" aria-label="By priority">
        <li className="muted">By priority</li>
        {PRIORITIES.map((p) => (
          <li key={p}>
            {label('priority', p)}: <strong>{s.byPriority[p] ?? 0}</strong>
          </li>
        ))}
      </ul>
      <ul className="analytics-split" aria-label="By category">
        <li className="muted">By category</li>
        {CATEGORIES.map((c) => (
          <li key={c}>
            {label('category', c)}: <strong>{s.byCategory[c] ?? 0}</strong>
            {c === 'HOS_VIOLATION' && (
              // Most hours-of-service alerts are warnings: say how many were violations.
              <span className="muted" data-testid="hos-split">
                {' '}
                ({hosSplit(s.hos)})
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
