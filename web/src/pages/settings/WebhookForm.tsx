/**
 * Adding or editing a webhook: its URL, a description, the events (checkboxes, or all of them) and, when
 * adding, an optional signing secret (else one is generated and shown once).
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Item } from '../../api/client';
import { Button, ErrorBanner, Field } from '../../components/ui';
import { ALL_EVENTS, WEBHOOK_EVENTS, eventsToSend, fieldErrors } from '../../lib/settings';
import { webhookFormErrors, withEventErrors } from '../../lib/webhook-form';

type Webhook = Item<'/api/v1/webhooks'>;

export function WebhookForm({ webhook, onCancel, onSaved }: { webhook: Webhook | null; onCancel: () => void; onSaved: (w: Webhook, secret?: string) => void }) {
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
    const local = webhookFormErrors(url, events);
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
      setErrors(withEventErrors(fieldErrors(err)));
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
