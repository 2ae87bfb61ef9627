import type { Tx } from '../db/types.js';

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

/** The broadcast channel dispatched events are published on, for the API processes' realtime clients. */
export const EVENTS_CHANNEL = 'events';

/**
 * Work done with each batch of dispatched events inside the transaction that marks them published
 * (the webhook fan-out creates its deliveries there): it happens exactly once per event.
 */
export interface OutboxSink {
  readonly name: string;
  handle(tx: Tx, events: StreamEvent[], now: Date): Promise<void>;
}
