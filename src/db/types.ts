export type Row = Record<string, unknown>;

export interface QueryResult<R = Row> {
  rows: R[];
  rowCount: number;
}

/**
 * How a statement is sent. `prepare`: a name for a statement whose text never changes and that runs on
 * every request of a hot path: PostgreSQL then parses and plans it once per connection and reuses its plan
 * (a large statement's planning can cost more than running it; issue 28, bench/README.md). PGlite runs
 * every statement as it comes.
 */
export interface QueryOptions {
  prepare?: string;
}

/** A connection inside a transaction. Repositories take one of these, never the pool. */
export interface Tx {
  query<R = Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>>;
}

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in a transaction as the application role (no BYPASSRLS) with `app.tenant_id` set
   * locally: row-level security limits every statement to this tenant's rows.
   */
  tenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in a transaction as the schema owner, outside row-level security. Only for work that
   * happens before a tenant is known (credential lookups, registration) and for platform administration.
   */
  system<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One statement as the schema owner, in a transaction of its own (autocommit): on PostgreSQL one round
   * trip where `system` takes three (BEGIN, the statement, COMMIT). For the single-statement steps of
   * cross-tenant workers that run thousands of times a second (the webhook queue's claim and record).
   */
  systemStatement<R = Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel` (any process on the same database), and once more
   * whenever the listening connection is re-established (notifications may have been missed). Returns
   * the function that stops listening. Channel names are plain identifiers.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /** Raw statement(s) as the owner; used by migrations. */
  exec(sql: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const APP_ROLE = 'fleet_app';
