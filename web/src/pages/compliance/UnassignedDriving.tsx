/**
 * Unassigned driving (`/unassigned-driving`, filters `?vehicleId=&status=&page=` in the address): driving
 * of the organization's trucks recorded with nobody logged in (docs/logs.md, Unassigned driving). A banner
 * names each truck flagged for more than 30 minutes of it in the last 24 hours; each segment still
 * unassigned can be assigned to a driver (who accepts it in their app) or annotated. Live: a driver's
 * answer shows at once.
 */
import { useCallback, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { ErrorBanner, Loading, Notice, PageHeader, Pagination, SelectField } from '../../components/ui';
import { label } from '../../lib/glossary';
import { useApi } from '../../lib/use-api';
import { flaggedVehicles, flagSentence, UNASSIGNED_STATUSES, unassignedHref, type UnassignedSegment } from '../../lib/unassigned';
import { BackLink, oneOf, PAGE_SIZE, useCanEdit, useListQuery } from '../fleet/common';
import { AnnotateDialog, AssignDialog } from './UnassignedDialogs';
import { UnassignedTable, type SegmentAction } from './UnassignedTable';

export function UnassignedDrivingPage() {
  const [q, change] = useListQuery(['vehicleId', 'status']);
  const canEdit = useCanEdit();
  const vehicleId = q.filters.vehicleId || undefined;
  const status = oneOf(q.filters.status ?? '', UNASSIGNED_STATUSES);
  const list = useApi(
    () => unwrap(api.GET('/api/v1/unassigned-driving', { params: { query: { page: q.page, pageSize: PAGE_SIZE, vehicleId, status } } })),
    [q.page, vehicleId, status],
  );
  const vehicle = useApi(() => (vehicleId ? unwrap(api.GET('/api/v1/vehicles/{vehicleId}', { params: { path: { vehicleId } } })) : Promise.resolve(null)), [vehicleId]);
  const [acting, setActing] = useState<{ segment: UnassignedSegment; action: SegmentAction } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // A driver accepts or rejects an assignment in their app: the page follows at once.
  const reload = list.reload;
  const onAnswer = useCallback(() => {
    setNotice(null);
    reload();
  }, [reload]);
  useRealtime('log:edit_accepted', onAnswer);
  useRealtime('log:edit_rejected', onAnswer);

  const flagged = flaggedVehicles(list.data?.vehicles ?? []);
  const unit = vehicle.data?.unitNumber ?? list.data?.data[0]?.vehicleUnitNumber;
  const close = () => setActing(null);

  return (
    <>
      <BackLink href="/compliance" label="Compliance" />
      <PageHeader title="Unassigned driving">
        <p className="muted">
          Driving recorded while no driver was logged in (49 CFR 395.32). Each segment is assumed by the driver who drove — they accept it in their app — or annotated
          with the reason nobody did (a yard move, a shop’s test drive).
        </p>
      </PageHeader>
      {flagged.length > 0 && (
        <div className="banner banner-warning unassigned-flags" role="status" data-testid="unassigned-flags">
          <ul>
            {flagged.map((v) => (
              <li key={v.vehicleId}>
                {flagSentence(v)}
                {v.vehicleId !== vehicleId && (
                  <>
                    {' '}
                    <Link href={unassignedHref({ vehicleId: v.vehicleId })}>Show {v.vehicleUnitNumber} only</Link>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {notice && <Notice tone="success">{notice}</Notice>}
      <div className="toolbar fleet-toolbar">
        <SelectField
          label="Status"
          value={status ?? ''}
          onChange={(e) => change({ filters: { status: e.target.value } })}
          options={[{ value: '', label: 'All statuses' }, ...UNASSIGNED_STATUSES.map((s) => ({ value: s, label: label('unassignedStatus', s) }))]}
        />
        {vehicleId && (
          <p className="filter-note">
            Truck {unit ?? '…'} only. <Link href={unassignedHref({ status })}>Show every truck</Link>
          </p>
        )}
      </div>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? (
        <Loading label="Loading unassigned driving…" />
      ) : list.data && list.data.data.length === 0 ? (
        <div className="empty-state" role="status">
          <p>{vehicleId || status ? 'No unassigned driving matches these filters.' : 'No unassigned driving: every mile of the fleet’s trucks is in a driver’s log.'}</p>
        </div>
      ) : (
        list.data && (
          <div aria-busy={list.loading}>
            <UnassignedTable caption="Unassigned driving" rows={list.data.data} onAction={canEdit ? (segment, action) => setActing({ segment, action }) : undefined} />
          </div>
        )
      )}
      {list.data && list.data.total > 0 && <Pagination page={q.page} pageSize={PAGE_SIZE} total={list.data.total} onPage={(page) => change({ page })} />}
      <AssignDialog
        segment={acting?.action === 'assign' ? acting.segment : null}
        onClose={close}
        onAssigned={({ segment }) => {
          close();
          setNotice(`Sent to ${segment.driverName ?? 'the driver'}: the driving of ${segment.vehicleUnitNumber} enters their log once they accept it in their app.`);
          list.reload();
        }}
      />
      <AnnotateDialog
        segment={acting?.action === 'annotate' ? acting.segment : null}
        onClose={close}
        onAnnotated={(segment) => {
          close();
          setNotice(`Annotated the driving of ${segment.vehicleUnitNumber}: “${segment.annotation ?? ''}”.`);
          list.reload();
        }}
      />
    </>
  );
}
