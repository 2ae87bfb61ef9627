import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];
import type { Client, Pool } from 'pg';
import { isTenantId } from '../lib/ids.js';
import { APP_ROLE, type Database, type QueryOptions, type QueryResult, type Tx } from './types.js';

/**
 * The statements that open a tenant-scoped transaction, sent as one round trip. The tenant id is
 * interpolated only after it has matched the strict identifier pattern (prefix + base62).
 */
function tenantPreamble(tenantId: string): string {
  if (!isTenantId(tenantId)) throw new Error('invalid tenant id for tenant transaction');
  return `SET LOCAL ROLE ${APP_ROLE}; SELECT set_config('app.tenant_id', '${tenantId}', true)`;
}

export interface DatabaseOptions {
  /** undefined or 'memory://' for PGlite, postgres:// for PostgreSQL. */
  url: string | undefined;
  /** PGlite data directory when url is undefined. */
  dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves in one); default public. */
  schema?: string;
  poolSize?: number;
  /**
   * memory:// only: the cluster to start from, a tarball made by `snapshotPglite` (the test suites start
   * every database from one migrated cluster); default: a new, empty one.
   */
  cluster?: Uint8Array<ArrayBuffer>;
}

/**
 * Each driver is imported when a database of its kind is opened, so a process loads either PGlite or
 * pg, not both (several MB of code each).
 */
const loadPGlite = async (): Promise<typeof PGlite> => (await import('@electric-sql/pglite')).PGlite;

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url !== undefined && /^postgres(ql)?:\/\//.test(opts.url)) return openPostgres(opts.url, opts);
  const dataDir = opts.url !== 'memory://' ? opts.dataDir : undefined;
  const pglite = dataDir === undefined ? await openPgliteInMemory(opts.cluster) : await openPgliteOnDisk(dataDir);
  return new PgliteDatabase(pglite, dataDir === undefined ? IN_MEMORY_CHECKPOINT_WAL_BYTES : ON_DISK_CHECKPOINT_WAL_BYTES);
}

/** An in-memory database's cluster as a gzipped tarball, to open others from (`cluster`). */
export async function snapshotPglite(db: Database): Promise<Uint8Array<ArrayBuffer>> {
  if (!(db instanceof PgliteDatabase)) throw new Error('only an embedded (PGlite) database can be snapshotted');
  return db.snapshot();
}

/**
 * A bare PGlite instance with the service's settings, in memory (no `dataDir`) or on disk. The service
 * wraps it (PgliteDatabase); the benchmark's baseline uses it bare, so both run the same database.
 */
export function openPglite(dataDir?: string): Promise<PGlite> {
  return dataDir === undefined ? openPgliteInMemory() : openPgliteOnDisk(dataDir);
}

/**
 * PostgreSQL settings of the embedded PGlite, on top of PGlite's own start parameters.
 *
 * shared_buffers: PostgreSQL's default 128 MB is allocated and zeroed inside the WASM memory at start,
 * so all of it is resident from the first second, and WASM memory never shrinks. 16 MB (2,048 pages)
 * holds the working set of a development or test database; pages beyond it are read again from
 * PGlite's file system (in memory for memory://, the OS page cache on disk), not lost.
 *
 * In memory:// the WAL files are JavaScript memory too, so that cluster is made with 1 MB WAL segments
 * (initdb --wal-segsize=1; PostgreSQL's default is 16 MB, all of it allocated at once), and after a
 * checkpoint keeps at most max_wal_size=8MB of old segments for reuse (see PgliteDatabase for when
 * checkpoints happen). On disk the WAL costs disk, not memory, and keeps PostgreSQL's defaults.
 */
// plan_cache_mode: a statement prepared by name (QueryOptions.prepare) is planned once, for any parameters,
// as on PostgreSQL (openPostgres says why); unnamed statements are planned each time as always.
const PGLITE_SETTINGS: readonly string[] = ['shared_buffers=16MB', 'plan_cache_mode=force_generic_plan'];
const PGLITE_IN_MEMORY_SETTINGS: readonly string[] = ['max_wal_size=8MB', 'min_wal_size=2MB'];
const PGLITE_IN_MEMORY_INITDB: readonly string[] = ['--wal-segsize=1'];
/** WAL written since the last checkpoint past which PgliteDatabase checkpoints. */
const IN_MEMORY_CHECKPOINT_WAL_BYTES = 8 * 1024 * 1024;
const ON_DISK_CHECKPOINT_WAL_BYTES = 64 * 1024 * 1024;
/** How many transactions pass between two looks at the WAL. */
const CHECKPOINT_CHECK_EVERY = 200;

/** Command-line settings (`-c name=value` pairs) appended to PGlite's default start parameters. */
function pgliteSettings(inMemory: boolean): string[] {
  const settings = inMemory ? [...PGLITE_SETTINGS, ...PGLITE_IN_MEMORY_SETTINGS] : PGLITE_SETTINGS;
  return settings.flatMap((s) => ['-c', s]);
}

function pgliteStartParams(PGliteClass: typeof PGlite, inMemory: boolean): string[] {
  return [...PGliteClass.defaultStartParams, ...pgliteSettings(inMemory)];
}

/**
 * Creating a cluster (initdb) is the memory peak of PGlite's life: it runs a second, temporary
 * PostgreSQL instance next to initdb's own WASM module, copies the instance's whole WASM memory, then
 * tars the result into the real instance; about 600 MB are resident at the top and, since freed WASM
 * and malloc memory mostly stay mapped, 300 to 400 MB of it stay with the process for its lifetime.
 * So initdb runs in a short-lived child process instead, and this process only loads its result.
 */
async function openPgliteInMemory(given?: Uint8Array<ArrayBuffer>): Promise<PGlite> {
  const PGliteClass = await loadPGlite();
  let cluster = given;
  try {
    cluster ??= await freshCluster();
  } catch {
    // No child process here (an unusual runtime or sandbox): create the cluster in this process, as PGlite does by itself.
  }
  const options: PGliteOptions = { startParams: pgliteStartParams(PGliteClass, true) };
  if (cluster !== undefined) options.loadDataDir = new Blob([cluster]);
  else options.initDbStartParams = [...PGLITE_IN_MEMORY_INITDB];
  const pglite = new PGliteClass(options);
  await pglite.waitReady;
  // PGlite keeps its options object for the life of the instance: do not let it pin the tarball.
  delete options.loadDataDir;
  return pglite;
}

async function openPgliteOnDisk(dataDir: string): Promise<PGlite> {
  const PGliteClass = await loadPGlite();
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    try {
      await runPgliteChild({ dataDir });
    } catch {
      // As above: PGlite creates the cluster in this process when it opens the directory.
    }
  }
  const pglite = new PGliteClass(dataDir, { startParams: pgliteStartParams(PGliteClass, false) });
  await pglite.waitReady;
  return pglite;
}

let cachedCluster: Promise<Uint8Array<ArrayBuffer>> | undefined;

/**
 * A new, empty PGlite cluster as a gzipped tarball (about 2.5 MB), made once per process in a child
 * and kept so that later in-memory databases (tests open many) skip initdb altogether.
 */
export function freshCluster(): Promise<Uint8Array<ArrayBuffer>> {
  cachedCluster ??= runPgliteChild({}).then((bytes) => {
    if (bytes.byteLength === 0) throw new Error('PGlite child produced no cluster');
    return bytes;
  });
  cachedCluster.catch(() => {
    cachedCluster = undefined;
  });
  return cachedCluster;
}

/**
 * The child's program (CommonJS, given to `node -e`): opens PGlite, which runs initdb; for an
 * in-memory cluster, checkpoints it and writes it as a gzipped tarball to fd 3; then closes it
 * cleanly (an on-disk cluster is left in its directory).
 */
const CHILD_PROGRAM = `
const fs = require('node:fs');
const { PGlite } = require(process.env.FLEET_PGLITE_MODULE);
(async () => {
  const dataDir = process.env.FLEET_PGLITE_DATA_DIR;
  const startParams = [...PGlite.defaultStartParams, ...JSON.parse(process.env.FLEET_PGLITE_SETTINGS)];
  const initDbStartParams = JSON.parse(process.env.FLEET_PGLITE_INITDB_PARAMS);
  const db = dataDir ? new PGlite(dataDir, { startParams }) : new PGlite({ startParams, initDbStartParams });
  await db.waitReady;
  if (!dataDir) {
    // A PGlite instance serves one database: the two templates are never used in memory://, and they
    // are half of the cluster (15 MB), which the server would otherwise copy into its memory.
    for (const template of ['template1', 'template0']) {
      await db.exec('ALTER DATABASE ' + template + ' IS_TEMPLATE false');
      await db.exec('DROP DATABASE ' + template);
    }
    await db.exec('CHECKPOINT');
    const tarball = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
    await new Promise((resolve, reject) => fs.createWriteStream('', { fd: 3 }).on('error', reject).end(tarball, resolve));
  }
  await db.close();
})().catch((err) => {
  process.stderr.write(String(err && err.stack || err));
  process.exit(1);
});
`;

/** Spawns the child at once (synchronously), so a caller can start it and go on with other work. */
function runPgliteChild(opts: { dataDir?: string }): Promise<Uint8Array<ArrayBuffer>> {
  const pgliteModule = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD_PROGRAM], {
      env: {
        ...process.env,
        FLEET_PGLITE_MODULE: pgliteModule,
        FLEET_PGLITE_DATA_DIR: opts.dataDir ?? '',
        FLEET_PGLITE_SETTINGS: JSON.stringify(pgliteSettings(opts.dataDir === undefined)),
        FLEET_PGLITE_INITDB_PARAMS: JSON.stringify(opts.dataDir === undefined ? PGLITE_IN_MEMORY_INITDB : []),
      },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdio[3]!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(chunks)));
      else reject(new Error(`PGlite initdb child failed (${code ?? signal}): ${stderr}`));
    });
  });
}

/** Statements prepared in each PGlite's one session: name → the types of their parameters. */
const preparedPglite = new WeakMap<PGlite, Map<string, number[]>>();

/**
 * A named statement (QueryOptions.prepare) run by the extended protocol against its prepared plan, as
 * PostgreSQL clients do: PGlite's own query() parses and plans every statement again (its unnamed
 * statement), which for the plan's context read cost more than running it. Only inside a transaction
 * (every Tx is), where nothing else runs on the session meanwhile; the messages are PGlite's own
 * serializers and parsers, and an error ends with Sync like PGlite's query() does. Exported for the
 * bench's baseline, which runs its statement the same way.
 */
export async function runPreparedPglite<R>(pg: PGlite, name: string, sql: string, params: unknown[]): Promise<{ rows: R[]; affectedRows?: number }> {
  const { protocol, parse } = await import('@electric-sql/pglite');
  const { serialize } = protocol;
  const run = (message: Uint8Array) => pg.execProtocol(message, { syncToFs: false });
  let prepared = preparedPglite.get(pg);
  if (!prepared) preparedPglite.set(pg, (prepared = new Map()));
  const messages: BackendMessage[] = [];
  try {
    let types = prepared.get(name);
    if (!types) {
      await run(serialize.parse({ name, text: sql }));
      types = parse.parseDescribeStatementResults((await run(serialize.describe({ type: 'S', name }))).messages);
      prepared.set(name, types);
    }
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = pg.serializers[types![i]!];
      return serializer ? serializer(v) : String(v);
    });
    messages.push(...(await run(serialize.bind({ statement: name, values }))).messages);
    messages.push(...(await run(serialize.describe({ type: 'P' }))).messages);
    messages.push(...(await run(serialize.execute({}))).messages);
  } finally {
    messages.push(...(await run(serialize.sync())).messages);
  }
  return parse.parseResults(messages, pg.parsers)[0] as unknown as { rows: R[]; affectedRows?: number };
}

/**
 * PGlite runs PostgreSQL in single-user mode, where nothing checkpoints by itself: there is no
 * checkpointer process, and the WAL-size trigger (max_wal_size) only fires under a postmaster. Without
 * checkpoints PostgreSQL can neither recycle nor remove WAL segments, so pg_wal grows by every byte
 * ever written: in memory:// that is the process's memory, on disk it is disk (and replay time at the
 * next start). So every CHECKPOINT_CHECK_EVERY transactions this looks at how much WAL the last
 * checkpoint left behind, and checkpoints past `checkpointWalBytes` (a few milliseconds for a small
 * database), in the queue behind the transactions already waiting.
 */
class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  private transactionsSinceCheck = 0;
  private checkpointing: Promise<void> | undefined;

  constructor(
    private readonly pg: PGlite,
    private readonly checkpointWalBytes: number,
  ) {}

  private async transaction<T>(fn: (tx: Parameters<Parameters<PGlite['transaction']>[0]>[0]) => Promise<T>): Promise<T> {
    const result = await this.pg.transaction(fn);
    if (++this.transactionsSinceCheck >= CHECKPOINT_CHECK_EVERY && this.checkpointing === undefined) {
      this.transactionsSinceCheck = 0;
      this.checkpointing = this.checkpointIfNeeded().finally(() => {
        this.checkpointing = undefined;
      });
    }
    return result;
  }

  private async checkpointIfNeeded(): Promise<void> {
    try {
      const { rows } = await this.pg.query<{ bytes: string }>('SELECT (pg_current_wal_insert_lsn() - redo_lsn)::text AS bytes FROM pg_control_checkpoint()');
      if (Number(rows[0]?.bytes ?? 0) >= this.checkpointWalBytes) await this.pg.exec('CHECKPOINT');
    } catch {
      // Closed meanwhile, or a failed checkpoint: the next look tries again.
    }
  }

  private wrap(tx: { query: PGlite['query'] }): Tx {
    return {
      query: async <R>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>> => {
        const name = options?.prepare ? preparedName(options.prepare, sql) : undefined;
        const res = name ? await runPreparedPglite<R>(this.pg, name, sql, params ?? []) : await tx.query<R>(sql, params as unknown[]);
        return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
      },
    };
  }



  tenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const preamble = tenantPreamble(tenantId);
    return this.transaction(async (tx) => {
      await tx.exec(preamble);
      return fn(this.wrap(tx));
    });
  }

  system<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction((tx) => fn(this.wrap(tx)));
  }

  /** In process there is no round trip to save: the statement runs in a transaction like `system`'s. */
  systemStatement<R>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
    return this.system((tx) => tx.query<R>(sql, params, options));
  }

  async listen(channel: string, onNotify: () => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    return this.pg.listen(channel, () => onNotify());
  }

  async exec(sql: string): Promise<void> {
    await this.pg.exec(sql);
  }

  async ping(): Promise<void> {
    await this.pg.query('SELECT 1');
  }

  async snapshot(): Promise<Uint8Array<ArrayBuffer>> {
    await this.pg.exec('CHECKPOINT');
    return new Uint8Array(await (await this.pg.dumpDataDir('gzip')).arrayBuffer());
  }

  async close(): Promise<void> {
    await this.checkpointing;
    if (!this.pg.closed) await this.pg.close();
  }
}

/**
 * The name a statement is prepared under on each connection: the caller's name and a hash of the text, so
 * that the variants of one statement (a list's filters) are each prepared once and never mistaken for one
 * another. At most PREPARED_TEXTS texts are prepared; beyond that (a bug: prepared texts must be few and
 * fixed) statements are sent unprepared rather than filling every connection's memory.
 */
function preparedName(base: string, sql: string): string | undefined {
  let name = preparedNames.get(sql);
  if (name === undefined) {
    if (preparedNames.size >= PREPARED_TEXTS) return undefined;
    let h = 0x811c9dc5;
    for (let i = 0; i < sql.length; i++) h = Math.imul(h ^ sql.charCodeAt(i), 0x01000193);
    name = `${base}_${(h >>> 0).toString(36)}`;
    preparedNames.set(sql, name);
  }
  return name;
}
const PREPARED_TEXTS = 200;
const preparedNames = new Map<string, string>();

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  const { default: pg } = await import('pg');
  // Set once per connection rather than per transaction: a statement never runs longer than 15 s; a
  // statement prepared by name (QueryOptions.prepare: fixed text, a hot path) is planned once for any
  // parameters — with `auto` PostgreSQL kept planning the plan's context read anew (~2.5 ms a plan) since
  // its estimates for the generic plan were worse, while the generic plan runs as fast (issue 28). It
  // affects only those: unnamed statements are planned for their parameters as always.
  const connectionOptions = `-c statement_timeout=15s -c plan_cache_mode=force_generic_plan${opts.schema ? ` -c search_path=${opts.schema}` : ''}`;
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    options: connectionOptions,
    idleTimeoutMillis: 30_000,
  });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor a checked-out client's: when its socket dies (PostgreSQL restarted, the connection reset) pg fails
  // its queries, which the transaction sees (rollback, the client released as broken), and also emits
  // 'error' on the client, which with no listener throws and ends the process (the soak caught a worker
  // dying so at a PostgreSQL restart).
  pool.on('connect', (client) => void client.on('error', () => undefined));
  if (opts.schema) {
    const c = await pool.connect();
    try {
      await c.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema.replace(/"/g, '')}"`);
    } catch (err) {
      // Two processes creating it at the same moment: the other one won, the schema is there.
      if ((err as { code?: string }).code !== '23505' && (err as { code?: string }).code !== '42P06') throw err;
    } finally {
      c.release();
    }
  }
  return new PostgresDatabase(pool, () => new pg.Client({ connectionString: url, options: connectionOptions }));
}

function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
}

/** How long a lost listening connection waits before connecting again. */
const LISTEN_RETRY_MS = 1_000;

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  constructor(
    private readonly pool: Pool,
    /** A connection of its own for LISTEN (a pooled one would be handed to others). */
    private readonly newClient: () => Client,
  ) {}

  private async run<T>(preamble: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx: Tx = {
      async query<R>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
        const name = options?.prepare ? preparedName(options.prepare, sql) : undefined;
        const res = name ? await client.query({ name, text: sql, values: params }) : await client.query(sql, params as unknown[]);
        return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
      },
    };
    let broken = false;
    try {
      await client.query(`BEGIN; ${preamble}`);
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw err;
    } finally {
      client.release(broken);
    }
  }

  tenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.run(tenantPreamble(tenantId), fn);
  }

  system<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.run('', fn);
  }

  async systemStatement<R>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
    const name = options?.prepare ? preparedName(options.prepare, sql) : undefined;
    // pool.query sends Parse/Bind/Execute/Sync at once and runs the statement in its own implicit transaction.
    const res = name ? await this.pool.query({ name, text: sql, values: params }) : await this.pool.query(sql, params as unknown[]);
    return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
  }

  async listen(channel: string, onNotify: () => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    let client: Client | undefined;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (first: boolean): Promise<void> => {
      const c = this.newClient();
      client = c;
      let scheduled = false;
      const again = () => {
        if (stopped || scheduled) return;
        scheduled = true;
        retry = setTimeout(() => void connect(false), LISTEN_RETRY_MS);
        retry.unref();
      };
      c.on('notification', (msg) => {
        if (msg.channel === channel) onNotify();
      });
      c.on('error', () => undefined);
      c.on('end', again);
      try {
        await c.connect();
        await c.query(`LISTEN ${channel}`);
      } catch (err) {
        if (first) throw err;
        again();
        c.end().catch(() => undefined);
        return;
      }
      // Connected again after a loss: whatever was notified meanwhile is unknown.
      if (!first) onNotify();
    };
    await connect(true);
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    };
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
