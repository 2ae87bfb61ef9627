/** A labelled multi-line text field (the textarea counterpart of ui.tsx's Field). */
import { useId, type TextareaHTMLAttributes } from 'react';
import { FieldNotes, describedBy } from './ui';

export function TextArea({ label, hint, error, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: string; error?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-describedby={describedBy(id, hint, error)} aria-invalid={error ? true : undefined} {...rest} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
