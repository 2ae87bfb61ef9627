/** The webhook event catalogue (the spec's Webhook events table) and the wildcard. */
export const WEBHOOK_EVENTS = [
  'alert.created',
  'alert.updated',
  'alert.resolved',
  'route.planned',
  'route.activated',
  'route.completed',
  'route.cancelled',
  'route.replanned',
  'driver.status_changed',
  'load.status_changed',
  'integration.sync_completed',
  'integration.sync_failed',
  // Records of duty status (additions to the spec's list; docs/logs.md has their payloads).
  'log.edit_requested',
  'log.edit_accepted',
  'log.edit_rejected',
  'log.certified',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WILDCARD = '*';
/** Sent by POST /webhooks/{id}/test only; nobody subscribes to it. */
export const PING_EVENT = 'ping';

export function isWebhookEvent(name: string): name is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(name);
}

/** Whether a webhook subscribed to `events` gets `event` (internal events such as tenant.registered never leave). */
export function subscribes(events: readonly string[], event: string): boolean {
  return isWebhookEvent(event) && (events.includes(WILDCARD) || events.includes(event));
}

/** The spec's envelope, fixed when the delivery is created so every attempt sends the same bytes. */
export function envelope(e: { eventId: string; event: string; timestamp: string; webhookId: string; data: unknown }): string {
  return JSON.stringify({ id: e.eventId, event: e.event, timestamp: e.timestamp, webhookId: e.webhookId, data: e.data });
}
