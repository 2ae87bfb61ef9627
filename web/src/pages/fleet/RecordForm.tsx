/**
 * A create/edit form drawn from a field list (fields.ts): labelled inputs, required ones marked, values
 * checked in the browser first and the server's validation messages shown on their fields.
 */
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { Button, ErrorBanner, FieldNotes, describedBy } from '../../components/ui';
import { buildBody, errorsFromDetails, initialValues, type FieldErrors, type FieldSpec, type FormValues } from '../../lib/forms';

function FormField({ spec, value, error, onChange }: { spec: FieldSpec; value: string | boolean; error?: string; onChange: (v: string | boolean) => void }) {
  const id = useId();
  const label = (
    <>
      {spec.label}
      {spec.required && (
        <span className="required-mark" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
  const common = { id, 'aria-describedby': describedBy(id, spec.hint, error), 'aria-invalid': error ? true : undefined, required: spec.required, name: spec.name };
  let control;
  if (spec.kind === 'checkbox') {
    return (
      <div className="field field-checkbox">
        <label htmlFor={id}>
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}
        </label>
        <FieldNotes id={id} hint={spec.hint} error={error} />
      </div>
    );
  }
  if (spec.kind === 'select') {
    control = (
      <select {...common} value={String(value)} onChange={(e) => onChange(e.target.value)}>
        {(!spec.required || spec.defaultValue === undefined) && <option value="">{spec.required ? 'Choose…' : '—'}</option>}
        {spec.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else {
    const type = spec.kind === 'integer' || spec.kind === 'number' ? 'number' : spec.kind === 'datetime' ? 'datetime-local' : (spec.kind ?? 'text');
    control = (
      <input
        {...common}
        type={type}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
        maxLength={spec.maxLength}
        min={spec.min}
        max={spec.max}
        step={spec.kind === 'integer' ? 1 : spec.kind === 'number' ? (spec.step ?? 'any') : undefined}
        placeholder={spec.placeholder}
        autoComplete={spec.autoComplete ?? 'off'}
        inputMode={spec.kind === 'integer' ? 'numeric' : spec.kind === 'number' ? 'decimal' : undefined}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control}
      <FieldNotes id={id} hint={spec.hint} error={error} />
    </div>
  );
}

/**
 * The form for `fields`. Without `record` it creates (sends the filled fields); with it, it edits (sends
 * what changed). `onSubmit` gets the body; an ApiError it throws is shown on the form.
 */
export function RecordForm({
  fields,
  record,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  fields: FieldSpec[];
  record?: unknown;
  submitLabel: string;
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, record));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const visible = fields.filter((f) => !(record !== undefined && f.createOnly));

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const built = buildBody(fields, values, record);
    setErrors(built.errors);
    setFailure(null);
    if (Object.keys(built.errors).length > 0) {
      setFailure(new Error('Please correct the highlighted fields.'));
      return;
    }
    if (record !== undefined && Object.keys(built.body).length === 0) {
      onCancel();
      return;
    }
    setBusy(true);
    try {
      await onSubmit(built.body);
    } catch (err) {
      if (err instanceof ApiError) {
        const { fieldErrors, other } = errorsFromDetails(err.body.details, fields);
        setErrors(fieldErrors);
        const onFields = Object.keys(fieldErrors).length > 0;
        setFailure(new Error([onFields ? `${err.message}: please correct the highlighted fields.` : err.message, ...other].join(' — ')));
      } else {
        setFailure(err);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="record-form">
      <p className="muted form-note">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">with an asterisk</span> are required.
      </p>
      <ErrorBanner error={failure} />
      <div className="form-grid">
        {visible.map((f) => (
          <FormField key={f.name} spec={f} value={values[f.name] ?? ''} error={errors[f.name]} onChange={(v) => setValues((prev) => ({ ...prev, [f.name]: v }))} />
        ))}
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          {submitLabel}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
