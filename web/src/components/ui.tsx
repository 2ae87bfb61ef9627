/** Small accessible building blocks the pages share. Styles are in styles.css. */
import { useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type RefObject, type SelectHTMLAttributes } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../api/client';
import { humanize } from '../lib/format';

export function PageHeader({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} — Fleet HOS`;
  }, [title]);
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {children}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}

export function Button({ variant = 'secondary', busy, children, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'danger' | 'link'; busy?: boolean }) {
  return (
    <button type="button" {...rest} className={`btn btn-${variant} ${rest.className ?? ''}`} disabled={rest.disabled || busy} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}

/** The ids a control's `aria-describedby` names: its hint and its error, when it has them. */
export function describedBy(id: string, hint?: string, error?: string): string | undefined {
  return [hint && `${id}-hint`, error && `${id}-err`].filter(Boolean).join(' ') || undefined;
}

/** A control's hint and error lines, with the ids `describedBy` names. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-err`} className="field-error">
          {error}
        </small>
      )}
    </>
  );
}

/** A labelled input; `hint` and `error` are tied to it for screen readers. */
export function Field({ label, hint, error, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={describedBy(id, hint, error)} aria-invalid={error ? true : undefined} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

export function SelectField({ label, options, hint, ...select }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; hint?: string; options: Array<{ value: string; label: string }> }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function ErrorBanner({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  // A refusal about another route (a driver already on an active one) links to it.
  const routeId = error instanceof ApiError ? error.body.details?.find((d) => d.routeId)?.routeId : undefined;
  return (
    <div className="banner banner-error" role="alert">
      {message}
      {routeId && (
        <>
          {' '}
          <Link href={`/routes/${routeId}`}>Open that route</Link>
        </>
      )}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' | 'warning' }) {
  return (
    <div className={`banner banner-${tone}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

const TONES: Record<string, string> = {
  ACTIVE: 'green', PLANNED: 'blue', COMPLETED: 'grey', CANCELLED: 'grey', INACTIVE: 'grey', PENDING: 'amber', PENDING_APPROVAL: 'amber',
  REJECTED: 'red', SUSPENDED: 'red', ERROR: 'red', DISABLED: 'grey', CONFIGURED: 'blue', SYNCING: 'blue', TESTING: 'blue',
  ACKNOWLEDGED: 'blue', SNOOZED: 'amber', RESOLVED: 'grey', CRITICAL: 'red', HIGH: 'orange', MEDIUM: 'amber', LOW: 'blue',
  DELIVERED: 'green', FAILED: 'red', RETRYING: 'amber', IN_TRANSIT: 'blue', ASSIGNED: 'blue', DELIVERED_LOAD: 'green', IN_MAINTENANCE: 'amber',
};

/** A status or priority as a coloured pill (colour plus text, never colour alone). */
export function StatusBadge({ value }: { value: string | null | undefined }) {
  const v = value ?? '—';
  return <span className={`badge badge-${TONES[v] ?? 'grey'}`}>{humanize(v)}</span>;
}

export function Pagination({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (p: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="pagination" aria-label="Pagination">
      <Button onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label="Previous page">
        ‹ Previous
      </Button>
      <span aria-live="polite">
        Page {Math.min(page, pages)} of {pages} · {total} total
      </span>
      <Button onClick={() => onPage(page + 1)} disabled={page >= pages} aria-label="Next page">
        Next ›
      </Button>
    </nav>
  );
}

/** A search box that reports its value after the user pauses typing. */
export function SearchBox({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  return (
    <div className="search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        placeholder={label}
        defaultValue={value}
        onChange={(e) => {
          const v = e.target.value;
          clearTimeout(timer.current);
          timer.current = setTimeout(() => onChange(v.trim()), 250);
        }}
      />
    </div>
  );
}

export function Tabs<T extends string>({ tabs, current, onChange, label }: { tabs: Array<{ id: T; label: string }>; current: T; onChange: (t: T) => void; label: string }) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button key={t.id} type="button" role="tab" aria-selected={t.id === current} className={t.id === current ? 'tab active' : 'tab'} onClick={() => onChange(t.id)}>
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** A modal dialog on the native <dialog> element (focus trap and Escape come with it). */
export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={id} onClose={onClose} className="dialog">
      <h2 id={id}>{title}</h2>
      {open && children}
    </dialog>
  );
}

/** Label / value pairs for detail pages. */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="facts">
      {items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Whether the box is narrower than what it holds (a phone): then it should be a keyboard stop, so it can be scrolled without a mouse (WCAG 2.1.1). */
export function useScrollsSideways(ref: RefObject<HTMLDivElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

/**
 * A table's horizontal scroller. When the table is wider than its box (a phone, a long timeline) the box
 * becomes a keyboard stop, so it can be scrolled without a mouse (WCAG 2.1.1); otherwise it is no stop.
 */
export function TableWrap({ label, children }: { label?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(ref);
  return (
    <div ref={ref} className="table-wrap" tabIndex={scrolls ? 0 : undefined} role={scrolls ? 'region' : undefined} aria-label={scrolls ? (label ?? 'Table, scrolls sideways') : undefined}>
      {children}
    </div>
  );
}
