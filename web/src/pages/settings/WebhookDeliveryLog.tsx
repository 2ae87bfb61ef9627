/**
 * A webhook's delivery log: each delivery with its status, attempts and last response, filtered by
 * status, looked at again every few seconds while some are pending; a failed one can be retried.
 */
import { useState } from 'react';
import { api, unwrap, type Item, type Ok } from '../../api/client';
import { Button, Dialog, ErrorBanner, Loading, Pagination, SelectField, StatusBadge, TableWrap } from '../../components/ui';
import { relative } from '../../lib/format';
import { preciseTime } from '../../lib/settings';
import { useApi, useInterval } from '../../lib/use-api';
import { useActions } from './common';
import { WebhookDeliveryDetail } from './WebhookDeliveryDetail';

type Webhook = Item<'/api/v1/webhooks'>;
type Delivery = Ok<'/api/v1/webhooks/deliveries/{deliveryId}'>;
const PAGE_SIZE = 20;

const DELIVERY_STATUSES = [
  { value: '', label: 'All' },
  { value: 'PENDING', label: 'Pending' },
  { value: 'DELIVERED', label: 'Delivered' },
  { value: 'FAILED', label: 'Failed' },
];

export function WebhookDeliveryLog({ webhook, tick, canEdit, onClose }: { webhook: Webhook; tick: number; canEdit: boolean; onClose: () => void }) {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const [detail, setDetail] = useState<string | null>(null);
  const log = useApi(
    () =>
      unwrap(
        api.GET('/api/v1/webhooks/{webhookId}/deliveries', {
          params: { path: { webhookId: webhook.id }, query: { page, pageSize: PAGE_SIZE, ...(status ? { status: status as Delivery['status'] } : {}) } },
        }),
      ),
    [webhook.id, page, status, tick],
  );
  const { busy, run, feedback, setNotice } = useActions();
  // Pending deliveries settle on their own (the worker retries them): look again every few seconds.
  const pending = log.data?.data.some((d) => d.status === 'PENDING') ?? false;
  useInterval(() => {
    if (pending) log.reload();
  }, 3000);

  function retry(d: Delivery) {
    void run(`retry-${d.id}`, async () => {
      await unwrap(api.POST('/api/v1/webhooks/deliveries/{deliveryId}/retry', { params: { path: { deliveryId: d.id } }, body: {} }));
      log.reload();
      setNotice(`Delivery of ${d.event} queued again.`);
    });
  }

  return (
    <section className="card" aria-labelledby="delivery-log-heading">
      <div className="toolbar">
        <h2 id="delivery-log-heading" className="grow">
          Delivery log: <span className="url">{webhook.url}</span>
        </h2>
        <SelectField
          label="Status"
          value={status}
          options={DELIVERY_STATUSES}
          onChange={(e) => {
            setStatus(e.target.value);
            setPage(1);
          }}
        />
        <Button onClick={log.reload} busy={log.loading}>
          Refresh
        </Button>
        <Button variant="link" onClick={onClose}>
          Close log
        </Button>
      </div>
      {feedback}
      {log.error && <ErrorBanner error={log.error} />}
      {!log.data ? (
        !log.error && <Loading />
      ) : log.data.data.length === 0 ? (
        <p className="empty">No deliveries{status ? ` with status ${status.toLowerCase()}` : ''} yet.{canEdit ? ' Send a test ping to try the webhook.' : ''}</p>
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">Deliveries of {webhook.url}</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Response</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last change</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <code>{d.event}</code>
                    </td>
                    <td>
                      <StatusBadge value={d.status} />
                      {d.status === 'PENDING' && d.nextAttemptAt && <div className="muted small">next {relative(d.nextAttemptAt)}</div>}
                    </td>
                    <td>{d.attemptCount}</td>
                    <td>
                      {d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : '—'}
                      {d.lastError && <div className="muted small">{d.lastError}</div>}
                    </td>
                    <td>{preciseTime(d.createdAt)}</td>
                    <td>{preciseTime(d.deliveredAt ?? d.failedAt ?? d.updatedAt)}</td>
                    <td className="actions">
                      <Button variant="link" onClick={() => setDetail(d.id)} aria-label={`Details of the ${d.event} delivery`}>
                        Details
                      </Button>
                      {canEdit && d.status === 'FAILED' && (
                        <Button variant="link" busy={busy === `retry-${d.id}`} onClick={() => retry(d)} aria-label={`Retry the ${d.event} delivery`}>
                          Retry
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pagination page={page} pageSize={PAGE_SIZE} total={log.data.total} onPage={setPage} />
        </>
      )}
      <Dialog open={detail !== null} title="Delivery" onClose={() => setDetail(null)}>
        {detail && <WebhookDeliveryDetail id={detail} onClose={() => setDetail(null)} />}
      </Dialog>
    </section>
  );
}
