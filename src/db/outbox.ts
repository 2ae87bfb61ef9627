import { newId } from '../lib/ids.js';
import type { Tx } from './types.js';

/** Woken when events are committed: the dispatchers LISTEN on it (db.listen). */
export const OUTBOX_CHANNEL = 'fleet_outbox';

/** The broadcast channel dispatched events are published on, for the API processes' realtime clients. */
export const EVENTS_CHANNEL = 'events';

/**
 * An outbox event as the dispatcher hands it on: with its position in the event stream, which is the
 * realtime event id (SSE `id:`, Last-Event-ID replay) and stays the same if the event is handed on again.
 */
export interface StreamEvent {
  seq: number;
  /** evt_…: the webhook envelope's id. */
  id: string;
  tenantId: string;
  /** alert.created, route.activated, …: the spec's webhook event names. */
  type: string;
  payload: Record<string, unknown>;
  createdAt: string;
}

/**
 * Work done with each batch of dispatched events inside the transaction that marks them published
 * (the webhook fan-out creates its deliveries there): it happens exactly once per event.
 */
export interface OutboxSink {
  readonly name: string;
  handle(tx: Tx, events: StreamEvent[], now: Date): Promise<void>;
}

/**
 * Writes an event for delivery outside the process, in the caller's transaction: it commits with its
 * cause, and the NOTIFY that wakes the dispatchers is delivered by PostgreSQL at that commit (never
 * for a rolled-back one; repeated NOTIFYs in one transaction are folded into one).
 */
export function emitEvent(tx: Tx, tenantId: string, eventType: string, payload: Record<string, unknown>, now: Date): Promise<string> {
  return writeEvent(tx, null, tenantId, eventType, payload, now);
}

/** A statement and its parameters, for a caller that adds to it (runWithEvent). */
export interface Statement {
  sql: string;
  params: unknown[];
  /** A name when the text never changes and it runs on a hot path (QueryOptions.prepare). */
  prepare?: string;
}

/**
 * Runs a data-modifying statement (an INSERT or UPDATE without RETURNING) and writes its event, with the
 * NOTIFY, in the same statement: one round trip instead of two (data-modifying WITH clauses always run,
 * in one snapshot; neither can see the other's row, and neither needs to).
 */
export function runWithEvent(tx: Tx, statement: Statement, tenantId: string, eventType: string, payload: Record<string, unknown>, now: Date): Promise<string> {
  return writeEvent(tx, statement, tenantId, eventType, payload, now);
}

/** writeEvent's statement for each fixed `main` text (and for none), built once. */
const withEventStatements = new Map<string, string>();

/** The event row and its NOTIFY (pg_notify is NOTIFY as a function) in one statement, after `main` if given. */
async function writeEvent(tx: Tx, main: Statement | null, tenantId: string, eventType: string, payload: Record<string, unknown>, now: Date): Promise<string> {
  const id = newId('event');
  const params = main?.params ?? [];
  const n = params.length;
  const key = main?.sql ?? '';
  let sql = withEventStatements.get(key);
  if (sql === undefined) {
    sql = `WITH ${main ? `main AS (${main.sql}), ` : ''}e AS (INSERT INTO outbox_events (tenant_id, id, event_type, payload, created_at) VALUES ($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}) RETURNING 1)
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM e`;
    // Texts that are prepared are few and fixed; others are built each time (not kept).
    if (!main || main.prepare) withEventStatements.set(key, sql);
  }
  await tx.query(
    sql,
    [...params, tenantId, id, eventType, JSON.stringify(payload), now],
    main?.prepare ? { prepare: `${main.prepare}_with_event` } : undefined,
  );
  return id;
}

/** Several events in one statement (a monitoring pass's new alerts), with one NOTIFY. */
export async function emitEvents(tx: Tx, events: { tenantId: string; eventType: string; payload: Record<string, unknown> }[], now: Date): Promise<string[]> {
  if (events.length === 0) return [];
  const ids = events.map(() => newId('event'));
  await tx.query(
    `WITH ins AS (
       INSERT INTO outbox_events (tenant_id, id, event_type, payload, created_at)
       SELECT e.tenant_id, e.id, e.event_type, e.payload::jsonb, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS e (tenant_id, id, event_type, payload, n) ORDER BY e.n
       RETURNING 1)
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') WHERE EXISTS (SELECT 1 FROM ins)`,
    [events.map((e) => e.tenantId), ids, events.map((e) => e.eventType), events.map((e) => JSON.stringify(e.payload)), now],
  );
  return ids;
}
