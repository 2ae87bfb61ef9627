/**
 * Foundation schema: tenants, users, credentials, invitations, drivers, settings, outbox.
 * Every tenant-owned table carries tenant_id; its keys and indexes start with tenant_id; row-level
 * security is enabled and forced on it (see the policy loop at the end).
 */
export default /* sql */ `
CREATE TABLE tenants (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  address       text NOT NULL,
  phone         text NOT NULL,
  contact_email text NOT NULL,
  dot_number    text,
  mc_number     text,
  status        text NOT NULL CHECK (status IN ('PENDING_APPROVAL','ACTIVE','REJECTED','SUSPENDED')),
  status_reason text,
  reviewed_by   text,
  reviewed_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tenants_status_idx ON tenants (status, created_at);

CREATE TABLE platform_admins (
  id            text PRIMARY KEY,
  email         text NOT NULL,
  password_hash text NOT NULL,
  first_name    text NOT NULL,
  last_name     text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX platform_admins_email_key ON platform_admins (lower(email));

CREATE TABLE users (
  tenant_id      text NOT NULL REFERENCES tenants(id),
  id             text NOT NULL,
  email          text NOT NULL,
  password_hash  text,
  first_name     text NOT NULL,
  last_name      text NOT NULL,
  role           text NOT NULL CHECK (role IN ('OWNER','ADMIN','DISPATCHER','DRIVER','VIEWER')),
  status         text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE','DEACTIVATED')),
  last_login_at  timestamptz,
  deactivated_at timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
-- Login is by e-mail alone, before any tenant is known: the one global key (a reference lookup).
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_id_key ON users (id);

CREATE TABLE refresh_tokens (
  id          text PRIMARY KEY,
  tenant_id   text REFERENCES tenants(id),
  subject_id  text NOT NULL,
  family_id   text NOT NULL,
  token_hash  text NOT NULL UNIQUE,
  expires_at  timestamptz NOT NULL,
  rotated_at  timestamptz,
  revoked_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_subject_idx ON refresh_tokens (subject_id);

CREATE TABLE api_keys (
  tenant_id    text NOT NULL REFERENCES tenants(id),
  id           text NOT NULL,
  user_id      text NOT NULL,
  name         text NOT NULL,
  prefix       text NOT NULL,
  environment  text NOT NULL CHECK (environment IN ('staging','production')),
  key_hash     text NOT NULL,
  last_used_at timestamptz,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
-- Keys are looked up by hash before the tenant is known (a reference lookup).
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash);

CREATE TABLE drivers (
  tenant_id            text NOT NULL REFERENCES tenants(id),
  id                   text NOT NULL,
  user_id              text,
  first_name           text NOT NULL,
  last_name            text NOT NULL,
  license_number       text NOT NULL,
  license_state        text NOT NULL,
  truck_number         text,
  phone_number         text,
  email                text,
  status               text NOT NULL CHECK (status IN ('PENDING','ACTIVE','INACTIVE')),
  current_hours_driven double precision NOT NULL DEFAULT 0,
  current_on_duty_time double precision NOT NULL DEFAULT 0,
  current_cycle_used   double precision NOT NULL DEFAULT 0,
  last_restart_date    timestamptz,
  deactivated_at       timestamptz,
  reactivated_at       timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
CREATE UNIQUE INDEX drivers_license_key ON drivers (tenant_id, upper(license_number));
CREATE UNIQUE INDEX drivers_user_key ON drivers (tenant_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX drivers_list_idx ON drivers (tenant_id, status, last_name, first_name, id);

CREATE TABLE user_invitations (
  tenant_id        text NOT NULL REFERENCES tenants(id),
  id               text NOT NULL,
  email            text NOT NULL,
  role             text NOT NULL CHECK (role IN ('OWNER','ADMIN','DISPATCHER','DRIVER','VIEWER')),
  first_name       text,
  last_name        text,
  driver_id        text,
  token_hash       text NOT NULL,
  status           text NOT NULL CHECK (status IN ('PENDING','ACCEPTED','REVOKED')),
  invited_by       text NOT NULL,
  expires_at       timestamptz NOT NULL,
  accepted_at      timestamptz,
  accepted_user_id text,
  revoked_at       timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, driver_id) REFERENCES drivers (tenant_id, id)
);
CREATE UNIQUE INDEX user_invitations_token_key ON user_invitations (token_hash);
CREATE INDEX user_invitations_list_idx ON user_invitations (tenant_id, created_at DESC);

CREATE TABLE tenant_settings (
  tenant_id  text PRIMARY KEY REFERENCES tenants(id),
  alerts     jsonb NOT NULL,
  monitoring jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Events that leave the process (webhooks) are written here in the same transaction as their cause.
CREATE TABLE outbox_events (
  tenant_id    text NOT NULL REFERENCES tenants(id),
  id           text NOT NULL,
  event_type   text NOT NULL,
  payload      jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX outbox_events_unpublished_idx ON outbox_events (created_at) WHERE published_at IS NULL;

-- The tenants table is scoped by its own id.
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenants
  USING (id = current_setting('app.tenant_id', true))
  WITH CHECK (id = current_setting('app.tenant_id', true));
`;
