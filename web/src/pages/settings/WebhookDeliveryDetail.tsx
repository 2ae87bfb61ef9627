/** One webhook delivery: its ids and times, and every attempt with its response. */
import { api, unwrap } from '../../api/client';
import { Button, ErrorBanner, Facts, Loading, StatusBadge, TableWrap } from '../../components/ui';
import { preciseTime } from '../../lib/settings';
import { useApi } from '../../lib/use-api';

export function WebhookDeliveryDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const d = useApi(() => unwrap(api.GET('/api/v1/webhooks/deliveries/{deliveryId}', { params: { path: { deliveryId: id } } })), [id]);
  return (
    <div className="stack">
      {d.error && <ErrorBanner error={d.error} />}
      {!d.data ? (
        !d.error && <Loading />
      ) : (
        <>
          <Facts
            items={[
              ['Event', <code key="e">{d.data.event}</code>],
              ['Status', <StatusBadge key="s" value={d.data.status} />],
              ['Delivery id', <code key="i">{d.data.id}</code>],
              ['Event id', <code key="v">{d.data.eventId}</code>],
              ['Created', preciseTime(d.data.createdAt)],
              ['Delivered', preciseTime(d.data.deliveredAt)],
              ['Failed', preciseTime(d.data.failedAt)],
              ['Next attempt', preciseTime(d.data.nextAttemptAt)],
            ]}
          />
          <h3>Attempts</h3>
          {d.data.attempts.length === 0 ? (
            <p className="empty">No attempt yet.</p>
          ) : (
            <TableWrap>
              <table>
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Started</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Response</th>
                  </tr>
                </thead>
                <tbody>
                  {d.data.attempts.map((a) => (
                    <tr key={a.attempt}>
                      <td>{a.attempt}</td>
                      <td>{preciseTime(a.startedAt)}</td>
                      <td>{a.durationMs} ms</td>
                      <td>
                        {a.statusCode !== null ? `HTTP ${a.statusCode}` : '—'}
                        {a.error && <div className="muted small">{a.error}</div>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </>
      )}
      <div className="dialog-actions">
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}
