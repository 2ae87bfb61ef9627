/**
 * The fleet's compliance (`/compliance?from=&to=&page=`): per driver over a range of days (the last 7 and
 * today by default, at most 31) the violations in words with their counts, the days not certified (each
 * a link to the driver's log of that day), the correction requests waiting for the driver and the driving
 * the truck's positions show but the log does not; below, the unassigned driving by truck
 * (docs/logs.md, The fleet's compliance).
 */
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'wouter';
import { api, unwrap } from '../../api/client';
import { Button, ErrorBanner, Field, Loading, PageHeader, Pagination, TableWrap } from '../../components/ui';
import {
  dayText,
  driverLogHref,
  needsAttention,
  pendingText,
  rangeFromQuery,
  rangeProblems,
  rangeText,
  sortTrucks,
  todayIn,
  violationItems,
  violationText,
  type ComplianceRow,
  type DateRange,
  type RangeProblems,
  type TruckUnassigned,
} from '../../lib/compliance';
import { formatMinutes } from '../../lib/durations';
import { label } from '../../lib/glossary';
import { timeRangeText } from '../../lib/time-range';
import { milesText, unassignedHref } from '../../lib/unassigned';
import { useApi } from '../../lib/use-api';
import { PAGE_SIZE } from '../fleet/common';
import './compliance.css';

function RangeForm({ range, onChange }: { range: DateRange; onChange: (r: DateRange) => void }) {
  const [draft, setDraft] = useState(range);
  const [problems, setProblems] = useState<RangeProblems>({});
  // The address changed otherwise (the back button, a link): start again from it.
  const [shown, setShown] = useState(range);
  if (shown.from !== range.from || shown.to !== range.to) {
    setShown(range);
    setDraft(range);
    setProblems({});
  }
  return (
    <form
      className="toolbar range-form"
      noValidate
      aria-label="Days to report"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        const found = rangeProblems(draft);
        setProblems(found);
        if (Object.keys(found).length === 0) onChange(draft);
      }}
    >
      <Field label="From" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} error={problems.from} />
      <Field label="To" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} error={problems.to} hint="At most 31 days" />
      <Button type="submit" variant="primary">
        Show
      </Button>
    </form>
  );
}

function DriverRow({ row }: { row: ComplianceRow }) {
  const violations = violationItems(row.violations);
  return (
    <tr data-driver={row.driverName}>
      <th scope="row">
        <Link href={`/drivers/${row.driverId}`}>{row.driverName}</Link>
        {row.status !== 'ACTIVE' && <span className="muted"> ({label('driverStatus', row.status).toLowerCase()})</span>}
        {!needsAttention(row) && <div className="muted cell-note">Nothing to look at</div>}
      </th>
      <td>
        {violations.length === 0 ? (
          'None'
        ) : (
          <ul className="cell-list">
            {violations.map((v) => (
              <li key={v.text}>{violationText(v)}</li>
            ))}
          </ul>
        )}
      </td>
      <td data-testid="days-not-certified">
        {row.daysNotCertified.length === 0 ? (
          'None'
        ) : (
          <ul className="cell-list">
            {row.daysNotCertified.map((date) => (
              <li key={date}>
                <Link href={driverLogHref(row.driverId, date)} aria-label={`${dayText(date, true)}, ${row.driverName}’s log`}>
                  {dayText(date)}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>{pendingText(row.pendingEditRequests)}</td>
      <td>
        {row.drivingNotInLog.length === 0 ? (
          'None'
        ) : (
          <ul className="cell-list">
            {row.drivingNotInLog.map((d) => (
              <li key={d.start}>
                {timeRangeText(d.start, d.end, row.timeZone)} · {milesText(d.miles)}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

function TrucksTable({ trucks }: { trucks: TruckUnassigned[] }) {
  return (
    <TableWrap label="Unassigned driving by truck, scrolls sideways">
      <table className="compliance-table">
        <caption className="visually-hidden">Unassigned driving by truck</caption>
        <thead>
          <tr>
            <th scope="col">Truck</th>
            <th scope="col" className="num">
              Segments
            </th>
            <th scope="col" className="num">
              Driving
            </th>
            <th scope="col">Not yet resolved</th>
            <th scope="col">Last 24 hours</th>
          </tr>
        </thead>
        <tbody>
          {sortTrucks(trucks).map((t) => (
            <tr key={t.vehicleId} data-truck={t.vehicleUnitNumber}>
              <th scope="row">
                <Link href={unassignedHref({ vehicleId: t.vehicleId })}>{t.vehicleUnitNumber}</Link>
              </th>
              <td className="num">{t.segments}</td>
              <td className="num">{formatMinutes(t.minutes)}</td>
              <td>{t.unresolvedSegments === 0 ? 'None' : `${t.unresolvedSegments} of ${t.segments}, ${formatMinutes(t.unresolvedMinutes)}`}</td>
              <td>{t.flagged ? <span className="badge badge-red">More than 30 min unassigned</span> : <span className="muted">Not flagged</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function CompliancePage() {
  const [params, setParams] = useSearchParams();
  const today = useMemo(() => todayIn(Date.now()), []);
  const range = useMemo(() => rangeFromQuery(params, today), [params, today]);
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : 1;
  const report = useApi(() => unwrap(api.GET('/api/v1/compliance/hos', { params: { query: { from: range.from, to: range.to, page, pageSize: PAGE_SIZE } } })), [range.from, range.to, page]);
  const go = (r: DateRange, p = 1) => setParams(new URLSearchParams({ from: r.from, to: r.to, ...(p > 1 ? { page: String(p) } : {}) }));
  const shown: DateRange = report.data?.from && report.data.to ? { from: report.data.from, to: report.data.to } : range;
  const attention = report.data?.data.filter(needsAttention).length ?? 0;

  return (
    <>
      <PageHeader
        title="Compliance"
        actions={
          <Link href="/unassigned-driving" className="btn btn-secondary">
            Unassigned driving
          </Link>
        }
      >
        <p className="muted">Hours of service across the fleet, day by day on each driver’s home terminal clocks: what an auditor looks at first.</p>
      </PageHeader>
      <RangeForm range={range} onChange={(r) => go(r)} />
      <ErrorBanner error={report.error} />
      {report.loading && !report.data ? (
        <Loading label="Loading the fleet’s compliance…" />
      ) : (
        report.data && (
          <div className="detail-sections" aria-busy={report.loading}>
            <section className="card" aria-labelledby="drivers-title">
              <h2 id="drivers-title">Drivers</h2>
              <p className="muted" data-testid="compliance-summary">
                {rangeText(shown)} · {report.data.total} {report.data.total === 1 ? 'driver' : 'drivers'}
                {report.data.data.length > 0 && ` · ${attention === 0 ? 'nothing to look at' : `${attention} with something to look at`}${report.data.total > report.data.data.length ? ' on this page' : ''}`}
              </p>
              {report.data.data.length === 0 ? (
                <p className="muted">{page > 1 ? 'There is nothing on this page.' : 'No drivers yet.'}</p>
              ) : (
                <TableWrap label="Drivers’ compliance, scrolls sideways">
                  <table className="compliance-table">
                    <caption className="visually-hidden">Each driver’s compliance, {rangeText(shown)}</caption>
                    <thead>
                      <tr>
                        <th scope="col">Driver</th>
                        <th scope="col">Violations</th>
                        <th scope="col">Days not certified</th>
                        <th scope="col">Correction requests</th>
                        <th scope="col">Driving not in the log</th>
                      </tr>
                    </thead>
                    <tbody>
                      {report.data.data.map((row) => (
                        <DriverRow key={row.driverId} row={row} />
                      ))}
                    </tbody>
                  </table>
                </TableWrap>
              )}
              {report.data.total > 0 && <Pagination page={page} pageSize={PAGE_SIZE} total={report.data.total} onPage={(p) => go(range, p)} />}
            </section>
            <section className="card" aria-labelledby="trucks-title" data-testid="unassigned-by-truck">
              <h2 id="trucks-title">Unassigned driving by truck</h2>
              {report.data.unassignedDriving.length === 0 ? (
                <p className="muted">No driving without a driver logged in on these days.</p>
              ) : (
                <>
                  <p className="muted">
                    Driving recorded with nobody logged in, {rangeText(shown)}. A driver assumes it or you annotate it on the <Link href="/unassigned-driving">Unassigned driving page</Link>.
                  </p>
                  <TrucksTable trucks={report.data.unassignedDriving} />
                </>
              )}
            </section>
          </div>
        )
      )}
    </>
  );
}
