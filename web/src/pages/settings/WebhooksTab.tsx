/**
 * Webhooks: the endpoints that receive the organization's events. Create (events as checkboxes or all
 * of them; the generated signing secret is shown once), edit, disable / enable, send a test ping,
 * rotate the secret, and the delivery log of each webhook with every attempt and a retry of failures.
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Item, type Ok } from '../../api/client';
import { useRoleAtLeast } from '../../api/session';
import { Button, Dialog, ErrorBanner, Facts, Field, Loading, Pagination, SelectField, StatusBadge, TableWrap } from '../../components/ui';
import { dateTime, relative } from '../../lib/format';
import { ALL_EVENTS, WEBHOOK_EVENTS, describeEvents, eventsToSend, fieldErrors, preciseTime } from '../../lib/settings';
import { useApi, useInterval } from '../../lib/use-api';
import { ReadOnlyNote, ShownOnceDialog, useActions, useConfirm } from './common';

type Webhook = Item<'/api/v1/webhooks'>;
type Delivery = Ok<'/api/v1/webhooks/deliveries/{deliveryId}'>;
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

      {logOf && <DeliveryLog key={logOf.id} webhook={logOf} tick={logTick} canEdit={canEdit} onClose={() => setLogOf(null)} />}

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

function WebhookForm({ webhook, onCancel, onSaved }: { webhook: Webhook | null; onCancel: () => void; onSaved: (w: Webhook, secret?: string) => void }) {
  const [all, setAll] = useState(webhook ? webhook.events.includes(ALL_EVENTS) : false);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(webhook?.events.filter((e) => e !== ALL_EVENTS) ?? []));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const url = String(form.get('url') ?? '').trim();
    const description = String(form.get('description') ?? '').trim();
    const secret = String(form.get('secret') ?? '').trim();
    const events = eventsToSend(all, chosen);
    const local: Record<string, string> = {};
    if (!url) local.url = 'Enter the URL that receives the events.';
    if (events.length === 0) local.events = 'Choose at least one event, or all events.';
    setErrors(local);
    setError(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      if (webhook) {
        const saved = await unwrap(
          api.PUT('/api/v1/webhooks/{webhookId}', { params: { path: { webhookId: webhook.id } }, body: { url, events, description: description || null } }),
        );
        onSaved(saved);
      } else {
        const created = await unwrap(api.POST('/api/v1/webhooks', { body: { url, events, ...(description ? { description } : {}), ...(secret ? { secret } : {}) } }));
        onSaved(created, created.secret);
      }
    } catch (err) {
      const byField = fieldErrors(err);
      // "events.0" and the like belong to the events group.
      for (const k of Object.keys(byField)) if (k.startsWith('events.')) byField.events ??= byField[k]!;
      setErrors(byField);
      setError(err);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="stack">
      <Field label="URL" name="url" type="url" required defaultValue={webhook?.url ?? ''} placeholder="https://example.com/hooks/fleet" hint="HTTPS on a public address." error={errors.url} />
      <Field label="Description" name="description" maxLength={500} defaultValue={webhook?.description ?? ''} hint="Optional: who receives these events." error={errors.description} />
      <fieldset aria-describedby={errors.events ? 'wh-events-err' : undefined}>
        <legend>Events</legend>
        <div className="check">
          <input id="wh-all" type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          <label htmlFor="wh-all">
            All events (<code>*</code>), including ones added later
          </label>
        </div>
        <div className="event-list">
          {WEBHOOK_EVENTS.map((ev) => (
            <div className="check" key={ev.name}>
              <input
                id={`wh-${ev.name}`}
                type="checkbox"
                disabled={all}
                checked={all || chosen.has(ev.name)}
                onChange={(e) =>
                  setChosen((prev) => {
                    const next = new Set(prev);
                    if (e.target.checked) next.add(ev.name);
                    else next.delete(ev.name);
                    return next;
                  })
                }
              />
              <label htmlFor={`wh-${ev.name}`}>
                <code>{ev.name}</code> <span className="muted">{ev.label}</span>
              </label>
            </div>
          ))}
        </div>
        {errors.events && (
          <small id="wh-events-err" className="field-error">
            {errors.events}
          </small>
        )}
      </fieldset>
      {!webhook && (
        <Field
          label="Signing secret (optional)"
          name="secret"
          autoComplete="off"
          spellCheck={false}
          hint="Leave empty to have one generated (shown once). At least 16 printable characters."
          error={errors.secret}
        />
      )}
      {Object.keys(errors).length === 0 && <ErrorBanner error={error} />}
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          {webhook ? 'Save webhook' : 'Add webhook'}
        </Button>
      </div>
    </form>
  );
}

const DELIVERY_STATUSES = [
  { value: '', label: 'All' },
  { value: 'PENDING', label: 'Pending' },
  { value: 'DELIVERED', label: 'Delivered' },
  { value: 'FAILED', label: 'Failed' },
];

function DeliveryLog({ webhook, tick, canEdit, onClose }: { webhook: Webhook; tick: number; canEdit: boolean; onClose: () => void }) {
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
        {detail && <DeliveryDetail id={detail} onClose={() => setDetail(null)} />}
      </Dialog>
    </section>
  );
}

function DeliveryDetail({ id, onClose }: { id: string; onClose: () => void }) {
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

