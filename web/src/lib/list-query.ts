/**
 * A list page's state in the address's query string (page, search and filters), so a reload or the
 * back button shows the same list. Pure (tested in list-query.test.ts).
 */

export interface ListQuery {
  page: number;
  search: string;
  /** Filter name → value ('' = no filter). */
  filters: Record<string, string>;
}

/** The list state from the query string; unknown keys are ignored, a bad page is page 1. */
export function readListQuery(params: URLSearchParams, filterKeys: readonly string[]): ListQuery {
  const page = Number(params.get('page'));
  const filters: Record<string, string> = {};
  for (const k of filterKeys) filters[k] = params.get(k)?.trim() ?? '';
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, search: params.get('q')?.trim() ?? '', filters };
}

/** The query string for a list state: page 1, an empty search and empty filters are left out. */
export function listQueryString(q: ListQuery): string {
  const p = new URLSearchParams();
  if (q.search) p.set('q', q.search);
  for (const [k, v] of Object.entries(q.filters)) if (v) p.set(k, v);
  if (q.page > 1) p.set('page', String(q.page));
  return p.toString();
}

/** The state after a change: a new search or filter starts again at page 1. */
export function changeListQuery(q: ListQuery, change: { page?: number; search?: string; filters?: Record<string, string> }): ListQuery {
  const search = change.search ?? q.search;
  const filters = { ...q.filters, ...change.filters };
  const narrowed = search !== q.search || Object.keys(filters).some((k) => filters[k] !== q.filters[k]);
  return { search, filters, page: narrowed ? 1 : Math.max(1, change.page ?? q.page) };
}

/** Whether the list is narrowed by a search or a filter (an empty list then means "no match"). */
export function isNarrowed(q: ListQuery): boolean {
  return q.search !== '' || Object.values(q.filters).some((v) => v !== '');
}
