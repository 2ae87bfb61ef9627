/**
 * Alert, monitoring and HOS settings: one form per settings object, every field with its unit and
 * default; only the changed fields are sent, and the server's validation messages appear under the
 * fields they concern.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, unwrap, type Ok } from '../../api/client';
import { useRoleAtLeast } from '../../api/session';
import { Button, ErrorBanner, Loading, Notice } from '../../components/ui';
import { ALERT_FIELDS, HOS_FIELDS, MONITORING_FIELDS, changes, fieldErrors, formatSetting, toDraft, type Draft, type FieldSpec } from '../../lib/settings';
import { useApi } from '../../lib/use-api';
import { ReadOnlyNote } from './common';

type Settings = Ok<'/api/v1/tenant/settings'>;
type Section = 'alerts' | 'monitoring' | 'hos';

async function save(section: Section, body: Record<string, unknown>) {
  // The bodies are built from the field lists (checked against the server's fields by settings.test.ts).
  if (section === 'alerts') return unwrap(api.PUT('/api/v1/tenant/settings/alerts', { body: body as never }));
  if (section === 'monitoring') return unwrap(api.PUT('/api/v1/tenant/settings/monitoring', { body: body as never }));
  return unwrap(api.PUT('/api/v1/tenant/settings/hos', { body: body as never }));
}

export function AlertSettingsTab() {
  const canEdit = useRoleAtLeast('ADMIN');
  const settings = useApi(() => unwrap(api.GET('/api/v1/tenant/settings')), []);
  if (settings.error) return <ErrorBanner error={settings.error} />;
  if (!settings.data) return <Loading />;
  const s = settings.data;
  const onSaved = (next: Omit<Settings, 'defaults'>) => settings.setData((prev) => (prev ? { ...prev, ...next, defaults: prev.defaults } : prev));
  return (
    <div className="stack">
      {!canEdit && <ReadOnlyNote what="these settings" />}
      <div className="settings-forms">
        <SettingsForm
          section="alerts"
          title="Alert thresholds"
          intro="When the monitoring raises an alert for an active route."
          fields={ALERT_FIELDS}
          values={s.alerts}
          defaults={s.defaults.alerts}
          canEdit={canEdit}
          onSaved={onSaved}
        />
        <SettingsForm
          section="monitoring"
          title="Monitoring"
          intro="How often active routes are checked and how alerts settle."
          fields={MONITORING_FIELDS}
          values={s.monitoring}
          defaults={s.defaults.monitoring}
          canEdit={canEdit}
          onSaved={onSaved}
        />
        <SettingsForm
          section="hos"
          title="Hours of service"
          intro="The rules route planning and the drivers' clocks follow."
          fields={HOS_FIELDS}
          values={s.hos}
          defaults={s.defaults.hos}
          canEdit={canEdit}
          onSaved={onSaved}
        />
      </div>
    </div>
  );
}

function SettingsForm(props: {
  section: Section;
  title: string;
  intro: string;
  fields: FieldSpec[];
  values: object;
  defaults: object;
  canEdit: boolean;
  onSaved: (s: Omit<Settings, 'defaults'>) => void;
}) {
  const { section, title, intro, fields, canEdit, onSaved } = props;
  const values = props.values as Record<string, unknown>;
  const defaults = props.defaults as Record<string, unknown>;
  const headingId = useId();
  const [draft, setDraft] = useState<Draft>(() => toDraft(fields, values));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Saved values (from this form) replace the draft; a save of another form leaves this one's edits alone.
  const saved = JSON.stringify(values);
  useEffect(() => setDraft(toDraft(fields, JSON.parse(saved) as Record<string, unknown>)), [fields, saved]);

  const dirty = Object.keys(changes(fields, values, draft).body).length > 0;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setNotice(null);
    setError(null);
    const { body, errors: local } = changes(fields, values, draft);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    if (Object.keys(body).length === 0) return setNotice('Nothing changed.');
    setBusy(true);
    try {
      const saved = await save(section, body);
      onSaved(saved);
      setNotice(`${title} saved.`);
    } catch (err) {
      const byField = fieldErrors(err);
      setErrors(byField);
      // The banner carries what no field shows (the summary, or a message without details).
      setError(Object.keys(byField).length > 0 ? new Error(`${title} not saved: check the marked fields.`) : err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card settings-form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h2 id={headingId}>{title}</h2>
      <p className="muted">{intro}</p>
      <fieldset disabled={!canEdit || busy} className="plain">
        <legend className="visually-hidden">{title}</legend>
        {fields.map((f) => (
          <SettingInput
            key={f.key}
            spec={f}
            value={draft[f.key] ?? ''}
            defaultText={formatSetting(f, defaults[f.key])}
            error={errors[f.key]}
            onChange={(v) => setDraft((d) => ({ ...d, [f.key]: v }))}
          />
        ))}
      </fieldset>
      <ErrorBanner error={error} />
      {notice && <Notice tone="success">{notice}</Notice>}
      {canEdit && (
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Save {title.toLowerCase()}
          </Button>
          <Button
            disabled={busy || !dirty}
            onClick={() => {
              setDraft(toDraft(fields, values));
              setErrors({});
              setError(null);
            }}
          >
            Discard changes
          </Button>
          <Button
            variant="link"
            disabled={busy}
            onClick={() => {
              setDraft(toDraft(fields, defaults));
              setNotice('Defaults filled in: save to apply them.');
            }}
          >
            Fill in the defaults
          </Button>
        </div>
      )}
    </form>
  );
}

function SettingInput({ spec, value, defaultText, error, onChange }: { spec: FieldSpec; value: string | boolean; defaultText: string; error?: string; onChange: (v: string | boolean) => void }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errId = `${id}-err`;
  const described = [hintId, error ? errId : ''].filter(Boolean).join(' ');
  const hint = (
    <small id={hintId} className="hint">
      {spec.hint} Default: {defaultText}.
    </small>
  );
  const errorText = error && (
    <small id={errId} className="field-error">
      {error}
    </small>
  );
  if (spec.kind === 'boolean') {
    return (
      <div className="field field-check">
        <div className="check">
          <input id={id} type="checkbox" checked={value === true} aria-describedby={described} aria-invalid={error ? true : undefined} onChange={(e) => onChange(e.target.checked)} />
          <label htmlFor={id}>{spec.label}</label>
        </div>
        {hint}
        {errorText}
      </div>
    );
  }
  if (spec.kind === 'choice') {
    return (
      <div className="field">
        <label htmlFor={id}>{spec.label}</label>
        <select id={id} value={String(value)} aria-describedby={described} aria-invalid={error ? true : undefined} onChange={(e) => onChange(e.target.value)}>
          {spec.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {hint}
        {errorText}
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {spec.label} ({spec.unit})
      </label>
      <div className="with-unit">
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min={spec.min}
          max={spec.max}
          step={spec.step}
          value={String(value)}
          aria-describedby={described}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        <span aria-hidden="true">{spec.unit}</span>
      </div>
      {hint}
      {errorText}
    </div>
  );
}
