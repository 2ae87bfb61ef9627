/**
 * Planning resources: duty-status log, vehicles, loads, locations, route plans and positions.
 * Tenant-owned like every table: tenant_id first in keys; RLS is applied by the migrator's policy loop.
 */
export default /* sql */ `
ALTER TABLE tenant_settings ADD COLUMN hos jsonb NOT NULL DEFAULT '{}'::jsonb;

CREATE TABLE duty_status_events (
  tenant_id   text NOT NULL REFERENCES tenants(id),
  id          text NOT NULL,
  driver_id   text NOT NULL,
  status      text NOT NULL CHECK (status IN ('OFF_DUTY','SLEEPER_BERTH','ON_DUTY_DRIVING','ON_DUTY_NOT_DRIVING')),
  started_at  timestamptz NOT NULL,
  latitude    double precision,
  longitude   double precision,
  note        text,
  source      text NOT NULL DEFAULT 'MANUAL',
  created_by  text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, driver_id) REFERENCES drivers (tenant_id, id)
);
CREATE INDEX duty_status_events_driver_idx ON duty_status_events (tenant_id, driver_id, started_at);

CREATE TABLE vehicles (
  tenant_id         text NOT NULL REFERENCES tenants(id),
  id                text NOT NULL,
  unit_number       text NOT NULL,
  vin               text,
  make              text,
  model             text,
  year              integer,
  license_plate     text,
  fuel_tank_gallons double precision NOT NULL DEFAULT 150,
  mpg               double precision NOT NULL DEFAULT 6.5,
  status            text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE','INACTIVE','IN_MAINTENANCE')),
  eld_external_id   text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX vehicles_unit_key ON vehicles (tenant_id, upper(unit_number));
CREATE UNIQUE INDEX vehicles_vin_key ON vehicles (tenant_id, upper(vin)) WHERE vin IS NOT NULL;

CREATE TABLE loads (
  tenant_id           text NOT NULL REFERENCES tenants(id),
  id                  text NOT NULL,
  reference_number    text NOT NULL,
  customer            text,
  origin_address      text,
  destination_address text,
  scheduled_pickup    timestamptz,
  scheduled_delivery  timestamptz,
  weight              double precision,
  commodity           text,
  status              text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING','ASSIGNED','IN_TRANSIT','DELIVERED','CANCELLED')),
  source              text NOT NULL DEFAULT 'MANUAL',
  external_id         text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX loads_reference_key ON loads (tenant_id, upper(reference_number));
CREATE UNIQUE INDEX loads_external_key ON loads (tenant_id, source, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX loads_status_idx ON loads (tenant_id, status, created_at);

CREATE TABLE locations (
  tenant_id           text NOT NULL REFERENCES tenants(id),
  id                  text NOT NULL,
  name                text NOT NULL,
  type                text NOT NULL CHECK (type IN ('TRUCK_STOP','REST_AREA','CUSTOMER','YARD','FUEL_STATION')),
  address             text,
  latitude            double precision NOT NULL,
  longitude           double precision NOT NULL,
  amenities           jsonb NOT NULL DEFAULT '{}'::jsonb,
  fuel_discount_per_gallon double precision,
  external_id         text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX locations_type_idx ON locations (tenant_id, type);
CREATE UNIQUE INDEX locations_external_key ON locations (tenant_id, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE route_plans (
  tenant_id       text NOT NULL REFERENCES tenants(id),
  id              text NOT NULL,
  driver_id       text NOT NULL,
  vehicle_id      text,
  load_id         text,
  status          text NOT NULL CHECK (status IN ('PLANNED','ACTIVE','COMPLETED','CANCELLED')),
  departure_time  timestamptz NOT NULL,
  arrival_time    timestamptz NOT NULL,
  distance_method text NOT NULL,
  request         jsonb NOT NULL,
  summary         jsonb NOT NULL,
  stops           jsonb NOT NULL,
  segments        jsonb NOT NULL,
  created_by      text,
  activated_at    timestamptz,
  completed_at    timestamptz,
  cancelled_at    timestamptz,
  cancel_reason   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, driver_id) REFERENCES drivers (tenant_id, id),
  FOREIGN KEY (tenant_id, vehicle_id) REFERENCES vehicles (tenant_id, id),
  FOREIGN KEY (tenant_id, load_id) REFERENCES loads (tenant_id, id)
);
CREATE INDEX route_plans_status_idx ON route_plans (tenant_id, status, created_at DESC);
CREATE INDEX route_plans_driver_idx ON route_plans (tenant_id, driver_id, created_at DESC);
-- A driver drives one route at a time.
CREATE UNIQUE INDEX route_plans_one_active_key ON route_plans (tenant_id, driver_id) WHERE status = 'ACTIVE';

CREATE TABLE route_positions (
  tenant_id          text NOT NULL REFERENCES tenants(id),
  id                 text NOT NULL,
  route_id           text NOT NULL,
  recorded_at        timestamptz NOT NULL,
  latitude           double precision NOT NULL,
  longitude          double precision NOT NULL,
  speed_mph          double precision,
  heading_degrees    double precision,
  fuel_level_percent double precision,
  source             text NOT NULL DEFAULT 'API',
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, route_id) REFERENCES route_plans (tenant_id, id)
);
CREATE INDEX route_positions_route_idx ON route_positions (tenant_id, route_id, recorded_at DESC);
`;
