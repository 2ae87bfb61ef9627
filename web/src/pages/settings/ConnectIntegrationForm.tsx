/** Connecting a vendor: a name, its config fields (credentials as password inputs) and the sync interval. */
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Item } from '../../api/client';
import { Button, ErrorBanner, Field } from '../../components/ui';
import { readConnectForm } from '../../lib/integrations';
import { configFields, fieldErrors } from '../../lib/settings';

type Vendor = Item<'/api/v1/integrations/vendors'>;
type Integration = Item<'/api/v1/integrations'>;

export function ConnectIntegrationForm({ vendor, onCancel, onCreated }: { vendor: Vendor; onCancel: () => void; onCreated: (i: Integration) => void }) {
  const fields = configFields(vendor);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const { name, interval, config, errors: local } = readConnectForm(fields, (n) => String(form.get(n) ?? ''));
    setErrors(local);
    setError(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const created = await unwrap(api.POST('/api/v1/integrations', { body: { vendor: vendor.vendor, name, config, ...(interval ? { syncIntervalMinutes: Number(interval) } : {}) } }));
      onCreated(created);
    } catch (err) {
      setErrors(fieldErrors(err));
      setError(err);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="stack">
      <p className="muted">{vendor.description}</p>
      <Field label="Name" name="name" defaultValue={vendor.name} maxLength={200} required error={errors.name} />
      {fields.map((f) => (
        <Field
          key={f.key}
          label={`${f.label}${f.required ? '' : ' (optional)'}`}
          name={`config.${f.key}`}
          type={f.secret ? 'password' : 'text'}
          autoComplete={f.secret ? 'new-password' : 'off'}
          spellCheck={false}
          required={f.required}
          hint={f.secret ? 'Stored encrypted; never shown again.' : undefined}
          error={errors[`config.${f.key}`]}
        />
      ))}
      <Field
        label="Sync interval (minutes)"
        name="interval"
        type="number"
        min={1}
        max={10080}
        step={1}
        placeholder={String(vendor.defaultSyncInterval)}
        hint={`Default: every ${vendor.defaultSyncInterval} minutes.`}
        error={errors.syncIntervalMinutes}
      />
      <ErrorBanner error={error} />
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          Connect
        </Button>
      </div>
    </form>
  );
}
