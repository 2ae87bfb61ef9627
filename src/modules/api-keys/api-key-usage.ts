import type { Database } from '../../db/types.js';
import type { ApiKeyUseRecorder } from '../../plugins/auth.port.js';

/** `last_used_at` is news at minute resolution: written at most this often per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const BATCH = 500;
const MAX_TRACKED = 50_000;

/**
 * Records when API keys were last used, off the request path: a request only notes the time in
 * memory; `flush` (on a timer, and when the app closes) writes what is due in one statement.
 * A key is written at most once a minute by a process, and the statement itself skips keys another
 * process wrote within the minute, so a busy key costs the database one write a minute in all.
 */
export class ApiKeyUsage implements ApiKeyUseRecorder {
  /** Per key id: when this process last queued a write for it. */
  private readonly noted = new Map<string, number>();
  private pending = new Map<string, { tenantId: string; atMs: number }>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Database) {}

  /** Called on every request made with a key; cheap (two map lookups). */
  used(tenantId: string, apiKeyId: string, nowMs: number): void {
    const last = this.noted.get(apiKeyId);
    if (last !== undefined && nowMs - last < LAST_USED_RESOLUTION_MS && nowMs >= last) return;
    if (this.noted.size >= MAX_TRACKED) this.noted.clear();
    this.noted.set(apiKeyId, nowMs);
    this.pending.set(apiKeyId, { tenantId, atMs: nowMs });
  }

  /** Writes the pending times; concurrent calls queue behind one another. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const due = [...this.pending];
    this.pending = new Map();
    try {
      for (let i = 0; i < due.length; i += BATCH) {
        const chunk = due.slice(i, i + BATCH);
        const params: unknown[] = [];
        const values = chunk.map(([id, { tenantId, atMs }]) => {
          params.push(tenantId, id, new Date(atMs));
          const n = params.length;
          return `($${n - 2}::text, $${n - 1}::text, $${n}::timestamptz)`;
        });
        await this.db.system((tx) =>
          tx.query(
            `UPDATE api_keys k SET last_used_at = v.at
               FROM (VALUES ${values.join(', ')}) AS v (tenant_id, id, at)
              WHERE k.tenant_id = v.tenant_id AND k.id = v.id
                AND (k.last_used_at IS NULL OR k.last_used_at <= v.at - interval '1 minute')`,
            params,
          ),
        );
      }
    } catch (err) {
      // Not lost: the times go back in the queue (unless a newer one came meanwhile) for the next flush.
      for (const [id, use] of due) if (!this.pending.has(id)) this.pending.set(id, use);
      throw err;
    }
  }
}
