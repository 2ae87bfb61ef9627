/**
 * A correction request as the dispatcher and the driver see it: what it changes (from – to, the statuses it
 * puts there), why (the requester's annotation), who asked and when, and each day it touches before and
 * after (the API's `before` / `after`: the same figures on both sides). Actions (Accept / Reject, Cancel)
 * come from the page.
 */
import type { ReactNode } from 'react';
import { dayOf, type LogEdit } from '../../lib/daily-log';
import { inZone } from '../../lib/local-time';
import { clockTime, dayTitle, entriesText } from '../../lib/log-words';
import { label } from '../../lib/glossary';
import { LogDayGrid } from './LogParts';

export function CorrectionRequest({ edit, timeZone, requester, children, headingLevel = 3 }: { edit: LogEdit; timeZone: string; requester: string; children?: ReactNode; headingLevel?: 3 | 4 }) {
  const H = `h${headingLevel}` as 'h3';
  const titleId = `edit-${edit.id}-title`;
  // Over one day the clock time says it; over two, the date too.
  const at = (iso: string) => (edit.dates.length > 1 ? inZone(iso, timeZone) : clockTime(iso, timeZone));
  return (
    <article className="log-request" aria-labelledby={titleId} data-testid="correction-request">
      <H id={titleId}>
        {edit.status === 'PENDING' ? 'Correction request' : 'Correction'} of {edit.dates.map(dayTitle).join(' and ')}
      </H>
      <p className="log-request-status">
        <span className="badge badge-amber">{label('logEditStatus', edit.status)}</span> {requester} asked {inZone(edit.requestedAt, timeZone)}.
      </p>
      <dl className="log-request-facts">
        <div>
          <dt>Changes</dt>
          <dd>
            From {at(edit.from)} to {at(edit.to)}: {entriesText(edit.entries, timeZone)}
          </dd>
        </div>
        <div>
          <dt>Why</dt>
          <dd data-testid="request-annotation">“{edit.annotation}”</dd>
        </div>
      </dl>
      {edit.dates.map((date) => {
        const before = dayOf(edit.before, date);
        const after = dayOf(edit.after, date);
        return (
          <div className="log-before-after" key={date}>
            {before && (
              <figure className="log-before" data-testid="request-before">
                <figcaption>Before — {dayTitle(date)}</figcaption>
                <LogDayGrid day={before} label={`${dayTitle(date)}, before the correction`} />
              </figure>
            )}
            {after && (
              <figure className="log-after" data-testid="request-after">
                <figcaption>After — {dayTitle(date)}</figcaption>
                <LogDayGrid day={after} label={`${dayTitle(date)}, after the correction`} />
              </figure>
            )}
          </div>
        );
      })}
      {children && <div className="log-request-actions">{children}</div>}
    </article>
  );
}
