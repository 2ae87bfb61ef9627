/**
 * A re-planned route's revisions, oldest first: when, by whom, why, the arrival each promised; the
 * current one marked. Nothing is shown for a route that was never re-planned. Read again whenever the
 * route's revision changes.
 */
import { api, unwrap } from '../../api/client';
import { TableWrap } from '../../components/ui';
import { miles } from '../../lib/format';
import { inZone } from '../../lib/local-time';
import { revisionAuthor, revisionTitle, showRevisions } from '../../lib/replan';
import { useApi } from '../../lib/use-api';

export function RouteRevisions({ planId, revision, arrivalZone }: { planId: string; revision: number; arrivalZone?: string }) {
  const revisions = useApi(() => unwrap(api.GET('/api/v1/routes/{planId}/revisions', { params: { path: { planId } } })), [planId, revision]);
  const data = revisions.data?.data;
  if (!data || !showRevisions(data)) return null;
  return (
    <section className="card" aria-labelledby="route-revisions">
      <h2 id="route-revisions">Revisions</h2>
      <TableWrap>
        <table className="revisions">
          <caption className="visually-hidden">The plans this route has had, oldest first; the last is current</caption>
          <thead>
            <tr>
              <th scope="col">Revision</th>
              <th scope="col">When</th>
              <th scope="col">By</th>
              <th scope="col">Reason</th>
              <th scope="col">Arrival (local)</th>
              <th scope="col">Distance</th>
            </tr>
          </thead>
          <tbody>
            {data.map((r) => (
              <tr key={r.revision} data-testid="route-revision" aria-current={r.current ? 'true' : undefined} className={r.current ? 'revision-current' : undefined}>
                <th scope="row">
                  {revisionTitle(r)}
                  {r.current && (
                    <>
                      {' '}
                      <span className="badge badge-green">Current</span>
                    </>
                  )}
                </th>
                <td>{inZone(r.createdAt)}</td>
                <td>{revisionAuthor(r)}</td>
                <td>{r.reason ?? (r.revision === 1 ? '—' : 'No reason given')}</td>
                <td>{inZone(r.arrivalTime, r.stops[r.stops.length - 1]?.timeZone ?? arrivalZone)}</td>
                <td>{miles(r.summary.totalDistanceMiles)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
