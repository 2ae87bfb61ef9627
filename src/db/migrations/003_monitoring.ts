/**
 * Monitoring, alerts, the event stream and webhooks. Tenant-owned tables have tenant_id first in their
 * keys and get RLS from the migrator's policy loop. The few indexes that do not start with tenant_id
 * serve the background workers' cross-tenant claims (due checks, unpublished events, due deliveries).
 */
export default /* sql */ `
-- Every unresolved alert belongs to one route and type at a time (monitoring updates it rather than
-- raising another).
CREATE TABLE alerts (
  tenant_id        text NOT NULL REFERENCES tenants(id),
  id               text NOT NULL,
  type             text NOT NULL,
  category         text NOT NULL CHECK (category IN ('HOS_VIOLATION','ROUTE_DEVIATION','WEATHER','MECHANICAL','SCHEDULING','SYSTEM')),
  priority         text NOT NULL CHECK (priority IN ('CRITICAL','HIGH','MEDIUM','LOW')),
  status           text NOT NULL CHECK (status IN ('ACTIVE','ACKNOWLEDGED','SNOOZED','RESOLVED')),
  title            text NOT NULL,
  message          text NOT NULL,
  driver_id        text,
  route_id         text,
  vehicle_id       text,
  metadata         jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  acknowledged_by  text,
  acknowledged_at  timestamptz,
  snoozed_by       text,
  snoozed_until    timestamptz,
  resolved_by      text,
  resolved_at      timestamptz,
  resolution       text,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX alerts_one_open_key ON alerts (tenant_id, route_id, type) WHERE status <> 'RESOLVED';
CREATE INDEX alerts_created_idx ON alerts (tenant_id, created_at DESC, id);
CREATE INDEX alerts_status_idx ON alerts (tenant_id, status, created_at DESC);
CREATE INDEX alerts_driver_idx ON alerts (tenant_id, driver_id, created_at DESC);
-- Snoozed alerts come back when their time is up.
CREATE INDEX alerts_snoozed_idx ON alerts (snoozed_until) WHERE status = 'SNOOZED';

CREATE TABLE alert_notes (
  tenant_id  text NOT NULL REFERENCES tenants(id),
  id         text NOT NULL,
  alert_id   text NOT NULL,
  author_id  text NOT NULL,
  text       text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, alert_id) REFERENCES alerts (tenant_id, id)
);
CREATE INDEX alert_notes_alert_idx ON alert_notes (tenant_id, alert_id, created_at);

-- One row per ACTIVE route: when it is next due, and which worker holds it until when.
CREATE TABLE route_monitoring (
  tenant_id       text NOT NULL REFERENCES tenants(id),
  route_id        text NOT NULL,
  next_check_at   timestamptz NOT NULL,
  locked_by       text,
  locked_until    timestamptz,
  last_checked_at timestamptz,
  checks          integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, route_id),
  FOREIGN KEY (tenant_id, route_id) REFERENCES route_plans (tenant_id, id)
);
CREATE INDEX route_monitoring_due_idx ON route_monitoring (next_check_at);

-- The event stream: outbox rows are numbered as they are written (the order they are dispatched in),
-- get a stream position when they are dispatched (realtime ids, SSE Last-Event-ID replay: the order
-- clients see) and a lease while a dispatcher works on them.
ALTER TABLE outbox_events ADD COLUMN enqueued bigserial;
CREATE SEQUENCE outbox_stream_seq;
ALTER TABLE outbox_events ADD COLUMN stream_seq bigint;
ALTER TABLE outbox_events ADD COLUMN claimed_until timestamptz;
CREATE INDEX outbox_events_stream_idx ON outbox_events (tenant_id, stream_seq) WHERE stream_seq IS NOT NULL;

CREATE TABLE webhooks (
  tenant_id                  text NOT NULL REFERENCES tenants(id),
  id                         text NOT NULL,
  url                        text NOT NULL,
  events                     jsonb NOT NULL,
  description                text,
  status                     text NOT NULL CHECK (status IN ('ACTIVE','DISABLED')),
  -- Signing secrets, encrypted with ENCRYPTION_KEY (AES-256-GCM): HMAC needs the secret itself.
  secret_ciphertext          text NOT NULL,
  previous_secret_ciphertext text,
  previous_secret_expires_at timestamptz,
  disabled_reason            text,
  created_by                 text,
  created_at                 timestamptz NOT NULL,
  updated_at                 timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id)
);

-- One delivery per (webhook, event); its id is the X-Service-Delivery idempotency key on every attempt.
CREATE TABLE webhook_deliveries (
  tenant_id        text NOT NULL REFERENCES tenants(id),
  id               text NOT NULL,
  webhook_id       text NOT NULL,
  event_id         text NOT NULL,
  event_type       text NOT NULL,
  -- The exact JSON body sent (the spec's envelope), fixed at creation so every attempt sends the same.
  body             text NOT NULL,
  status           text NOT NULL CHECK (status IN ('PENDING','DELIVERED','FAILED')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  locked_until     timestamptz,
  last_status_code integer,
  last_error       text,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  delivered_at     timestamptz,
  failed_at        timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, webhook_id) REFERENCES webhooks (tenant_id, id)
);
CREATE UNIQUE INDEX webhook_deliveries_event_key ON webhook_deliveries (tenant_id, webhook_id, event_id);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (tenant_id, webhook_id, created_at DESC);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING';

CREATE TABLE webhook_attempts (
  tenant_id     text NOT NULL REFERENCES tenants(id),
  id            text NOT NULL,
  delivery_id   text NOT NULL,
  attempt       integer NOT NULL,
  started_at    timestamptz NOT NULL,
  duration_ms   integer NOT NULL,
  status_code   integer,
  error         text,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, delivery_id) REFERENCES webhook_deliveries (tenant_id, id)
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (tenant_id, delivery_id, attempt);
`;
