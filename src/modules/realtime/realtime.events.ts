import type { StreamEvent } from '../../db/outbox.js';

/**
 * Which dispatched events the realtime channels carry, under which names (the spec's Events section),
 * and who may see them. Pure: the SSE and Socket.IO fan-out and the SSE replay share it.
 */

/** Outbox event type → SSE event name. Only alert events go out on the SSE alert stream. */
export const SSE_EVENT_NAMES: Readonly<Record<string, string>> = {
  'alert.created': 'alert',
  'alert.updated': 'alert_updated',
  'alert.resolved': 'alert_resolved',
  // A re-plan changes what the alerts are measured against: clients of the alert stream hear of it.
  'route.replanned': 'route_replanned',
  // A correction asked of a driver, their answer and their certification: the driver (and the dispatchers) hear at once.
  'log.edit_requested': 'log_edit_requested',
  'log.edit_accepted': 'log_edit_accepted',
  'log.edit_rejected': 'log_edit_rejected',
  'log.certified': 'log_certified',
};


/** Outbox event type → Socket.IO event name. */
export const SOCKET_EVENT_NAMES: Readonly<Record<string, string>> = {
  'alert.created': 'alert:new',
  'alert.updated': 'alert:updated',
  'alert.resolved': 'alert:resolved',
  'route.planned': 'route:updated',
  'route.activated': 'route:updated',
  'route.completed': 'route:updated',
  'route.cancelled': 'route:updated',
  'route.replanned': 'route:updated',
  'log.edit_requested': 'log:edit_requested',
  'log.edit_accepted': 'log:edit_accepted',
  'log.edit_rejected': 'log:edit_rejected',
  'log.certified': 'log:certified',
};

/** The status a route event leaves the plan in (route.planned's payload does not carry one). */
const ROUTE_STATUS: Readonly<Record<string, string>> = {
  'route.planned': 'PLANNED',
  'route.activated': 'ACTIVE',
  'route.completed': 'COMPLETED',
  'route.cancelled': 'CANCELLED',
  'route.replanned': 'ACTIVE',
};

/** A frame ready to send: its stream position, the channel's event name and the data. */
export interface RealtimeMessage {
  seq: number;
  tenantId: string;
  /** The driver the event is about (DRIVER users see only their own); null: not about one driver. */
  driverId: string | null;
  name: string;
  data: Record<string, unknown>;
}

function driverOf(payload: Record<string, unknown>): string | null {
  return typeof payload.driverId === 'string' ? payload.driverId : null;
}

/** The SSE frame of a dispatched event, or null when the alert stream does not carry it. */
export function sseMessage(event: Pick<StreamEvent, 'seq' | 'tenantId' | 'type' | 'payload'>): RealtimeMessage | null {
  const name = SSE_EVENT_NAMES[event.type];
  if (!name) return null;
  return { seq: event.seq, tenantId: event.tenantId, driverId: driverOf(event.payload), name, data: event.payload };
}

/** The Socket.IO event of a dispatched event, or null when sockets do not carry it. */
export function socketMessage(event: Pick<StreamEvent, 'seq' | 'tenantId' | 'type' | 'payload'>): RealtimeMessage | null {
  const name = SOCKET_EVENT_NAMES[event.type];
  if (!name) return null;
  const routeStatus = ROUTE_STATUS[event.type];
  // route:updated is the spec's {planId, status}: the webhook payload with the status always present
  // and the event that caused it, so one handler can tell an activation from a cancellation.
  const data = routeStatus ? { ...event.payload, status: event.payload.status ?? routeStatus, event: event.type } : event.payload;
  return { seq: event.seq, tenantId: event.tenantId, driverId: driverOf(event.payload), name, data };
}

/** The SSE alert stream: the outbox event types its replay reads back (Last-Event-ID), and their frames. */
export const SSE_CHANNEL = { types: Object.keys(SSE_EVENT_NAMES), message: sseMessage } as const;

/** Socket.IO: the outbox event types its replay reads back (the connection's offset), and their events. */
export const SOCKET_CHANNEL = { types: Object.keys(SOCKET_EVENT_NAMES), message: socketMessage } as const;

/**
 * Whether a subscriber may see a message: its own tenant only; a DRIVER user (driverScope a driver
 * id, or null when their account is linked to no driver) only the events about their own driver.
 */
export function visibleTo(message: Pick<RealtimeMessage, 'tenantId' | 'driverId'>, viewer: { tenantId: string; driverScope: string | null | undefined }): boolean {
  if (message.tenantId !== viewer.tenantId) return false;
  if (viewer.driverScope === undefined) return true;
  return viewer.driverScope !== null && message.driverId === viewer.driverScope;
}

/** Parses a broadcast payload into a StreamEvent, or null when it is not one. */
export function parseStreamEvent(raw: string): StreamEvent | null {
  try {
    const e = JSON.parse(raw) as Partial<StreamEvent>;
    if (typeof e.seq !== 'number' || typeof e.tenantId !== 'string' || typeof e.type !== 'string' || typeof e.payload !== 'object' || e.payload === null) return null;
    return e as StreamEvent;
  } catch {
    return null;
  }
}
