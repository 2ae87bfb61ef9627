/**
 * What the integrations bring in (issue 9): an ELD's clocks per driver and telemetry per vehicle, the
 * signals an integration holds about an active route (weather along it, a visibility provider's predicted
 * arrivals), and a fuel vendor's station prices. Each row names the integration it came from and goes
 * with it when the integration is deleted. Drivers gain an external id to match vendor records.
 */
export default /* sql */ `
ALTER TABLE drivers ADD COLUMN external_id text;
CREATE UNIQUE INDEX drivers_external_key ON drivers (tenant_id, external_id) WHERE external_id IS NOT NULL;

-- The latest HOS clocks an ELD reported for a driver (source = the vendor key).
CREATE TABLE driver_eld_clocks (
  tenant_id           text NOT NULL REFERENCES tenants(id),
  driver_id           text NOT NULL,
  integration_id      text NOT NULL,
  source              text NOT NULL,
  vendor_driver_id    text NOT NULL,
  current_status      text NOT NULL CHECK (current_status IN ('OFF_DUTY','SLEEPER_BERTH','ON_DUTY_DRIVING','ON_DUTY_NOT_DRIVING')),
  drive_remaining_ms  bigint NOT NULL,
  shift_remaining_ms  bigint NOT NULL,
  cycle_remaining_ms  bigint NOT NULL,
  break_remaining_ms  bigint,
  synced_at           timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, driver_id),
  FOREIGN KEY (tenant_id, driver_id) REFERENCES drivers (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, integration_id) REFERENCES integrations (tenant_id, id) ON DELETE CASCADE
);

-- An ELD's latest word on a vehicle: where it is, its fuel level, its fault codes (active and cleared).
CREATE TABLE vehicle_telemetry (
  tenant_id           text NOT NULL REFERENCES tenants(id),
  vehicle_id          text NOT NULL,
  integration_id      text NOT NULL,
  source              text NOT NULL,
  latitude            double precision,
  longitude           double precision,
  speed_mph           double precision,
  heading_degrees     double precision,
  fuel_level_percent  double precision,
  recorded_at         timestamptz,
  faults              jsonb NOT NULL DEFAULT '[]'::jsonb,
  synced_at           timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, vehicle_id),
  FOREIGN KEY (tenant_id, vehicle_id) REFERENCES vehicles (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, integration_id) REFERENCES integrations (tenant_id, id) ON DELETE CASCADE
);

-- What one integration says about one route now: WEATHER (hazards along it, expected delay) or ETA
-- (predicted arrivals at its stops). Replaced at each sync; monitoring reads it.
CREATE TABLE route_signals (
  tenant_id       text NOT NULL REFERENCES tenants(id),
  route_id        text NOT NULL,
  integration_id  text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('WEATHER','ETA')),
  source          text NOT NULL,
  data            jsonb NOT NULL,
  observed_at     timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, route_id, integration_id, kind),
  FOREIGN KEY (tenant_id, route_id) REFERENCES route_plans (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, integration_id) REFERENCES integrations (tenant_id, id) ON DELETE CASCADE
);

-- Diesel prices at stations, from a fuel vendor.
CREATE TABLE fuel_station_prices (
  tenant_id         text NOT NULL REFERENCES tenants(id),
  integration_id    text NOT NULL,
  external_id       text NOT NULL,
  name              text NOT NULL,
  latitude          double precision NOT NULL,
  longitude         double precision NOT NULL,
  diesel_price      double precision NOT NULL,
  currency          text NOT NULL DEFAULT 'USD',
  price_updated_at  timestamptz NOT NULL,
  synced_at         timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, integration_id, external_id),
  FOREIGN KEY (tenant_id, integration_id) REFERENCES integrations (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX fuel_station_prices_geo_idx ON fuel_station_prices (tenant_id, latitude, longitude);
`;
