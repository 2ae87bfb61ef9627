/**
 * Segments of unassigned driving as a table: the truck, when (in the zone of the start place), how long,
 * from and to, miles, who reported it, where it stands, the driver and the annotation, and — for users
 * who may change them — the actions on a segment still unassigned. Used by the Unassigned driving page
 * and a vehicle's page (without the truck column there).
 */
import { Link } from 'wouter';
import { Button } from '../../components/ui';
import { formatMinutes } from '../../lib/durations';
import { canResolve, milesText, placeText, sourceText, statusText, type UnassignedSegment } from '../../lib/unassigned';
import { segmentWhen } from '../../lib/unassigned-when';
import { RecordTable, type Column } from '../fleet/common';
import './compliance.css';

const STATUS_TONE: Record<string, string> = { UNASSIGNED: 'red', ASSIGNMENT_PENDING: 'amber', ASSIGNED: 'green', ANNOTATED: 'grey' };

/** Where a segment stands, in words and colour. */
export function UnassignedStatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${STATUS_TONE[status] ?? 'grey'}`}>{statusText(status)}</span>;
}

export type SegmentAction = 'assign' | 'annotate';

export function UnassignedTable({
  caption,
  rows,
  showTruck = true,
  onAction,
}: {
  caption: string;
  rows: UnassignedSegment[];
  showTruck?: boolean;
  /** Given when the user may assign and annotate: the actions column appears. */
  onAction?: (segment: UnassignedSegment, action: SegmentAction) => void;
}) {
  const columns: Array<Column<UnassignedSegment>> = [
    ...(showTruck ? [{ header: 'Truck', cell: (s: UnassignedSegment) => <Link href={`/vehicles/${s.vehicleId}`}>{s.vehicleUnitNumber}</Link> }] : []),
    { header: 'When', cell: (s) => <span className="nowrap-cell">{segmentWhen(s)}</span> },
    { header: 'Duration', cell: (s) => formatMinutes(s.durationMinutes), className: 'num' },
    { header: 'From', cell: (s) => placeText(s.startLocation) },
    { header: 'To', cell: (s) => placeText(s.endLocation) },
    { header: 'Miles', cell: (s) => milesText(s.miles), className: 'num' },
    { header: 'Reported by', cell: (s) => sourceText(s.source) },
    { header: 'Status', cell: (s) => <UnassignedStatusBadge status={s.status} /> },
    { header: 'Driver', cell: (s) => (s.driverId && s.driverName ? <Link href={`/drivers/${s.driverId}`}>{s.driverName}</Link> : '—') },
    { header: 'Annotation', cell: (s) => s.annotation ?? '—' },
    ...(onAction
      ? [
          {
            header: 'Actions',
            cell: (s: UnassignedSegment) =>
              canResolve(s) ? (
                <div className="segment-actions">
                  <Button onClick={() => onAction(s, 'assign')}>Assign to a driver…</Button>
                  <Button onClick={() => onAction(s, 'annotate')}>Annotate…</Button>
                </div>
              ) : (
                <span className="muted">—</span>
              ),
          },
        ]
      : []),
  ];
  return (
    <div className="fleet-table unassigned-table">
      <RecordTable caption={caption} columns={columns} rows={rows} />
    </div>
  );
}
