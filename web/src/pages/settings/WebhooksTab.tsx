/**
 * Webhooks: the endpoints that receive the organization's events. Create (events as checkboxes or all
 * of them; the generated signing secret is shown once), edit, disable / enable, send a test ping,
 * rotate the secret, and the delivery log of each webhook with every attempt and a retry of failures.
 */
import { useState } from 'react';
import { api, unwrap, type Item } from '../../api/client';
import { useRoleAtLeast } from '../../api/session';
import { Button, Dialog, ErrorBanner, Loading, Pagination, StatusBadge, TableWrap } from '../../components/ui';
import { dateTime } from '../../lib/format';
import { describeEvents } from '../../lib/settings';
import { useApi } from '../../lib/use-api';
import { ReadOnlyNote, ShownOnceDialog, useActions, useConfirm } from './common';
import { WebhookDeliveryLog } from './WebhookDeliveryLog';
import { WebhookForm } from './WebhookForm';

type Webhook = Item<'/api/v1/webhooks'>;
const PAGE_SIZE = 20;

export function WebhooksTab() {
  const canEdit = useRoleAtLeast('ADMIN');
  const [page, setPage] = useState(1);
  const hooks = useApi(() => unwrap(api.GET('/api/v1/webhooks', { params: { query: { page, pageSize: PAGE_SIZE } } })), [page]);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<{ title: string; value: string; note?: string } | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [logTick, setLogTick] = useState(0);
  const { busy, run, feedback, setNotice } = useActions();
  const { confirm, dialog } = useConfirm();

  const showLog = (w: Webhook) => {
    setLogOf(w);
    setLogTick((t) => t + 1);
  };

  function ping(w: Webhook) {
    void run(`ping-${w.id}`, async () => {
      const d = await unwrap(api.POST('/api/v1/webhooks/{webhookId}/test', { params: { path: { webhookId: w.id } }, body: {} }));
      showLog(w);
      if (d.status === 'DELIVERED') setNotice(`Test ping delivered to ${w.url} (HTTP ${d.lastStatusCode ?? '—'}).`);
      else setNotice(`Test ping failed: ${d.lastError ?? `HTTP ${d.lastStatusCode ?? '—'}`}. See the delivery log.`, 'warning');
    });
  }

  function disable(w: Webhook) {
    confirm({
      title: 'Disable webhook',
      message: (
        <p>
          Stop sending events to <strong>{w.url}</strong>? Its delivery log is kept and you can enable it again later.
        </p>
      ),
      confirmLabel: 'Disable webhook',
      danger: true,
      run: async () => {
        await unwrap(api.DELETE('/api/v1/webhooks/{webhookId}', { params: { path: { webhookId: w.id } }, body: {} }));
        hooks.reload();
        setNotice(`Webhook ${w.url} disabled.`);
      },
    });
  }

  function enable(w: Webhook) {
    void run(`enable-${w.id}`, async () => {
      await unwrap(api.PUT('/api/v1/webhooks/{webhookId}', { params: { path: { webhookId: w.id } }, body: { status: 'ACTIVE' } }));
      hooks.reload();
      setNotice(`Webhook ${w.url} enabled.`);
    });
  }

  function rotate(w: Webhook) {
    confirm({
      title: 'Rotate signing secret',
      message: (
        <p>
          Generate a new signing secret for <strong>{w.url}</strong>? Deliveries are signed with the new secret; the old one keeps signing too for 24 hours, time
          to update the receiver.
        </p>
      ),
      confirmLabel: 'Rotate secret',
      run: async () => {
        const r = await unwrap(api.POST('/api/v1/webhooks/{webhookId}/rotate-secret', { params: { path: { webhookId: w.id } }, body: {} }));
        setSecret({ title: 'New signing secret', value: r.secret, note: `The previous secret stops signing ${dateTime(r.previousSecretExpiresAt)}.` });
      },
    });
  }

  return (
    <div className="stack">
      <div className="toolbar">
        <p className="muted grow">
          Each event is POSTed as JSON to the webhook's URL, signed with HMAC-SHA256 of <code>timestamp.body</code> in <code>X-Service-Signature</code>. Failed deliveries
          are retried with back-off.
        </p>
        {canEdit && (
          <Button variant="primary" onClick={() => setEditing('new')}>
            Add webhook
          </Button>
        )}
      </div>
      {!canEdit && <ReadOnlyNote what="webhooks" />}
      {feedback}
      {hooks.error && <ErrorBanner error={hooks.error} />}
      {!hooks.data ? (
        !hooks.error && <Loading />
      ) : hooks.data.data.length === 0 ? (
        <p className="empty">No webhooks yet.{canEdit ? ' Add one to receive alerts, route and load events in your own systems.' : ''}</p>
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">Webhooks</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {hooks.data.data.map((w) => (
                  <tr key={w.id} className={logOf?.id === w.id ? 'selected' : undefined}>
                    <td>
                      <span className="url">{w.url}</span>
                      {w.description && <div className="muted small">{w.description}</div>}
                    </td>
                    <td className="events-cell">{describeEvents(w.events)}</td>
                    <td>
                      <StatusBadge value={w.status} />
                      {w.disabledReason && <div className="muted small">{w.disabledReason}</div>}
                    </td>
                    <td>{dateTime(w.createdAt)}</td>
                    <td className="actions">
                      <Button variant="link" onClick={() => showLog(w)} aria-label={`Delivery log of ${w.url}`}>
                        Delivery log
                      </Button>
                      {canEdit && (
                        <>
                          <Button variant="link" busy={busy === `ping-${w.id}`} disabled={w.status !== 'ACTIVE'} onClick={() => ping(w)} aria-label={`Send a test ping to ${w.url}`}>
                            Test ping
                          </Button>
                          <Button variant="link" onClick={() => setEditing(w)} aria-label={`Edit ${w.url}`}>
                            Edit
                          </Button>
                          <Button variant="link" onClick={() => rotate(w)} aria-label={`Rotate secret of ${w.url}`}>
                            Rotate secret
                          </Button>
                          {w.status === 'ACTIVE' ? (
                            <Button variant="link" className="danger-link" onClick={() => disable(w)} aria-label={`Disable ${w.url}`}>
                              Disable
                            </Button>
                          ) : (
                            <Button variant="link" busy={busy === `enable-${w.id}`} onClick={() => enable(w)} aria-label={`Enable ${w.url}`}>
                              Enable
                            </Button>
                          )}
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pagination page={page} pageSize={PAGE_SIZE} total={hooks.data.total} onPage={setPage} />
        </>
      )}

      {logOf && <WebhookDeliveryLog key={logOf.id} webhook={logOf} tick={logTick} canEdit={canEdit} onClose={() => setLogOf(null)} />}

      <Dialog open={editing !== null} title={editing === 'new' ? 'Add webhook' : 'Edit webhook'} onClose={() => setEditing(null)}>
        {editing !== null && (
          <WebhookForm
            webhook={editing === 'new' ? null : editing}
            onCancel={() => setEditing(null)}
            onSaved={(w, createdSecret) => {
              setEditing(null);
              hooks.reload();
              setNotice(editing === 'new' ? `Webhook ${w.url} added.` : `Webhook ${w.url} saved.`);
              if (createdSecret) setSecret({ title: 'Webhook signing secret', value: createdSecret });
            }}
          />
        )}
      </Dialog>
      <ShownOnceDialog secret={secret?.value ?? null} title={secret?.title ?? ''} label="Signing secret" onClose={() => setSecret(null)}>
        <p>Your receiver checks each delivery's signature with it.{secret?.note ? ` ${secret.note}` : ''}</p>
      </ShownOnceDialog>
      {dialog}
    </div>
  );
}
