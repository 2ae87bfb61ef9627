/**
 * The drivers ranked for a load: feasible first, each on time or not (and why not beside it), the
 * deadhead to the pickup, when they would leave, when they would reach the last stop, where they start
 * from (and the drive time they have left then). A feasible row plans the route with that driver.
 */
import { useId } from 'react';
import { Link } from 'wouter';
import { Button, TableWrap } from '../../components/ui';
import { candidateRow, verdictTone, type Candidate } from '../../lib/dispatch';
import { hoursMinutes } from '../../lib/format';

export function CandidatesTable({ candidates, canPlan, planning, onPlan }: { candidates: readonly Candidate[]; canPlan: boolean; planning: string | null; onPlan: (c: Candidate) => void }) {
  const id = useId();
  return (
    <TableWrap label="Drivers for this load, scrolls sideways">
      <table className="candidates-table">
        <caption className="visually-hidden">Drivers for this load, feasible first: on time or not and why, deadhead, departure, arrival at the last stop, where each starts</caption>
        <thead>
          <tr>
            <th scope="col">Driver</th>
            <th scope="col">On time?</th>
            <th scope="col">Why not</th>
            <th scope="col" className="num">Deadhead</th>
            <th scope="col">Departs</th>
            <th scope="col">Arrives at the last stop</th>
            <th scope="col">Starts from</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c, i) => {
            const r = candidateRow(c);
            const nameId = `${id}-${i}`;
            return (
              <tr key={c.driverId} data-testid="candidate" data-feasible={c.feasible ? 'true' : 'false'}>
                <th scope="row" id={nameId}>
                  <Link href={`/drivers/${c.driverId}`}>{r.driverName}</Link>
                </th>
                <td>
                  <span className={`badge badge-${verdictTone(r.verdict)}`}>{r.verdict}</span>
                </td>
                <td className="candidate-reason">{r.reason || '—'}</td>
                <td className="num">{r.deadhead}</td>
                <td>{r.departure}</td>
                <td>{r.arrival}</td>
                <td>
                  {r.startName}
                  <div className="muted small">{r.startSource}</div>
                  {c.startClocks && <div className="muted small">{hoursMinutes(c.startClocks.driveHoursRemaining)} of driving left</div>}
                </td>
                <td>
                  {c.feasible && canPlan ? (
                    <Button variant="primary" onClick={() => onPlan(c)} busy={planning === c.driverId} disabled={planning !== null} aria-describedby={nameId}>
                      Plan with this driver
                    </Button>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
