/** Pieces the fleet pages share: list state in the address, tables, empty and not-found states, confirmation. */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ApiError } from '../../api/client';
import { useRoleAtLeast } from '../../api/session';
import { Button, Dialog, ErrorBanner, PageHeader, SearchBox, TableWrap } from '../../components/ui';
import { changeListQuery, isNarrowed, listQueryString, readListQuery, type ListQuery } from '../../lib/list-query';
import './fleet.css';

export const PAGE_SIZE = 20;

/** The list's page, search and filters, kept in the address's query string. */
export function useListQuery(filterKeys: readonly string[]): [ListQuery, (change: { page?: number; search?: string; filters?: Record<string, string> }) => void] {
  const [params, setParams] = useSearchParams();
  const key = filterKeys.join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const q = useMemo(() => readListQuery(params, filterKeys), [params, key]);
  const change = useCallback(
    (c: { page?: number; search?: string; filters?: Record<string, string> }) => {
      // Typing a search replaces the entry; paging and filtering are steps the back button retraces.
      setParams(listQueryString(changeListQuery(q, c)), { replace: c.search !== undefined && c.page === undefined && c.filters === undefined });
    },
    [q, setParams],
  );
  return [q, change];
}

/**
 * The list's search box. It shows what the user types; when the search changes otherwise (cleared by a
 * button, the back button, a link) it starts again from the address's value.
 */
export function ListSearch({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const typed = useRef(value);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (value !== typed.current) {
      typed.current = value;
      setGeneration((g) => g + 1);
    }
  }, [value]);
  return (
    <SearchBox
      key={generation}
      label={label}
      value={value}
      onChange={(v) => {
        typed.current = v;
        onChange(v);
      }}
    />
  );
}

/** The value if it is one of the allowed ones (a filter from the address may be anything). */
export function oneOf<T extends string>(value: string, allowed: readonly T[]): T | undefined {
  return (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** Whether the signed-in user may change fleet records (OWNER, ADMIN, DISPATCHER). */
export function useCanEdit(): boolean {
  return useRoleAtLeast('DISPATCHER');
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

export function RecordTable<T extends { id: string }>({ caption, columns, rows }: { caption: string; columns: Array<Column<T>>; rows: T[] }) {
  return (
    <TableWrap>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              {columns.map((c) => (
                <td key={c.header} className={c.className}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** What an empty list says: nothing yet (and how to start), or nothing matching (and how to clear). */
export function EmptyState({ query, noun, onClear, action }: { query: ListQuery; noun: string; onClear: () => void; action?: ReactNode }) {
  if (isNarrowed(query)) {
    return (
      <div className="empty-state" role="status">
        <p>
          No {noun} match {query.search ? <>“{query.search}”</> : 'these filters'}
          {query.search && Object.values(query.filters).some(Boolean) ? ' with these filters' : ''}.
        </p>
        <Button onClick={onClear}>Clear search and filters</Button>
      </div>
    );
  }
  if (query.page > 1) {
    return (
      <div className="empty-state" role="status">
        <p>There is nothing on this page.</p>
      </div>
    );
  }
  return (
    <div className="empty-state" role="status">
      <p>No {noun} yet.</p>
      {action}
    </div>
  );
}

export function isNotFound(error: unknown): boolean {
  // A malformed id is a 400 on the path parameter: for the reader it is just as missing.
  return error instanceof ApiError && (error.status === 404 || (error.status === 400 && /params/.test(JSON.stringify(error.body.details ?? ''))));
}

/** The page for a record that does not exist (or belongs to another organization). */
export function NotFoundState({ what, back, backLabel }: { what: string; back: string; backLabel: string }) {
  return (
    <section className="not-found">
      <PageHeader title={`${what} not found`} />
      <p>There is no such {what.toLowerCase()} in your organization: it may have been deleted, or the link is wrong.</p>
      <p>
        <Link href={back}>Back to {backLabel}</Link>
      </p>
    </section>
  );
}

/** A yes/no question before a destructive or lasting action; shows the server's answer if it fails. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  destructive = true,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  destructive?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Dialog open={open} title={title} onClose={close}>
      <div className="stack">
        <div>{children}</div>
        <ErrorBanner error={error} />
        <div className="form-actions">
          <Button
            variant={destructive ? 'danger' : 'primary'}
            busy={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await onConfirm();
                close();
              } catch (err) {
                setError(err);
              } finally {
                setBusy(false);
              }
            }}
          >
            {confirmLabel}
          </Button>
          <Button onClick={close}>Cancel</Button>
        </div>
      </div>
    </Dialog>
  );
}

/** "‹ Drivers" above a detail page. */
export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <p className="back-link">
      <Link href={href}>‹ {label}</Link>
    </p>
  );
}
