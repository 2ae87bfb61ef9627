/**
 * Where a driver is when no route says so (issue 25): the home terminal they are based at (drivers.
 * home_terminal: {name, latitude, longitude, address, timeZone}), and the last location reported for them
 * without a route (driver_locations, one row per driver, only ever moved forward in time). Duty-status
 * events carry coordinates already; the partial index finds a driver's latest located one at once.
 * Dispatch candidates start an idle driver at the newest of these, else at the home terminal.
 */
export default /* sql */ `
ALTER TABLE drivers ADD COLUMN home_terminal jsonb;

CREATE TABLE driver_locations (
  tenant_id    text NOT NULL REFERENCES tenants(id),
  driver_id    text NOT NULL,
  latitude     double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude    double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  recorded_at  timestamptz NOT NULL,
  source       text NOT NULL,
  reported_by  text,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, driver_id),
  FOREIGN KEY (tenant_id, driver_id) REFERENCES drivers (tenant_id, id)
);

CREATE INDEX duty_status_events_located_idx ON duty_status_events (tenant_id, driver_id, started_at DESC) WHERE latitude IS NOT NULL;
`;
