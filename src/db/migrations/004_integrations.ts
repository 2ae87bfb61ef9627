/**
 * Integrations (issue 9): one row per configured vendor connection. The config (credentials) is sealed
 * with ENCRYPTION_KEY (AES-256-GCM) and never leaves the service. The due index serves the sync
 * worker's cross-tenant claim (ACTIVE and due, or SYNCING requested).
 */
export default /* sql */ `
CREATE TABLE integrations (
  tenant_id              text NOT NULL REFERENCES tenants(id),
  id                     text NOT NULL,
  vendor                 text NOT NULL,
  category               text NOT NULL CHECK (category IN ('ELD','TMS','FUEL','WEATHER')),
  name                   text NOT NULL,
  status                 text NOT NULL CHECK (status IN ('CONFIGURED','TESTING','ACTIVE','SYNCING','DISABLED','ERROR')),
  config_ciphertext      text NOT NULL,
  sync_interval_minutes  integer NOT NULL CHECK (sync_interval_minutes > 0),
  last_sync_at           timestamptz,
  next_sync_at           timestamptz,
  last_test              jsonb,
  last_error             jsonb,
  last_sync_counts       jsonb,
  sync_started_at        timestamptz,
  locked_until           timestamptz,
  created_by             text,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX integrations_list_idx ON integrations (tenant_id, created_at DESC, id);
-- Due syncs: ACTIVE on their interval, SYNCING when requested by hand (or left by a dead worker).
CREATE INDEX integrations_due_idx ON integrations (next_sync_at) WHERE status IN ('ACTIVE','SYNCING');
`;
