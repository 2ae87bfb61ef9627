/**
 * The history of a day's records (GET /drivers/{id}/duty-status?history=true): every record that began in
 * the day, the ACTIVE ones and those a correction replaced, requested or had rejected — kept, never
 * rewritten (49 CFR 395.30(c)) — each with its state, who made it, when, and why.
 */
import type { Ok } from '../../api/client';
import { TableWrap } from '../../components/ui';
import { label } from '../../lib/glossary';
import { inZone } from '../../lib/local-time';
import { actorText, clockTime, dutyLabel, recordStatusText } from '../../lib/log-words';

export type HistoryRecord = Ok<'/api/v1/drivers/{driverId}/duty-status'>['data'][number];

export function DayHistory({ records, timeZone, who, editStatus }: { records: readonly HistoryRecord[]; timeZone: string; who: Parameters<typeof actorText>[1]; editStatus: (editId: string | null) => string | null }) {
  if (records.length === 0) return <p className="muted">No record began on this day.</p>;
  const sorted = [...records].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.sequence - b.sequence);
  return (
    <TableWrap label="History of the day’s records, scrolls sideways">
      <table className="log-history" data-testid="record-history">
        <caption className="visually-hidden">Every record that began on this day, with its history</caption>
        <thead>
          <tr>
            <th scope="col">Starts</th>
            <th scope="col">Status</th>
            <th scope="col">In the log</th>
            <th scope="col">Entered</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={r.id} data-record-status={r.recordStatus === 'ACTIVE' ? 'active' : 'inactive'}>
              <td>{clockTime(r.at, timeZone)}</td>
              <td>{dutyLabel(r.status)}</td>
              <td>{recordStatusText(r.recordStatus, editStatus(r.editId))}</td>
              <td>
                {label('recordOrigin', r.origin)}
                {r.origin === 'AUTOMATIC' ? '' : ` (${actorText(r.createdBy, who, r.createdByName)})`}, {inZone(r.createdAt, timeZone)}
              </td>
              <td>{[r.note && `Note: “${r.note}”`, r.annotation && `Annotation: “${r.annotation}”`].filter(Boolean).join(' · ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
