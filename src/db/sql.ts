/** Query shapes every tenant repository repeats, written once. */
import { likePattern } from '../lib/rows.js';
import type { Row, Tx } from './types.js';

/**
 * The WHERE of a tenant list: the tenant, then equality filters (undefined ones skipped), then a
 * case-insensitive search over the given columns or expressions. Returns the clause and its parameters.
 */
export function listFilter(
  tenantId: string,
  equals: Record<string, string | undefined>,
  search?: { text: string | undefined; columns: string[] },
): { where: string; params: unknown[] } {
  const where = ['tenant_id = $1'];
  const params: unknown[] = [tenantId];
  for (const [column, value] of Object.entries(equals)) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  if (search?.text) {
    params.push(likePattern(search.text));
    const p = `$${params.length}`;
    where.push(`(${search.columns.map((c) => `${c} ILIKE ${p}`).join(' OR ')})`);
  }
  return { where: where.join(' AND '), params };
}

export interface PageQuery {
  /** Columns (default *); `total` is added. */
  select?: string;
  from: string;
  where: string;
  orderBy: string;
}

/**
 * A page of rows and the total in one statement (a window count). Only a page past the end, which has no
 * row to carry the count, costs a second query. page and pageSize are validated integers (schemas).
 */
export async function selectPage<R extends Row = Row>(tx: Tx, q: PageQuery, params: unknown[], page: number, pageSize: number): Promise<{ rows: R[]; total: number }> {
  if (!Number.isInteger(page) || !Number.isInteger(pageSize) || page < 1 || pageSize < 1) throw new RangeError('invalid page');
  const { rows } = await tx.query<R & { total: unknown }>(
    `SELECT ${q.select ?? '*'}, count(*) OVER () AS total FROM ${q.from} WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    params,
  );
  if (rows.length > 0 || page === 1) return { rows, total: rows.length > 0 ? Number(rows[0]!.total) : 0 };
  const count = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${q.from} WHERE ${q.where}`, params);
  return { rows, total: count.rows[0]?.n ?? 0 };
}

/**
 * UPDATE of the given fields (camelCase keys mapped to columns; undefined = unchanged) plus updated_at,
 * for one row of a tenant table. Returns the updated row, or null when it does not exist.
 */
export async function updateFields<F extends object>(
  tx: Tx,
  table: string,
  columns: Record<keyof F, string>,
  tenantId: string,
  id: string,
  changes: Partial<F>,
  now: Date,
): Promise<Row | null> {
  const sets = ['updated_at = $3'];
  const params: unknown[] = [tenantId, id, now];
  for (const [key, value] of Object.entries(changes) as [keyof F, unknown][]) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${columns[key]} = $${params.length}`);
  }
  const { rows } = await tx.query(`UPDATE ${table} SET ${sets.join(', ')} WHERE tenant_id = $1 AND id = $2 RETURNING *`, params);
  return rows[0] ?? null;
}
